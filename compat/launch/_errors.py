"""The error `uai-launch` raises for bad input: it names the option (or the command) at fault."""

from compat.errors import CompatError


class LaunchError(CompatError):
    """A launch cannot start: a missing command, a log folder or manifest path that cannot be written, ..."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


def reason(err: Exception) -> str:
    """What went wrong in `err`, without the path a message names already (`No such file or directory`)."""
    return err.strerror if isinstance(err, OSError) and err.strerror else str(err)
