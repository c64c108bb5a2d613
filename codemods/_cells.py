"""A notebook's code cells migrated as one program (`--level native`): its rules prove things of a whole file (a
graph built in one cell and run by a Session in another; a file proven eager), which a cell alone does not show.

The cells (their IPython lines masked) are joined, each after a marker statement, migrated once and split again
at the markers. Where a cell has a `from __future__` import (its first statement, which the joined program would
not have first), the joined cells do not parse, or the markers and masked lines do not come through in order,
each in its cell, the caller migrates each cell alone."""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Callable, Sequence
from typing import Any

from codemods import _source
from codemods._report import Entry, Outcome

MARKER = "pass  # uai-migrate: notebook cell {}\n"
_MARKER = re.compile(r"^pass  # uai-migrate: notebook cell (\d+)\r?\n?$")
_MASKED = re.compile(r"^\s*pass  # uai-migrate: notebook magic (\d+)\r?\n?$")

# one code cell as migrate_notebook reads it: (its index in the notebook, the cell, its text, its ast tree,
# the text with IPython lines masked, those lines)
Cell = tuple[int, dict[str, Any], str, ast.Module, str, list[str]]


def migrate_as_one(
    notebook: dict[str, Any],
    data: bytes,
    cells: Sequence[Cell],
    transform: Callable[[str, ast.Module], tuple[str, list[Entry]]],
) -> Outcome | None:
    """The notebook with its code cells migrated as one program by `transform(text, tree)`, or None where they
    cannot be (then each cell is migrated alone)."""
    if any(isinstance(node, ast.ImportFrom) and node.module == "__future__" for c in cells for node in c[3].body):
        return None  # (a cell's first statement, which the joined program would have after others)
    lines: list[str] = []
    starts: list[int] = []  # the joined text's line before each cell's first line
    for number, (_, _, _, _, masked, _) in enumerate(cells):
        lines.append(MARKER.format(number))
        starts.append(len(lines))
        lines.extend(masked.splitlines(keepends=True))
        if lines[-1:] and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
    joined = "".join(lines)
    try:
        tree = ast.parse(joined)
    except SyntaxError:
        return None
    new, found = transform(joined, tree)
    texts = _split(new, cells)
    if texts is None:
        return None
    entries = [_placed(entry, starts, cells) for entry in found]
    changed = False
    for (_, cell, text, _, _, saved), new_masked in zip(cells, texts):
        new_text = _source.unmask_magics(new_masked, saved)
        if new_text != text:
            _source.set_cell_text(cell, new_text)
            changed = True
    return Outcome(_source.dump_notebook(notebook, data) if changed else None, entries)


def _split(text: str, cells: Sequence[Cell]) -> list[str] | None:
    """Each cell's migrated text (what comes before the first marker goes to the first cell: added imports), or
    None where the markers are not all there in order, or a cell's masked lines are not its own."""
    parts: list[list[str]] = [[]]
    for line in text.splitlines(keepends=True):
        marker = _MARKER.match(line)
        if marker is None:
            parts[-1].append(line)
        elif int(marker.group(1)) == len(parts) - 1:
            parts.append([])
        else:
            return None
    if len(parts) != len(cells) + 1:
        return None
    texts = ["".join(parts[0] + parts[1]), *("".join(part) for part in parts[2:])]
    for number, ((_, _, _, _, masked, saved), new) in enumerate(zip(cells, texts)):
        indexes = [int(m.group(1)) for line in new.splitlines() if (m := _MASKED.match(line))]
        if sorted(indexes) != list(range(len(saved))):
            return None
        if not masked.endswith(
            "\n"
        ):  # (the joined text ended each cell with a newline, a written def with a blank line)
            texts[number] = new.rstrip("\n") if masked.strip() else new[:-1]
    return texts


def _placed(entry: Entry, starts: Sequence[int], cells: Sequence[Cell]) -> Entry:
    """An entry of the joined text at its cell and line there."""
    if entry.line <= 0:
        return dataclasses.replace(entry, cell=cells[0][0])
    number = max(i for i, start in enumerate(starts) if start < entry.line or i == 0)
    return dataclasses.replace(entry, cell=cells[number][0], line=entry.line - starts[number])
