"""ResNet v1 and v2, one Keras definition for Estimator graph code and for TF2 strategies.

    model = ResNet(resnet_size=50, num_classes=1001, version=2)
    logits = model(images, training=True)        # images: [batch, height, width, 3], float

Sizes 18/34 use basic blocks, 50/101/152/200 bottleneck blocks (ImageNet stem: 7x7/2 conv +
3x3/2 max-pool, four stages); sizes 8/14/20 (6n+2) are the CIFAR-size nets for 32x32 images
(3x3 stem, three stages of 16/32/64 filters): `trainlib.models.resnet_layout`. Layer names are
fixed (`conv0`, `stage1_block0/conv2`, `logits`, ...): `trainlib.models.names` turns them into
checkpoint names both runtimes share. The model computes no loss: weight decay is the caller's (`l2_weights`).
"""

from collections.abc import Callable, Iterable

import tensorflow as tf

from trainlib.models.resnet_layout import SIZES, layout  # noqa: F401 - SIZES: the model's sizes, importable with it


class _Block(tf.keras.layers.Layer):
    """A residual block: basic (two 3x3) or bottleneck (1x1, 3x3, 1x1 x4), v1 or v2 order."""

    def __init__(
        self,
        kind: str,
        filters: int,
        strides: int,
        version: int,
        bn: Callable[[str], tf.keras.layers.Layer],
        projection: bool,
        name: str,
    ) -> None:
        super().__init__(name=name)
        self.version = version
        out_filters = filters * 4 if kind == "bottleneck" else filters
        shapes = (
            [(1, filters, 1), (3, filters, strides), (1, out_filters, 1)]
            if kind == "bottleneck"
            else [
                (3, filters, strides),
                (3, filters, 1),
            ]
        )
        self.convs = [
            tf.keras.layers.Conv2D(f, k, s, padding="same", use_bias=False, name=f"conv{i + 1}")
            for i, (k, f, s) in enumerate(shapes)
        ]
        self.bns = [bn(f"bn{i + 1}") for i in range(len(shapes))]
        self.shortcut = (
            tf.keras.layers.Conv2D(out_filters, 1, strides, use_bias=False, name="shortcut") if projection else None
        )
        # v1 normalises the projected shortcut; v2 feeds it the pre-activated input instead.
        self.shortcut_bn = bn("shortcut_bn") if projection and version == 1 else None

    def call(self, inputs: tf.Tensor, training: bool = False) -> tf.Tensor:
        if self.version == 2:
            return self._call_v2(inputs, training)
        shortcut = inputs
        if self.shortcut is not None and self.shortcut_bn is not None:  # in v1 both or neither
            shortcut = self.shortcut_bn(self.shortcut(inputs), training=training)
        net = inputs
        for i, (conv, bn) in enumerate(zip(self.convs, self.bns)):
            net = bn(conv(net), training=training)
            if i < len(self.convs) - 1:
                net = tf.nn.relu(net)
        return tf.nn.relu(net + shortcut)

    def _call_v2(self, inputs: tf.Tensor, training: bool) -> tf.Tensor:
        shortcut = inputs
        net = inputs
        for i, (conv, bn) in enumerate(zip(self.convs, self.bns)):
            net = tf.nn.relu(bn(net, training=training))
            if i == 0 and self.shortcut is not None:
                shortcut = self.shortcut(net)
            net = conv(net)
        return net + shortcut


class ResNet(tf.keras.Model):
    def __init__(
        self,
        resnet_size: int = 50,
        num_classes: int = 1001,
        version: int = 2,
        data_format: str | None = None,
        batch_norm_decay: float = 0.997,
        batch_norm_epsilon: float = 1e-5,
        name: str = "resnet",
    ) -> None:
        super().__init__(name=name)
        if version not in (1, 2):
            raise ValueError(f"version must be 1 or 2, got {version}")
        kind, blocks, filters, imagenet_stem = layout(resnet_size)
        self.resnet_size, self.version, self.num_classes = resnet_size, version, num_classes
        # CPU kernels for pooling and fused batch norm exist for NHWC only: channels_first is
        # accepted (GPU users pass it) but computed as channels_last here.
        self.data_format = data_format or "channels_last"

        def bn(layer_name: str) -> tf.keras.layers.BatchNormalization:
            return tf.keras.layers.BatchNormalization(
                momentum=batch_norm_decay, epsilon=batch_norm_epsilon, name=layer_name
            )

        self.conv0 = tf.keras.layers.Conv2D(
            filters, 7 if imagenet_stem else 3, 2 if imagenet_stem else 1, padding="same", use_bias=False, name="conv0"
        )
        self.bn0 = bn("bn0") if version == 1 else None
        self.pool0 = tf.keras.layers.MaxPool2D(3, 2, padding="same", name="pool0") if imagenet_stem else None
        self.blocks = []
        in_filters = filters
        for stage, count in enumerate(blocks):
            stage_filters = filters * 2**stage
            out_filters = stage_filters * 4 if kind == "bottleneck" else stage_filters
            for index in range(count):
                strides = 2 if stage > 0 and index == 0 else 1
                projection = index == 0 and (strides != 1 or in_filters != out_filters)
                self.blocks.append(
                    _Block(kind, stage_filters, strides, version, bn, projection, name=f"stage{stage}_block{index}")
                )
                in_filters = out_filters
        self.final_bn = bn("final_bn") if version == 2 else None
        self.logits = tf.keras.layers.Dense(num_classes, name="logits")

    def call(self, images: tf.Tensor, training: bool = False) -> tf.Tensor:
        net = self.conv0(images)
        if self.bn0 is not None:
            net = tf.nn.relu(self.bn0(net, training=training))
        if self.pool0 is not None:
            net = self.pool0(net)
        for block in self.blocks:
            net = block(net, training=training)
        if self.final_bn is not None:
            net = tf.nn.relu(self.final_bn(net, training=training))
        net = tf.reduce_mean(net, axis=[1, 2])
        return self.logits(net)


def l2_weights(variables: Iterable[tf.Variable]) -> tf.Tensor:
    """Sum of squares / 2 over the weights the example decays: every kernel, not batch-norm parameters."""
    kernels = [v for v in variables if "kernel" in v.name]
    return tf.add_n([tf.nn.l2_loss(tf.cast(v, tf.float32)) for v in kernels])
