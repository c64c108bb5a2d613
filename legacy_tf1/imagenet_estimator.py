"""The TensorFlow half of `legacy_tf1.imagenet_main`: the Estimator, its input and train/evaluate loop, the export.

Imported by the program once its flags, TF_CONFIG and data folder are checked; it imports TensorFlow (after
`compat.install()`, as the program did).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import compat

compat.install()

import tensorflow as tf  # noqa: E402

import compat.flags as flags  # noqa: E402
from compat import strategy  # noqa: E402
from compat.devices import session_config  # noqa: E402
from legacy_tf1 import resnet_model_fn  # noqa: E402
from legacy_tf1.imagenet_flags import MIRRORED, TOWERS  # noqa: E402
from trainlib.data import imagenet  # noqa: E402
from trainlib.training import schedule  # noqa: E402
from trainlib.training.resnet_config import ResNetConfig  # noqa: E402

if TYPE_CHECKING:
    from compat.tf_config import ClusterConfig

v1 = tf.compat.v1
FLAGS = flags.FLAGS  # parsed by legacy_tf1.imagenet_main before it imports this module


def local_devices(count: int) -> list[str]:
    kind = "gpu" if tf.config.list_physical_devices("GPU") else "cpu"
    return [f"/{kind}:{i}" for i in range(count)]


def device_plan(cluster: ClusterConfig, count: int) -> tuple[list[str], list[str]]:
    """(tower devices, parameter devices) of this task: ps tasks when there are any, else the flag's choice."""
    prefix = f"/job:{cluster.task_type}/task:{cluster.task_index}" if cluster.is_distributed else ""
    tower_devices = [prefix + name for name in local_devices(count)]
    if cluster.num_ps:
        return tower_devices, [f"/job:ps/task:{t}/device:CPU:0" for t in range(cluster.num_ps)]
    if FLAGS.variable_strategy == "GPU":
        return tower_devices, tower_devices
    return tower_devices, [prefix + "/cpu:0"]


def model_params(cluster: ClusterConfig, num_towers: int) -> dict[str, Any]:
    """The Estimator's params: the ResNet config from the flags, and this task's deployment."""
    tower_devices, parameter_devices = device_plan(cluster, num_towers)
    deployment = resnet_model_fn.Deployment(
        towers=num_towers if FLAGS.multi_device == TOWERS else 1,
        tower_devices=tuple(tower_devices),
        parameter_devices=tuple(parameter_devices),
        balance="greedy" if FLAGS.variable_strategy == "GPU" else "round_robin",
        sync_replicas=cluster.num_workers if FLAGS.sync and cluster.is_distributed else 0,
        is_chief=cluster.is_chief,
        log_dir=extra_log_dir(),
        summary_steps=FLAGS.log_every_n_steps,
    )
    return resnet_model_fn.estimator_params(ResNetConfig.from_flags(FLAGS), deployment)


def build_estimator(cluster: ClusterConfig, num_devices: int) -> tf.estimator.Estimator:
    mirrored = FLAGS.multi_device == MIRRORED and num_devices > 1
    run_config = strategy.run_config(
        cluster,
        num_devices=num_devices,
        train_distribute="auto" if mirrored else None,
        session_config=session_config(
            num_devices,
            intra_op_parallelism_threads=FLAGS.num_intra_threads,
            inter_op_parallelism_threads=FLAGS.num_inter_threads,
            log_device_placement=FLAGS.log_device_placement,
        ),
        model_dir=FLAGS.output_dir,
        save_checkpoints_steps=FLAGS.save_checkpoints_steps,
        save_summary_steps=FLAGS.log_every_n_steps,
        log_step_count_steps=FLAGS.log_every_n_steps,
        tf_random_seed=FLAGS.seed or None,
    )
    return tf.estimator.Estimator(
        resnet_model_fn.model_fn, config=run_config, params=model_params(cluster, num_devices)
    )


def input_fns() -> tuple[Callable[..., tf.data.Dataset], Callable[..., tf.data.Dataset]]:
    common = {"image_size": FLAGS.image_size, "num_classes": FLAGS.num_classes, "seed": FLAGS.seed or None}
    train = imagenet.input_fn(FLAGS.data_dir, True, FLAGS.train_batch_size, **common)
    evaluate = imagenet.input_fn(FLAGS.data_dir, False, FLAGS.eval_batch_size, repeat=False, **common)
    return train, evaluate


def extra_log_dir() -> str | None:
    """`--log_dir` when it is not the model folder (where Estimator writes summaries anyway)."""
    same = os.path.abspath(FLAGS.log_dir) == os.path.abspath(FLAGS.output_dir)
    return None if same else FLAGS.log_dir


def train_locally(
    estimator: tf.estimator.Estimator,
    train_input: Callable[..., tf.data.Dataset],
    eval_input: Callable[..., tf.data.Dataset],
    total_steps: int,
) -> dict[str, Any]:
    """Train in chunks of `--epochs_per_eval` epochs, evaluating after each; return the last metrics."""
    chunk = FLAGS.epochs_per_eval * schedule.steps_per_epoch(FLAGS.train_images, FLAGS.train_batch_size)
    metrics: dict[str, Any] = {}
    step = estimator.get_variable_value("global_step") if estimator.latest_checkpoint() else 0
    while step < total_steps:
        step = min(step + chunk, total_steps)
        estimator.train(train_input, max_steps=step)
        metrics = estimator.evaluate(eval_input, steps=FLAGS.eval_steps or None)
        print(
            f"step {metrics['global_step']}/{total_steps} loss {metrics['loss']:.4f} "
            f"top_1 {metrics['top_1_accuracy']:.4f} top_5 {metrics['top_5_accuracy']:.4f}",
            flush=True,
        )
    return metrics


def export(estimator: tf.estimator.Estimator) -> str:
    path = estimator.export_saved_model(
        os.path.join(FLAGS.output_dir, "export"), resnet_model_fn.serving_input_receiver_fn(FLAGS.image_size)
    )
    path = path.decode() if isinstance(path, bytes) else path
    print(f"exported SavedModel to {path}", flush=True)
    return path


def run(cluster: ClusterConfig, num_devices: int) -> int:
    """Train (and export on the chief) as `legacy_tf1.imagenet_main` was asked to, its input checked so far."""
    if not cluster.is_ps:
        imagenet.shard_files(FLAGS.data_dir, True)
        imagenet.shard_files(FLAGS.data_dir, False)
    total_steps = schedule.train_steps(FLAGS.max_step, FLAGS.train_epochs, FLAGS.train_images, FLAGS.train_batch_size)
    estimator = build_estimator(cluster, num_devices)
    train_input, eval_input = input_fns()
    if cluster.is_distributed:
        tf.estimator.train_and_evaluate(
            estimator,
            tf.estimator.TrainSpec(train_input, max_steps=total_steps),
            tf.estimator.EvalSpec(eval_input, steps=FLAGS.eval_steps or None, throttle_secs=0),
        )
    else:
        train_locally(estimator, train_input, eval_input, total_steps)
    if cluster.is_chief and FLAGS.export:
        export(estimator)
    return 0
