"""SavedModel export with a serving signature, and evaluation of a plain (undistributed) model copy.

Both work on a copy of the trained weights in a model built outside any strategy: under
MultiWorkerMirrored, reading a batch-norm moving average is a collective every worker must
join, so every worker reads the weights (`read_weights`) and only the chief uses them.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterable
from typing import Any

import tensorflow as tf

SIGNATURE = "serving_default"


def read_weights(model: tf.keras.Model) -> list[Any]:
    """The model's weights as numpy arrays; under MultiWorkerMirrored every worker must call it."""
    return model.get_weights()


def plain_copy(build_model: Callable[[], tf.keras.Model], weights: list[Any], image_size: int) -> tf.keras.Model:
    """A model from `build_model()` under the default strategy, holding `weights`."""
    with tf.distribute.get_strategy().scope():
        model = build_model()
        model(tf.zeros([1, image_size, image_size, 3]), training=False)
    model.set_weights(weights)
    return model


class Serving(tf.Module):
    """`serving_default`: float images [batch, size, size, 3] -> classes, probabilities."""

    def __init__(self, model: tf.keras.Model, image_size: int) -> None:
        super().__init__()
        self.model = model
        self.serve = tf.function(
            self._serve, input_signature=[tf.TensorSpec([None, image_size, image_size, 3], tf.float32, name="images")]
        )

    def _serve(self, images: tf.Tensor) -> dict[str, tf.Tensor]:
        logits = self.model(images, training=False)
        return {"classes": tf.argmax(logits, 1, output_type=tf.int32), "probabilities": tf.nn.softmax(logits)}


def save(model: tf.keras.Model, export_root: str, step: int, image_size: int) -> str:
    """Write `<export_root>/<step>` whole or not at all; return its path."""
    target = os.path.join(export_root, str(step))
    partial = target + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    module = Serving(model, image_size)
    tf.saved_model.save(module, partial, signatures={SIGNATURE: module.serve})
    shutil.rmtree(target, ignore_errors=True)
    os.replace(partial, target)
    return target


def evaluate(model: tf.keras.Model, dataset: Iterable[tuple[tf.Tensor, tf.Tensor]]) -> dict[str, float]:
    """{"top_1_accuracy", "top_5_accuracy", "images"} of `model` over every batch of `dataset`."""
    top_1 = tf.keras.metrics.SparseCategoricalAccuracy()
    top_5 = tf.keras.metrics.SparseTopKCategoricalAccuracy(5)

    @tf.function
    def update(images: tf.Tensor, labels: tf.Tensor) -> None:
        logits = model(images, training=False)
        top_1.update_state(labels, logits)
        top_5.update_state(labels, logits)

    images = 0
    for batch_images, labels in dataset:
        update(batch_images, labels)
        images += int(labels.shape[0])
    return {"top_1_accuracy": float(top_1.result()), "top_5_accuracy": float(top_5.result()), "images": images}
