"""Shared weights with variable_scope(reuse=True) and get_variable."""
import tensorflow as tf


def layer(x, name, reuse=False):
    with tf.variable_scope(name, reuse=reuse):
        w = tf.get_variable("w", [x.shape[-1], 3], initializer=tf.random_normal_initializer(seed=1))
        return tf.matmul(x, w)


def main():
    x = tf.placeholder(tf.float32, [None, 2])
    a, b = layer(x, "shared"), layer(x, "shared", reuse=True)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out = sess.run([a, b], {x: [[1.0, 2.0]]})
        print("same weights", (out[0] == out[1]).all(), len(tf.trainable_variables()))


if __name__ == "__main__":
    main()
