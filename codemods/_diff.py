"""The unified diff a report shows for one migrated text (the runner adds the ---/+++ header with the path)."""

import difflib

from codemods import _source


def unified(old: str, new: str) -> str:
    """The diff body of `old` -> `new`, hunks only; a last line without newline is marked as diff does."""
    lines = difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True), "a", "b")
    body = "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
    return body.split("\n", 2)[2]


def diffs_of(kind: str, old: bytes, new: bytes) -> list[tuple[str, str]]:
    """(suffix naming the part, diff body) for each changed part of a file: the whole text, or
    each changed cell of a notebook. Computed only when a report shows diffs: on a large file
    difflib costs more than the migration itself."""
    if kind == "notebook":
        old_cells, new_cells = (_source.load_notebook(data)["cells"] for data in (old, new))
        return [
            (f" [cell {index}]", unified(_source.cell_text(before), _source.cell_text(after)))
            for index, (before, after) in enumerate(zip(old_cells, new_cells, strict=True))
            if _source.cell_text(before) != _source.cell_text(after)
        ]
    decode = _source.decode if kind == "python" else lambda data: (data.decode("utf-8"), "utf-8")
    return [("", unified(decode(old)[0], decode(new)[0]))]
