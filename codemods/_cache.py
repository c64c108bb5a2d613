"""Results keyed by the content hash of a file, the options and the engine's own code.

A re-run on an unchanged tree then reads and hashes each file and parses none. The key holds a
fingerprint of every codemods and compat source and table file (compat.tf1_names and compat.library_names are
tables uai-migrate rewrites from) and of libcst, so editing a rule or a table invalidates it,
and, for a file migrated again with what the rest of its tree tells it, that Context
(codemods/engine/tree.py): the same bytes then have another result. A record keeps the file's Facts,
which the tree pass reads without parsing the file.
"""

import base64
import functools
import hashlib
import json
import os
import pathlib
import sys
from importlib import metadata

from codemods._report import Entry, Outcome
from codemods.engine.tree import Context, Facts
from compat.files import atomic_write


@functools.lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    # what parses is the interpreter's grammar: a stored migration was checked to parse (codemods/_migrate_tree.py)
    digest = hashlib.sha256(f"{sys.version}|{metadata.version('libcst')}".encode())
    package = pathlib.Path(__file__).parent
    # the rules' derived tables (rules/tf_api.json) decide results as much as the code does, and so do compat's
    # (a sibling package, in a checkout as in an installed wheel)
    for folder in (package, package.parent / "compat"):
        for path in sorted([*folder.rglob("*.py"), *folder.rglob("*.json")]):
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _digest(new: bytes | None) -> str | None:
    return hashlib.sha256(new).hexdigest() if new is not None else None


def default_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "uai-migrate")


class Cache:
    def __init__(self, directory: str, options: object) -> None:
        self.directory = pathlib.Path(directory)
        self._salt = f"{engine_fingerprint()}|{options}".encode()

    def key(self, kind: str, data: bytes, context: Context | None = None) -> str:
        tree = b"" if context is None else context.key().encode() + b"\0"
        return hashlib.sha256(self._salt + kind.encode() + b"\0" + tree + data).hexdigest()

    def _path(self, key: str) -> pathlib.Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> Outcome | None:
        """The cached outcome for `key`, or None when missing or not provably the one stored for it."""
        try:
            record = json.loads(self._path(key).read_text())
            new = base64.b64decode(record["new"], validate=True) if record["new"] is not None else None
            # a record copied, truncated or edited on disk must not become a user's file
            if record["key"] != key or record["new_sha256"] != _digest(new):
                return None
            return Outcome(
                new=new,
                entries=[Entry.from_dict(e) for e in record["entries"]],
                skipped=record["skipped"],
                facts=Facts.from_dict(record["facts"]) if record["facts"] is not None else None,
            )
        except (OSError, ValueError, KeyError, TypeError, RecursionError, MemoryError):
            return None  # missing or unreadable: compute again

    def put(self, key: str, outcome: Outcome) -> None:
        record = {
            "key": key,
            "new_sha256": _digest(outcome.new),
            "new": base64.b64encode(outcome.new).decode() if outcome.new is not None else None,
            "entries": [e.to_dict() for e in outcome.entries],
            "skipped": outcome.skipped,
            "facts": outcome.facts.to_dict() if outcome.facts is not None else None,
        }
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(path, json.dumps(record).encode(), mode=0o644, durable=False)
        except OSError:
            pass  # a cache that cannot be written only costs speed
