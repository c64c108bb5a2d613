"""A graph-mode classifier with placeholders and a Session, in the style of the TF 1.x tutorials."""
import numpy as np
import tensorflow as tf

tf.app.flags.DEFINE_integer("steps", 20, "training steps")
tf.app.flags.DEFINE_float("keep_prob", 0.8, "dropout keep probability")
FLAGS = tf.app.flags.FLAGS


def main(_):
    tf.set_random_seed(0)
    rng = np.random.RandomState(0)
    centers = rng.normal(size=(4, 16)).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 16], name="x")
    y = tf.placeholder(tf.int64, [None], name="y")
    hidden = tf.layers.dense(x, 32, activation=tf.nn.relu)
    hidden = tf.nn.dropout(hidden, keep_prob=FLAGS.keep_prob)
    logits = tf.layers.dense(hidden, 4)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    accuracy = tf.reduce_mean(tf.to_float(tf.equal(tf.argmax(logits, axis=1), y)))
    train_op = tf.train.AdamOptimizer(0.01).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(FLAGS.steps):
            labels = rng.randint(0, 4, size=64)
            batch = centers[labels] + 0.3 * rng.normal(size=(64, 16)).astype(np.float32)
            _, loss_value, acc = sess.run([train_op, loss, accuracy], feed_dict={x: batch, y: labels})
            print("step %d loss %.4f accuracy %.2f" % (step, loss_value, acc))


if __name__ == "__main__":
    tf.app.run()
