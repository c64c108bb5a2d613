"""Already TF2 style: Keras and tf.function. uai-migrate must leave it as it is."""
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="mse")


@tf.function
def double(x):
    return x * 2


history = model.fit(np.ones((8, 4)), np.ones((8, 1)), epochs=1, verbose=0)
print("loss", history.history["loss"][0], "double", double(tf.constant(2.0)).numpy())
