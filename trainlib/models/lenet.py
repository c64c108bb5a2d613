"""LeNet in slim layers (research/slim offered it; tf-slim 1.1.0 does not): a net and its arg_scope.

    with slim.arg_scope(lenet_arg_scope(weight_decay)):
        logits, end_points = lenet(images, num_classes=11, is_training=True)

Our own small two-conv net: cheap at any image size, which is why the tests and the demo
train it. `trainlib.models.slim_zoo` offers it as `lenet`.
"""

import tensorflow as tf

import compat.slim as slim


def lenet_arg_scope(weight_decay: float = 0.0) -> dict:
    with slim.arg_scope(
        [slim.conv2d, slim.fully_connected],
        weights_regularizer=slim.l2_regularizer(weight_decay) if weight_decay else None,
        activation_fn=tf.nn.relu,
    ) as scope:
        return scope


def lenet(
    images: tf.Tensor,
    num_classes: int = 10,
    is_training: bool = False,
    dropout_keep_prob: float = 0.5,
    scope: str = "LeNet",
) -> tuple[tf.Tensor, dict[str, tf.Tensor]]:
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
