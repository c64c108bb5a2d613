"""uai-launch's error (defined with every other user-facing error in compat.errors) and its wording helper."""

from compat.errors import LaunchError

__all__ = ["LaunchError", "reason"]


def reason(err: Exception) -> str:
    """What went wrong in `err`, without the path a message names already (`No such file or directory`)."""
    return err.strerror if isinstance(err, OSError) and err.strerror else str(err)
