"""Uses tf.contrib pieces no rule converts: the report names each with a manual step."""
import tensorflow as tf

init = tf.contrib.layers.xavier_initializer()
hparams = tf.contrib.training.HParams(learning_rate=0.1)
w = tf.get_variable("w", [3, 3], initializer=init)
print(hparams.learning_rate)
