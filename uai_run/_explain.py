"""What `uai-run` aliased, in uai-migrate's JSON report schema (`--explain`), without importing codemods.

Each alias is noted once, at the user's line that first used it: an `info` entry with the id of
the uai-migrate rule whose rewrite it stands for, grouped by file as `uai-migrate --json` does.
"""

from types import FrameType
from typing import TYPE_CHECKING, Protocol

from compat.reports import Entry, severity_counts, to_json
from uai_run import _code_owner

if TYPE_CHECKING:

    class _Stopped(Protocol):
        """What `uai_run._tf1_modules.MissingTF1Name`/`Module` and `uai_run._source.UnparsableSource` say
        (not imported: `_tf1_modules` imports this module)."""

        @property
        def rule(self) -> str: ...
        @property
        def problem(self) -> str: ...
        @property
        def path(self) -> str | None: ...
        @property
        def line(self) -> int: ...
        @property
        def manual(self) -> str: ...


# (path, line, message) -> entry, in the order they happened
_entries: dict[tuple[str | None, int, str], Entry] = {}


def note(rule: str, message: str) -> None:
    """An alias applied, at the user's line and column running now."""
    frame = _code_owner.user_frame()
    if frame is None:
        _add(rule, message, "", 0)
    else:
        _add(rule, message, frame.f_code.co_filename, frame.f_lineno, col=_column(frame))


def _column(frame: FrameType) -> int:
    """The 1-based column where the expression running in `frame` starts, as uai-migrate counts
    (the start of `tf.Session` in `x = tf.Session()` is 5), or 0 when Python does not know it."""
    positions = getattr(frame.f_code, "co_positions", None)  # Python >= 3.11 (PEP 657)
    if positions is None:
        return 0
    index = frame.f_lasti // 2  # one position per 2-byte code unit
    for at, (_, _, col, _) in enumerate(positions()):
        if at == index:
            return col + 1 if col is not None else 0
    return 0


def note_at(rule: str, message: str, path: str, line: int) -> None:
    """A decision uai-run made about the user's file `path` at `line` (0: the whole file)."""
    _add(rule, message, path, line)


def note_error(error: "_Stopped") -> None:
    """What stopped the program (a `uai_run.MissingTF1Name`/`Module`, `UnparsableSource`): an error entry
    with uai-migrate's rule and manual step."""
    _add(error.rule, error.problem, error.path, error.line, "error", error.manual)


def _add(
    rule: str,
    message: str,
    path: str | None,
    line: int,
    severity: str = "info",
    manual: str | None = None,
    col: int = 0,
) -> None:
    key = (path, line, message)
    if key not in _entries:
        _entries[key] = Entry(rule, message, severity, line, col, manual or None, path=path or "")


def report_json(exit_code: int) -> str:
    """The report of this run: `mode` is "run", files are the user files that used an alias."""
    files: dict[str, list[Entry]] = {}
    for entry in _entries.values():
        files.setdefault(entry.path, []).append(entry)
    summary = {"files": len(files), "changed": 0, "skipped": 0, "cached": 0, "skipped_folders": 0}
    listed = [
        {"path": path, "status": "unchanged", "entries": [entry.to_dict() for entry in found]}
        for path, found in files.items()
    ]
    return to_json("run", "safe", {**summary, **severity_counts(_entries.values())}, exit_code, listed)
