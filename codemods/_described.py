"""What every rule, code or file, says of itself: read by --explain and --help, and by --select/--ignore."""

from typing import Protocol


class Described(Protocol):
    """A code rule's class or a file rule's module, as far as its id, description and level go."""

    @property
    def ID(self) -> str: ...
    @property
    def DESCRIPTION(self) -> str: ...
    @property
    def LEVEL(self) -> str: ...
