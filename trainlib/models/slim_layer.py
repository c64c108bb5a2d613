"""A slim-zoo net as a Keras layer, for tf.distribute strategies: `SlimNetLayer("lenet", num_classes)`."""

from typing import Any

import tensorflow as tf

from trainlib.models import slim_zoo


class SlimNetLayer(tf.keras.layers.Layer):
    """A slim net as a Keras layer, for tf.distribute strategies (variables tracked by Keras)."""

    def __init__(self, model_name: str, num_classes: int, **kwargs: Any) -> None:
        super().__init__(name=model_name, **kwargs)
        slim_zoo.check_model_name(model_name)
        self.model_name, self.num_classes = model_name, num_classes

    @tf.compat.v1.keras.utils.track_tf1_style_variables
    def call(self, images: tf.Tensor, training: bool = False) -> tf.Tensor:
        return slim_zoo.build(self.model_name, images, self.num_classes, is_training=training)[0]
