"""Ctrl-C and SIGTERM in uai-migrate: each stops the run as KeyboardInterrupt(signum), except while a file
is being written and recorded (`deferred()`), where the signal waits until both are done.

Without the wait, a signal landing after a file was replaced but before the run noted it stopped the run
with that file changed on disk and missing from the report. Python runs a signal's handler in the main
thread between bytecodes, whichever thread the operating system gave the signal to, so a flag the
handler reads there closes the window where a signal mask (one thread's) would not.
"""

import contextlib
from collections.abc import Iterator
from types import FrameType

_depth = 0  # how many deferred() blocks the main thread is in
_pending: int | None = None  # the signal that arrived inside one


def interrupted(signum: int, _frame: FrameType | None) -> None:
    """The handler of SIGINT and SIGTERM: raise now, or once the deferred block ends."""
    global _pending
    if _depth:
        _pending = signum
        return
    raise KeyboardInterrupt(signum)


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """A block a signal does not cut: a signal that arrives inside it is raised when it ends."""
    global _depth, _pending
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
    if not _depth and _pending is not None:
        signum, _pending = _pending, None
        raise KeyboardInterrupt(signum)
