"""A TF 1.x tf.keras program reading its metrics by TF 1.x's names: compiled with `metrics=["accuracy"]`, which TF
1.x's Keras named `acc` (history["acc"], "val_acc"); ModelCheckpoint keeps the best epochs by `val_acc` and
EarlyStopping watches it, as TF 1.x's Keras examples wrote them.

TF 2's Keras names the metric as given (`accuracy`): such a program's ModelCheckpoint then saves nothing (only a
logged warning on TF 2.15; Keras 3 raises), EarlyStopping never stops, and history["acc"] is a KeyError.

Prints `RESULT <json>`: the history's keys and values, the checkpoints written (by epoch) and the epochs run. The
weights and data are constants. Its output on real TensorFlow 1.15 is tests/common/golden/tf115_keras_metric_names.json
(written by `python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py).
"""

import json
import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf

FEATURES = np.linspace(-1.0, 1.0, 48 * 4).reshape(48, 4).astype(np.float32)
LABELS = (np.sin(3.0 * FEATURES).sum(axis=1) > 0).astype(np.int64)
KERNEL = np.linspace(-0.4, 0.6, 4 * 6).reshape(4, 6).astype(np.float32)
OUTPUT = np.linspace(0.5, -0.5, 6 * 2).reshape(6, 2).astype(np.float32)


def main():
    folder = tempfile.mkdtemp()
    try:
        model = tf.keras.models.Sequential(
            [
                tf.keras.layers.Dense(6, activation="tanh", input_shape=(4,)),
                tf.keras.layers.Dense(2, activation="softmax"),
            ]
        )
        model.set_weights([KERNEL, np.zeros(6, np.float32), OUTPUT, np.zeros(2, np.float32)])
        model.compile(
            optimizer=tf.keras.optimizers.SGD(0.5), loss="sparse_categorical_crossentropy", metrics=["accuracy"]
        )
        callbacks = [
            tf.keras.callbacks.ModelCheckpoint(
                os.path.join(folder, "best-{epoch:02d}-{val_acc:.3f}.h5"), monitor="val_acc", save_best_only=True
            ),
            tf.keras.callbacks.EarlyStopping(monitor="val_acc", patience=1),
        ]
        history = model.fit(
            FEATURES[:32],
            LABELS[:32],
            batch_size=8,
            epochs=8,
            shuffle=False,
            verbose=0,
            validation_data=(FEATURES[32:], LABELS[32:]),
            callbacks=callbacks,
        ).history
        result = {
            "keys": sorted(history),
            "val_acc": [round(float(v), 6) for v in history["val_acc"]],
            "acc": [round(float(v), 6) for v in history["acc"]],
            "loss": [round(float(v), 6) for v in history["loss"]],
            "saved": sorted(os.listdir(folder)),
        }
    finally:
        shutil.rmtree(folder)
    print("RESULT " + json.dumps(result))


if __name__ == "__main__":
    main()
