"""Which files a run covers: Python files and notebooks under the given paths, never outside them."""

import dataclasses
import os

from codemods._report import IO, Entry
from compat.errors import CompatError

# Folders that hold tools, caches or other people's code, never the user's scripts.
EXCLUDED_DIRS = frozenset(
    {".git", ".hg", ".svn", "__pycache__", ".nox", ".tox", ".venv", "venv", "node_modules",
     ".ipynb_checkpoints", ".mypy_cache", ".pytest_cache", ".ruff_cache"}
)
KINDS = {".py": "python", ".pyw": "python", ".ipynb": "notebook"}


class MigratePathError(CompatError):
    """A path given to uai-migrate does not exist or cannot be read."""


@dataclasses.dataclass(frozen=True)
class Item:
    path: str  # as shown to the user
    real: str  # the file to read and replace (a named symlink resolved)
    rel: str  # relative path under --out
    kind: str | None  # python | notebook | None (other file: only copied under --out)


def _inside(path, root):
    return os.path.commonpath([path, root]) == root


def _walk(top, prefix, skip, notes):
    root = os.path.realpath(top)
    for folder, dirs, files in os.walk(top, onerror=lambda err: notes.append(_unreadable(err))):
        kept = []
        for name in sorted(dirs):
            path = os.path.join(folder, name)
            if name in EXCLUDED_DIRS or os.path.realpath(path) in skip:
                continue
            if os.path.islink(path) and not _inside(os.path.realpath(path), root):
                notes.append(_outside(path))
                continue
            if os.path.islink(path):
                continue  # its target is inside the tree and visited there
            kept.append(name)
        dirs[:] = kept
        for name in sorted(files):
            path = os.path.join(folder, name)
            rel = os.path.join(prefix, os.path.relpath(path, top))
            kind = KINDS.get(os.path.splitext(name)[1])
            if os.path.islink(path):
                target = os.path.realpath(path)
                if not _inside(target, root):
                    notes.append(_outside(path))
                    continue
                # In-tree link: the target is migrated as itself; --out re-creates the link.
                kind = None
            yield Item(path, path, rel, kind)


def _outside(path):
    return Entry(rule=IO, severity="info", message="symlink leads out of the tree: not followed", path=path)


def _unreadable(err):
    return Entry(rule=IO, severity="error", message=f"cannot read: {err.strerror}", path=err.filename or "")


def discover(paths, out=None):
    """Return (items, notes). Raises MigratePathError for a path that does not exist."""
    skip = {os.path.realpath(out)} if out else set()
    items, notes, seen = [], [], set()
    for given in paths:
        if not os.path.lexists(given):
            raise MigratePathError(f"{given}: no such file or directory")
        if not os.access(given, os.R_OK):
            raise MigratePathError(f"{given}: permission denied")
        prefix = os.path.basename(os.path.normpath(given)) if len(paths) > 1 else ""
        if os.path.isdir(given):
            found = _walk(given, prefix, skip, notes)
        else:
            name = os.path.basename(given)
            found = [Item(given, os.path.realpath(given), name, KINDS.get(os.path.splitext(name)[1], "python"))]
        for item in found:
            if item.real not in seen or item.kind is None:
                seen.add(item.real)
                items.append(item)
    return items, notes
