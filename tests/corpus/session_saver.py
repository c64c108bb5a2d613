"""Save and restore variables with tf.train.Saver."""
import os

import tensorflow as tf

tf.app.flags.DEFINE_string("output_dir", "/tmp/saver", "")
FLAGS = tf.app.flags.FLAGS


def main(_):
    v = tf.get_variable("v", initializer=tf.constant([1.0, 2.0]))
    add = tf.assign_add(v, [1.0, 1.0])
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(add)
        path = saver.save(sess, os.path.join(FLAGS.output_dir, "model.ckpt"))
    with tf.Session() as sess:
        saver.restore(sess, path)
        print("restored", sess.run(v))


if __name__ == "__main__":
    tf.app.run()
