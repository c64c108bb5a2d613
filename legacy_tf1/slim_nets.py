"""Networks for the slim trainer: the compat slim zoo, plus LeNet (research/slim offered it; tf-slim 1.1.0 does not).

    logits, end_points = slim_nets.network_fn("lenet", num_classes=11, is_training=True)(images)

LeNet is our own small two-conv net in slim layers: cheap at any image size, which is why
the tests and the demo train it.
"""

import functools

import tensorflow as tf

import compat.slim as slim
from compat.models import slim_zoo

LENET_IMAGE_SIZE = 28


def lenet_arg_scope(weight_decay=0.0):
    with slim.arg_scope(
        [slim.conv2d, slim.fully_connected],
        weights_regularizer=slim.l2_regularizer(weight_decay) if weight_decay else None,
        activation_fn=tf.nn.relu,
    ) as scope:
        return scope


def lenet(images, num_classes=10, is_training=False, dropout_keep_prob=0.5, scope="LeNet"):
    """Two 5x5 conv + 2x2 max-pool stages, a 1024-unit hidden layer, logits [batch, num_classes]."""
    end_points = {}
    with tf.compat.v1.variable_scope(scope, "LeNet", [images]):
        net = end_points["conv1"] = slim.conv2d(images, 32, [5, 5], scope="conv1")
        net = end_points["pool1"] = slim.max_pool2d(net, [2, 2], 2, scope="pool1")
        net = end_points["conv2"] = slim.conv2d(net, 64, [5, 5], scope="conv2")
        net = end_points["pool2"] = slim.max_pool2d(net, [2, 2], 2, scope="pool2")
        net = slim.flatten(net)
        net = end_points["fc3"] = slim.fully_connected(net, 1024, scope="fc3")
        net = slim.dropout(net, dropout_keep_prob, is_training=is_training, scope="dropout3")
        logits = end_points["Logits"] = slim.fully_connected(net, num_classes, activation_fn=None, scope="fc4")
    end_points["Predictions"] = slim.softmax(logits, scope="Predictions")
    return logits, end_points


# Nets beyond the zoo: model_name -> (net function, arg_scope function, default image size).
EXTRA_NETS = {"lenet": (lenet, lenet_arg_scope, LENET_IMAGE_SIZE)}
# research/slim's preprocessing per net family; every other zoo net used inception/vgg crops.
DEFAULT_PREPROCESSING = {"lenet": "lenet"}


def model_names():
    return sorted([*slim_zoo.NETS, *EXTRA_NETS])


def default_image_size(model_name):
    if model_name in EXTRA_NETS:
        return EXTRA_NETS[model_name][2]
    return slim_zoo.default_image_size(model_name)


def default_preprocessing(model_name):
    return DEFAULT_PREPROCESSING.get(model_name, "inception")


def _build_extra(model_name, images, num_classes, is_training, weight_decay=0.0):
    net_fn, arg_scope_fn, _ = EXTRA_NETS[model_name]
    with slim.arg_scope(arg_scope_fn(weight_decay)):
        return net_fn(images, num_classes=num_classes, is_training=is_training)


def network_fn(model_name, num_classes, is_training=False, weight_decay=0.0):
    """images -> (logits, end_points), like research/slim's nets_factory.get_network_fn."""
    if model_name in EXTRA_NETS:
        return functools.partial(
            _build_extra, model_name, num_classes=num_classes, is_training=is_training, weight_decay=weight_decay
        )
    return slim_zoo.get_network_fn(model_name, num_classes, is_training=is_training, weight_decay=weight_decay)
