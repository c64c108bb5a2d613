"""TF 1.x's tf.keras, as its guides wrote it: a seeded model compiled with `SGD(lr=..., decay=...)`, trained with
fit_generator, the rate set again through `K.set_value(model.optimizer.lr, ...)`."""

import numpy as np
import tensorflow as tf
from tensorflow.keras import backend as K

np.random.seed(0)
tf.set_random_seed(0)


def batches(features, labels, size):
    while True:
        for start in range(0, len(features), size):
            yield features[start : start + size], labels[start : start + size]


features = np.random.rand(32, 4).astype("float32")
labels = features.sum(axis=1, keepdims=True)
model = tf.keras.models.Sequential(
    [tf.keras.layers.Dense(8, activation="relu", input_shape=(4,)), tf.keras.layers.Dense(1)]
)
model.compile(optimizer=tf.keras.optimizers.SGD(lr=0.05, momentum=0.9, decay=1e-3, nesterov=True), loss="mse")
history = model.fit_generator(batches(features, labels, 8), steps_per_epoch=4, epochs=2, verbose=0)
K.set_value(model.optimizer.lr, 0.01)
history.history["loss"] += model.fit(features, labels, batch_size=8, epochs=1, verbose=0).history["loss"]
for epoch, loss in enumerate(history.history["loss"]):
    print(f"epoch {epoch} loss {loss:.6f}")
print("trained")
