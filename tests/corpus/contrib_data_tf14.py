"""TF 1.4's tf.contrib.data input pipeline (cifar10_estimator's input_fn) feeding softmax regression, with the
argparse-era flags internals (FLAGS._parse_flags(), FLAGS.__flags) and tf.contrib.learn.ModeKeys."""
import os

import tensorflow as tf

tf.app.flags.DEFINE_string("data_dir", "/data/data", "")
tf.app.flags.DEFINE_integer("batch_size", 4, "")
tf.app.flags.DEFINE_integer("steps", 3, "")
FLAGS = tf.app.flags.FLAGS
FLAGS._parse_flags()
for attr, value in sorted(FLAGS.__flags.items()):
    if attr in ("batch_size", "steps"):
        print("{}={}".format(attr.upper(), value))


def parser(record):
    features = tf.parse_single_example(record, {"image/encoded": tf.FixedLenFeature([], tf.string),
                                                "image/class/label": tf.FixedLenFeature([], tf.int64)})
    image = tf.image.resize_images(tf.image.decode_jpeg(features["image/encoded"], channels=3), [8, 8]) / 255.0
    return tf.reshape(image, [8 * 8 * 3]), tf.cast(features["image/class/label"] - 1, tf.int32)


def input_fn(mode):
    files = tf.gfile.Glob(os.path.join(FLAGS.data_dir, "train-*"))
    dataset = tf.contrib.data.TFRecordDataset(files).repeat()
    dataset = dataset.map(parser, num_threads=FLAGS.batch_size, output_buffer_size=2 * FLAGS.batch_size)
    if mode == tf.contrib.learn.ModeKeys.TRAIN:
        dataset = dataset.apply(tf.contrib.data.batch_and_drop_remainder(FLAGS.batch_size))
    return dataset.make_one_shot_iterator().get_next()


images, labels = input_fn(tf.contrib.learn.ModeKeys.TRAIN)
W = tf.Variable(tf.zeros([8 * 8 * 3, 10]))
b = tf.Variable(tf.zeros([10]))
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=tf.matmul(images, W) + b))
train_op = tf.train.GradientDescentOptimizer(0.05).minimize(loss)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(FLAGS.steps):
        _, value = sess.run([train_op, loss])
        print("step", step, "loss", value)
