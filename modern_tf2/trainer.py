"""One training step of a classifier, the same under every `tf.distribute` strategy (or none).

    optimizer = trainer.sgd_momentum(trainer.resnet_learning_rate(0.1, batches_per_epoch), 0.9)
    steps = trainer.Trainer(model, optimizer, weight_decay=1e-4)
    loss = steps.step(images, labels)            # eager caller, one device: one batch -> float loss
    losses = trainer.train_steps(model, optimizer, batches, weight_decay=1e-4)
    step, values = steps.progress(mean_loss)     # a progress line's values, one device-to-host read

The loss is the legacy Estimator program's (`legacy_tf1.resnet_model_fn.loss_of`): mean sparse
softmax cross-entropy + weight_decay * `l2_weights(trainable_variables)`. Under a strategy each
replica minimises its share, loss / replicas: the optimizer sums the replicas' gradients, so the
update is the one of the global batch's mean loss, as the Estimator's tower average was.

Momentum: Keras SGD keeps v = m*v - lr*g (TF1's MomentumOptimizer keeps a = m*a + g and steps
lr*a). The two are the same update while the rate is constant; they differ only in the steps
right after a learning-rate boundary (epochs 30/60/80/90), where Keras damps the old rate's
velocity instead of rescaling it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

import tensorflow as tf

import compat  # noqa: F401 - selects tf-keras before TensorFlow binds Keras
from trainlib.models.resnet import l2_weights
from trainlib.training import schedule, slim_optimization


class StepSchedule(tf.keras.optimizers.schedules.LearningRateSchedule):
    """A learning-rate schedule from any `rate_of_step(step)` function (Keras passes the step before the update)."""

    def __init__(self, rate_of_step: Callable[[tf.Tensor], tf.Tensor]) -> None:
        self.rate_of_step = rate_of_step

    def __call__(self, step: tf.Tensor) -> tf.Tensor:
        return self.rate_of_step(step)

    def get_config(self) -> dict[str, Any]:
        return {}


def resnet_learning_rate(base_rate: float, batches_per_epoch: float) -> StepSchedule:
    """The legacy program's piecewise-constant schedule (`trainlib.training.schedule.learning_rate`)."""
    return StepSchedule(
        functools.partial(schedule.learning_rate, base_rate=base_rate, batches_per_epoch=batches_per_epoch)
    )


def sgd_momentum(learning_rate: float | Callable[..., Any], momentum: float) -> tf.keras.optimizers.Optimizer:
    return tf.keras.optimizers.SGD(learning_rate=learning_rate, momentum=momentum)


def slim_learning_rate(options: Any, samples_per_epoch: int) -> float | Callable:
    """slim's `_configure_learning_rate`: a Keras schedule or the fixed rate (`trainlib.training.slim_optimization`)."""
    decay = slim_optimization.decay(options)
    if decay is None:
        return options.learning_rate
    decay_class = getattr(tf.keras.optimizers.schedules, decay.keras)
    return decay_class(options.learning_rate, **decay.arguments(options, samples_per_epoch))


def slim_optimizer(options: Any, samples_per_epoch: int) -> tf.keras.optimizers.Optimizer:
    """slim's `_configure_optimizer`: the Keras class of the `trainlib.training.slim_optimization` row."""
    row = slim_optimization.optimizer(options)
    rate = slim_learning_rate(options, samples_per_epoch)
    return getattr(tf.keras.optimizers, row.keras)(rate, **row.arguments(options, slim_optimization.KERAS))


def classification_loss(logits: tf.Tensor, labels: tf.Tensor) -> tf.Tensor:
    return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))


class Trainer:
    """Forward, loss, gradients and update of `model` on one batch per replica, plus top-1/top-5 accuracy.

    `decayed_weights(variables)` is the weight-decay term before scaling (ResNet: `l2_weights`, kernels
    only); `data_loss(logits, labels)` the rest (default: mean sparse softmax cross-entropy). Build the model, optimizer and Trainer under `strategy.scope()` when there is a strategy.
    """

    PROGRESS_FIELDS = ("loss", "learning_rate", "top_1_accuracy", "top_5_accuracy")  # the names `progress` returns

    def __init__(
        self,
        model: tf.keras.Model,
        optimizer: tf.keras.optimizers.Optimizer,
        weight_decay: float,
        strategy: tf.distribute.Strategy | None = None,
        decayed_weights: Callable[[list[tf.Variable]], tf.Tensor] = l2_weights,
        data_loss: Callable[[tf.Tensor, tf.Tensor], tf.Tensor] = classification_loss,
    ) -> None:
        self.model = model
        self.data_loss = data_loss
        self.optimizer = optimizer
        self.weight_decay = weight_decay
        self.decayed_weights = decayed_weights
        self.strategy = strategy or tf.distribute.get_strategy()
        with self.strategy.scope():
            self.top_1 = tf.keras.metrics.SparseCategoricalAccuracy("top_1_accuracy")
            self.top_5 = tf.keras.metrics.SparseTopKCategoricalAccuracy(5, "top_5_accuracy")
        self.distributed_step = tf.function(self._distributed_step)
        self._batch_step = tf.function(self._run)
        self._progress_values = tf.function(self._stack_progress_values)

    def loss(self, logits: tf.Tensor, labels: tf.Tensor) -> tf.Tensor:
        """The loss the legacy Estimator program minimises, for one replica's batch."""
        return self.data_loss(logits, labels) + self.weight_decay * self.decayed_weights(self.model.trainable_variables)

    def replica_step(self, images: tf.Tensor, labels: tf.Tensor) -> tf.Tensor:
        """One replica's step; returns its share of the global loss (loss / replicas)."""
        variables = self.model.trainable_variables
        with tf.GradientTape() as tape:
            logits = self.model(images, training=True)
            share = self.loss(logits, labels) / self.strategy.num_replicas_in_sync
        self.optimizer.apply_gradients(zip(tape.gradient(share, variables), variables))
        self.top_1.update_state(labels, logits)
        self.top_5.update_state(labels, logits)
        return share

    def _run(self, images: tf.Tensor, labels: tf.Tensor) -> tf.Tensor:
        shares = self.strategy.run(self.replica_step, args=(images, labels))
        return self.strategy.reduce(tf.distribute.ReduceOp.SUM, shares, axis=None)

    def _distributed_step(self, iterator: Any) -> tf.Tensor:
        images, labels = next(iterator)
        return self._run(images, labels)

    def step(self, images: Any, labels: Any) -> float:
        """Train on one batch given by the caller (eager code, tests); return the loss before the update."""
        return float(self._batch_step(tf.convert_to_tensor(images), tf.convert_to_tensor(labels)))

    def progress(self, loss: Any) -> tuple[int, dict[str, float]]:
        """The optimizer's step and a progress line's values (`loss`, the rate of the last step, the metrics).

        One device-to-host transfer for all of them: each `float(tensor)` would wait for the device
        on its own. The values are the float32 ones, read exactly (through float64).
        """
        step, *values = self._progress_values(tf.convert_to_tensor(loss)).numpy().tolist()
        return int(step), dict(zip(self.PROGRESS_FIELDS, values))

    def _stack_progress_values(self, loss: tf.Tensor) -> tf.Tensor:
        rate, top_1, top_5 = _current_rate(self.optimizer), self.top_1.result(), self.top_5.result()
        return tf.stack([tf.cast(value, tf.float64) for value in (self.optimizer.iterations, loss, rate, top_1, top_5)])

    def reset_metrics(self) -> None:
        self.top_1.reset_state()
        self.top_5.reset_state()


def _current_rate(optimizer: tf.keras.optimizers.Optimizer) -> tf.Tensor:
    """The rate of the last step (tf-keras keeps it in a possibly distributed variable)."""
    rate = optimizer.learning_rate
    return rate(optimizer.iterations) if callable(rate) else tf.convert_to_tensor(rate)


def train_steps(
    model: tf.keras.Model,
    optimizer: tf.keras.optimizers.Optimizer,
    batches: Iterable[tuple[Any, Any]],
    weight_decay: float,
    decayed_weights: Callable[[list[tf.Variable]], tf.Tensor] = l2_weights,
) -> list[float]:
    """Train on each (images, labels) of `batches` in turn, on the current strategy; return the losses."""
    trainer = Trainer(model, optimizer, weight_decay, decayed_weights=decayed_weights)
    return [trainer.step(images, labels) for images, labels in batches]
