"""A TF 1.x tf.keras program with its own optimizer: a subclass of tf.keras.optimizers.Optimizer (TF 1.x's
OptimizerV2) written with OptimizerV2's hooks (`_set_hyper`, `_create_slots`, `_resource_apply_dense`), made with
`lr=` passed through to the base class, and a subclass of tf.keras.optimizers.SGD overriding its dense update.

Since Keras 2.11 tf.keras.optimizers.Optimizer is another class (`build`, `update_step`), without those hooks; TF
1.x's is today's tf.keras.optimizers.legacy.Optimizer.

Prints `RESULT <json>`: per optimizer, the losses of each epoch and the rate read back. Weights and data are
constants. Its output on real TensorFlow 1.15 is tests/common/golden/tf115_keras_custom_optimizer.json (written by
`python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py).
"""

import json

import numpy as np
import tensorflow as tf

FEATURES = np.linspace(-1.0, 1.0, 16 * 3).reshape(16, 3).astype(np.float32)
TARGETS = (np.sin(FEATURES).sum(axis=1, keepdims=True) + 0.5).astype(np.float32)
KERNEL = np.linspace(-0.5, 0.5, 3 * 4).reshape(3, 4).astype(np.float32)
OUTPUT = np.linspace(0.3, -0.3, 4).reshape(4, 1).astype(np.float32)


class HeavyBall(tf.keras.optimizers.Optimizer):
    """Momentum SGD written on OptimizerV2's hooks, as TF 1.x's custom Keras optimizers were."""

    def __init__(self, learning_rate=0.01, momentum=0.5, name="HeavyBall", **kwargs):
        super().__init__(name, **kwargs)
        self._set_hyper("learning_rate", kwargs.get("lr", learning_rate))
        self._set_hyper("momentum", momentum)

    def _create_slots(self, var_list):
        for var in var_list:
            self.add_slot(var, "velocity")

    def _resource_apply_dense(self, grad, var):
        rate = self._get_hyper("learning_rate", var.dtype.base_dtype)
        momentum = self._get_hyper("momentum", var.dtype.base_dtype)
        velocity = self.get_slot(var, "velocity")
        new_velocity = velocity.assign(momentum * velocity - rate * grad)
        return var.assign_add(new_velocity)

    def _resource_apply_sparse(self, grad, var, indices):
        raise NotImplementedError

    def get_config(self):
        config = super().get_config()
        config["learning_rate"] = self._serialize_hyperparameter("learning_rate")
        return config


class ClippedSGD(tf.keras.optimizers.SGD):
    """SGD whose dense update clips each gradient to [-0.5, 0.5]."""

    def _resource_apply_dense(self, grad, var):
        return super()._resource_apply_dense(tf.clip_by_value(grad, -0.5, 0.5), var)


def run(optimizer):
    inputs = tf.keras.layers.Input(shape=(3,))
    hidden = tf.keras.layers.Dense(4, activation="tanh")(inputs)
    model = tf.keras.models.Model(inputs, tf.keras.layers.Dense(1)(hidden))
    model.set_weights([KERNEL, np.zeros(4, np.float32), OUTPUT, np.full(1, 0.1, np.float32)])
    model.compile(optimizer=optimizer, loss="mse")
    losses = model.fit(FEATURES, TARGETS, epochs=4, batch_size=8, verbose=0, shuffle=False).history["loss"]
    rate = float(tf.keras.backend.get_value(model.optimizer.learning_rate))
    return {"losses": [float(v) for v in losses], "rate": rate}


def main():
    results = {}
    for name, make in (("heavy_ball", lambda: HeavyBall(lr=0.05, momentum=0.8)), ("clipped", lambda: ClippedSGD(0.3))):
        with tf.Graph().as_default():
            results[name] = run(make())
        tf.keras.backend.clear_session()
    print("RESULT " + json.dumps(results))


if __name__ == "__main__":
    main()
