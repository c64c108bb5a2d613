"""`TF1StyleLayer`: a graph-style network function as a Keras layer, for eager mode and TF2 strategies.

    layer = TF1StyleLayer(fn)                # fn(inputs, training) built from variable scopes,
    outputs = layer(inputs, training=True)   # tf.compat.v1.layers or tf-slim
    layer.trainable_variables, layer.losses  # the variables fn created; its regularization losses

TensorFlow's own `tf.compat.v1.keras.utils.track_tf1_style_variables` makes the layer own the
variables `fn` creates through `tf.compat.v1.get_variable`, named by their variable-scope paths
exactly as in graph mode (no Keras prefix): the property `compat.models.checkpoint` relies on.
On TF >= 2.16 this needs legacy Keras (`import compat` before TensorFlow selects it).
"""

import compat  # noqa: F401
import tensorflow as tf


class TF1StyleLayer(tf.keras.layers.Layer):
    """Call `network(inputs, training)` with its variables tracked by this layer."""

    def __init__(self, network, **kwargs):
        super().__init__(**kwargs)
        self.network = network

    @tf.compat.v1.keras.utils.track_tf1_style_variables
    def call(self, inputs, training=None):
        return self.network(inputs, False if training is None else training)
