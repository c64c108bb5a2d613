"""tf.contrib.layers initializers and regularizers, contrib.framework's arg_scope and contrib.training.HParams,
read off the contrib module handed around as a value (as tensor2tensor's utils/contrib.py does)."""
import tensorflow as tf
from tensorflow.contrib.framework import arg_scope


def training():
    from tensorflow.contrib import training as contrib_training
    return contrib_training


hparams = training().HParams(learning_rate=0.1, weight_decay=1e-4)
hparams.parse("learning_rate=0.05")
init = tf.contrib.layers.xavier_initializer()
with arg_scope([tf.contrib.layers.fully_connected], weights_initializer=init,
               weights_regularizer=tf.contrib.layers.l2_regularizer(hparams.weight_decay)):
    x = tf.placeholder(tf.float32, [None, 3])
    y = tf.contrib.layers.fully_connected(x, 2)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    print("learning_rate", hparams.learning_rate, "output", sess.run(y, {x: [[1.0, 2.0, 3.0]]}).shape)
