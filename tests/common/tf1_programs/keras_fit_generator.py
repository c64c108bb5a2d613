"""A TF 1.x tf.keras program of the Keras 2 API TF 1.x had: a seeded script (tf.set_random_seed) training with
fit_generator on a Python generator, checkpointing each epoch to an .h5 file, then evaluate_generator and
predict_generator.

Keras 3 (tf.keras on TF >= 2.16) has no *_generator methods and writes no .h5 checkpoint of a whole model; TF 1.x's
Keras is Keras 2, which `import compat` selects there (tf-keras).

Prints `RESULT <json>`: the losses, the evaluation, the predictions and the checkpoints written (not read back: the
tf115 environment's h5py is newer than TF 1.15's Keras reads). The weights and data are constants. Its output on real TensorFlow 1.15 is
tests/common/golden/tf115_keras_fit_generator.json (written by `python3 dev.py tf115`:
tests/common/golden/make_tf115_goldens.py).
"""

import json
import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf

FEATURES = np.linspace(-1.0, 1.0, 24 * 3).reshape(24, 3).astype(np.float32)
TARGETS = (np.cos(2.0 * FEATURES).sum(axis=1, keepdims=True) - 1.0).astype(np.float32)
KERNEL = np.linspace(-0.6, 0.4, 3 * 5).reshape(3, 5).astype(np.float32)
OUTPUT = np.linspace(0.2, -0.4, 5).reshape(5, 1).astype(np.float32)


def batches(size):
    while True:
        for start in range(0, len(FEATURES), size):
            yield FEATURES[start : start + size], TARGETS[start : start + size]


def main():
    tf.set_random_seed(1)
    folder = tempfile.mkdtemp()
    try:
        model = tf.keras.models.Sequential(
            [tf.keras.layers.Dense(5, activation="tanh", input_shape=(3,)), tf.keras.layers.Dense(1)]
        )
        model.set_weights([KERNEL, np.zeros(5, np.float32), OUTPUT, np.zeros(1, np.float32)])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1, momentum=0.5), loss="mse")
        keep = tf.keras.callbacks.ModelCheckpoint(os.path.join(folder, "model-{epoch:02d}.h5"))
        history = model.fit_generator(batches(8), steps_per_epoch=3, epochs=3, verbose=0, callbacks=[keep])
        evaluation = model.evaluate_generator(batches(12), steps=2)
        predictions = model.predict_generator(batches(12), steps=1)
        result = {
            "losses": [float(v) for v in history.history["loss"]],
            "evaluation": float(evaluation),
            "predictions": predictions.ravel().tolist(),
            "saved": sorted(os.listdir(folder)),
        }
    finally:
        shutil.rmtree(folder)
    print("RESULT " + json.dumps(result))


if __name__ == "__main__":
    main()
