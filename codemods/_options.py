"""What a run asks of each file's migration: its own module, so the main process reads it without importing libcst
(a run whose files are all in the cache imports none: codemods/_migrate_tree.py)."""

import dataclasses


@dataclasses.dataclass(frozen=True)
class Options:
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    level: str = "safe"
