"""`run(main)`: what `tf.app.run` did, on absl; and one line, not a traceback, for a mistake at import."""

import sys
from collections.abc import Callable
from types import TracebackType

from absl import app as absl_app

from compat.cli_errors import fail
from compat.errors import CompatError
from compat.flags._registry import parse_known_or_exit


def run(main: Callable | None = None, argv: list | None = None) -> None:
    """Parse flags from argv (dashed names accepted) and call `main(remaining_argv)`; exit with its result."""
    if main is None:
        main = sys.modules["__main__"].main
    absl_app.run(main, argv=argv, flags_parser=parse_known_or_exit)


def install_error_hook() -> None:
    """Make an uncaught `CompatError` one line on stderr and exit 2, wherever the script raised it.

    A flag script's mistakes surface at import (a flag redefined with another type, a bad value
    read at module level), outside any `main` a guard could wrap. CPython exits with a
    SystemExit raised by the hook itself (measured on 3.11: status 2, atexit handlers run).
    Other exceptions go to the hook that was installed before.
    """
    if not getattr(sys.excepthook, "compat_one_line", False):
        sys.excepthook = _OneLineHook(sys.excepthook)


class _OneLineHook:
    """A `sys.excepthook`: a `CompatError` is one line and exit 2, anything else goes to `previous`."""

    # Checked by name, not by class: a hook installed by another copy of this module counts too.
    compat_one_line = True

    def __init__(self, previous: Callable[[type[BaseException], BaseException, TracebackType | None], object]) -> None:
        self.previous = previous

    def __call__(self, kind: type[BaseException], value: BaseException, traceback: TracebackType | None) -> None:
        if isinstance(value, CompatError):
            fail(str(value))
        self.previous(kind, value, traceback)
