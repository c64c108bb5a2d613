"""ResNet v1 and v2 as tf.layers, as TF 1.5-1.8's official/resnet had it (channels_first or channels_last).

v1: He et al., "Deep Residual Learning for Image Recognition" (2015);
v2: He et al., "Identity Mappings in Deep Residual Networks" (2016), batch norm and ReLU before each convolution.
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import tensorflow as tf

_BATCH_NORM_DECAY = 0.997
_BATCH_NORM_EPSILON = 1e-5
DEFAULT_VERSION = 2


def batch_norm(inputs, training, data_format):
    """Batch normalisation with the constants the ResNet papers used (fused for speed)."""
    return tf.layers.batch_normalization(
        inputs=inputs,
        axis=1 if data_format == "channels_first" else 3,
        momentum=_BATCH_NORM_DECAY,
        epsilon=_BATCH_NORM_EPSILON,
        center=True,
        scale=True,
        training=training,
        fused=True,
    )


def fixed_padding(inputs, kernel_size, data_format):
    """Pads the spatial dimensions so that a strided convolution does not depend on the input's size."""
    pad_total = kernel_size - 1
    pad_beg = pad_total // 2
    pad_end = pad_total - pad_beg
    if data_format == "channels_first":
        paddings = [[0, 0], [0, 0], [pad_beg, pad_end], [pad_beg, pad_end]]
    else:
        paddings = [[0, 0], [pad_beg, pad_end], [pad_beg, pad_end], [0, 0]]
    return tf.pad(inputs, paddings)


def conv2d_fixed_padding(inputs, filters, kernel_size, strides, data_format):
    """A strided 2-D convolution with explicit padding (SAME only when the stride is 1)."""
    if strides > 1:
        inputs = fixed_padding(inputs, kernel_size, data_format)
    return tf.layers.conv2d(
        inputs=inputs,
        filters=filters,
        kernel_size=kernel_size,
        strides=strides,
        padding=("SAME" if strides == 1 else "VALID"),
        use_bias=False,
        kernel_initializer=tf.variance_scaling_initializer(),
        data_format=data_format,
    )


def _building_block_v1(inputs, filters, training, projection_shortcut, strides, data_format):
    shortcut = inputs
    if projection_shortcut is not None:
        shortcut = projection_shortcut(inputs)
        shortcut = batch_norm(inputs=shortcut, training=training, data_format=data_format)

    inputs = conv2d_fixed_padding(
        inputs=inputs, filters=filters, kernel_size=3, strides=strides, data_format=data_format
    )
    inputs = batch_norm(inputs, training, data_format)
    inputs = tf.nn.relu(inputs)

    inputs = conv2d_fixed_padding(inputs=inputs, filters=filters, kernel_size=3, strides=1, data_format=data_format)
    inputs = batch_norm(inputs, training, data_format)
    inputs += shortcut
    return tf.nn.relu(inputs)


def _building_block_v2(inputs, filters, training, projection_shortcut, strides, data_format):
    shortcut = inputs
    inputs = batch_norm(inputs, training, data_format)
    inputs = tf.nn.relu(inputs)

    # the projection shortcut reads the normalised input, as in the v2 paper
    if projection_shortcut is not None:
        shortcut = projection_shortcut(inputs)

    inputs = conv2d_fixed_padding(
        inputs=inputs, filters=filters, kernel_size=3, strides=strides, data_format=data_format
    )
    inputs = batch_norm(inputs, training, data_format)
    inputs = tf.nn.relu(inputs)
    inputs = conv2d_fixed_padding(inputs=inputs, filters=filters, kernel_size=3, strides=1, data_format=data_format)
    return inputs + shortcut


def _bottleneck_block_v1(inputs, filters, training, projection_shortcut, strides, data_format):
    shortcut = inputs
    if projection_shortcut is not None:
        shortcut = projection_shortcut(inputs)
        shortcut = batch_norm(inputs=shortcut, training=training, data_format=data_format)

    inputs = conv2d_fixed_padding(inputs=inputs, filters=filters, kernel_size=1, strides=1, data_format=data_format)
    inputs = batch_norm(inputs, training, data_format)
    inputs = tf.nn.relu(inputs)

    inputs = conv2d_fixed_padding(
        inputs=inputs, filters=filters, kernel_size=3, strides=strides, data_format=data_format
    )
    inputs = batch_norm(inputs, training, data_format)
    inputs = tf.nn.relu(inputs)

    inputs = conv2d_fixed_padding(inputs=inputs, filters=4 * filters, kernel_size=1, strides=1, data_format=data_format)
    inputs = batch_norm(inputs, training, data_format)
    inputs += shortcut
    return tf.nn.relu(inputs)


def _bottleneck_block_v2(inputs, filters, training, projection_shortcut, strides, data_format):
    shortcut = inputs
    inputs = batch_norm(inputs, training, data_format)
    inputs = tf.nn.relu(inputs)

    if projection_shortcut is not None:
        shortcut = projection_shortcut(inputs)

    inputs = conv2d_fixed_padding(inputs=inputs, filters=filters, kernel_size=1, strides=1, data_format=data_format)
    inputs = batch_norm(inputs, training, data_format)
    inputs = tf.nn.relu(inputs)
    inputs = conv2d_fixed_padding(
        inputs=inputs, filters=filters, kernel_size=3, strides=strides, data_format=data_format
    )
    inputs = batch_norm(inputs, training, data_format)
    inputs = tf.nn.relu(inputs)
    inputs = conv2d_fixed_padding(inputs=inputs, filters=4 * filters, kernel_size=1, strides=1, data_format=data_format)
    return inputs + shortcut


def block_layer(inputs, filters, bottleneck, block_fn, blocks, strides, training, name, data_format):
    """One stage of `blocks` blocks; the first may stride and project its shortcut."""
    # a bottleneck block's output has four times its filters
    filters_out = filters * 4 if bottleneck else filters

    def projection_shortcut(inputs):
        return conv2d_fixed_padding(
            inputs=inputs, filters=filters_out, kernel_size=1, strides=strides, data_format=data_format
        )

    inputs = block_fn(inputs, filters, training, projection_shortcut, strides, data_format)
    for _ in range(1, blocks):
        inputs = block_fn(inputs, filters, training, None, 1, data_format)
    return tf.identity(inputs, name)


class Model(object):
    """A ResNet: an initial convolution (and pooling), len(block_sizes) stages, average pooling, a dense layer."""

    def __init__(
        self,
        resnet_size,
        bottleneck,
        num_classes,
        num_filters,
        kernel_size,
        conv_stride,
        first_pool_size,
        first_pool_stride,
        second_pool_size,
        second_pool_stride,
        block_sizes,
        block_strides,
        final_size,
        version=DEFAULT_VERSION,
        data_format=None,
    ):
        self.resnet_size = resnet_size
        if not data_format:
            data_format = "channels_first" if tf.test.is_built_with_cuda() else "channels_last"

        self.resnet_version = version
        if version not in (1, 2):
            raise ValueError("Resnet version should be 1 or 2. See README for citations.")

        self.bottleneck = bottleneck
        if bottleneck:
            self.block_fn = _bottleneck_block_v1 if version == 1 else _bottleneck_block_v2
        else:
            self.block_fn = _building_block_v1 if version == 1 else _building_block_v2

        self.data_format = data_format
        self.num_classes = num_classes
        self.num_filters = num_filters
        self.kernel_size = kernel_size
        self.conv_stride = conv_stride
        self.first_pool_size = first_pool_size
        self.first_pool_stride = first_pool_stride
        self.second_pool_size = second_pool_size
        self.second_pool_stride = second_pool_stride
        self.block_sizes = block_sizes
        self.block_strides = block_strides
        self.final_size = final_size

    def __call__(self, inputs, training):
        """Logits of `inputs` (NHWC images)."""
        # a named scope: its layers' automatic names restart in each tower that replicate_model_fn builds,
        # so every tower finds the first one's variables
        with tf.variable_scope("resnet_model"):
            if self.data_format == "channels_first":
                # NCHW is faster on GPUs: transpose once here
                inputs = tf.transpose(inputs, [0, 3, 1, 2])

            inputs = conv2d_fixed_padding(
                inputs=inputs,
                filters=self.num_filters,
                kernel_size=self.kernel_size,
                strides=self.conv_stride,
                data_format=self.data_format,
            )
            inputs = tf.identity(inputs, "initial_conv")

            if self.first_pool_size:
                inputs = tf.layers.max_pooling2d(
                    inputs=inputs,
                    pool_size=self.first_pool_size,
                    strides=self.first_pool_stride,
                    padding="SAME",
                    data_format=self.data_format,
                )
                inputs = tf.identity(inputs, "initial_max_pool")

            for i, num_blocks in enumerate(self.block_sizes):
                num_filters = self.num_filters * (2**i)
                inputs = block_layer(
                    inputs=inputs,
                    filters=num_filters,
                    bottleneck=self.bottleneck,
                    block_fn=self.block_fn,
                    blocks=num_blocks,
                    strides=self.block_strides[i],
                    training=training,
                    name="block_layer{}".format(i + 1),
                    data_format=self.data_format,
                )

            # v2 normalises the last block's output before pooling
            if self.resnet_version == 2:
                inputs = batch_norm(inputs, training, self.data_format)
                inputs = tf.nn.relu(inputs)

            inputs = tf.layers.average_pooling2d(
                inputs=inputs,
                pool_size=self.second_pool_size,
                strides=self.second_pool_stride,
                padding="VALID",
                data_format=self.data_format,
            )
            inputs = tf.identity(inputs, "final_avg_pool")

            inputs = tf.reshape(inputs, [-1, self.final_size])
            inputs = tf.layers.dense(inputs=inputs, units=self.num_classes)
            inputs = tf.identity(inputs, "final_dense")
            return inputs
