"""train_image_classifier in miniature: slim + model_deploy clones, MonitoredTrainingSession, platform flags."""
import os

import tensorflow as tf
import tensorflow.contrib.slim as slim
from deployment import model_deploy
from uaitrain.arch.tensorflow import uflag

tf.app.flags.DEFINE_integer("num_clones", 1, "")
tf.app.flags.DEFINE_boolean("clone_on_cpu", True, "")
tf.app.flags.DEFINE_integer("batch_size", 4, "")
tf.app.flags.DEFINE_integer("max_number_of_steps", 3, "")
FLAGS = tf.app.flags.FLAGS


def batch():
    files = tf.gfile.Glob(os.path.join(FLAGS.data_dir, "train-*"))

    def parse(raw):
        f = tf.parse_single_example(raw, {"image/encoded": tf.FixedLenFeature([], tf.string),
                                          "image/class/label": tf.FixedLenFeature([], tf.int64)})
        image = tf.image.resize_images(tf.image.decode_jpeg(f["image/encoded"], 3), [32, 32])
        return image, f["image/class/label"]
    return tf.data.TFRecordDataset(files).map(parse).repeat().batch(FLAGS.batch_size).make_one_shot_iterator().get_next()


def main(_):
    config = model_deploy.DeploymentConfig(num_clones=FLAGS.num_clones, clone_on_cpu=FLAGS.clone_on_cpu)
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        with tf.device(config.variables_device()):
            global_step = slim.create_global_step()
        images, labels = batch()

        def clone_fn():
            net = slim.conv2d(images, 8, [3, 3], scope="conv1")
            net = slim.max_pool2d(net, [2, 2])
            logits = slim.fully_connected(slim.flatten(net), 11, activation_fn=None, scope="logits")
            slim.losses.softmax_cross_entropy(logits, slim.one_hot_encoding(labels, 11))
            return logits

        model_deploy.create_clones(config, clone_fn)
        loss = tf.losses.get_total_loss()
        train_op = slim.learning.create_train_op(loss, tf.train.GradientDescentOptimizer(0.01), global_step=global_step)
        hooks = [tf.train.StopAtStepHook(last_step=FLAGS.max_number_of_steps)]
        with tf.train.MonitoredTrainingSession(checkpoint_dir=FLAGS.output_dir, hooks=hooks) as sess:
            while not sess.should_stop():
                print("loss", sess.run(train_op))


if __name__ == "__main__":
    tf.app.run()
