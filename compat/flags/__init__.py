"""Drop-in for the platform's `uflag` module and for `tf.app.flags`, on absl.

    import compat.flags as flags          # registers --work_dir --data_dir --output_dir
    flags.DEFINE_integer("resnet_size", 50, "...")   # --log_dir --num_gpus --max_step
    FLAGS = flags.FLAGS
    flags.run(main)                       # like tf.app.run

Shares absl's registry, so `tf.compat.v1.flags` and `absl.flags` users see the same flags.
Dashed names (`--train-batch-size`) parse as their underscore flags; a compatible second
definition of a flag is accepted; `FLAGS.x` before parsing parses sys.argv as TF1 did.
A mistake (a conflicting redefinition, a bad value) is one line on stderr and exit 2.
"""

from absl.flags import FlagValues, mark_flag_as_required  # noqa: F401 - re-exported

from compat.flags._argparse import add_platform_flags
from compat.flags._argv import normalize_argv
from compat.flags._defines import (  # noqa: N811
    DEFINE_bool,
    DEFINE_boolean,
    DEFINE_enum,
    DEFINE_float,
    DEFINE_integer,
    DEFINE_list,
    DEFINE_multi_string,
    DEFINE_string,
)
from compat.flags._platform import PLATFORM_FLAGS, register_platform_flags
from compat.flags._registry import FLAGS, install_dash_tolerance
from compat.flags._run import install_error_hook, run

install_dash_tolerance()
install_error_hook()
register_platform_flags()

__all__ = [
    "FLAGS",
    "DEFINE_bool",
    "DEFINE_boolean",
    "DEFINE_enum",
    "DEFINE_float",
    "DEFINE_integer",
    "DEFINE_list",
    "DEFINE_multi_string",
    "DEFINE_string",
    "PLATFORM_FLAGS",
    "add_platform_flags",
    "mark_flag_as_required",
    "normalize_argv",
    "run",
]
