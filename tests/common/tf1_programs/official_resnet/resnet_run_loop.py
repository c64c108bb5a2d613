"""What every official ResNet program shares: the input pipeline, the model_fn, the train/evaluate loop, the flags.

As TF 1.5-1.8's official/resnet wrote it: an Estimator whose model_fn, with --multi_gpu, is replicated
over the local GPUs by tf.contrib.estimator.replicate_model_fn (its optimizer a TowerOptimizer), and a
tf.data pipeline with tf.contrib.data's map_and_batch.

Added for machines without GPUs: --tower_device=CPU --num_cpu_devices=N runs the towers on N logical CPUs
(the session's device_count); --seed, --log_every_n_steps and --num_filters make tiny, repeatable runs.
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import argparse
import os

import tensorflow as tf

from tensorflow.python.client import device_lib

import resnet_model


################################################################################
# Functions for input processing.
################################################################################
def process_record_dataset(
    dataset,
    is_training,
    batch_size,
    shuffle_buffer,
    parse_record_fn,
    num_epochs=1,
    num_parallel_calls=1,
    examples_per_epoch=0,
    multi_gpu=False,
):
    """Records -> (image, label) batches: prefetched, shuffled when training, repeated, parsed and batched."""
    # prefetching overlaps reading with the model's work on the previous batch
    dataset = dataset.prefetch(buffer_size=batch_size)
    if is_training:
        # a larger buffer shuffles better but takes longer to fill and more memory
        dataset = dataset.shuffle(buffer_size=shuffle_buffer)

    # repeating after shuffling keeps the epochs apart
    dataset = dataset.repeat(num_epochs)

    # with several GPUs every batch must split evenly into the towers: a partial last batch is dropped
    if multi_gpu:
        total_examples = num_epochs * examples_per_epoch
        dataset = dataset.take(batch_size * (total_examples // batch_size))

    # parse and batch in one transformation (parallel JPEG decoding, no intermediate dataset)
    dataset = dataset.apply(
        tf.contrib.data.map_and_batch(
            lambda value: parse_record_fn(value, is_training), batch_size=batch_size, num_parallel_batches=1
        )
    )

    # one batch ready while the model trains on the last one
    dataset = dataset.prefetch(1)
    return dataset


def get_synth_input_fn(height, width, num_channels, num_classes):
    """An input_fn of constant random images and labels, to measure the model without the input pipeline."""

    def input_fn(is_training, data_dir, batch_size, *args, **kwargs):  # pylint: disable=unused-argument
        images = tf.zeros((batch_size, height, width, num_channels), tf.float32)
        labels = tf.zeros((batch_size, num_classes), tf.int32)
        return tf.data.Dataset.from_tensors((images, labels)).repeat()

    return input_fn


################################################################################
# Functions for running training/eval/validation loops for the model.
################################################################################
def learning_rate_with_decay(batch_size, batch_denom, num_images, boundary_epochs, decay_rates):
    """A function of the global step: the learning rate scaled by batch_size / batch_denom, cut at the boundary epochs."""
    initial_learning_rate = 0.1 * batch_size / batch_denom
    batches_per_epoch = num_images / batch_size

    # the step at which each boundary epoch starts, and the rate from there on
    boundaries = [int(batches_per_epoch * epoch) for epoch in boundary_epochs]
    vals = [initial_learning_rate * decay for decay in decay_rates]

    def learning_rate_fn(global_step):
        global_step = tf.cast(global_step, tf.int32)
        return tf.train.piecewise_constant(global_step, boundaries, vals)

    return learning_rate_fn


def resnet_model_fn(
    features,
    labels,
    mode,
    model_class,
    resnet_size,
    weight_decay,
    learning_rate_fn,
    momentum,
    data_format,
    version,
    loss_filter_fn=None,
    multi_gpu=False,
    num_filters=None,
):
    """The EstimatorSpec of a ResNet for `mode`: predictions, a weight-decayed cross-entropy, momentum SGD, accuracy."""
    # the images are summarised once per run: how the pipeline left them
    tf.summary.image("images", features, max_outputs=6)

    model = model_class(resnet_size, data_format, version=version, num_filters=num_filters)
    logits = model(features, mode == tf.estimator.ModeKeys.TRAIN)

    predictions = {"classes": tf.argmax(logits, axis=1), "probabilities": tf.nn.softmax(logits, name="softmax_tensor")}

    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode=mode, predictions=predictions)

    cross_entropy = tf.losses.softmax_cross_entropy(logits=logits, onehot_labels=labels)

    # named for the logging hook; summarised for TensorBoard
    tf.identity(cross_entropy, name="cross_entropy")
    tf.summary.scalar("cross_entropy", cross_entropy)

    # by default batch normalisation's scales and shifts are not decayed
    def exclude_batch_norm(name):
        return "batch_normalization" not in name

    loss_filter_fn = loss_filter_fn or exclude_batch_norm

    l2_loss = weight_decay * tf.add_n([tf.nn.l2_loss(v) for v in tf.trainable_variables() if loss_filter_fn(v.name)])
    tf.summary.scalar("l2_loss", l2_loss)
    loss = cross_entropy + l2_loss

    if mode == tf.estimator.ModeKeys.TRAIN:
        global_step = tf.train.get_or_create_global_step()

        learning_rate = learning_rate_fn(global_step)

        tf.identity(learning_rate, name="learning_rate")
        tf.summary.scalar("learning_rate", learning_rate)

        optimizer = tf.train.MomentumOptimizer(learning_rate=learning_rate, momentum=momentum)

        # with --multi_gpu the model_fn is replicated: its optimizer gathers the towers' gradients
        if multi_gpu:
            optimizer = tf.contrib.estimator.TowerOptimizer(optimizer)

        # batch normalisation's moving averages are updated by each training step
        update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
        with tf.control_dependencies(update_ops):
            train_op = optimizer.minimize(loss, global_step)
    else:
        train_op = None

    accuracy = tf.metrics.accuracy(tf.argmax(labels, axis=1), predictions["classes"])
    metrics = {"accuracy": accuracy}

    tf.identity(accuracy[1], name="train_accuracy")
    tf.summary.scalar("train_accuracy", accuracy[1])

    return tf.estimator.EstimatorSpec(
        mode=mode, predictions=predictions, loss=loss, train_op=train_op, eval_metric_ops=metrics
    )


def session_config(flags):
    """The session's thread pools and, with --tower_device=CPU, its logical CPUs."""
    return tf.ConfigProto(
        inter_op_parallelism_threads=flags.inter_op_parallelism_threads,
        intra_op_parallelism_threads=flags.intra_op_parallelism_threads,
        device_count={"CPU": flags.num_cpu_devices},
        allow_soft_placement=True,
    )


def tower_devices(flags):
    """The devices the model_fn is replicated over: the local GPUs (or the session's CPUs with --tower_device=CPU)."""
    local_device_protos = device_lib.list_local_devices(session_config(flags))
    return [d.name for d in local_device_protos if d.device_type == flags.tower_device]


def validate_batch_size_for_multi_gpu(batch_size, devices):
    """Each tower takes batch_size / len(devices) examples: the division must be exact."""
    num_gpus = len(devices)
    if not num_gpus:
        raise ValueError("Multi-GPU mode was specified, but no GPUs were found. To use CPU, run without --multi_gpu.")

    remainder = batch_size % num_gpus
    if remainder:
        err = (
            "When running with multiple GPUs, batch size must be a multiple of the number of available GPUs. "
            "Found {} GPUs with a batch size of {}; try --batch_size={} instead."
        ).format(num_gpus, batch_size, batch_size - remainder)
        raise ValueError(err)


def resnet_main(flags, model_function, input_function):
    """Trains for --train_epochs, evaluating every --epochs_between_evals epochs."""
    # the autotuner picks the fastest convolution algorithms
    os.environ["TF_ENABLE_WINOGRAD_NONFUSED"] = "1"

    if flags.multi_gpu:
        devices = tower_devices(flags)
        validate_batch_size_for_multi_gpu(flags.batch_size, devices)

        # multi-GPU takes two steps: the model_fn is replicated here, and its optimizer is a
        # TowerOptimizer (resnet_model_fn)
        model_function = tf.contrib.estimator.replicate_model_fn(
            model_function, loss_reduction=tf.losses.Reduction.MEAN, devices=devices
        )

    # checkpoints at the end of each train call only
    run_config = tf.estimator.RunConfig(
        session_config=session_config(flags), tf_random_seed=flags.seed, log_step_count_steps=flags.log_every_n_steps
    ).replace(save_checkpoints_secs=1e9)
    classifier = tf.estimator.Estimator(
        model_fn=model_function,
        model_dir=flags.model_dir,
        config=run_config,
        params={
            "resnet_size": flags.resnet_size,
            "data_format": flags.data_format,
            "batch_size": flags.batch_size,
            "multi_gpu": flags.multi_gpu,
            "version": flags.version,
            "num_filters": flags.num_filters,
        },
    )

    for _ in range(flags.train_epochs // flags.epochs_between_evals):
        tensors_to_log = {
            "learning_rate": "learning_rate",
            "cross_entropy": "cross_entropy",
            "train_accuracy": "train_accuracy",
        }

        logging_hook = tf.train.LoggingTensorHook(tensors=tensors_to_log, every_n_iter=flags.log_every_n_steps)

        print("Starting a training cycle.")

        def input_fn_train():
            return input_function(
                True,
                flags.data_dir,
                flags.batch_size,
                flags.epochs_between_evals,
                flags.num_parallel_calls,
                flags.multi_gpu,
            )

        classifier.train(input_fn=input_fn_train, hooks=[logging_hook], max_steps=flags.max_train_steps)

        print("Starting to evaluate.")

        # evaluation reads the validation set once (at most --max_train_steps batches)
        def input_fn_eval():
            return input_function(False, flags.data_dir, flags.batch_size, 1, flags.num_parallel_calls, flags.multi_gpu)

        eval_results = classifier.evaluate(input_fn=input_fn_eval, steps=flags.max_train_steps)
        print(eval_results)

        if flags.stop_threshold is not None and eval_results["accuracy"] >= flags.stop_threshold:
            break


class ResnetArgParser(argparse.ArgumentParser):
    """The ResNet programs' flags."""

    def __init__(self, resnet_size_choices=None):
        super(ResnetArgParser, self).__init__()
        self.add_argument("--data_dir", "-dd", default="/tmp/resnet_data", help="The directory of the input data.")
        self.add_argument(
            "--model_dir", "-md", default="/tmp/resnet_model", help="The directory where the model will be stored."
        )
        self.add_argument(
            "--train_epochs", "-te", type=int, default=1, help="The number of epochs to use for training."
        )
        self.add_argument(
            "--epochs_between_evals",
            "-ebe",
            type=int,
            default=1,
            help="The number of training epochs to run between evaluations.",
        )
        self.add_argument(
            "--stop_threshold", "-st", type=float, default=None, help="The accuracy at which training stops."
        )
        self.add_argument("--batch_size", "-bs", type=int, default=32, help="Batch size for training and evaluation.")
        self.add_argument(
            "--multi_gpu",
            action="store_true",
            help="If set, run across all available GPUs (the batch size must divide by their number).",
        )
        self.add_argument(
            "--max_train_steps",
            "-mts",
            type=int,
            default=None,
            help="The training steps; evaluation takes as many batches at most.",
        )
        self.add_argument(
            "--num_parallel_calls",
            "-npc",
            type=int,
            default=5,
            help="The number of records processed in parallel by the input pipeline.",
        )
        self.add_argument(
            "--inter_op_parallelism_threads",
            "-inter",
            type=int,
            default=0,
            help="Threads for independent ops (0: as many as the system picks).",
        )
        self.add_argument(
            "--intra_op_parallelism_threads",
            "-intra",
            type=int,
            default=0,
            help="Threads within one op (0: as many as the system picks).",
        )
        self.add_argument(
            "--use_synthetic_data",
            "-synth",
            action="store_true",
            help="Train on constant images, to measure the model without the input pipeline.",
        )
        self.add_argument(
            "--data_format",
            "-df",
            default=None,
            choices=["channels_first", "channels_last"],
            help="channels_first (faster on GPUs) or channels_last (CPUs); default: by the build.",
        )
        self.add_argument(
            "--version", "-v", type=int, choices=[1, 2], default=resnet_model.DEFAULT_VERSION, help="ResNet v1 or v2."
        )
        self.add_argument(
            "--resnet_size",
            "-rs",
            type=int,
            default=50,
            choices=resnet_size_choices,
            help="The size of the ResNet model to use.",
        )
        # for machines without GPUs, and tiny repeatable runs
        self.add_argument(
            "--tower_device",
            choices=["GPU", "CPU"],
            default="GPU",
            help="The device type --multi_gpu replicates the model over.",
        )
        self.add_argument("--num_cpu_devices", type=int, default=1, help="Logical CPU devices of the session.")
        self.add_argument("--seed", type=int, default=None, help="The graph-level random seed.")
        self.add_argument("--log_every_n_steps", type=int, default=100, help="Steps between loss log lines.")
        self.add_argument(
            "--num_filters", type=int, default=None, help="The first convolution's filters (default: the model's own)."
        )
