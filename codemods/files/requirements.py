"""`requirements*.txt`: TF1-era pins (tensorflow==1.x, tensorflow-gpu, tf-slim, tensorflow-estimator)
moved to the tf2 runtime's pins, each change reported at its line.

The file is read as pip reads it: a UTF-8 or UTF-16 byte order mark, lines joined at a trailing
backslash (the last line too), comments, and per-requirement options such as `--hash` after the
requirement, on its line or a continuation line.
"""

import dataclasses
import itertools
import re
from collections.abc import Iterator

from codemods._report import Entry, Outcome
from codemods.files import _common
from codemods.rule_description import Example

ID = "requirements-pins"
DESCRIPTION = "TF 1.x / 2.0 pins (tensorflow, tensorflow-gpu, tf-slim, tensorflow-estimator) -> the tf2 runtime's pins"
LEVEL = "safe"
EXAMPLE = Example(
    why="A TF1 pin installs a TensorFlow the migrated code does not run on; tensorflow-gpu is no longer "
    "published (its GPU libraries are the and-cuda extra).",
    before="tensorflow-gpu==1.15.0\ntf-slim==1.0\nnumpy\n",
    after="tensorflow[and-cuda]==2.21.0\ntf-slim==1.1.0\nnumpy\n",
    kind="requirements",
)
# A comment starts at `#` at the start of a line or after whitespace (pip's own rule); a line that
# is only a comment never continues onto the next one.
_COMMENT = re.compile(r"(^|\s+)#.*$")


@dataclasses.dataclass(frozen=True)
class _Logical:
    """One line as pip reads it: physical lines joined where one ends in a backslash."""

    text: str  # the joined text, without line ends and the joining backslashes
    # (offset in `text`, physical line index, its column there) where each physical line's piece starts
    pieces: tuple[tuple[int, int, int], ...]

    def place(self, start: int, end: int) -> tuple[int, int] | None:
        """(physical line index, column) of text[start:end] if it lies on one physical line, else None."""
        for (offset, index, col), following in itertools.zip_longest(self.pieces, self.pieces[1:]):
            stop = following[0] if following else len(self.text)
            if offset <= start < stop or (start == stop == len(self.text)):
                return (index, col + start - offset) if end <= stop else None
        return None


def _logical_lines(lines: list[str]) -> Iterator[_Logical]:
    """The logical lines of a file's physical lines (with their ends), as pip joins them."""
    text, pieces = "", []
    for index, line in enumerate(lines):
        body = line.splitlines()[0] if line.splitlines() else ""
        comment = _COMMENT.match(body) is not None
        continued = body.endswith("\\") and not comment
        if continued:  # pip strips the backslashes at both ends of a continued line
            piece, col = body.strip("\\"), len(body) - len(body.lstrip("\\"))
        else:
            piece, col = (" " + body, -1) if comment else (body, 0)
        pieces.append((len(text), index, col))
        text += piece
        if not continued:
            yield _Logical(text, tuple(pieces))
            text, pieces = "", []
    if pieces:  # the last line ends in a backslash: pip reads it all the same
        yield _Logical(text, tuple(pieces))


def _requirement(text: str) -> tuple[int, int, str] | None:
    """(start, end, options) of the requirement in a logical line's text, or None for blank and option lines.

    pip drops the comment, then splits at spaces: the words up to the first one starting with `-`
    are the requirement, the rest its options.
    """
    body = _COMMENT.sub("", text)
    words = body.strip().split(" ")
    requirement = list(itertools.takewhile(lambda word: not word.startswith("-"), words))
    if not body.strip() or not requirement:
        return None
    start = len(body) - len(body.lstrip())
    return start, start + len(" ".join(requirement).rstrip()), " ".join(words[len(requirement) :])


def _lines(text: str) -> Iterator[tuple[int, str, int, int]]:
    """(first line number, logical line, start, end) of each requirement: logical line[start:end] is it."""
    lines = text.splitlines(keepends=True)
    for logical in _logical_lines(lines):
        part = _requirement(logical.text)
        if part:
            yield logical.pieces[0][1] + 1, logical.text, part[0], part[1]


def _warning(line: int, col: int, message: str, manual: str) -> Entry:
    """A change this rule leaves to a person, at the requirement's position."""
    return Entry(rule=ID, severity="warning", line=line, col=col, message=message, manual=manual)


def migrate_text(text: str) -> tuple[str, list[Entry]]:
    lines = text.splitlines(keepends=True)
    entries: list[Entry] = []
    moved_tf = False
    for logical in _logical_lines(lines):
        part = _requirement(logical.text)
        found = _common.migrate_requirement(logical.text[part[0] : part[1]], ID) if part else None
        if part is None or found is None:
            continue
        start, end, options = part
        old, (new, notes) = logical.text[start:end], found
        place = logical.place(start, end)
        line, col = (place[0] + 1, place[1] + 1) if place else (logical.pieces[0][1] + 1, 1)
        if re.search(r"(^| )--hash", options):
            manual = f"replace it with {new} and regenerate the hashes (pip-compile --generate-hashes)"
            entries.append(_warning(line, col, f"{old} is pinned by hash: left as it is", manual))
            continue
        if place is None:
            entries.append(_warning(line, col, f"{old} is split over lines: left as it is", f"replace it with {new}"))
            continue
        index, at = place
        lines[index] = lines[index][:at] + new + lines[index][at + len(old) :]
        entries.extend(dataclasses.replace(e, line=line, col=col) for e in notes)
        moved_tf = moved_tf or new.startswith("tensorflow") and not new.startswith("tensorflow-estimator")
        if new.startswith("tensorflow-estimator"):
            entries.append(
                _warning(
                    line,
                    col,
                    "tensorflow-estimator with its dependencies installs TensorFlow 2.15 over 2.21",
                    "move this line to a requirements file installed with `pip install --no-deps -r`",
                )
            )
    if moved_tf and "tf-keras" not in text and "tf_keras" not in text:
        entries.append(_common.no_deps_entry(ID, 1, 1))
    return "".join(lines), entries


def migrate(data: bytes, options: object = None) -> Outcome:
    """The Outcome for one file's bytes (the engine's signature: no option changes this migration)."""
    return _common.migrate_bytes(data, migrate_text, utf16=True)


def parses(data: bytes) -> bool:
    """Every requirement is a valid requirement (PEP 508), as pip reads it."""
    decoded = _common.decode(data, utf16=True)
    return decoded is not None and all(
        _common.parse_requirement(line[start:end]) is not None for _, line, start, end in _lines(decoded.text)
    )
