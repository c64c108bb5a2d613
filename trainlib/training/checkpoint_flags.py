"""TF-slim's fine-tuning flags, `--checkpoint_path` and `--checkpoint_exclude_scopes`: one definition for every program.

The slim programs (legacy and modern) and the modern ResNet program take them with slim's
meaning: the model starts from the checkpoint's variables except those under the excluded
scopes (comma-separated, e.g. `LeNet/fc4,LeNet/fc3` or `resnet/logits`); a folder means its
latest checkpoint; a checkpoint already in the output folder wins (a restarted job resumes
instead of starting the fine-tuning over).
"""

import compat.flags as flags


def define_checkpoint_flags(flag_values: flags.FlagValues | None = None) -> None:
    """Define the two flags in `flag_values` (default: the process's; a second call is harmless)."""
    into = {} if flag_values is None else {"flag_values": flag_values}
    flags.DEFINE_string(
        "checkpoint_path",
        None,
        "Checkpoint (or its folder) to fine-tune from: a TF1 Estimator or TF-slim one, variables matched by name.",
        **into,
    )
    flags.DEFINE_string(
        "checkpoint_exclude_scopes", None, "Comma-separated scopes not restored from the checkpoint.", **into
    )


def scopes(text: str | None) -> list:
    """'a, b/c' -> ['a', 'b/c']; None or '' -> []."""
    return [scope.strip() for scope in (text or "").split(",") if scope.strip()]
