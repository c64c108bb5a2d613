"""tinynet: two convolutions and two fully connected layers, in the style of slim's CifarNet."""

import tensorflow as tf

slim = tf.contrib.slim


def trunc_normal(stddev):
    return tf.truncated_normal_initializer(stddev=stddev)


def tinynet(
    images,
    num_classes=4,
    is_training=False,
    dropout_keep_prob=0.5,
    prediction_fn=slim.softmax,
    scope="TinyNet",
):
    """(logits, end_points) of tinynet for a batch of [batch, 16, 16, 3] images."""
    end_points = {}

    with tf.variable_scope(scope, "TinyNet", [images]):
        net = slim.conv2d(images, 16, [3, 3], scope="conv1")
        end_points["conv1"] = net
        net = slim.max_pool2d(net, [2, 2], 2, scope="pool1")
        end_points["pool1"] = net
        net = tf.nn.lrn(net, 4, bias=1.0, alpha=0.001 / 9.0, beta=0.75, name="norm1")
        net = slim.conv2d(net, 16, [3, 3], scope="conv2")
        end_points["conv2"] = net
        net = slim.max_pool2d(net, [2, 2], 2, scope="pool2")
        end_points["pool2"] = net
        net = slim.flatten(net)
        end_points["Flatten"] = net
        net = slim.fully_connected(net, 32, scope="fc3")
        end_points["fc3"] = net
        net = slim.dropout(net, dropout_keep_prob, is_training=is_training, scope="dropout3")
        logits = slim.fully_connected(
            net,
            num_classes,
            biases_initializer=tf.zeros_initializer(),
            weights_initializer=trunc_normal(1 / 32.0),
            weights_regularizer=None,
            activation_fn=None,
            scope="logits",
        )

        end_points["Logits"] = logits
        end_points["Predictions"] = prediction_fn(logits, scope="Predictions")

    return logits, end_points


tinynet.default_image_size = 16


def tinynet_arg_scope(weight_decay=0.004):
    """Weight decay on the fully connected layers, truncated normal initial weights on the convolutions."""
    with slim.arg_scope(
        [slim.conv2d],
        weights_initializer=tf.truncated_normal_initializer(stddev=5e-2),
        activation_fn=tf.nn.relu,
    ):
        with slim.arg_scope(
            [slim.fully_connected],
            biases_initializer=tf.constant_initializer(0.1),
            weights_initializer=trunc_normal(0.04),
            weights_regularizer=slim.l2_regularizer(weight_decay),
            activation_fn=tf.nn.relu,
        ) as sc:
            return sc
