"""Runs a ResNet model on the ImageNet data set (TFRecords written by build_imagenet_data.py).

    python imagenet_main.py --data_dir=DIR --model_dir=DIR [--multi_gpu] [--resnet_size=50]

Its TFRecord shards are found by pattern (train-*, validation-*) rather than by the 1024 / 128 files
of the full set, so that a small generated set in the same format reads too; --image_size (default 224)
and --resnet_size 10 ([1, 1, 1, 1] building blocks) make a tiny ResNet for such a set.
"""

from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import os
import sys

import tensorflow as tf

import imagenet_preprocessing
import resnet_model
import resnet_run_loop

_DEFAULT_IMAGE_SIZE = 224
_NUM_CHANNELS = 3
_NUM_CLASSES = 1001

_NUM_IMAGES = {
    "train": 1281167,
    "validation": 50000,
}

_NUM_TRAIN_FILES = 1024
_SHUFFLE_BUFFER = 1500

_image_size = _DEFAULT_IMAGE_SIZE


################################################################################
# Data processing
################################################################################
def get_filenames(is_training, data_dir):
    """The TFRecord shards of the training or the validation split."""
    pattern = "train-*-of-*" if is_training else "validation-*-of-*"
    return sorted(tf.gfile.Glob(os.path.join(data_dir, pattern)))


def _parse_example_proto(example_serialized):
    """(JPEG bytes, label, bounding boxes [1, boxes, 4]) of one serialized Example.

    The Example holds, among others:
      image/encoded: <JPEG encoded string>
      image/class/label: 615
      image/object/bbox/xmin, ymin, xmax, ymax: the boxes' corners, relative to the image
    """
    feature_map = {
        "image/encoded": tf.FixedLenFeature([], dtype=tf.string, default_value=""),
        "image/class/label": tf.FixedLenFeature([1], dtype=tf.int64, default_value=-1),
        "image/class/text": tf.FixedLenFeature([], dtype=tf.string, default_value=""),
    }
    sparse_float32 = tf.VarLenFeature(dtype=tf.float32)
    # the boxes are sparse: an image has any number of them
    feature_map.update(
        {
            k: sparse_float32
            for k in [
                "image/object/bbox/xmin",
                "image/object/bbox/ymin",
                "image/object/bbox/xmax",
                "image/object/bbox/ymax",
            ]
        }
    )

    features = tf.parse_single_example(example_serialized, feature_map)
    label = tf.cast(features["image/class/label"], dtype=tf.int32)

    xmin = tf.expand_dims(features["image/object/bbox/xmin"].values, 0)
    ymin = tf.expand_dims(features["image/object/bbox/ymin"].values, 0)
    xmax = tf.expand_dims(features["image/object/bbox/xmax"].values, 0)
    ymax = tf.expand_dims(features["image/object/bbox/ymax"].values, 0)

    # [ymin, xmin, ymax, xmax], as sample_distorted_bounding_box reads them
    bbox = tf.concat([ymin, xmin, ymax, xmax], 0)

    # [1, num_boxes, 4]
    bbox = tf.expand_dims(bbox, 0)
    bbox = tf.transpose(bbox, [0, 2, 1])

    return features["image/encoded"], label, bbox


def parse_record(raw_record, is_training):
    """(preprocessed image, one-hot label) of one record."""
    image_buffer, label, bbox = _parse_example_proto(raw_record)

    image = imagenet_preprocessing.preprocess_image(
        image_buffer=image_buffer,
        bbox=bbox,
        output_height=_image_size,
        output_width=_image_size,
        num_channels=_NUM_CHANNELS,
        is_training=is_training,
    )

    label = tf.one_hot(tf.reshape(label, shape=[]), _NUM_CLASSES)

    return image, label


def input_fn(is_training, data_dir, batch_size, num_epochs=1, num_parallel_calls=1, multi_gpu=False):
    """The (image, label) batches of an ImageNet split, read from its shards in parallel."""
    filenames = get_filenames(is_training, data_dir)
    dataset = tf.data.Dataset.from_tensor_slices(filenames)

    if is_training:
        # the shards come in a new order each epoch
        dataset = dataset.shuffle(buffer_size=_NUM_TRAIN_FILES)

    # read up to 10 shards at once
    dataset = dataset.apply(tf.contrib.data.parallel_interleave(tf.data.TFRecordDataset, cycle_length=10))

    num_images = is_training and _NUM_IMAGES["train"] or _NUM_IMAGES["validation"]

    return resnet_run_loop.process_record_dataset(
        dataset,
        is_training,
        batch_size,
        _SHUFFLE_BUFFER,
        parse_record,
        num_epochs,
        num_parallel_calls,
        examples_per_epoch=num_images,
        multi_gpu=multi_gpu,
    )


def get_synth_input_fn():
    return resnet_run_loop.get_synth_input_fn(_image_size, _image_size, _NUM_CHANNELS, _NUM_CLASSES)


###############################################################################
# Running the model
###############################################################################
class ImagenetModel(resnet_model.Model):
    """A ResNet for ImageNet's 1001 classes."""

    def __init__(
        self,
        resnet_size,
        data_format=None,
        num_classes=_NUM_CLASSES,
        version=resnet_model.DEFAULT_VERSION,
        num_filters=None,
    ):
        # ResNets of fewer than 50 layers use building blocks, the others bottlenecks
        if resnet_size < 50:
            bottleneck = False
            final_size = 512
        else:
            bottleneck = True
            final_size = 2048
        num_filters = num_filters or 64
        final_size = final_size * num_filters // 64

        super(ImagenetModel, self).__init__(
            resnet_size=resnet_size,
            bottleneck=bottleneck,
            num_classes=num_classes,
            num_filters=num_filters,
            kernel_size=7,
            conv_stride=2,
            first_pool_size=3,
            first_pool_stride=2,
            # the last stage's maps are image_size / 32 wide
            second_pool_size=_image_size // 32,
            second_pool_stride=1,
            block_sizes=_get_block_sizes(resnet_size),
            block_strides=[1, 2, 2, 2],
            final_size=final_size,
            version=version,
            data_format=data_format,
        )


def _get_block_sizes(resnet_size):
    """The number of blocks in each of the four stages."""
    choices = {
        10: [1, 1, 1, 1],
        18: [2, 2, 2, 2],
        34: [3, 4, 6, 3],
        50: [3, 4, 6, 3],
        101: [3, 4, 23, 3],
        152: [3, 8, 36, 3],
        200: [3, 24, 36, 3],
    }

    try:
        return choices[resnet_size]
    except KeyError:
        err = "Could not find layers for selected Resnet size.\nSize received: {}; sizes allowed: {}.".format(
            resnet_size, choices.keys()
        )
        raise ValueError(err)


def imagenet_model_fn(features, labels, mode, params):
    """The model_fn of ResNet for ImageNet."""
    learning_rate_fn = resnet_run_loop.learning_rate_with_decay(
        batch_size=params["batch_size"],
        batch_denom=256,
        num_images=_NUM_IMAGES["train"],
        boundary_epochs=[30, 60, 80, 90],
        decay_rates=[1, 0.1, 0.01, 0.001, 1e-4],
    )

    return resnet_run_loop.resnet_model_fn(
        features,
        labels,
        mode,
        ImagenetModel,
        resnet_size=params["resnet_size"],
        weight_decay=1e-4,
        learning_rate_fn=learning_rate_fn,
        momentum=0.9,
        data_format=params["data_format"],
        version=params["version"],
        loss_filter_fn=None,
        multi_gpu=params["multi_gpu"],
        num_filters=params["num_filters"],
    )


def main(argv):
    global _image_size
    parser = resnet_run_loop.ResnetArgParser(resnet_size_choices=[10, 18, 34, 50, 101, 152, 200])
    parser.add_argument(
        "--image_size", type=int, default=_DEFAULT_IMAGE_SIZE, help="The side of the square images the model reads."
    )
    flags = parser.parse_args(args=argv[1:])
    _image_size = flags.image_size

    input_function = flags.use_synthetic_data and get_synth_input_fn() or input_fn
    resnet_run_loop.resnet_main(flags, imagenet_model_fn, input_function)


if __name__ == "__main__":
    tf.logging.set_verbosity(tf.logging.INFO)
    main(argv=sys.argv)
