"""What every rule, code or file, says of itself: its id, one-line description, level and example.

Read by --explain and --help, by --select/--ignore, and by the SARIF report's rule list. A code
rule says it as class attributes (codemods.engine.rule.Rule), a file rule as module attributes
(codemods/files).
"""

import dataclasses
from typing import Protocol


@dataclasses.dataclass(frozen=True)
class Example:
    """What `uai-migrate --explain` shows: why the rule exists and a `before` that migrates to `after`
    (tests/codemods/test_explain.py runs it through the engine)."""

    why: str
    before: str
    after: str
    kind: str = "python"  # the file kind the example is migrated as


class Described(Protocol):
    """A code rule's class or a file rule's module, as far as what it says of itself goes."""

    @property
    def ID(self) -> str: ...
    @property
    def DESCRIPTION(self) -> str: ...
    @property
    def LEVEL(self) -> str: ...
    @property
    def EXAMPLE(self) -> Example: ...
