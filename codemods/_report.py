"""What a run did: entries per file, rendered as text or JSON, and the exit code it implies."""

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

SEVERITIES = ("info", "warning", "error")
# Rule ids the engine itself uses for files it could not handle.
PARSE = "parse"
IO = "io"
CONFLICT = "conflict"  # the file changed on disk while the run worked on it
THIRD_PARTY = "third-party"  # a virtual environment or installed packages, not the user's code


def printable(text: str) -> str:
    """`text` safe to write as UTF-8: a file name that is not UTF-8 keeps its bytes as escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


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
        return f"{self.path}{cell}:{self.line}:{self.col}"


@dataclasses.dataclass
class Outcome:
    """What migrating one file's bytes gave (computed by a worker, or read from the cache)."""

    new: bytes | None  # None: unchanged
    entries: list[Entry]
    skipped: bool = False


@dataclasses.dataclass
class FileResult:
    path: str
    status: str  # unchanged | changed | skipped | error
    entries: list[Entry] = dataclasses.field(default_factory=list)
    diff: str = ""
    cached: bool = False

    def to_dict(self, with_diff: bool) -> dict[str, Any]:
        data: dict[str, Any] = {
            "path": self.path,
            "status": self.status,
            "entries": [e.to_dict() for e in self.entries],
        }
        if with_diff and self.diff:
            data["diff"] = self.diff
        return data


@dataclasses.dataclass
class Report:
    mode: str  # diff | write | out | check
    level: str
    files: list[FileResult] = dataclasses.field(default_factory=list)
    entries: list[Entry] = dataclasses.field(
        default_factory=list
    )  # not tied to a migrated file (e.g. skipped symlinks)
    interrupted: bool = False  # Ctrl-C/SIGTERM while writing: `files` are the ones finished before it

    def all_entries(self) -> Iterator[Entry]:
        for result in self.files:
            yield from result.entries
        yield from self.entries

    def summary(self) -> dict[str, int]:
        counts = {s: 0 for s in SEVERITIES}
        for entry in self.all_entries():
            counts[entry.severity] += 1
        statuses = [f.status for f in self.files]
        return {
            "files": len(self.files),
            "changed": statuses.count("changed"),
            "skipped": statuses.count("skipped") + statuses.count("error"),
            "cached": sum(f.cached for f in self.files),
            "skipped_folders": sum(e.rule == THIRD_PARTY for e in self.entries),
            **counts,
        }

    def exit_code(self) -> int:
        """0: nothing left for a person; 1: something needs attention; 2: a file could not be read/written."""
        entries = list(self.all_entries())
        if any(e.rule == IO and e.severity == "error" for e in entries):
            return 2
        if any(e.severity in ("warning", "error") for e in entries):
            return 1
        if self.mode == "check" and any(f.status == "changed" for f in self.files):
            return 1
        return 0

    def to_json(self) -> str:
        interesting = [f for f in self.files if f.status != "unchanged" or f.entries]
        data: dict[str, Any] = {
            "version": 1,
            "mode": self.mode,
            "level": self.level,
            "summary": self.summary(),
            "exit_code": self.exit_code(),
            **({"interrupted": True} if self.interrupted else {}),
            "files": [f.to_dict(with_diff=self.mode in ("diff", "check")) for f in interesting],
            "entries": [e.to_dict() for e in self.entries],
        }
        # One line per file (and per entry not tied to a file): readable, and json's C encoder
        # stays in use (any `indent` switches to the pure-Python one: seconds for a large tree).
        lines = [
            f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
            for key, value in data.items()
            if key not in ("files", "entries")
        ]
        for key in ("files", "entries"):
            items = ",\n".join(f"    {json.dumps(item, ensure_ascii=False)}" for item in data[key])
            lines.append(f"  {json.dumps(key)}: [\n{items}\n  ]" if items else f"  {json.dumps(key)}: []")
        return printable("{\n" + ",\n".join(lines) + "\n}\n")

    def rule_table(self) -> list[tuple[str, str, int, int]]:
        """Per rule id, in order of first appearance: (rule, level, entries, needing a manual step)."""
        rows: dict[str, tuple[str, str, int, int]] = {}
        for entry in self.all_entries():
            rule, level, count, manual = rows.get(entry.rule, (entry.rule, "safe", 0, 0))
            rows[entry.rule] = (
                rule,
                "native" if entry.level == "native" else level,
                count + 1,
                manual + (entry.manual is not None),
            )
        return list(rows.values())

    def to_text(self, quiet: bool = False) -> str:
        """Diffs, one line per entry, a table per rule and a summary line; `quiet`: the table and the summary only."""
        lines: list[str] = []
        if self.mode in ("diff", "check") and not quiet:
            lines.extend(f.diff.rstrip("\n") for f in self.files if f.diff)
        for entry in () if quiet else self.all_entries():
            native = " [native]" if entry.level == "native" else ""
            lines.append(f"{entry.location()}: {entry.severity} {entry.rule}{native}: {entry.message}")
            if entry.manual:
                lines.append(f"    manual step: {entry.manual}")
        table = self.rule_table()
        if table:
            width = max(len("rule"), *(len(row[0]) for row in table))
            lines.append(f"{'rule':<{width}}  {'level':<6}  {'count':>5}  {'manual':>6}")
            lines.extend(
                f"{rule:<{width}}  {level:<6}  {count:>5}  {manual:>6}" for rule, level, count, manual in table
            )
        s = self.summary()
        verb = {"write": "rewritten", "out": "migrated into the output tree"}.get(self.mode, "would change")
        lines.append(
            f"{s['files']} files scanned, {s['changed']} {verb}, {s['skipped']} skipped; "
            f"{s['error']} errors, {s['warning']} warnings, {s['info']} changes noted"
            + (f" ({s['cached']} from cache)" if s["cached"] else "")
            + (f"; {s['skipped_folders']} folders of installed packages left out" if s["skipped_folders"] else "")
        )
        return printable("\n".join(lines) + "\n")
