"""`DEFINE_*` that tolerate a second, compatible definition of the same flag.

Platform scripts define names the SDK also defines (`data_dir`, `num_gpus`, ...). A second
definition with the same kind of flag replaces the default and help (the script's own
words win, as if the SDK had not defined it); a definition of another kind is a
`FlagConflictError` naming the flag and both definitions.
"""

import sys

from absl import flags as absl_flags

from compat.errors import FlagConflictError

_FLAGS = absl_flags.FLAGS


def _kind(flag):
    multi = "multi " if isinstance(flag, absl_flags.MultiFlag) else ""
    return multi + flag.parser.flag_type()


def _caller_module():
    # Two frames up is the user's DEFINE_* call: absl would otherwise credit this module.
    return sys._getframe(3).f_globals.get("__name__", "<unknown module>")


def _define(absl_define, name, default, help, flag_values=_FLAGS, **kwargs):
    kwargs.setdefault("module_name", _caller_module())
    if name not in flag_values:
        return absl_define(name, default, help, flag_values=flag_values, **kwargs)
    existing = flag_values[name]
    scratch = absl_flags.FlagValues()
    candidate = absl_define(name, default, help, flag_values=scratch, **kwargs)
    new_flag = scratch[name]
    if _kind(existing) != _kind(new_flag) or getattr(existing.parser, "enum_values", None) != getattr(
        new_flag.parser, "enum_values", None
    ):
        raise FlagConflictError(
            f"flag --{name} is defined twice with different types: "
            f"{_kind(existing)} default={existing.default!r} in "
            f"{flag_values.find_module_defining_flag(name, default='<unknown module>')}, "
            f"and {_kind(new_flag)} default={new_flag.default!r} in {kwargs['module_name']}"
        )
    existing.help = new_flag.help
    if not flag_values.is_parsed() or not existing.present:
        flag_values.set_default(name, new_flag.default)
    del candidate
    return absl_flags.FlagHolder(flag_values, existing)


def DEFINE_string(name, default, help, **kwargs):  # noqa: N802 - absl's spelling
    return _define(absl_flags.DEFINE_string, name, default, help, **kwargs)


def DEFINE_integer(name, default, help, **kwargs):  # noqa: N802
    return _define(absl_flags.DEFINE_integer, name, default, help, **kwargs)


def DEFINE_float(name, default, help, **kwargs):  # noqa: N802
    return _define(absl_flags.DEFINE_float, name, default, help, **kwargs)


def DEFINE_boolean(name, default, help, **kwargs):  # noqa: N802
    return _define(absl_flags.DEFINE_boolean, name, default, help, **kwargs)


DEFINE_bool = DEFINE_boolean  # noqa: N816 - tf.app.flags offered both spellings


def DEFINE_list(name, default, help, **kwargs):  # noqa: N802
    return _define(absl_flags.DEFINE_list, name, default, help, **kwargs)


def DEFINE_multi_string(name, default, help, **kwargs):  # noqa: N802
    return _define(absl_flags.DEFINE_multi_string, name, default, help, **kwargs)


def DEFINE_enum(name, default, enum_values, help, **kwargs):  # noqa: N802
    def define(name, default, help, **kw):
        return absl_flags.DEFINE_enum(name, default, enum_values, help, **kw)

    return _define(define, name, default, help, **kwargs)
