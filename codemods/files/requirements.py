"""`requirements*.txt`: TF1-era pins (tensorflow==1.x, tensorflow-gpu, tf-slim, tensorflow-estimator)
moved to the tf2 runtime's pins, each change reported at its line."""

import dataclasses
import re
from collections.abc import Iterator

from codemods._report import Entry, Outcome
from codemods.files import _common

ID = "requirements-pins"
DESCRIPTION = "TF 1.x / 2.0 pins (tensorflow, tensorflow-gpu, tf-slim, tensorflow-estimator) -> the tf2 runtime's pins"
LEVEL = "safe"
# A comment starts at `#` at the start of a line or after whitespace (pip's own rule).
_COMMENT = re.compile(r"(^|\s)#.*$")
# Per-requirement options (`--hash=...`) follow the requirement after whitespace.
_OPTION = re.compile(r"\s--?[a-z]")


def _requirement_part(line: str) -> tuple[int, int] | None:
    """(start, end) of the requirement in `line`, or None for blank, option and continued lines."""
    body = _COMMENT.sub("", line.rstrip("\r\n"))
    stripped = body.strip()
    if not stripped or stripped.startswith("-") or body.rstrip().endswith("\\"):
        return None
    start = len(body) - len(body.lstrip())
    option = _OPTION.search(body, start)
    end = option.start() if option else len(body.rstrip())
    return start, len(body[:end].rstrip())


def _lines(text: str) -> Iterator[tuple[int, str, int, int]]:
    """(line number, line, start, end) of each requirement line."""
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        part = _requirement_part(line)
        if part:
            yield number, line, *part


def _warning(line: int, col: int, message: str, manual: str) -> Entry:
    """A change this rule leaves to a person, at the requirement's position."""
    return Entry(rule=ID, severity="warning", line=line, col=col, message=message, manual=manual)


def migrate_text(text: str) -> tuple[str, list[Entry]]:
    out: list[str] = []
    entries: list[Entry] = []
    moved_tf = False
    for number, line in enumerate(text.splitlines(keepends=True), 1):
        part = _requirement_part(line)
        found = _common.migrate_requirement(line[part[0] : part[1]], ID) if part else None
        if part is None or found is None:
            out.append(line)
            continue
        start, end = part
        new, notes = found
        col = start + 1
        if "--hash" in line[end:]:
            entries.append(
                _warning(
                    number,
                    col,
                    f"{line[start:end]} is pinned by hash: left as it is",
                    f"replace it with {new} and regenerate the hashes (pip-compile --generate-hashes)",
                )
            )
            out.append(line)
            continue
        entries.extend(dataclasses.replace(e, line=number, col=col) for e in notes)
        moved_tf = moved_tf or new.startswith("tensorflow") and not new.startswith("tensorflow-estimator")
        if new.startswith("tensorflow-estimator"):
            entries.append(
                _warning(
                    number,
                    col,
                    "tensorflow-estimator with its dependencies installs TensorFlow 2.15 over 2.21",
                    "move this line to a requirements file installed with `pip install --no-deps -r`",
                )
            )
        out.append(line[:start] + new + line[end:])
    if moved_tf and "tf-keras" not in text and "tf_keras" not in text:
        entries.append(_common.no_deps_entry(ID, 1, 1))
    return "".join(out), entries


def migrate(data: bytes, options: object = None) -> Outcome:
    """The Outcome for one file's bytes (the engine's signature: no option changes this migration)."""
    return _common.migrate_bytes(data, migrate_text)


def parses(data: bytes) -> bool:
    """Every requirement line is a valid requirement (PEP 508), as pip reads it."""
    text = _common.decode(data)
    return text is not None and all(
        _common.parse_requirement(line[start:end]) is not None for _, line, start, end in _lines(text)
    )
