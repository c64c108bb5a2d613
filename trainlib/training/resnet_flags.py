"""Flags of the ResNet ImageNet program (the platform's example), shared by both runtimes.

Names and defaults follow the platform's example; the model's and optimiser's defaults are
`ResNetConfig`'s field defaults, read from there, and `ResNetConfig.from_flags` reads them back.
Dashed spellings such as `--train-batch-size` work through compat.flags. `--num_gpus`,
`--data_dir`, `--output_dir`, `--log_dir`, `--work_dir`, `--max_step` are the platform's flags.
"""

import compat.flags as flags
from trainlib.models.resnet_layout import SIZES
from trainlib.training import loop_flags
from trainlib.training.resnet_config import ResNetConfig

IMAGENET_TRAIN_IMAGES = 1281167
_DEFAULT = ResNetConfig()


def define_resnet_flags(flag_values: flags.FlagValues | None = None) -> None:
    """Define the program's flags in `flag_values` (default: the process's; a second call is harmless)."""
    into = {} if flag_values is None else {"flag_values": flag_values}
    loop_flags.define_loop_flags(flag_values)
    flags.DEFINE_enum("variable_strategy", "CPU", ["CPU", "GPU"], "Where shared variables live across towers.", **into)
    flags.DEFINE_integer(
        "resnet_size", _DEFAULT.resnet_size, f"ResNet depth, one of {SIZES} (8/14/20: CIFAR-size nets).", **into
    )
    flags.DEFINE_enum(
        "resnet_version", str(_DEFAULT.resnet_version), ["1", "2"], "ResNet v1 or v2 (v2: pre-activation).", **into
    )
    flags.DEFINE_integer("train_epochs", 100, "Epochs to train when --max_step is 0.", **into)
    flags.DEFINE_integer("epochs_per_eval", 1, "Epochs between evaluations.", **into)
    flags.DEFINE_integer("train_batch_size", 128, "Global training batch, split evenly over towers/replicas.", **into)
    flags.DEFINE_float("momentum", _DEFAULT.momentum, "Momentum of the SGD optimizer.", **into)
    flags.DEFINE_float(
        "weight_decay", _DEFAULT.weight_decay, "L2 weight decay on every weight except batch-norm parameters.", **into
    )
    flags.DEFINE_float(
        "learning_rate",
        _DEFAULT.learning_rate,
        "Initial learning rate (x1, .1, .01, 1e-3, 1e-4 at epochs 30/60/80/90).",
        **into,
    )
    flags.DEFINE_boolean("sync", False, "Synchronous parameter-server training (SyncReplicasOptimizer).", **into)
    flags.DEFINE_integer("num_intra_threads", 0, "Threads inside one op (0: TensorFlow chooses).", **into)
    flags.DEFINE_integer("num_inter_threads", 0, "Ops run in parallel (0: TensorFlow chooses).", **into)
    flags.DEFINE_enum(
        "data_format",
        _DEFAULT.data_format,
        ["channels_first", "channels_last"],
        "Image layout (default: channels_last on CPU).",
        **into,
    )
    flags.DEFINE_boolean("log_device_placement", False, "Log where every op is placed.", **into)
    flags.DEFINE_float("batch_norm_decay", _DEFAULT.batch_norm_decay, "Batch-norm moving-average decay.", **into)
    flags.DEFINE_float("batch_norm_epsilon", _DEFAULT.batch_norm_epsilon, "Batch-norm epsilon.", **into)
    flags.DEFINE_integer(
        "image_size", _DEFAULT.image_size, "Side of the square training image (32 for tests and the demo).", **into
    )
    flags.DEFINE_integer(
        "num_classes", _DEFAULT.num_classes, "Classes; label 0 is background, ImageNet labels are 1..1000.", **into
    )
    flags.DEFINE_integer(
        "train_images", IMAGENET_TRAIN_IMAGES, "Images per training epoch (sets the LR schedule).", **into
    )
    flags.DEFINE_integer("log_every_n_steps", 10, "Steps between progress lines.", **into)
    flags.DEFINE_integer("seed", 0, "Random seed for weights and input order (0: not seeded).", **into)
