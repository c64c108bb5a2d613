"""A Python 2 era TF1 script: print statements, xrange, iteritems, `except X, e`."""
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
w = tf.Variable([[1.0], [2.0]])
y = tf.matmul(x, w)
stats = {"steps": 3, "batch": 4}
for key, value in stats.iteritems():
    print "%s=%d" % (key, value)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in xrange(stats["steps"]):
        try:
            out = sess.run(y, {x: np.ones((stats["batch"], 2))})
        except tf.errors.OpError, err:
            print "failed", err
        print "step", step, "mean", out.mean(), "half batch", stats["batch"] / 2
