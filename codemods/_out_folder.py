"""What uai-migrate wrote into an `--out` folder, so that a re-run never overwrites a file it did not write.

The marker file `.uai-migrate-out` records the SHA-256 of every file (or the target of every
symlink) a run put there. A re-run may replace a file only while its content is still a recorded
one: a hand edit made since, or a file someone else put there, stops the run before anything is
touched. While a run writes, the marker holds both the old and the new content of each file, so
a run cut short (Ctrl-C, a crash) leaves a folder the next run still recognises.
"""

import hashlib
import json
import os
import stat
from collections.abc import Iterable, Mapping

from codemods._discover import OUT_MARKER, MigratePathError
from compat.files import atomic_write

_FORMAT = "uai-migrate --out"

# rel path -> the contents (SHA-256, or "symlink:" + target) it may have
Owned = dict[str, set[str]]


def fingerprint_of(path: str) -> str | None:
    """What the marker records for `path`: the SHA-256 of a regular file, the target of a symlink."""
    try:
        info = os.lstat(path)
    except OSError:  # not there, or a file stands where its folder should
        return None
    if stat.S_ISLNK(info.st_mode):
        return "symlink:" + os.readlink(path)
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fingerprint(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read(out: str) -> Owned | None:
    """The marker's record, or None if it is not one this version wrote."""
    try:
        with open(os.path.join(out, OUT_MARKER), "rb") as handle:
            data = json.loads(handle.read())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("written by") != _FORMAT or not isinstance(data.get("files"), dict):
        return None
    return {rel: set(prints) for rel, prints in data["files"].items() if isinstance(prints, list)}


def _files_in(out: str) -> Iterable[str]:
    for folder, dirs, files in os.walk(out):
        dirs.sort()
        for name in sorted(files) + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
            rel = os.path.relpath(os.path.join(folder, name), out)
            if rel != OUT_MARKER:
                yield rel


def check_owned(out: str) -> Owned:
    """What an existing `--out` folder may hold; raises `MigratePathError` if it holds anything else."""
    if not os.path.lexists(out):
        return {}
    entries = os.listdir(out)
    if not entries:
        return {}
    if OUT_MARKER not in entries:
        raise MigratePathError(
            f"--out {out}: folder is not empty and was not written by uai-migrate; choose a new or empty folder"
        )
    owned = _read(out)
    if owned is None:
        raise MigratePathError(
            f"--out {out}: written by an older uai-migrate, which kept no record of its files, so hand edits "
            "cannot be told apart; choose a new or empty folder"
        )
    for rel in _files_in(out):
        if fingerprint_of(os.path.join(out, rel)) not in owned.get(rel, ()):
            raise MigratePathError(
                f"--out {out}: {rel} changed since uai-migrate wrote it (or was put there by hand); "
                "move it away or choose a new folder"
            )
    return owned


def record(out: str, owned: Mapping[str, Iterable[str]]) -> None:
    """Write the marker: rel path -> the contents that file may have."""
    files = {rel: sorted(set(prints)) for rel, prints in sorted(owned.items())}
    text = json.dumps({"written by": _FORMAT, "files": files}, indent=0, sort_keys=True) + "\n"
    atomic_write(os.path.join(out, OUT_MARKER), text.encode(), mode=0o644)
