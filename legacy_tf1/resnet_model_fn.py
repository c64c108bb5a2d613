"""The ResNet Estimator `model_fn`, in the platform example's multi-GPU design.

With `towers > 1` the global batch is split over towers; each tower runs on its own device
under a compat device setter that puts the variables on the parameter devices; gradients
are averaged on each variable's device; batch-norm statistics are updated from tower 0 only.
With one tower no setter is installed, so a parameter-server Estimator's own device function
(from TF_CONFIG) places the variables.

`params` (the Estimator's params dict) is `estimator_params(config, deployment)`: the fields of
`trainlib.training.resnet_config.ResNetConfig` (the network and its optimisation, as the TF2
program builds them too) and of `Deployment` (towers, devices, replicas: this program's only).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import tensorflow as tf

import compat
from compat import devices
from trainlib.models.resnet import l2_weights
from trainlib.training import schedule
from trainlib.training.resnet_config import ResNetConfig

v1: Any = tf.compat.v1  # (Any: a base class below is read from it)
# The variables live under this scope in every mode: the checkpoint the towers write is the
# one evaluation, export and `trainlib.models.names` read.
SCOPE = "resnet"


@dataclasses.dataclass(frozen=True)
class Deployment:
    """How this task trains: one tower (the default) or several on their devices, and the replicas."""

    towers: int = 1
    tower_devices: tuple[str, ...] = ("/cpu:0",)
    parameter_devices: tuple[str, ...] = ("/cpu:0",)
    balance: str = "round_robin"  # how the tower setter spreads variables over parameter devices
    sync_replicas: int = 0  # workers whose gradients one step aggregates; 0: asynchronous
    is_chief: bool = True
    log_dir: str | None = None  # a second summary folder, or None
    summary_steps: int = 100

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> Deployment:
        return cls(**{field.name: params[field.name] for field in dataclasses.fields(cls)})


def estimator_params(config: ResNetConfig, deployment: Deployment = Deployment()) -> dict[str, Any]:
    """The Estimator `params` dict of `model_fn`: the config's fields and the deployment's."""
    return config.as_params(**dataclasses.asdict(deployment))


def build_model(config: ResNetConfig) -> tf.keras.Model:
    """The shared ResNet with its variables created, under the current device."""
    model = config.build_model()
    # Created here rather than by the first tower's call, whose name scope (`tower_0/`) would
    # otherwise end up in every variable name.
    with v1.variable_scope(SCOPE):
        model.build((None, config.image_size, config.image_size, 3))
    return model


def loss_of(model: tf.keras.Model, logits: tf.Tensor, labels: tf.Tensor, weight_decay: float) -> tf.Tensor:
    """Mean cross-entropy plus L2 weight decay: the loss both runtimes minimise."""
    cross_entropy = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    return cross_entropy + weight_decay * l2_weights(model.trainable_variables)


def _tower_setters(deployment: Deployment) -> list[devices.DeviceFunction | None]:
    if deployment.towers == 1:
        return [None]
    return [
        devices.tower_setter(device, list(deployment.parameter_devices), deployment.balance)
        for device in deployment.tower_devices
    ]


def _placed(setter: devices.DeviceFunction | None) -> contextlib.AbstractContextManager[Any]:
    return compat.device(setter) if setter else contextlib.nullcontext()


def _tower_updates(model: tf.keras.Model, tower: int) -> list[Any]:
    """The batch-norm moving-average updates made in `tower`'s name scope.

    Keras layers keep their updates on the model (`model.updates`), not in UPDATE_OPS; every
    tower adds its own, and the example applies tower 0's.
    """
    prefix = f"tower_{tower}/"
    return [u for u in model.updates if getattr(u, "op", u).name.startswith(prefix)]


def _towers(
    model: tf.keras.Model,
    images: tf.Tensor,
    labels: tf.Tensor,
    config: ResNetConfig,
    setters: Sequence[devices.DeviceFunction | None],
) -> list[tuple[tf.Tensor, tf.Tensor, list[tf.Tensor]]]:
    """Per tower: (logits, loss, gradients of the trainable variables)."""
    variables = model.trainable_variables
    results = []
    splits = zip(tf.split(images, len(setters)), tf.split(labels, len(setters)))
    for index, ((tower_images, tower_labels), setter) in enumerate(zip(splits, setters)):
        with tf.name_scope(f"tower_{index}"), _placed(setter):
            logits = model(tower_images, training=True)
            loss = loss_of(model, logits, tower_labels, config.weight_decay)
            results.append((logits, loss, tf.gradients(loss, variables)))
    return results


def _average(
    tower_gradients: Sequence[Sequence[tf.Tensor]], variables: Sequence[tf.Variable]
) -> list[tuple[tf.Tensor, tf.Variable]]:
    """Gradients averaged over towers, each on its variable's device."""
    averaged = []
    for variable, grads in zip(variables, zip(*tower_gradients)):
        with tf.device(variable.device):
            averaged.append((tf.add_n(list(grads)) / len(grads), variable))
    return averaged


class _ShortStopGrace(v1.train.SessionRunHook):
    """End a synchronous task in seconds, not minutes.

    At the end of SyncReplicasOptimizer training the chief's queue runner still waits for
    gradients of workers that have stopped, and the session Estimator.train opens waits the
    Coordinator's grace period (120 s, not configurable through Estimator) for that thread before
    closing, which cancels the wait anyway. slim_main gives its own session the same 5 s.
    """

    SECONDS = 5

    def after_create_session(self, session: Any, coord: Any) -> None:
        join = coord.join

        def join_briefly(
            threads: Any = None, stop_grace_period_secs: float = 120, ignore_live_threads: bool = False
        ) -> None:
            return join(threads, min(stop_grace_period_secs, self.SECONDS), ignore_live_threads)

        coord.join = join_briefly


def _optimizer(config: ResNetConfig, deployment: Deployment, global_step: tf.Variable) -> tuple[Any, list[Any]]:
    rate = schedule.learning_rate(global_step, config.learning_rate, config.batches_per_epoch)
    v1.summary.scalar("learning_rate", rate)
    optimizer = v1.train.MomentumOptimizer(rate, config.momentum)
    hooks: list[Any] = []
    if deployment.sync_replicas:
        replicas = deployment.sync_replicas
        optimizer = v1.train.SyncReplicasOptimizer(
            optimizer, replicas_to_aggregate=replicas, total_num_replicas=replicas
        )
        hooks += [optimizer.make_session_run_hook(deployment.is_chief), _ShortStopGrace()]
    return optimizer, hooks


def _train_spec(
    model: tf.keras.Model,
    features: tf.Tensor,
    labels: tf.Tensor,
    config: ResNetConfig,
    deployment: Deployment,
    setters: Sequence[devices.DeviceFunction | None],
) -> tf.estimator.EstimatorSpec:
    mode = tf.estimator.ModeKeys.TRAIN
    towers = _towers(model, features, labels, config, setters)
    global_step = v1.train.get_or_create_global_step()
    optimizer, hooks = _optimizer(config, deployment, global_step)
    averaged = _average([grads for _, _, grads in towers], model.trainable_variables)
    loss = tf.reduce_mean([loss for _, loss, _ in towers])
    logits = tf.concat([logits for logits, _, _ in towers], 0)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1, output_type=tf.int32), labels), tf.float32))
    v1.summary.scalar("train_accuracy", accuracy)
    # Every tower's gradients are computed before any update: TF1 ref variables alias their
    # buffers, so an early update could otherwise race another tower's backprop.
    with tf.control_dependencies([g for g, _ in averaged] + _tower_updates(model, 0)):
        train_op = optimizer.apply_gradients(averaged, global_step)
    if deployment.log_dir:
        summaries = v1.summary.merge_all()
        hooks.append(
            v1.train.SummarySaverHook(deployment.summary_steps, output_dir=deployment.log_dir, summary_op=summaries)
        )
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, training_hooks=hooks)


def _eval_spec(
    model: tf.keras.Model, features: tf.Tensor, labels: tf.Tensor, config: ResNetConfig
) -> tf.estimator.EstimatorSpec:
    logits = model(features, training=False)
    loss = loss_of(model, logits, labels, config.weight_decay)
    metrics = {
        "top_1_accuracy": v1.metrics.accuracy(labels, tf.argmax(logits, 1, output_type=tf.int32)),
        "top_5_accuracy": v1.metrics.mean(
            tf.cast(tf.math.in_top_k(targets=labels, predictions=logits, k=5), tf.float32)
        ),
    }
    return tf.estimator.EstimatorSpec(tf.estimator.ModeKeys.EVAL, loss=loss, eval_metric_ops=metrics)


def _predict_spec(model: tf.keras.Model, features: Any) -> tf.estimator.EstimatorSpec:
    images = features["images"] if isinstance(features, dict) else features
    logits = model(images, training=False)
    predictions = {"classes": tf.argmax(logits, 1, output_type=tf.int32), "probabilities": tf.nn.softmax(logits)}
    outputs = {"serving_default": tf.estimator.export.PredictOutput(predictions)}
    return tf.estimator.EstimatorSpec(tf.estimator.ModeKeys.PREDICT, predictions=predictions, export_outputs=outputs)


def model_fn(features: Any, labels: tf.Tensor | None, mode: str, params: dict[str, Any]) -> tf.estimator.EstimatorSpec:
    """Estimator `model_fn` for TRAIN (towers), EVAL (top-1/top-5) and PREDICT (classes, probabilities)."""
    config, deployment = ResNetConfig.from_params(params), Deployment.from_params(params)
    # The variables are created under tower 0's setter, which places them on the parameter devices.
    setters = _tower_setters(deployment) if mode == tf.estimator.ModeKeys.TRAIN else [None]
    with _placed(setters[0]):
        model = build_model(config)
    if mode == tf.estimator.ModeKeys.TRAIN:
        return _train_spec(model, features, labels, config, deployment, setters)
    if mode == tf.estimator.ModeKeys.EVAL:
        return _eval_spec(model, features, labels, config)
    return _predict_spec(model, features)


def serving_input_receiver_fn(image_size: int) -> Callable[[], tf.estimator.export.ServingInputReceiver]:
    """Export signature: float images [batch, size, size, 3], preprocessed as for evaluation."""

    def receiver() -> tf.estimator.export.ServingInputReceiver:
        images = v1.placeholder(tf.float32, [None, image_size, image_size, 3], name="images")
        return tf.estimator.export.ServingInputReceiver({"images": images}, {"images": images})

    return receiver
