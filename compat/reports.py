"""The JSON report both tools write (`uai-migrate --json/--report`, `uai-run --explain/--report`).

One schema, one writer: an entry per thing a person may want to know, grouped by file, a summary
of the counts and the exit code the run implies. uai-migrate and uai-run build their entries with
`Entry` and render the document with `to_json`, so a consumer reads both the same way.
"""

import dataclasses
import json
from collections.abc import Iterable
from typing import Any

VERSION = 1
SEVERITIES = ("info", "warning", "error")


def printable(text: str) -> str:
    """`text` safe to write as UTF-8: a file name that is not UTF-8 keeps its bytes as escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def shown(path: str) -> str:
    """A file name as a text report shows it: a character that is not printable (a newline, an escape sequence's
    ESC) as its Python escape, so that an entry stays one line and a name cannot drive the terminal."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in path)


@dataclasses.dataclass
class Entry:
    """One thing a person may want to know about a file: a change made, or one that could not be."""

    rule: str
    message: str
    severity: str = "info"
    line: int = 0
    col: int = 0
    manual: str | None = None  # for errors: the step a person has to take
    level: str = "safe"  # "native" marks rewrites that can change behaviour
    cell: int | None = None  # notebooks: index of the cell in the notebook
    path: str = ""

    def to_dict(self) -> dict[str, Any]:
        # vars(), not dataclasses.asdict: the fields are plain values, and asdict's deep copy made
        # the report and the cache writes of a large tree cost seconds
        return {k: v for k, v in vars(self).items() if v is not None}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Entry":
        return cls(**data)

    def location(self) -> str:
        cell = f"[cell {self.cell}]" if self.cell is not None else ""
        return f"{shown(self.path)}{cell}:{self.line}:{self.col}"


def severity_counts(entries: Iterable[Entry]) -> dict[str, int]:
    counts = dict.fromkeys(SEVERITIES, 0)
    for entry in entries:
        counts[entry.severity] += 1
    return counts


def to_json(
    mode: str,
    level: str,
    summary: dict[str, int],
    exit_code: int,
    files: list[dict[str, Any]],
    entries: Iterable[Entry] = (),
    interrupted: bool = False,
) -> str:
    """The report document. `files` are `{"path", "status", "entries": [Entry.to_dict()], ...}`;
    `entries` are the ones tied to no file."""
    data: dict[str, Any] = {
        "version": VERSION,
        "mode": mode,
        "level": level,
        "summary": summary,
        "exit_code": exit_code,
        **({"interrupted": True} if interrupted else {}),
    }
    # One line per file (and per entry not tied to a file): readable, and json's C encoder
    # stays in use (any `indent` switches to the pure-Python one: seconds for a large tree).
    lines = [f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}" for key, value in data.items()]
    for key, items in (("files", files), ("entries", [e.to_dict() for e in entries])):
        rendered = ",\n".join(f"    {json.dumps(item, ensure_ascii=False)}" for item in items)
        lines.append(f"  {json.dumps(key)}: [\n{rendered}\n  ]" if rendered else f"  {json.dumps(key)}: []")
    return printable("{\n" + ",\n".join(lines) + "\n}\n")
