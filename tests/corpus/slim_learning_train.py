"""slim.learning.train on a tiny net, `from tensorflow.contrib import slim` form."""
import numpy as np
import tensorflow as tf
from tensorflow.contrib import slim

tf.app.flags.DEFINE_string("train_dir", "/tmp/slim_train", "")
FLAGS = tf.app.flags.FLAGS


def main(_):
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        images = tf.constant(np.random.RandomState(0).rand(8, 16, 16, 3).astype(np.float32))
        labels = tf.constant(np.arange(8) % 4)
        with slim.arg_scope([slim.conv2d], padding="SAME", weights_regularizer=slim.l2_regularizer(1e-4)):
            net = slim.conv2d(images, 4, [3, 3])
        logits = slim.fully_connected(slim.flatten(net), 4, activation_fn=None)
        tf.losses.sparse_softmax_cross_entropy(labels, logits)
        total = tf.losses.get_total_loss()
        train_op = slim.learning.create_train_op(total, tf.train.AdamOptimizer(0.01))
        final = slim.learning.train(train_op, FLAGS.train_dir, number_of_steps=3, save_summaries_secs=3600)
        print("final loss", final)


if __name__ == "__main__":
    tf.app.run()
