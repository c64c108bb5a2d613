"""The TF-slim zoo by `model_name`, as research/slim's nets_factory mapped it: the one table of nets.

    logits, end_points = slim_zoo.build("resnet_v1_50", images, num_classes=1001, is_training=True)

Graph mode (TF 2.15 and 2.21) through `compat.slim`; for TF2 strategies, `trainlib.models.slim_layer`
wraps a net in a Keras layer. Both slim programs (legacy_tf1 and modern_tf2) offer every net of `NETS`.
Adding a net is one row of `NETS` (where its net function and arg_scope function are, as tf-slim writes
them; a net of our own goes in its own module, like `trainlib.models.lenet`). tf-slim 1.1.0 ships no
mobilenet, so `mobilenet_v1` is not offered. Importing this module imports no TensorFlow.
"""

import functools
import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import tensorflow as tf


class Net(NamedTuple):
    fn: str  # "module:function" of images, num_classes=, is_training= -> (logits, end_points)
    arg_scope: str  # "module:function" of weight_decay= -> the arg_scope of the net's defaults
    image_size: int  # the default training image side
    preprocessing: str = "inception"  # research/slim's preprocessing of the net's family


# The nets by name, not by value: the programs check `--model_name` and read the defaults before they import
# TensorFlow (which importing a net does). vgg's `fc6` is a 7x7 VALID conv: it needs its default size; resnets
# take any size, inception_v3 at least 75.
_SLIM = "tf_slim.nets."
NETS = {
    "resnet_v1_50": Net(_SLIM + "resnet_v1:resnet_v1_50", _SLIM + "resnet_v1:resnet_arg_scope", 224),
    "resnet_v1_101": Net(_SLIM + "resnet_v1:resnet_v1_101", _SLIM + "resnet_v1:resnet_arg_scope", 224),
    "resnet_v2_50": Net(_SLIM + "resnet_v2:resnet_v2_50", _SLIM + "resnet_v2:resnet_arg_scope", 224),
    "resnet_v2_101": Net(_SLIM + "resnet_v2:resnet_v2_101", _SLIM + "resnet_v2:resnet_arg_scope", 224),
    "vgg_16": Net(_SLIM + "vgg:vgg_16", _SLIM + "vgg:vgg_arg_scope", 224),
    "vgg_19": Net(_SLIM + "vgg:vgg_19", _SLIM + "vgg:vgg_arg_scope", 224),
    "inception_v1": Net(_SLIM + "inception:inception_v1", _SLIM + "inception:inception_v1_arg_scope", 224),
    "inception_v3": Net(_SLIM + "inception:inception_v3", _SLIM + "inception:inception_v3_arg_scope", 299),
    "alexnet_v2": Net(_SLIM + "alexnet:alexnet_v2", _SLIM + "alexnet:alexnet_v2_arg_scope", 224),
    "lenet": Net("trainlib.models.lenet:lenet", "trainlib.models.lenet:lenet_arg_scope", 28, "lenet"),
}


def function(reference: str) -> Callable:
    """The function a row names ("module:function"), its module imported (tf-slim repaired first)."""
    import compat.slim  # noqa: F401 - tf-slim's nets work on current TensorFlow once compat has repaired it

    module, name = reference.split(":")
    return getattr(importlib.import_module(module), name)


def check_model_name(model_name: str) -> None:
    """The one check of a `--model_name`: both slim programs' flag and every lookup here use it."""
    if model_name not in NETS:
        raise ValueError(f"--model_name must be one of {', '.join(sorted(NETS))}, not {model_name!r}")


def _net(model_name: str) -> Net:
    check_model_name(model_name)
    return NETS[model_name]


def default_image_size(model_name: str) -> int:
    return _net(model_name).image_size


def default_preprocessing(model_name: str) -> str:
    return _net(model_name).preprocessing


def build(
    model_name: str, images: "tf.Tensor", num_classes: int, is_training: bool, weight_decay: float = 0.0, **kwargs: Any
) -> tuple["tf.Tensor", dict[str, "tf.Tensor"]]:
    """(logits [batch, num_classes], end_points) with the net's own arg_scope defaults."""
    import tensorflow as tf

    import compat.slim as slim

    net = _net(model_name)
    scope_args = {"weight_decay": weight_decay} if weight_decay else {}
    with slim.arg_scope(function(net.arg_scope)(**scope_args)):
        logits, end_points = function(net.fn)(images, num_classes=num_classes, is_training=is_training, **kwargs)
    if len(logits.shape) == 4:
        logits = tf.squeeze(logits, [1, 2])
    return logits, end_points


def get_network_fn(
    model_name: str, num_classes: int, is_training: bool = False, weight_decay: float = 0.0
) -> Callable[..., tuple["tf.Tensor", dict[str, "tf.Tensor"]]]:
    """research/slim's `nets_factory.get_network_fn`: images -> (logits, end_points)."""
    _net(model_name)
    return functools.partial(
        build, model_name, num_classes=num_classes, is_training=is_training, weight_decay=weight_decay
    )
