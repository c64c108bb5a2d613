"""A TF 1.x tf.keras program whose metrics list is a module constant (`METRICS = ["accuracy", "crossentropy"]`,
then `compile(metrics=METRICS)`), read back by TF 1.x's names: `acc` and `ce` (history, `val_acc` of
ModelCheckpoint and EarlyStopping). TF 2's Keras names them as given (`accuracy`, `crossentropy`).

Prints `RESULT <json>`: the history's keys and values, the checkpoints written. The weights and data are constants.
Its output on real TensorFlow 1.15 is tests/common/golden/tf115_keras_named_metrics.json (written by
`python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py).
"""

import json
import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf

METRICS = ["accuracy", "crossentropy"]
FEATURES = np.linspace(-1.0, 1.0, 48 * 4).reshape(48, 4).astype(np.float32)
LABELS = np.eye(2, dtype=np.float32)[(np.sin(3.0 * FEATURES).sum(axis=1) > 0).astype(np.int64)]
KERNEL = np.linspace(-0.4, 0.6, 4 * 6).reshape(4, 6).astype(np.float32)
OUTPUT = np.linspace(0.5, -0.5, 6 * 2).reshape(6, 2).astype(np.float32)


def build():
    model = tf.keras.models.Sequential(
        [tf.keras.layers.Dense(6, activation="tanh", input_shape=(4,)), tf.keras.layers.Dense(2, activation="softmax")]
    )
    model.set_weights([KERNEL, np.zeros(6, np.float32), OUTPUT, np.zeros(2, np.float32)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="categorical_crossentropy", metrics=METRICS)
    return model


def main():
    folder = tempfile.mkdtemp()
    try:
        callbacks = [
            tf.keras.callbacks.ModelCheckpoint(
                os.path.join(folder, "best-{epoch:02d}.h5"), monitor="val_acc", save_best_only=True
            ),
            tf.keras.callbacks.EarlyStopping(monitor="val_ce", patience=1),
        ]
        history = (
            build()
            .fit(
                FEATURES[:32],
                LABELS[:32],
                batch_size=8,
                epochs=6,
                shuffle=False,
                verbose=0,
                validation_data=(FEATURES[32:], LABELS[32:]),
                callbacks=callbacks,
            )
            .history
        )
        result = {"keys": sorted(history), "saved": sorted(os.listdir(folder))}
        for key in ("acc", "ce", "val_acc", "val_ce", "loss"):
            result[key] = [round(float(v), 6) for v in history[key]]
    finally:
        shutil.rmtree(folder)
    print("RESULT " + json.dumps(result))


if __name__ == "__main__":
    main()
