"""Train a TF-slim ResNet on ImageNet-format TFRecords, as a platform user wrote it for TF 1.x.

Single node, or asynchronous parameter-server training when the platform sets TF_CONFIG
(master is worker 0). Run as:
    python train_slim_classifier.py --data_dir=/data/data --output_dir=/data/output --max_step=100
"""
import os

import tensorflow as tf
import tensorflow.contrib.slim as slim
from tensorflow.contrib.slim.nets import resnet_v1
from uaitrain.arch.tensorflow import uflag
from uaitrain.arch.tensorflow import uai_dist

tf.app.flags.DEFINE_integer("batch_size", 8, "images per step")
tf.app.flags.DEFINE_integer("train_image_size", 32, "image side")
tf.app.flags.DEFINE_float("learning_rate", 0.01, "learning rate")
tf.app.flags.DEFINE_integer("log_every_n_steps", 1, "how often to log")
FLAGS = tf.app.flags.FLAGS


def load_batch():
    files = tf.gfile.Glob(os.path.join(FLAGS.data_dir, "train-*"))

    def parse(raw):
        features = tf.parse_single_example(
            raw,
            {
                "image/encoded": tf.FixedLenFeature([], tf.string),
                "image/class/label": tf.FixedLenFeature([], tf.int64),
            },
        )
        image = tf.image.decode_jpeg(features["image/encoded"], channels=3)
        image = tf.image.resize_images(image, [FLAGS.train_image_size, FLAGS.train_image_size])
        return tf.to_float(image) / 127.5 - 1.0, features["image/class/label"]

    dataset = tf.data.TFRecordDataset(files).map(parse).repeat().batch(FLAGS.batch_size, drop_remainder=True)
    return dataset.make_one_shot_iterator().get_next()


def build_train_op():
    images, labels = load_batch()
    with slim.arg_scope(resnet_v1.resnet_arg_scope()):
        logits, _ = resnet_v1.resnet_v1_50(images, num_classes=1001, is_training=True)
    logits = tf.squeeze(logits, [1, 2])
    one_hot = slim.one_hot_encoding(labels, 1001)
    slim.losses.softmax_cross_entropy(logits, one_hot)
    total_loss = slim.losses.get_total_loss()
    tf.summary.scalar("total_loss", total_loss)
    optimizer = tf.train.GradientDescentOptimizer(FLAGS.learning_rate)
    global_step = tf.train.get_or_create_global_step()
    return slim.learning.create_train_op(total_loss, optimizer, global_step=global_step), total_loss


def train(master, is_chief, device_fn):
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        with tf.device(device_fn):
            train_op, total_loss = build_train_op()
        hooks = [tf.train.StopAtStepHook(last_step=FLAGS.max_step or 5)]
        with tf.train.MonitoredTrainingSession(
            master=master, is_chief=is_chief, checkpoint_dir=FLAGS.output_dir, hooks=hooks, save_summaries_steps=None
        ) as sess:
            step = 0
            while not sess.should_stop():
                loss = sess.run([train_op, total_loss])[1]
                step += 1
                if step % FLAGS.log_every_n_steps == 0:
                    print("step %d loss %.4f" % (step, loss))


def main(_):
    dist = uai_dist.UAITensorFlowDistRunConfigParser()
    if not dist.is_dist():
        train("", True, None)
        return
    dist.load_cluster_config()
    cluster = tf.train.ClusterSpec({"ps": dist.get_ps_list(), "worker": dist.get_worker_list()})
    job = "ps" if dist.is_ps() else "worker"
    server = tf.train.Server(cluster, job_name=job, task_index=dist.get_task_id())
    if dist.is_ps():
        server.join()
        return
    device_fn = tf.train.replica_device_setter(
        worker_device="/job:worker/task:%d" % dist.get_task_id(), cluster=cluster
    )
    train(server.target, dist.get_task_id() == 0, device_fn)


if __name__ == "__main__":
    tf.app.run()
