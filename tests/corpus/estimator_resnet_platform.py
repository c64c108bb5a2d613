"""The platform's ResNet Estimator shape: uflag flags, replica device setter towers, master TF_CONFIG."""
import os

import tensorflow as tf
from uaitrain.arch.tensorflow import uflag

tf.app.flags.DEFINE_integer("resnet_size", 8, "")
tf.app.flags.DEFINE_integer("train_batch_size", 8, "")
FLAGS = tf.app.flags.FLAGS


def input_fn():
    files = tf.gfile.Glob(os.path.join(FLAGS.data_dir, "train-*"))

    def parse(raw):
        f = tf.parse_single_example(raw, {"image/encoded": tf.FixedLenFeature([], tf.string),
                                          "image/class/label": tf.FixedLenFeature([], tf.int64)})
        image = tf.image.resize_images(tf.image.decode_jpeg(f["image/encoded"], 3), [32, 32])
        return image / 255.0, f["image/class/label"]
    return tf.data.TFRecordDataset(files).map(parse).repeat().batch(FLAGS.train_batch_size).make_one_shot_iterator().get_next()


def model_fn(features, labels, mode, params):
    setter = tf.train.replica_device_setter(worker_device="/cpu:0", ps_device="/cpu:0", ps_tasks=1)
    with tf.device(setter):
        net = features
        for i in range((FLAGS.resnet_size - 2) // 6):
            net = tf.layers.conv2d(net, 8, 3, padding="same", name="conv%d" % i)
            net = tf.layers.batch_normalization(net, training=mode == tf.estimator.ModeKeys.TRAIN)
            net = tf.nn.relu(net)
        logits = tf.layers.dense(tf.layers.flatten(net), 11)
        loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
        update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
        with tf.control_dependencies(update_ops):
            train_op = tf.train.MomentumOptimizer(0.01, 0.9).minimize(loss, tf.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def main(_):
    config = tf.estimator.RunConfig(model_dir=FLAGS.output_dir, tf_random_seed=1, log_step_count_steps=1)
    tf.estimator.Estimator(model_fn, config=config).train(input_fn, max_steps=FLAGS.max_step or 3)
    tf.logging.info("done")
    print("trained resnet_size", FLAGS.resnet_size)


if __name__ == "__main__":
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.app.run()
