"""The six flags the platform's `uflag` module registers, with its defaults and meanings."""

import collections

from absl import flags as absl_flags
from absl import logging as absl_logging  # noqa: F401 - defines --log_dir, which we reconcile

from compat.flags import _defines

PlatformFlag = collections.namedtuple("PlatformFlag", "name kind default help")

PLATFORM_FLAGS = (
    PlatformFlag("work_dir", "string", "/data", "The job's working folder (code lives here)."),
    PlatformFlag("data_dir", "string", "/data/data", "Input data, mounted by the platform."),
    PlatformFlag("output_dir", "string", "/data/output", "Checkpoints and exports; uploaded after the job."),
    PlatformFlag("log_dir", "string", "/data/output", "TensorBoard logs (same as output by default)."),
    PlatformFlag("num_gpus", "integer", 0, "GPUs on the node, set by the platform."),
    PlatformFlag("max_step", "integer", 0, "Free for the user; a hint for step limits."),
)

_DEFINE = {"string": _defines.DEFINE_string, "integer": _defines.DEFINE_integer}


def register_platform_flags(flag_values: absl_flags.FlagValues = absl_flags.FLAGS) -> None:
    """Define the platform flags once; later compatible definitions by scripts may override them.

    `log_dir` already exists (absl.logging defines it, and TF imports absl.logging): we keep
    that one flag object, so absl's own log-file code and the platform read the same value,
    and give it the platform's default and help. absl only writes log files there when asked
    to (`use_absl_log_file`), so the new default changes nothing for absl.
    """
    for spec in PLATFORM_FLAGS:
        _DEFINE[spec.kind](spec.name, spec.default, spec.help, flag_values=flag_values)
        # Raw `tf.app.flags.DEFINE_*` of the same name (legal for a script that never imported
        # uflag) must not raise DuplicateFlagError now that we defined it first.
        flag_values[spec.name].allow_override = True
