"""TF1 calls whose meaning changed in TF2: keep_prob, keep_dims, reduction_indices, to_float, dimension, the labels of
softmax_cross_entropy_with_logits (no gradient in TF1)."""
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 4])
kept = tf.nn.dropout(x, keep_prob=1.0)
kept2 = tf.nn.dropout(x, 1.0)
total = tf.reduce_sum(kept, reduction_indices=[1], keep_dims=True)
best = tf.argmax(kept2, dimension=1)
as_float = tf.to_float(best)
noise = tf.random_normal([2], seed=1)
logs = tf.log(tf.ones([2]))
xent = tf.nn.softmax_cross_entropy_with_logits(labels=tf.nn.softmax(total * kept), logits=kept)
with tf.Session() as sess:
    out = sess.run([total, as_float, logs, xent], {x: np.ones((2, 4))})
    print("total", out[0].ravel(), "best", out[1], "log", out[2], "xent", out[3].round(4))
