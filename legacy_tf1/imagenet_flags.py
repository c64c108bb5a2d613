"""The flags of `legacy_tf1.imagenet_main`: the shared ResNet flags and the TF1 program's own two.

Defined before TensorFlow is imported (`compat.flags` imports none), so a bad flag is one line at once.
"""

import compat.flags as flags
from trainlib.training import resnet_flags

TOWERS, MIRRORED = "towers", "mirrored"


def define_imagenet_flags() -> None:
    """Define the program's flags in the process's FLAGS (a second call is harmless)."""
    resnet_flags.define_resnet_flags()
    flags.DEFINE_enum(
        "multi_device", TOWERS, [TOWERS, MIRRORED], "Several local devices: device-setter towers, or MirroredStrategy."
    )
    flags.DEFINE_integer("eval_steps", 0, "Evaluation batches per evaluation (0: the whole validation split).")
