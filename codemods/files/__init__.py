"""Migrations of the files around the code: Dockerfiles and pip requirement files.

Each kind has one rule id (what --select/--ignore and --explain take), a migrator with the
engine's signature (bytes and options in, Outcome out) and a parse check the runner applies
to the migrated text, as it does to Python.
"""

from collections.abc import Callable
from typing import Protocol

from codemods._report import Outcome
from codemods.files import dockerfile, requirements
from codemods.rule_description import Described


class FileRule(Described, Protocol):
    """What a module of KINDS provides: the module is the rule, as a class is for code rules."""

    def migrate(self, data: bytes, options: object = None) -> Outcome: ...
    def parses(self, data: bytes) -> bool: ...


# kind (codemods._discover names it from the file name) -> its rule
KINDS: dict[str, FileRule] = {"dockerfile": dockerfile, "requirements": requirements}
RULE_IDS = tuple(module.ID for module in KINDS.values())


def migrator(kind: str, default: Callable[[bytes, object], Outcome]) -> Callable[[bytes, object], Outcome]:
    """The migrate function for `kind`, or `default` for the code kinds."""
    module = KINDS.get(kind)
    return module.migrate if module else default


def parses(kind: str, data: bytes) -> bool:
    return KINDS[kind].parses(data)
