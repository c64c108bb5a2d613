"""ResNet on ImageNet-format TFRecords with tf.estimator, as a platform user wrote it for TF 1.x.

Towers over the node's GPUs (CPU when there are none), variables placed by a device setter,
gradients averaged across towers. Run on the platform as:
    python resnet_estimator.py --data_dir=/data/data --output_dir=/data/output --num_gpus=2
"""
import os

import tensorflow as tf
from tensorflow.python.training import device_setter
from uaitrain.arch.tensorflow import uflag

flags = tf.app.flags
FLAGS = flags.FLAGS
flags.DEFINE_integer("resnet_size", 8, "6n+2 layers")
flags.DEFINE_integer("train_batch_size", 32, "global batch size, split over towers")
flags.DEFINE_float("learning_rate", 0.05, "initial learning rate")
flags.DEFINE_float("momentum", 0.9, "momentum")
flags.DEFINE_float("weight_decay", 1e-4, "L2 weight decay")
flags.DEFINE_integer("image_size", 32, "image side after resizing")
flags.DEFINE_integer("num_classes", 1001, "classes, 0 is background")
flags.DEFINE_string("variable_strategy", "CPU", "where shared variables live: CPU or GPU")


def parse_record(raw):
    features = tf.parse_single_example(
        raw,
        {
            "image/encoded": tf.FixedLenFeature([], tf.string),
            "image/class/label": tf.FixedLenFeature([], tf.int64),
        },
    )
    image = tf.image.decode_jpeg(features["image/encoded"], channels=3)
    image = tf.image.resize_images(image, [FLAGS.image_size, FLAGS.image_size])
    image = tf.to_float(image) / 255.0 - 0.5
    label = tf.cast(features["image/class/label"], tf.int32)
    return image, label


def input_fn():
    files = tf.gfile.Glob(os.path.join(FLAGS.data_dir, "train-*"))
    dataset = tf.data.TFRecordDataset(files).repeat().map(parse_record)
    dataset = dataset.shuffle(256).batch(FLAGS.train_batch_size, drop_remainder=True)
    return dataset.make_one_shot_iterator().get_next()


def residual_block(inputs, filters, strides, training, name):
    with tf.variable_scope(name):
        shortcut = inputs
        net = tf.layers.batch_normalization(inputs, training=training, name="bn1")
        net = tf.nn.relu(net)
        if strides != 1 or inputs.shape[-1] != filters:
            shortcut = tf.layers.conv2d(net, filters, 1, strides, use_bias=False, name="shortcut")
        net = tf.layers.conv2d(net, filters, 3, strides, padding="same", use_bias=False, name="conv1")
        net = tf.layers.batch_normalization(net, training=training, name="bn2")
        net = tf.nn.relu(net)
        net = tf.layers.conv2d(net, filters, 3, 1, padding="same", use_bias=False, name="conv2")
        return net + shortcut


def resnet(images, training):
    blocks = (FLAGS.resnet_size - 2) // 6
    net = tf.layers.conv2d(images, 16, 3, padding="same", use_bias=False, name="conv0")
    for stage, filters in enumerate([16, 32, 64]):
        for block in range(blocks):
            strides = 2 if stage > 0 and block == 0 else 1
            net = residual_block(net, filters, strides, training, "stage%d_block%d" % (stage, block))
    net = tf.nn.relu(tf.layers.batch_normalization(net, training=training, name="bn_final"))
    net = tf.reduce_mean(net, [1, 2], keep_dims=True)
    net = tf.reshape(net, [-1, 64])
    return tf.layers.dense(net, FLAGS.num_classes, name="logits")


def local_device_setter(num_devices, ps_device_type, worker_device):
    """Variables round-robin over the parameter devices, every other op on the worker device."""
    ps_strategy = device_setter._RoundRobinStrategy(num_devices)
    ps_ops = ["Variable", "VariableV2", "VarHandleOp"]

    def chooser(op):
        current = tf.DeviceSpec.from_string(op.device or "")
        node_def = op if isinstance(op, tf.NodeDef) else op.node_def
        if node_def.op in ps_ops:
            spec = tf.DeviceSpec.from_string("/{}:{}".format(ps_device_type, ps_strategy(op)))
        else:
            spec = tf.DeviceSpec.from_string(worker_device)
        return spec.make_merged_spec(current).to_string()

    return chooser


def tower_fn(images, labels, training):
    logits = resnet(images, training)
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    loss += FLAGS.weight_decay * tf.add_n([tf.nn.l2_loss(v) for v in tf.trainable_variables()])
    params = tf.trainable_variables()
    return loss, tf.gradients(loss, params), logits


def model_fn(features, labels, mode, params):
    num_devices = max(FLAGS.num_gpus, 1)
    device_type = "gpu" if FLAGS.num_gpus > 0 else "cpu"
    ps_type = "gpu" if FLAGS.variable_strategy == "GPU" and FLAGS.num_gpus > 0 else "cpu"
    image_shards = tf.split(features, num_devices)
    label_shards = tf.split(labels, num_devices)
    losses, gradients = [], []
    for i in range(num_devices):
        setter = local_device_setter(num_devices if ps_type == "gpu" else 1, ps_type, "/%s:%d" % (device_type, i))
        with tf.variable_scope("resnet", reuse=bool(i != 0)):
            with tf.name_scope("tower_%d" % i) as scope:
                with tf.device(setter):
                    loss, grads, _ = tower_fn(image_shards[i], label_shards[i], mode == tf.estimator.ModeKeys.TRAIN)
                    losses.append(loss)
                    gradients.append(grads)
                    if i == 0:
                        update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS, scope)
    with tf.device("/cpu:0"):
        variables = tf.trainable_variables()
        averaged = [(tf.add_n(list(g)) / num_devices, v) for g, v in zip(zip(*gradients), variables)]
        loss = tf.reduce_mean(losses, name="loss")
        global_step = tf.train.get_or_create_global_step()
        optimizer = tf.train.MomentumOptimizer(FLAGS.learning_rate, FLAGS.momentum)
        with tf.control_dependencies(update_ops):
            train_op = optimizer.apply_gradients(averaged, global_step=global_step)
    tf.summary.scalar("train_loss", loss)
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def main(_):
    session_config = tf.ConfigProto(allow_soft_placement=True, device_count={"CPU": max(FLAGS.num_gpus, 1)})
    config = tf.estimator.RunConfig(
        model_dir=FLAGS.output_dir, session_config=session_config, log_step_count_steps=1, tf_random_seed=1
    )
    estimator = tf.estimator.Estimator(model_fn=model_fn, config=config)
    estimator.train(input_fn, max_steps=FLAGS.max_step or 20)
    tf.logging.info("finished at step %d", estimator.get_variable_value("global_step"))


if __name__ == "__main__":
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.app.run()
