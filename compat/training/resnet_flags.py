"""Flags of the ResNet ImageNet program (the platform's example), shared by both runtimes.

Names and defaults follow the example (shared/spec/platform-apis.md); dashed spellings such
as `--train-batch-size` work through compat.flags. `--num_gpus`, `--data_dir`,
`--output_dir`, `--log_dir`, `--work_dir`, `--max_step` are the platform's flags.
"""

import compat.flags as flags

IMAGENET_TRAIN_IMAGES = 1281167
IMAGENET_VALIDATION_IMAGES = 50000
RESNET_SIZES = (8, 14, 20, 18, 34, 50, 101, 152, 200)


def define_resnet_flags():
    """Define the program's flags once per process (a second call is harmless)."""
    flags.DEFINE_enum("variable_strategy", "CPU", ["CPU", "GPU"], "Where shared variables live across towers.")
    flags.DEFINE_integer("resnet_size", 50, f"ResNet depth, one of {RESNET_SIZES} (8/14/20: CIFAR-size nets).")
    flags.DEFINE_enum("resnet_version", "2", ["1", "2"], "ResNet v1 or v2 (pre-activation, the example's default).")
    flags.DEFINE_integer("train_epochs", 100, "Epochs to train when --max_step is 0.")
    flags.DEFINE_integer("epochs_per_eval", 1, "Epochs between evaluations.")
    flags.DEFINE_integer("train_batch_size", 128, "Global training batch, split evenly over towers/replicas.")
    flags.DEFINE_integer("eval_batch_size", 100, "Global evaluation batch.")
    flags.DEFINE_float("momentum", 0.9, "Momentum of the SGD optimizer.")
    flags.DEFINE_float("weight_decay", 1e-4, "L2 weight decay on every weight except batch-norm parameters.")
    flags.DEFINE_float("learning_rate", 0.1, "Initial learning rate (x1, .1, .01, 1e-3, 1e-4 at epochs 30/60/80/90).")
    flags.DEFINE_boolean("sync", False, "Synchronous parameter-server training (SyncReplicasOptimizer).")
    flags.DEFINE_integer("num_intra_threads", 0, "Threads inside one op (0: TensorFlow chooses).")
    flags.DEFINE_integer("num_inter_threads", 0, "Ops run in parallel (0: TensorFlow chooses).")
    flags.DEFINE_enum("data_format", None, ["channels_first", "channels_last"], "Image layout (default: channels_last on CPU).")
    flags.DEFINE_boolean("log_device_placement", False, "Log where every op is placed.")
    flags.DEFINE_float("batch_norm_decay", 0.997, "Batch-norm moving-average decay.")
    flags.DEFINE_float("batch_norm_epsilon", 1e-5, "Batch-norm epsilon.")
    flags.DEFINE_integer("image_size", 224, "Side of the square training image (32 for tests and the demo).")
    flags.DEFINE_integer("num_classes", 1001, "Classes; label 0 is background, ImageNet labels are 1..1000.")
    flags.DEFINE_integer("train_images", IMAGENET_TRAIN_IMAGES, "Images per training epoch (sets the LR schedule).")
    flags.DEFINE_integer("save_checkpoints_steps", 100, "Steps between checkpoints.")
    flags.DEFINE_integer("log_every_n_steps", 10, "Steps between progress lines.")
    flags.DEFINE_boolean("export", True, "Export a SavedModel to <output_dir>/export at the end.")
    flags.DEFINE_integer("seed", 0, "Random seed for weights and input order (0: not seeded).")
