"""The training loop's own flags, shared by the ResNet programs and the modern slim program: one definition each.

`--save_checkpoints_steps`, `--eval_batch_size` and `--export` mean the same in every program that
takes them (the legacy slim program checkpoints by slim's `--save_interval_secs` instead).
"""

import compat.flags as flags


def define_loop_flags(flag_values: flags.FlagValues | None = None) -> None:
    """Define the three flags in `flag_values` (default: the process's; a second call is harmless)."""
    into = {} if flag_values is None else {"flag_values": flag_values}
    flags.DEFINE_integer("save_checkpoints_steps", 100, "Steps between checkpoints.", **into)
    flags.DEFINE_integer("eval_batch_size", 100, "Global batch of the evaluation.", **into)
    flags.DEFINE_boolean(
        "export", True, "Export a SavedModel to <output dir>/export at the end (slim's --train_dir).", **into
    )
