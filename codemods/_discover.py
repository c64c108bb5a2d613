"""Which files a run covers: Python files, notebooks, Dockerfiles and requirements*.txt under the
given paths, never outside them.

Also the checks that make a run safe before it touches anything: an `--out` that is, holds or
lies inside an input (copying a file onto itself deletes it), an `--out` holding files this tool
did not write, two inputs landing on one output path, PATHs that are not regular files.
"""

import dataclasses
import errno
import fnmatch
import os
import stat
from collections.abc import Iterable, Iterator, Set

from codemods._report import IO, THIRD_PARTY, Entry
from compat.errors import CompatError
from compat.files import is_inside

# Folders that hold tools, caches or other people's code, never the user's scripts.
EXCLUDED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "__pycache__",
        ".nox",
        ".tox",
        ".venv",
        "venv",
        "node_modules",
        ".ipynb_checkpoints",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
    }
)
# Installed third-party code, whatever the virtual environment around it is called.
PACKAGE_DIRS = frozenset({"site-packages", "dist-packages"})
KINDS = {".py": "python", ".pyw": "python", ".ipynb": "notebook"}
# The record an `--out` folder keeps of what uai-migrate wrote there (codemods/_out_folder.py): bookkeeping of that
# run, not the user's file, so a tree that was an output once is read without it.
OUT_MARKER = ".uai-migrate-out"
# Files around the code, recognised by name (codemods/files migrates them).
NAME_KINDS = (
    ("dockerfile", ("Dockerfile", "*.Dockerfile", "Dockerfile.*", "Containerfile")),
    ("requirements", ("requirements*.txt",)),
)


class MigratePathError(CompatError):
    """A path given to uai-migrate does not exist, cannot be read, or cannot be written safely."""


@dataclasses.dataclass(frozen=True)
class Item:
    path: str  # as shown to the user
    real: str  # the file to read and replace (a named symlink resolved)
    rel: str  # relative path under --out
    # python | notebook | dockerfile | requirements | None (other file or symlink: only copied under --out)
    kind: str | None


def kind_of(name: str) -> str | None:
    """The kind of a file named `name` found in a folder: python, notebook, dockerfile, requirements or None."""
    for kind, patterns in NAME_KINDS:
        if any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns):
            return kind
    return KINDS.get(os.path.splitext(name)[1])


def _third_party(path: str, name: str) -> str | None:
    """Why the folder `path` holds no user code, or None."""
    if name in PACKAGE_DIRS:
        return "installed packages: not migrated"
    if os.path.isfile(os.path.join(path, "pyvenv.cfg")):
        return "virtual environment: not migrated"
    return None


def _walk(top: str, rel_top: str, skip: Set[str], notes: list[Entry]) -> Iterator[Item]:
    root = os.path.realpath(top)
    for folder, dirs, files in os.walk(top, onerror=lambda err: notes.append(_unreadable(err))):
        kept = []
        for name in sorted(dirs):
            path = os.path.join(folder, name)
            if name in EXCLUDED_DIRS or os.path.realpath(path) in skip:
                continue
            if os.path.islink(path):
                if not is_inside(os.path.realpath(path), root):
                    notes.append(_outside(path))
                else:  # its target is inside the tree and visited there; --out re-creates the link
                    yield Item(path, path, os.path.join(rel_top, os.path.relpath(path, top)), None)
                continue
            reason = _third_party(path, name)
            if reason:
                notes.append(Entry(rule=THIRD_PARTY, severity="info", message=reason, path=path))
                continue
            kept.append(name)
        dirs[:] = kept
        for name in sorted(files):
            if name == OUT_MARKER:
                continue
            path = os.path.join(folder, name)
            rel = os.path.join(rel_top, os.path.relpath(path, top))
            kind = kind_of(name)
            if os.path.islink(path):
                target = os.path.realpath(path)
                if not is_inside(target, root):
                    notes.append(_outside(path))
                    continue
                # In-tree link: the target is migrated as itself; --out re-creates the link.
                kind = None
            yield Item(path, path, rel, kind)


def _outside(path: str) -> Entry:
    return Entry(rule=IO, severity="info", message="symlink leads out of the tree: not followed", path=path)


def _unreadable(err: OSError) -> Entry:
    return Entry(rule=IO, severity="error", message=f"cannot read: {err.strerror}", path=err.filename or "")


def _check_given(given: str) -> None:
    if os.path.islink(given) and not os.path.exists(given):
        try:
            os.stat(given)
        except OSError as err:
            if err.errno == errno.ELOOP:
                raise MigratePathError(f"{given}: symlink loop") from None
        raise MigratePathError(f"{given}: broken symlink (to {os.readlink(given)})")
    if not os.path.lexists(given):
        raise MigratePathError(f"{given}: no such file or directory")
    if not os.access(given, os.R_OK):
        raise MigratePathError(f"{given}: permission denied")
    mode = os.stat(given).st_mode
    if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
        raise MigratePathError(f"{given}: not a regular file or folder")


def check_out(paths: list[str], out: str) -> None:
    """Refuse an --out that overlaps an input or is not a folder (what it holds: codemods._out_folder)."""
    target = os.path.realpath(out)
    for given in paths:
        real = os.path.realpath(given)
        if is_inside(target, real) or is_inside(real, target):
            raise MigratePathError(f"--out {out}: is, holds or lies inside the input {given}; choose another folder")
    if os.path.lexists(out) and not os.path.isdir(out):
        raise MigratePathError(f"--out {out}: exists and is not a folder")


def _rel_root(paths: list[str]) -> str:
    """Output paths are relative to this: the folder given alone, else the inputs' common folder."""
    if len(paths) == 1:
        given = os.path.abspath(paths[0])
        return given if os.path.isdir(given) else os.path.dirname(given)
    return os.path.commonpath([os.path.dirname(os.path.abspath(p)) for p in paths])


def discover(paths: list[str], out: str | None = None) -> tuple[list[Item], list[Entry]]:
    """Return (items, notes). Raises MigratePathError for a path that cannot be used."""
    for given in paths:
        _check_given(given)
    if out is not None:
        check_out(paths, out)
    skip = {os.path.realpath(out)} if out else set()
    root = _rel_root(paths)
    items: list[Item] = []
    notes: list[Entry] = []
    seen: set[str] = set()
    rels: dict[str, str] = {}
    for given in paths:
        rel_top = os.path.relpath(os.path.abspath(given), root)
        found: Iterable[Item]
        if os.path.isdir(given):
            found = _walk(given, "" if rel_top == "." else rel_top, skip, notes)
        else:
            name = os.path.basename(given)
            found = [Item(given, os.path.realpath(given), rel_top, kind_of(name) or "python")]
        for item in found:
            if item.real in seen and item.kind is not None:
                continue
            seen.add(item.real)
            if out is not None and rels.setdefault(item.rel, item.path) != item.path:
                raise MigratePathError(f"--out {out}: {rels[item.rel]} and {item.path} would both go to {item.rel}")
            items.append(item)
    return items, notes
