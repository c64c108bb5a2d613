"""The edge between `compat` errors and the command line: one line, nonzero exit."""

import functools
import os
import signal
import sys
from collections.abc import Callable
from typing import NoReturn, ParamSpec, TypeVar

from compat.errors import CompatError

USAGE_EXIT = 2

_P = ParamSpec("_P")
_R = TypeVar("_R")


def _prog() -> str:
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name.endswith("__main__"):
        return "python -m " + spec.name.rsplit(".", 1)[0]
    return os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "uai"


# str.splitlines() breaks at each of these: a message quoting user input (a flag value, a
# TF_CONFIG field, a file name) must still be one line.
_LINE_BREAKS = str.maketrans({c: repr(c)[1:-1] for c in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"})


def one_line(message: str) -> str:
    """`message` with every line break escaped."""
    return str(message).translate(_LINE_BREAKS)


def fail(message: str, code: int = USAGE_EXIT) -> NoReturn:
    """Print `prog: error: message` on stderr, on one line, and exit."""
    prog = _prog()
    print(f"{prog}: error: {one_line(message)}", file=sys.stderr)
    raise SystemExit(code)


def main_guard(func: Callable[_P, _R]) -> Callable[_P, _R]:
    """Decorate an entry point so a `CompatError` becomes one line and exit code 2, and a Ctrl-C that
    the command does not handle itself (one while it starts: parsing, importing) one line and 130."""

    @functools.wraps(func)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return func(*args, **kwargs)
        except CompatError as err:
            fail(str(err))
        except KeyboardInterrupt:
            fail("interrupted", code=128 + signal.SIGINT)

    return wrapper
