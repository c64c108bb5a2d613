"""`DEFINE_*` that tolerate a second, compatible definition of the same flag.

Platform scripts define names the SDK also defines (`data_dir`, `num_gpus`, ...). A second
definition with the same kind of flag replaces the default and help (the script's own
words win, as if the SDK had not defined it); a definition of another kind, or an enum with
other values, is a `FlagConflictError` naming the flag and both definitions.
"""

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from absl import flags as absl_flags

from compat.errors import FlagConflictError

_FLAGS = absl_flags.FLAGS
_UNKNOWN = "<unknown module>"
_T = TypeVar("_T")

# absl credits a flag to the module that called DEFINE_*: disclaiming this one credits the
# user's script, so its flags show in its --help / --helpfull as with plain absl.
absl_flags.disclaim_key_flags()


def _kind(flag: absl_flags.Flag) -> str:
    multi = "multi " if isinstance(flag, absl_flags.MultiFlag) else ""
    return multi + flag.parser.flag_type()


def _enum_values(flag: absl_flags.Flag) -> list[str] | None:
    return getattr(flag.parser, "enum_values", None)


def _describe(flag: absl_flags.Flag, module: str) -> str:
    values = _enum_values(flag)
    return f"{_kind(flag)}{'' if values is None else f' {values!r}'} default={flag.default!r} in {module}"


def _define(
    absl_define: Callable[..., absl_flags.FlagHolder[_T]],
    name: str,
    default: Any,
    help: str | None,
    flag_values: absl_flags.FlagValues = _FLAGS,
    **kwargs: Any,
) -> absl_flags.FlagHolder[_T]:
    if name not in flag_values:
        return absl_define(name, default, help, flag_values=flag_values, **kwargs)
    existing = flag_values[name]
    scratch = absl_flags.FlagValues()
    absl_define(name, default, help, flag_values=scratch, **kwargs)
    new_flag = scratch[name]
    module = scratch.find_module_defining_flag(name) or _UNKNOWN
    differs = "types" if _kind(existing) != _kind(new_flag) else "enum values"
    if differs == "types" or _enum_values(existing) != _enum_values(new_flag):
        raise FlagConflictError(
            f"flag --{name} is defined twice with different {differs}: "
            f"{_describe(existing, flag_values.find_module_defining_flag(name) or _UNKNOWN)}, "
            f"and {_describe(new_flag, module)}"
        )
    existing.help = new_flag.help
    if not flag_values.is_parsed() or not existing.present:
        flag_values.set_default(name, new_flag.default)
    # The script's own definition: list the flag in its --help too.
    flag_values.register_key_flag_for_module(module, existing)
    return absl_flags.FlagHolder(flag_values, existing)


def DEFINE_string(name: str, default: str | None, help: str | None, **kwargs: Any) -> absl_flags.FlagHolder[str]:  # noqa: N802 - absl's spelling
    return _define(absl_flags.DEFINE_string, name, default, help, **kwargs)


def DEFINE_integer(name: str, default: int | str | None, help: str | None, **kwargs: Any) -> absl_flags.FlagHolder[int]:  # noqa: N802
    return _define(absl_flags.DEFINE_integer, name, default, help, **kwargs)


def DEFINE_float(
    name: str, default: float | str | None, help: str | None, **kwargs: Any
) -> absl_flags.FlagHolder[float]:  # noqa: N802
    return _define(absl_flags.DEFINE_float, name, default, help, **kwargs)


def DEFINE_boolean(
    name: str, default: bool | str | None, help: str | None, **kwargs: Any
) -> absl_flags.FlagHolder[bool]:  # noqa: N802
    return _define(absl_flags.DEFINE_boolean, name, default, help, **kwargs)


DEFINE_bool = DEFINE_boolean  # noqa: N816 - tf.app.flags offered both spellings


def DEFINE_list(
    name: str, default: Iterable[str] | str | None, help: str | None, **kwargs: Any
) -> absl_flags.FlagHolder[list[str]]:  # noqa: N802
    return _define(absl_flags.DEFINE_list, name, default, help, **kwargs)


def DEFINE_multi_string(
    name: str, default: Iterable[str] | str | None, help: str | None, **kwargs: Any
) -> absl_flags.FlagHolder[list[str]]:  # noqa: N802
    return _define(absl_flags.DEFINE_multi_string, name, default, help, **kwargs)


def DEFINE_enum(
    name: str, default: str | None, enum_values: Iterable[str], help: str | None, **kwargs: Any
) -> absl_flags.FlagHolder[str]:  # noqa: N802
    def define(name: str, default: str | None, help: str | None, **kw: Any) -> absl_flags.FlagHolder[str]:
        return absl_flags.DEFINE_enum(name, default, enum_values, help, **kw)

    return _define(define, name, default, help, **kwargs)
