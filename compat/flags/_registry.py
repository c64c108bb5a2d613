"""absl's global flag registry, made tolerant of the platform's dashed names and auto-parsing.

Every TF flags API (`tf.compat.v1.flags`, `tf.compat.v1.app.run`) parses through
`absl.flags.FlagValues.__call__`; patching that one method makes dashed names work for
scripts that never import `compat.flags` directly (e.g. unmodified `uflag` users), without
touching any other behaviour.
"""

import sys
from collections.abc import Iterator, MutableMapping, Sequence
from typing import Any

from absl import flags as absl_flags

from compat.cli_errors import fail
from compat.flags._argv import normalize_argv

_ORIGINAL_CALL = absl_flags.FlagValues.__call__


def _dash_tolerant_call(self: absl_flags.FlagValues, argv: Sequence[str], known_only: bool = False) -> list[str]:
    return _ORIGINAL_CALL(self, normalize_argv(list(argv), self), known_only=known_only)


def parse_known_or_exit(argv: list, flag_values: absl_flags.FlagValues = absl_flags.FLAGS) -> list:
    """Parse the defined flags in `argv` and return the rest; a bad value is one line on stderr and exit 2.

    Others are left to the script (known_only): TF1's `tf.app.run` handed them to `main(argv)`
    and argparse-based scripts rely on that.
    """
    try:
        return flag_values(argv, known_only=True)
    # absl raises a bare ValueError for a value given to a negated boolean (`--nosync=1`).
    except (absl_flags.Error, ValueError) as err:
        fail(f"{err} (--helpfull lists the flags)")  # fail() keeps absl's raw quote of the value on one line


def install_dash_tolerance() -> None:
    """Idempotently route absl parsing through `normalize_argv`."""
    if absl_flags.FlagValues.__call__ is not _dash_tolerant_call:
        # Replacing a method of absl's class is the point (see the module docstring); mypy refuses it.
        absl_flags.FlagValues.__call__ = _dash_tolerant_call  # type: ignore[method-assign]


class AutoParsingFlagValues:
    """`FLAGS` as `tf.app.flags.FLAGS` behaved: reading a flag before parsing parses sys.argv.

    TF1 scripts read `FLAGS.x` at import time or call their `main` without `app.run`;
    absl's own FLAGS raises `UnparsedFlagAccessError` there. Unknown arguments are tolerated
    (known_only), as TF1 did, so argparse-based scripts can share the command line.
    """

    # Set by `_parse_flags()`, which only TF <= 1.4 had: the program is argparse-era, and `FLAGS.__flags`
    # means that era's {name: value}. Else it is absl's {name: Flag} (TF >= 1.5 programs read `.value`).
    _argparse_era = False

    def __init__(self, wrapped: absl_flags.FlagValues) -> None:
        object.__setattr__(self, "_wrapped", wrapped)

    def _ensure_parsed(self) -> None:
        wrapped = self._wrapped
        if not wrapped.is_parsed():
            parse_known_or_exit(sys.argv, wrapped)

    def __getattr__(self, name: str) -> Any:
        wrapped = self._wrapped
        if name in wrapped:
            self._ensure_parsed()
        elif name == "__flags" and self._argparse_era:  # a name mangled only inside a class body
            return ValuesByName(wrapped)
        return getattr(wrapped, name)

    def _parse_flags(self, args: Sequence[str] | None = None) -> list[str]:
        """TF <= 1.4's `FLAGS._parse_flags()` (argparse's parse_known_args): parse `args`, else sys.argv's
        arguments, and return those no flag took."""
        object.__setattr__(self, "_argparse_era", True)
        argv = [sys.argv[0], *(sys.argv[1:] if args is None else args)]
        return parse_known_or_exit(argv, self._wrapped)[1:]

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._wrapped, name, value)

    def __delattr__(self, name: str) -> None:
        delattr(self._wrapped, name)

    def __getitem__(self, name: str) -> absl_flags.Flag:
        return self._wrapped[name]

    def __contains__(self, name: object) -> bool:
        return name in self._wrapped

    def __iter__(self) -> Iterator[str]:
        return iter(self._wrapped)

    def __len__(self) -> int:
        return len(self._wrapped)

    def __call__(self, argv: Sequence[str], known_only: bool = False) -> list[str]:
        return self._wrapped(argv, known_only=known_only)

    def __dir__(self) -> list[str]:
        return dir(self._wrapped)

    def __repr__(self) -> str:
        return f"<compat FLAGS over {self._wrapped!r}>"


class ValuesByName(MutableMapping):
    """TF <= 1.4's `FLAGS.__flags`: {flag name: value}. It was the flags' own storage, so writing a value
    sets the flag (absl's `FlagValues.flag_values_dict()` is a copy)."""

    def __init__(self, flag_values: absl_flags.FlagValues) -> None:
        self._flag_values = flag_values

    def __getitem__(self, name: str) -> Any:
        return self._flag_values[name].value

    def __setitem__(self, name: str, value: Any) -> None:
        if name not in self._flag_values:
            raise KeyError(name)  # TF 1.4 stored it, but no flag of that name exists to read it back
        setattr(self._flag_values, name, value)

    def __delitem__(self, name: str) -> None:
        delattr(self._flag_values, name)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._flag_values))

    def __len__(self) -> int:
        return len(self._flag_values)

    def __repr__(self) -> str:
        return repr(dict(self))


FLAGS = AutoParsingFlagValues(absl_flags.FLAGS)
