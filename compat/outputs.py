"""The one output-path policy of every tool that writes: checked at start-up, before anything runs.

An output option (uai-migrate `--report`/`--out`, uai-run `--report`, uai-launch `--log-dir`/`--kubeflow`,
`trainlib.checkpoints convert --out`) is refused, in one line, when it is or resolves to (through
symlinks, hard links or `..`):

- a file the run reads or runs (an input, the program, a module it imports),
- anything but a regular file or a new path: a folder, a device, a FIFO, a socket. Replacing one
  by an atomic rename turns it into a regular file: `/dev/null`, as root, would be gone,
- an existing file this option did not write: the file is read, and replaced only if it is empty or
  what the option writes (`REPLACES`: a JSON report of uai-migrate or uai-run, a TFJob manifest), so a
  rerun replaces its own report and `--report train.py model.py` (arguments swapped) loses nothing.
  Checked again right before the write: a program may have written that file meanwhile.

`-` means stdout where the option allows it (so does a path that resolves to this process's
stdout, e.g. `/dev/stdout`). The path is resolved to an absolute one when it is checked, so a
program that changes its working folder cannot move where the output lands.
"""

import dataclasses
import json
import os
import stat
import sys
from collections.abc import Callable, Iterable

from compat.errors import CompatError
from compat.files import atomic_write, is_inside, new_file_mode

STDOUT = "-"


class OutputPathError(CompatError):
    """An output option names a path the tool must not write: the message names the option and why."""

    def __init__(self, option: str, path: str, problem: str) -> None:
        self.option, self.path, self.problem = option, path, problem
        super().__init__(f"{option} {path}: {problem}")


def _a_path(option: str, path: object) -> None:
    """argparse gives `--report=--` as [] (its `--` handling): no file name at all."""
    if not isinstance(path, str):
        raise OutputPathError(option, repr(path), "expected a file name")


def _kind(mode: int) -> str | None:
    """What a non-regular file is, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a regular file"
    if stat.S_ISFIFO(mode):
        return "is a FIFO, not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    return "is not a regular file"


def _identity(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_dev, info.st_ino


def _is_stdout(path: str) -> bool:
    """Is `path` this process's stdout: `/dev/stdout` (whatever stdout is: a terminal, a pipe, a file
    it was redirected to) or that file by its own name? Then the output is written to stdout: replacing
    the file would drop what the run printed, and a pipe has no path to replace."""
    try:
        here = os.fstat(sys.stdout.fileno())
        there = os.stat(path)  # the path as given: /dev/stdout -> /proc/self/fd/1 -> the pipe itself
    except (OSError, ValueError, AttributeError):
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


# What a file is recognised by: the first members of its JSON object, as far as they can be read from
# its first bytes (a report of a large tree is megabytes; its identifying members come first).
_HEAD_BYTES = 64 * 1024


def _first_members(data: bytes, count: int) -> list[tuple[str, object]]:
    """The first `count` (key, value) members of the JSON object `data` starts with, whatever its
    layout; fewer when it is not one or `data` ends first."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("utf-8", "ignore")  # a cut multi-byte character at the end of the head
    decoder = json.JSONDecoder()
    members: list[tuple[str, object]] = []

    def skip(at: int) -> int:
        while at < len(text) and text[at] in " \t\r\n":
            at += 1
        return at

    at = skip(0)
    if not text.startswith("{", at):
        return members
    at += 1
    try:
        while len(members) < count:
            at = skip(at)
            key, at = decoder.raw_decode(text, at)
            at = skip(at)
            if not isinstance(key, str) or not text.startswith(":", at):
                break
            value, at = decoder.raw_decode(text, skip(at + 1))
            members.append((key, value))
            at = skip(at)
            if not text.startswith(",", at):
                break
            at += 1
    except (ValueError, RecursionError):
        pass
    return members


def _is_report(head: bytes) -> bool:
    """A JSON report of uai-migrate or uai-run (compat/reports.py's `to_json`: its members in this order)."""
    members = dict(_first_members(head, 5))
    kinds = {"version": int, "mode": str, "level": str, "summary": dict, "exit_code": int}
    return list(members) == list(kinds) and all(isinstance(members[k], t) for k, t in kinds.items())


def _is_tfjob(head: bytes) -> bool:
    """A TFJob manifest as uai-launch --kubeflow writes it (uai_launch/_kubeflow.py)."""
    members = dict(_first_members(head, 2))
    version = members.get("apiVersion")
    return isinstance(version, str) and version.startswith("kubeflow.org/") and members.get("kind") == "TFJob"


# Per option, what it writes (named when an existing file is refused) and how a file of that kind is
# recognised: an existing file is replaced only if it is one, or empty. An option not listed here
# replaces no existing file but an empty one.
REPLACES: dict[str, tuple[str, Callable[[bytes], bool]]] = {
    "--report": ("a report of uai-migrate or uai-run", _is_report),
    "--kubeflow": ("a TFJob manifest of uai-launch", _is_tfjob),
}
# Options whose files are appended to, never replaced (uai-launch's task logs): what is there stays.
APPENDS = frozenset({"--log-dir"})


def _not_replaceable(option: str, target: str) -> str | None:
    """Why the existing regular file `target` must not be replaced by what `option` writes, or None."""
    if option in APPENDS:
        return None
    try:
        with open(target, "rb") as handle:
            head = handle.read(_HEAD_BYTES)
    except FileNotFoundError:
        return None
    except OSError as err:
        return f"exists and cannot be read to check what it is ({err.strerror or err}): name a new file"
    if not head:
        return None  # empty: nothing to lose
    if option not in REPLACES:
        return "exists: name a new file, or remove it first"
    what, recognised = REPLACES[option]
    if recognised(head):
        return None
    return f"exists and is not {what}, so it is not replaced: name a new file, or remove it first"


class Reads:
    """The files a run reads or runs, by identity: a hard link or a symlink to one is the same file."""

    def __init__(self, paths: Iterable[str] = ()) -> None:
        self._by_identity: dict[tuple[int, int], str] = {}
        for path in paths:
            self.add(path)

    def add(self, path: str) -> None:
        identity = _identity(path)
        if identity is not None:
            self._by_identity.setdefault(identity, path)

    def which(self, path: str) -> str | None:
        """The read file `path` is, or None."""
        identity = _identity(path)
        return None if identity is None else self._by_identity.get(identity)


@dataclasses.dataclass(frozen=True)
class OutputFile:
    """A checked output file: `target` is its absolute, resolved path, or None for stdout."""

    option: str
    path: str
    target: str | None

    def write(self, text: str) -> None:
        """Write `text` atomically (a failure is an `OutputPathError`), or to stdout."""
        if self.target is None:
            sys.stdout.write(text)
            sys.stdout.flush()
            return
        try:
            info = os.stat(self.target)
        except FileNotFoundError:
            pass
        except OSError as err:
            raise OutputPathError(self.option, self.path, err.strerror or str(err)) from None
        else:
            problem = _kind(info.st_mode) or _not_replaceable(self.option, self.target)
            if problem:  # it became one since the start (the program wrote it): still never replaced
                raise OutputPathError(self.option, self.path, problem)
        try:
            atomic_write(self.target, text.encode("utf-8"), mode=new_file_mode(self.target))
        except OSError as err:
            raise OutputPathError(self.option, self.path, err.strerror or str(err)) from None


def output_file(
    option: str,
    path: str,
    reads: Reads | Iterable[str] = (),
    *,
    stdout_ok: bool = True,
    outside: Iterable[tuple[str, str]] = (),
) -> OutputFile:
    """Check an output file option before the run; `outside` holds (what, folder) it must not lie in."""
    _a_path(option, path)
    if path == "":
        raise OutputPathError(option, "''", "empty value")
    if path == STDOUT:
        if stdout_ok:
            return OutputFile(option, path, None)
        raise OutputPathError(option, path, "stdout is not allowed here: name a file")
    if "\0" in path:
        raise OutputPathError(option, repr(path), "the path holds a NUL byte")
    if stdout_ok and _is_stdout(path):
        return OutputFile(option, path, None)
    target = os.path.realpath(path)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as err:
        raise OutputPathError(option, path, err.strerror or str(err)) from None
    if info is not None:
        problem = _kind(info.st_mode)
        if problem:
            raise OutputPathError(option, path, problem)
    read = (reads if isinstance(reads, Reads) else Reads(reads)).which(target)
    if read is not None:
        raise OutputPathError(option, path, f"is {read}, which this run reads: name another file")
    for what, folder in outside:
        if is_inside(target, os.path.realpath(folder)):
            raise OutputPathError(option, path, f"lies inside {what} {folder}: name a file elsewhere")
    folder = os.path.dirname(target)
    if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
        raise OutputPathError(option, path, f"folder {folder} does not exist or is not writable")
    problem = _not_replaceable(option, target) if info is not None else None
    if problem:
        raise OutputPathError(option, path, problem)
    return OutputFile(option, path, target)


def output_folder(option: str, path: str, *, empty: bool = False) -> str:
    """Check an output folder option: absent or a writable folder (an empty one if `empty`).

    Returns its absolute, resolved path. The files written into it are checked one by one with
    `output_file`: a folder beside the program is fine, a log file that is the program is not.
    """
    _a_path(option, path)
    if path == "":
        raise OutputPathError(option, "''", "empty value")
    if "\0" in path:
        raise OutputPathError(option, repr(path), "the path holds a NUL byte")
    target = os.path.realpath(path)
    if not os.path.exists(target):
        parent = _existing_parent(target)
        if not os.path.isdir(parent) or not os.access(parent, os.W_OK | os.X_OK):
            raise OutputPathError(option, path, f"cannot create it: {parent} is not a writable folder")
        return target
    if not os.path.isdir(target):
        raise OutputPathError(option, path, "exists and is not a folder")
    if not os.access(target, os.W_OK | os.X_OK):
        raise OutputPathError(option, path, "folder is not writable")
    if empty and os.listdir(target):
        raise OutputPathError(option, path, "folder is not empty: name a new or empty folder")
    return target


def _existing_parent(path: str) -> str:
    """The nearest ancestor of `path` that exists (it may be a file: then nothing can be created)."""
    parent = os.path.dirname(path)
    while not os.path.exists(parent):
        parent = os.path.dirname(parent)
    return parent
