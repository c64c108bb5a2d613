"""Estimator CNN over TFRecords, two towers placed by a device function (TF 1.x multi-GPU style)."""
import os

import tensorflow as tf
from tensorflow.python.training import device_setter

tf.app.flags.DEFINE_string("data_dir", "/data/data", "TFRecords")
tf.app.flags.DEFINE_string("model_dir", "/tmp/model", "checkpoints")
tf.app.flags.DEFINE_integer("max_steps", 3, "steps")
tf.app.flags.DEFINE_integer("towers", 2, "model towers")
FLAGS = tf.app.flags.FLAGS


def input_fn():
    def parse(raw):
        f = tf.parse_single_example(raw, {"image/encoded": tf.FixedLenFeature([], tf.string),
                                          "image/class/label": tf.FixedLenFeature([], tf.int64)})
        image = tf.image.resize_images(tf.image.decode_jpeg(f["image/encoded"], 3), [32, 32])
        return tf.to_float(image) / 255.0, tf.to_int32(f["image/class/label"])
    files = tf.gfile.Glob(os.path.join(FLAGS.data_dir, "train-*"))
    ds = tf.data.TFRecordDataset(files).map(parse).repeat().batch(8, drop_remainder=True)
    return ds.make_one_shot_iterator().get_next()


def tower_setter(worker):
    strategy = device_setter._RoundRobinStrategy(1)

    def place(op):
        if op.type in ("Variable", "VariableV2", "VarHandleOp"):
            return "/cpu:%d" % strategy(op)
        return worker
    return place


def model_fn(features, labels, mode):
    images, label_shards = tf.split(features, FLAGS.towers), tf.split(labels, FLAGS.towers)
    losses = []
    for i in range(FLAGS.towers):
        with tf.variable_scope("net", reuse=i > 0), tf.device(tower_setter("/cpu:0")):
            net = tf.layers.conv2d(images[i], 8, 3, activation=tf.nn.relu)
            net = tf.reduce_mean(net, [1, 2], keep_dims=False)
            logits = tf.layers.dense(net, 11)
            losses.append(tf.losses.sparse_softmax_cross_entropy(label_shards[i], logits))
    loss = tf.add_n(losses) / FLAGS.towers
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, tf.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def main(_):
    est = tf.estimator.Estimator(model_fn, FLAGS.model_dir, tf.estimator.RunConfig(log_step_count_steps=1, tf_random_seed=1))
    est.train(input_fn, max_steps=FLAGS.max_steps)
    print("trained to step", est.get_variable_value("global_step"))


if __name__ == "__main__":
    tf.app.run()
