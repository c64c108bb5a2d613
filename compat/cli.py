"""The edge between `compat` errors and the command line: one line, nonzero exit."""

import functools
import os
import sys

from compat.errors import CompatError

USAGE_EXIT = 2


def _prog():
    main = sys.modules.get("__main__")
    spec = getattr(main, "__spec__", None)
    if spec is not None and spec.name.endswith("__main__"):
        return "python -m " + spec.name.rsplit(".", 1)[0]
    return os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else "uai"


def fail(message, code=USAGE_EXIT):
    """Print `prog: error: message` on stderr and exit."""
    prog = _prog()
    print(f"{prog}: error: {message}", file=sys.stderr)
    raise SystemExit(code)


def main_guard(func):
    """Decorate an entry point so a `CompatError` becomes one line and exit code 2."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except CompatError as err:
            fail(str(err))

    return wrapper
