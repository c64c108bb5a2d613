"""A TF 1.x tf.keras program: a small model compiled with Keras optimizers as TF 1.x wrote them (`lr=`, `decay=`,
Nadam's `schedule_decay=`, the OptimizerV2 classes of TF 1.x's tf.keras), trained with fit() and fit_generator(),
the rate changed through `K.set_value(model.optimizer.lr, ...)` between two fits.

TF 2.11+'s optimizers of the same names take `lr` and drop it (training at their default rate, with a warning
only) and refuse `decay`; TF 1.x's classes are today's `tf.keras.optimizers.legacy` ones.

Prints `RESULT <json>`: per optimizer, the losses of each epoch and the rate read back. The model's weights are
constants (no initializer draws), the data too, so every TensorFlow computes the same losses up to float rounding.
Its output on real TensorFlow 1.15 is tests/common/golden/tf115_keras_optimizers.json (written by
`python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py).
"""

import json

import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K
from tensorflow.keras import optimizers
from tensorflow.keras.optimizers import RMSprop

FEATURES = np.linspace(-1.0, 1.0, 16 * 3).reshape(16, 3).astype(np.float32)
TARGETS = (np.sin(FEATURES).sum(axis=1, keepdims=True) + 0.5).astype(np.float32)
KERNEL = np.linspace(-0.5, 0.5, 3 * 4).reshape(3, 4).astype(np.float32)
OUTPUT = np.linspace(0.3, -0.3, 4).reshape(4, 1).astype(np.float32)


def optimizer(name):
    """The optimizer of `name`, spelled as TF 1.x programs spelled it."""
    if name == "sgd":
        return tf.keras.optimizers.SGD(lr=0.05, momentum=0.9, decay=0.01, nesterov=True)
    if name == "adam":
        return optimizers.Adam(lr=0.01, decay=0.05)
    if name == "rmsprop":
        return RMSprop(lr=0.01)
    if name == "nadam":
        return tf.keras.optimizers.Nadam(lr=0.01, schedule_decay=0.01)
    return tf.keras.optimizers.Adagrad(lr=0.1, decay=0.1)


def batches():
    while True:
        for start in range(0, 16, 8):
            yield FEATURES[start : start + 8], TARGETS[start : start + 8]


def run(name):
    inputs = tf.keras.layers.Input(shape=(3,))
    hidden = tf.keras.layers.Dense(4, activation="tanh")(inputs)
    model = tf.keras.models.Model(inputs, tf.keras.layers.Dense(1)(hidden))
    model.set_weights([KERNEL, np.zeros(4, np.float32), OUTPUT, np.full(1, 0.1, np.float32)])
    model.compile(optimizer=optimizer(name), loss="mse")
    first = model.fit(FEATURES, TARGETS, epochs=3, batch_size=8, verbose=0, shuffle=False).history["loss"]
    K.set_value(model.optimizer.lr, 0.02)
    rate = float(K.get_value(model.optimizer.lr))
    second = model.fit_generator(batches(), steps_per_epoch=2, epochs=2, verbose=0).history["loss"]
    return {"losses": [float(v) for v in first + second], "rate": rate}


def main():
    results = {}
    for name in ("sgd", "adam", "rmsprop", "nadam", "adagrad"):
        with tf.Graph().as_default():
            results[name] = run(name)
        K.clear_session()
    print("RESULT " + json.dumps(results))


if __name__ == "__main__":
    main()
