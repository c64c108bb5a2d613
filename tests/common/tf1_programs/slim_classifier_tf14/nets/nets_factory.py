"""Picks a network function by name: ours, or one of those tf.contrib.slim.nets ships."""

import functools

import tensorflow as tf
from tensorflow.contrib.slim.nets import alexnet, inception, resnet_v1, vgg

from nets import tinynet

slim = tf.contrib.slim

networks_map = {
    "alexnet_v2": alexnet.alexnet_v2,
    "tinynet": tinynet.tinynet,
    "vgg_a": vgg.vgg_a,
    "vgg_16": vgg.vgg_16,
    "inception_v1": inception.inception_v1,
    "resnet_v1_50": resnet_v1.resnet_v1_50,
}

arg_scopes_map = {
    "alexnet_v2": alexnet.alexnet_v2_arg_scope,
    "tinynet": tinynet.tinynet_arg_scope,
    "vgg_a": vgg.vgg_arg_scope,
    "vgg_16": vgg.vgg_arg_scope,
    "inception_v1": inception.inception_v3_arg_scope,
    "resnet_v1_50": resnet_v1.resnet_arg_scope,
}


def get_network_fn(name, num_classes, weight_decay=0.0, is_training=False):
    """network_fn(images) -> (logits, end_points), built in the network's own arg_scope."""
    if name not in networks_map:
        raise ValueError(f"Name of network unknown {name}")
    func = networks_map[name]

    @functools.wraps(func)
    def network_fn(images, **kwargs):
        arg_scope = arg_scopes_map[name](weight_decay=weight_decay)
        with slim.arg_scope(arg_scope):
            return func(images, num_classes, is_training=is_training, **kwargs)

    if hasattr(func, "default_image_size"):
        network_fn.default_image_size = func.default_image_size

    return network_fn
