"""Flags of TF-slim's `train_image_classifier`: one set, defined alike by the legacy and modern slim trainers.

The platform maps its own flags onto slim's (`platform_overrides`): `dataset_dir = data_dir`,
`train_dir = output_dir`, `num_clones = max(num_gpus, 1)` (0 clones crashed the example).
What a 0 or None default resolves to (the dataset's classes and size) is
`trainlib.training.slim_data`'s; the optimizers and decays are `trainlib.training.slim_optimization`'s.
"""

from typing import Any

from absl import flags as absl_flags

import compat.flags as flags
from trainlib.training import checkpoint_flags
from trainlib.training.slim_optimization import DECAYS, OPTIMIZERS

OPTIMIZER_NAMES = tuple(OPTIMIZERS)  # --optimizer's choices: the rows' names
DECAY_TYPES = tuple(DECAYS)
# "lenet" decodes, resizes and scales to about [-1, 1] (small images); the others crop and flip
# like inception, mean-subtracted.
PREPROCESSINGS = ("inception", "vgg", "lenet")


def define_slim_flags(flag_values: flags.FlagValues | None = None) -> None:
    """Define slim's flags in `flag_values` (default: the process's; a second call is harmless)."""
    into = {} if flag_values is None else {"flag_values": flag_values}
    # Deployment.
    flags.DEFINE_string("master", "", "Address of the TensorFlow master (set from TF_CONFIG when distributed).", **into)
    flags.DEFINE_string("train_dir", "", "Checkpoints and event files (default: --output_dir).", **into)
    flags.DEFINE_integer("num_clones", 0, "Model clones on this node (default: max(--num_gpus, 1)).", **into)
    flags.DEFINE_boolean("clone_on_cpu", False, "Put clones on CPU devices.", **into)
    flags.DEFINE_integer("worker_replicas", 1, "Number of worker replicas.", **into)
    flags.DEFINE_integer("num_ps_tasks", 0, "Parameter servers (default: from TF_CONFIG).", **into)
    flags.DEFINE_integer("num_readers", 4, "Parallel readers of the dataset.", **into)
    flags.DEFINE_integer("num_preprocessing_threads", 4, "Threads preprocessing images.", **into)
    flags.DEFINE_integer("log_every_n_steps", 10, "Steps between progress lines.", **into)
    flags.DEFINE_integer("save_summaries_secs", 600, "Seconds between summaries.", **into)
    flags.DEFINE_integer("save_interval_secs", 600, "Seconds between checkpoints.", **into)
    flags.DEFINE_integer("task", 0, "Task id of this replica (default: from TF_CONFIG).", **into)
    # Optimization.
    flags.DEFINE_float("weight_decay", 0.00004, "L2 weight decay.", **into)
    flags.DEFINE_enum("optimizer", "rmsprop", list(OPTIMIZER_NAMES), "The optimizer.", **into)
    flags.DEFINE_float("adadelta_rho", 0.95, "Decay of adadelta.", **into)
    flags.DEFINE_float("adagrad_initial_accumulator_value", 0.1, "Starting accumulator of adagrad.", **into)
    flags.DEFINE_float("adam_beta1", 0.9, "Adam beta1.", **into)
    flags.DEFINE_float("adam_beta2", 0.999, "Adam beta2.", **into)
    flags.DEFINE_float("opt_epsilon", 1.0, "Epsilon of the optimizer.", **into)
    flags.DEFINE_float("ftrl_learning_rate_power", -0.5, "FTRL learning-rate power.", **into)
    flags.DEFINE_float("ftrl_initial_accumulator_value", 0.1, "FTRL initial accumulator.", **into)
    flags.DEFINE_float("ftrl_l1", 0.0, "FTRL L1 regularization.", **into)
    flags.DEFINE_float("ftrl_l2", 0.0, "FTRL L2 regularization.", **into)
    flags.DEFINE_float("momentum", 0.9, "Momentum of momentum and rmsprop.", **into)
    flags.DEFINE_float("rmsprop_decay", 0.9, "Decay of rmsprop.", **into)
    flags.DEFINE_enum(
        "learning_rate_decay_type", "exponential", list(DECAY_TYPES), "How the learning rate decays.", **into
    )
    flags.DEFINE_float("learning_rate", 0.01, "Initial learning rate.", **into)
    flags.DEFINE_float("end_learning_rate", 0.0001, "Final rate of polynomial decay.", **into)
    flags.DEFINE_float("label_smoothing", 0.0, "Label smoothing.", **into)
    flags.DEFINE_float("learning_rate_decay_factor", 0.94, "Decay factor.", **into)
    flags.DEFINE_float("num_epochs_per_decay", 2.0, "Epochs between decays.", **into)
    flags.DEFINE_boolean("sync_replicas", False, "Synchronous replicas (SyncReplicasOptimizer).", **into)
    flags.DEFINE_integer("replicas_to_aggregate", 1, "Gradients to collect before updating.", **into)
    flags.DEFINE_float("moving_average_decay", None, "Decay of the weights' moving average (None: off).", **into)
    # Dataset.
    flags.DEFINE_string("dataset_name", "imagenet", "Dataset: imagenet (TFRecords) or a slim-layout name.", **into)
    flags.DEFINE_string("dataset_split_name", "train", "Split to train on.", **into)
    flags.DEFINE_string("dataset_dir", "", "Dataset files (default: --data_dir).", **into)
    flags.DEFINE_integer("labels_offset", 0, "Subtracted from labels (1 for 1000-class models on ImageNet).", **into)
    flags.DEFINE_integer("num_classes", 0, "Classes incl. background (0: the dataset's, 1001 for imagenet).", **into)
    flags.DEFINE_integer(
        "num_samples_per_epoch", 0, "Images per epoch, for the decay (0: ImageNet's, else counted).", **into
    )
    flags.DEFINE_string("model_name", "resnet_v1_50", "Network from the slim zoo.", **into)
    absl_flags.register_validator("model_name", _known_net, **into)
    flags.DEFINE_enum("preprocessing_name", None, list(PREPROCESSINGS), "Preprocessing (default: the model's).", **into)
    flags.DEFINE_integer("batch_size", 32, "Images per clone per step.", **into)
    flags.DEFINE_integer("train_image_size", None, "Training image side (default: the model's).", **into)
    flags.DEFINE_integer("max_number_of_steps", None, "Steps to train (default: --max_step, else unlimited).", **into)
    # Fine-tuning.
    checkpoint_flags.define_checkpoint_flags(flag_values)
    flags.DEFINE_string("trainable_scopes", None, "Comma-separated scopes to train (default: all).", **into)
    flags.DEFINE_boolean("ignore_missing_vars", False, "Skip variables missing from the checkpoint.", **into)


def _known_net(model_name: str) -> bool:
    # The zoo imports TensorFlow: only when the flags are parsed, so `--help` stays fast.
    from trainlib.models import slim_zoo

    try:
        slim_zoo.check_model_name(model_name)
    except ValueError as error:
        raise absl_flags.ValidationError(str(error)) from None
    return True


def platform_overrides(values: Any) -> Any:
    """Apply the platform's mapping to parsed flag values (a FLAGS object: absl's, compat's, or any
    object with those attributes); returns it."""
    if not values.dataset_dir:
        values.dataset_dir = values.data_dir
    if not values.train_dir:
        values.train_dir = values.output_dir
    if values.num_clones <= 0:
        values.num_clones = max(values.num_gpus, 1)
    if values.max_number_of_steps is None and values.max_step > 0:
        values.max_number_of_steps = values.max_step
    return values
