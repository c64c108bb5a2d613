"""An Estimator whose model_fn is a contrib.slim network, the two TF1 worlds together."""
import numpy as np
import tensorflow as tf
import tensorflow.contrib.slim as slim

tf.app.flags.DEFINE_string("model_dir", "/tmp/est_slim", "")
FLAGS = tf.app.flags.FLAGS


def model_fn(features, labels, mode):
    with slim.arg_scope([slim.conv2d, slim.fully_connected], activation_fn=tf.nn.relu):
        net = slim.conv2d(features, 4, [3, 3])
        logits = slim.fully_connected(slim.flatten(net), 3, activation_fn=None)
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    train_op = tf.train.GradientDescentOptimizer(0.01).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def input_fn():
    images = np.random.RandomState(0).rand(8, 8, 8, 3).astype(np.float32)
    return tf.data.Dataset.from_tensors((images, np.arange(8) % 3)).repeat()


def main(_):
    tf.estimator.Estimator(model_fn, FLAGS.model_dir,
                           config=tf.estimator.RunConfig(tf_random_seed=1, log_step_count_steps=1)).train(input_fn, max_steps=3)
    print("trained")


if __name__ == "__main__":
    tf.app.run()
