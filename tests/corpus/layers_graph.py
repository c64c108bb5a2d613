"""tf.layers CNN trained in a Session (graph mode) for three steps."""
import numpy as np
import tensorflow as tf

tf.flags.DEFINE_integer("steps", 3, "")
FLAGS = tf.flags.FLAGS


def main(_):
    tf.set_random_seed(1)
    images = tf.placeholder(tf.float32, [None, 16, 16, 3])
    labels = tf.placeholder(tf.int64, [None])
    training = tf.placeholder_with_default(False, [])
    net = tf.layers.conv2d(images, 8, 3, activation=tf.nn.relu)
    net = tf.layers.max_pooling2d(net, 2, 2)
    net = tf.layers.batch_normalization(net, training=training)
    net = tf.layers.dropout(tf.layers.flatten(net), 0.5, training=training)
    logits = tf.layers.dense(net, 4)
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train_op = tf.train.AdamOptimizer(1e-3).minimize(loss)
    rng = np.random.RandomState(0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(FLAGS.steps):
            feed = {images: rng.rand(8, 16, 16, 3), labels: rng.randint(0, 4, 8), training: True}
            print("step", step, "loss", sess.run([train_op, loss], feed)[1])


if __name__ == "__main__":
    tf.app.run()
