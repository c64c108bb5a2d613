"""TF 1.x's tf.keras, as its guides wrote it: a seeded classifier compiled with `SGD(lr=..., decay=...)` and
`metrics=["accuracy"]`, trained with fit_generator keeping its best epoch by `val_acc`, the rate set again through
`K.set_value(model.optimizer.lr, ...)`, its classes read by `predict_classes`."""

import os
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K

np.random.seed(0)
tf.set_random_seed(0)


def batches(features, labels, size):
    while True:
        for start in range(0, len(features), size):
            yield features[start : start + size], labels[start : start + size]


features = np.random.rand(40, 4).astype("float32")
labels = (features.sum(axis=1, keepdims=True) > 2).astype("float32")
model = tf.keras.models.Sequential(
    [tf.keras.layers.Dense(8, activation="relu", input_shape=(4,)), tf.keras.layers.Dense(1, activation="sigmoid")]
)
optimizer = tf.keras.optimizers.SGD(lr=0.05, momentum=0.9, decay=1e-3, nesterov=True)
model.compile(optimizer=optimizer, loss="binary_crossentropy", metrics=["accuracy"])
best = os.path.join(tempfile.mkdtemp(), "best.h5")
keep = tf.keras.callbacks.ModelCheckpoint(best, monitor="val_acc", save_best_only=True)
history = model.fit_generator(
    batches(features[:32], labels[:32], 8),
    steps_per_epoch=4,
    epochs=2,
    verbose=0,
    validation_data=(features[32:], labels[32:]),
    callbacks=[keep],
)
K.set_value(model.optimizer.lr, 0.01)
history.history["loss"] += model.fit(features, labels, batch_size=8, epochs=1, verbose=0).history["loss"]
for epoch, loss in enumerate(history.history["loss"]):
    print(f"epoch {epoch} loss {loss:.6f} val_acc {history.history['val_acc'][min(epoch, 1)]:.3f}")
print("classes", model.predict_classes(features[:4]).ravel().tolist())
print("trained" if os.path.exists(best) else "no best checkpoint")
