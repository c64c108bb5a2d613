"""Flags of TF-slim's `train_image_classifier`, shared by the legacy and modern slim trainers.

The platform maps its own flags onto slim's (`platform_overrides`): `dataset_dir = data_dir`,
`train_dir = output_dir`, `num_clones = max(num_gpus, 1)` (0 clones crashed the example).
"""

import compat.flags as flags

OPTIMIZERS = ("adadelta", "adagrad", "adam", "ftrl", "momentum", "sgd", "rmsprop")
DECAY_TYPES = ("fixed", "exponential", "polynomial")


def define_slim_flags():
    # Deployment.
    flags.DEFINE_string("master", "", "Address of the TensorFlow master (set from TF_CONFIG when distributed).")
    flags.DEFINE_string("train_dir", "", "Checkpoints and event files (default: --output_dir).")
    flags.DEFINE_integer("num_clones", 0, "Model clones on this node (default: max(--num_gpus, 1)).")
    flags.DEFINE_boolean("clone_on_cpu", False, "Put clones on CPU devices.")
    flags.DEFINE_integer("worker_replicas", 1, "Number of worker replicas.")
    flags.DEFINE_integer("num_ps_tasks", 0, "Parameter servers (default: from TF_CONFIG).")
    flags.DEFINE_integer("num_readers", 4, "Parallel readers of the dataset.")
    flags.DEFINE_integer("num_preprocessing_threads", 4, "Threads preprocessing images.")
    flags.DEFINE_integer("log_every_n_steps", 10, "Steps between progress lines.")
    flags.DEFINE_integer("save_summaries_secs", 600, "Seconds between summaries.")
    flags.DEFINE_integer("save_interval_secs", 600, "Seconds between checkpoints.")
    flags.DEFINE_integer("task", 0, "Task id of this replica (default: from TF_CONFIG).")
    # Optimization.
    flags.DEFINE_float("weight_decay", 0.00004, "L2 weight decay.")
    flags.DEFINE_enum("optimizer", "rmsprop", list(OPTIMIZERS), "The optimizer.")
    flags.DEFINE_float("adadelta_rho", 0.95, "Decay of adadelta.")
    flags.DEFINE_float("adagrad_initial_accumulator_value", 0.1, "Starting accumulator of adagrad.")
    flags.DEFINE_float("adam_beta1", 0.9, "Adam beta1.")
    flags.DEFINE_float("adam_beta2", 0.999, "Adam beta2.")
    flags.DEFINE_float("opt_epsilon", 1.0, "Epsilon of the optimizer.")
    flags.DEFINE_float("ftrl_learning_rate_power", -0.5, "FTRL learning-rate power.")
    flags.DEFINE_float("ftrl_initial_accumulator_value", 0.1, "FTRL initial accumulator.")
    flags.DEFINE_float("ftrl_l1", 0.0, "FTRL L1 regularization.")
    flags.DEFINE_float("ftrl_l2", 0.0, "FTRL L2 regularization.")
    flags.DEFINE_float("momentum", 0.9, "Momentum of momentum and rmsprop.")
    flags.DEFINE_float("rmsprop_decay", 0.9, "Decay of rmsprop.")
    flags.DEFINE_enum("learning_rate_decay_type", "exponential", list(DECAY_TYPES), "How the learning rate decays.")
    flags.DEFINE_float("learning_rate", 0.01, "Initial learning rate.")
    flags.DEFINE_float("end_learning_rate", 0.0001, "Final rate of polynomial decay.")
    flags.DEFINE_float("label_smoothing", 0.0, "Label smoothing.")
    flags.DEFINE_float("learning_rate_decay_factor", 0.94, "Decay factor.")
    flags.DEFINE_float("num_epochs_per_decay", 2.0, "Epochs between decays.")
    flags.DEFINE_boolean("sync_replicas", False, "Synchronous replicas (SyncReplicasOptimizer).")
    flags.DEFINE_integer("replicas_to_aggregate", 1, "Gradients to collect before updating.")
    flags.DEFINE_float("moving_average_decay", None, "Decay of the weights' moving average (None: off).")
    # Dataset.
    flags.DEFINE_string("dataset_name", "imagenet", "Dataset: imagenet (TFRecords) or a slim-layout name.")
    flags.DEFINE_string("dataset_split_name", "train", "Split to train on.")
    flags.DEFINE_string("dataset_dir", "", "Dataset files (default: --data_dir).")
    flags.DEFINE_integer("labels_offset", 0, "Subtracted from labels (1 for 1000-class models on ImageNet).")
    flags.DEFINE_string("model_name", "resnet_v1_50", "Network from the slim zoo.")
    flags.DEFINE_string("preprocessing_name", None, "Preprocessing (default: the model's).")
    flags.DEFINE_integer("batch_size", 32, "Images per clone per step.")
    flags.DEFINE_integer("train_image_size", None, "Training image side (default: the model's).")
    flags.DEFINE_integer("max_number_of_steps", None, "Steps to train (default: --max_step, else unlimited).")
    # Fine-tuning.
    flags.DEFINE_string("checkpoint_path", None, "Checkpoint to fine-tune from.")
    flags.DEFINE_string("checkpoint_exclude_scopes", None, "Comma-separated scopes not restored from the checkpoint.")
    flags.DEFINE_string("trainable_scopes", None, "Comma-separated scopes to train (default: all).")
    flags.DEFINE_boolean("ignore_missing_vars", False, "Skip variables missing from the checkpoint.")


def platform_overrides(values):
    """Apply the platform's mapping to parsed flag values (a FLAGS object); returns it."""
    if not values.dataset_dir:
        values.dataset_dir = values.data_dir
    if not values.train_dir:
        values.train_dir = values.output_dir
    if values.num_clones <= 0:
        values.num_clones = max(values.num_gpus, 1)
    if values.max_number_of_steps is None and values.max_step > 0:
        values.max_number_of_steps = values.max_step
    return values
