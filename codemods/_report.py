"""What a run did: entries per file, rendered as text or JSON, and the exit code it implies."""

import dataclasses
from collections.abc import Iterator
from typing import Any

from codemods.engine.tree import Facts

# The schema (Entry) and its writer are compat.reports', shared with uai-run; the tool's modules import Entry here.
from compat.reports import Entry, printable, severity_counts, to_json

__all__ = ["Entry", "Outcome", "FileResult", "Report", "printable"]

# Rule ids the engine itself uses for files it could not handle.
PARSE = "parse"
IO = "io"
CONFLICT = "conflict"  # the file changed on disk while the run worked on it
THIRD_PARTY = "third-party"  # a virtual environment or installed packages, not the user's code
TF2_CODE = "tf2-code"  # a file of TF 2 code, left as written (codemods/_tf2_code.py)


@dataclasses.dataclass
class Outcome:
    """What migrating one file's bytes gave (computed by a worker, or read from the cache)."""

    new: bytes | None  # None: unchanged
    entries: list[Entry]
    skipped: bool = False
    facts: Facts | None = None  # what the tree pass needs of a Python file (None: not parsed)


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
        counts = severity_counts(self.all_entries())
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
        files = [f.to_dict(with_diff=self.mode in ("diff", "check")) for f in interesting]
        return to_json(self.mode, self.level, self.summary(), self.exit_code(), files, self.entries, self.interrupted)

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
