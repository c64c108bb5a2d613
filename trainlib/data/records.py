"""The ImageNet `tf.train.Example` schema (as TensorFlow's build_imagenet_data.py writes it): parse, preprocess."""

import tensorflow as tf

# ImageNet per-channel RGB means, subtracted as the ResNet example did.
CHANNEL_MEANS = (123.68, 116.78, 103.94)
EVAL_CENTRAL_FRACTION = 0.875

FEATURES = {
    "image/encoded": tf.io.FixedLenFeature([], tf.string),
    "image/format": tf.io.FixedLenFeature([], tf.string, default_value="JPEG"),
    "image/class/label": tf.io.FixedLenFeature([], tf.int64),
    "image/class/synset": tf.io.FixedLenFeature([], tf.string, default_value=""),
    "image/class/text": tf.io.FixedLenFeature([], tf.string, default_value=""),
    "image/height": tf.io.FixedLenFeature([], tf.int64, default_value=0),
    "image/width": tf.io.FixedLenFeature([], tf.int64, default_value=0),
    "image/channels": tf.io.FixedLenFeature([], tf.int64, default_value=3),
    "image/colorspace": tf.io.FixedLenFeature([], tf.string, default_value="RGB"),
    "image/filename": tf.io.FixedLenFeature([], tf.string, default_value=""),
    "image/object/bbox/xmin": tf.io.VarLenFeature(tf.float32),
    "image/object/bbox/ymin": tf.io.VarLenFeature(tf.float32),
    "image/object/bbox/xmax": tf.io.VarLenFeature(tf.float32),
    "image/object/bbox/ymax": tf.io.VarLenFeature(tf.float32),
    "image/object/bbox/label": tf.io.VarLenFeature(tf.int64),
}


def parse(serialized: tf.Tensor) -> dict[str, tf.Tensor]:
    """All fields of one record; bbox fields as dense [n] tensors (n may be 0)."""
    parsed = tf.io.parse_single_example(serialized, FEATURES)
    for key in list(parsed):
        if isinstance(parsed[key], tf.sparse.SparseTensor):
            parsed[key] = tf.sparse.to_dense(parsed[key])
    return parsed


def boxes(parsed: dict[str, tf.Tensor]) -> tf.Tensor:
    """[1, n, 4] boxes in (ymin, xmin, ymax, xmax) order, as sample_distorted_bounding_box wants."""
    coords = [parsed[f"image/object/bbox/{k}"] for k in ("ymin", "xmin", "ymax", "xmax")]
    return tf.expand_dims(tf.stack(coords, axis=1), 0)


def preprocess(parsed: dict[str, tf.Tensor], is_training: bool, image_size: int, fast: bool = False) -> tf.Tensor:
    """Float image [size, size, 3], means subtracted.

    Training: a random crop covering 10-100% of the image, guided by the bounding boxes
    when present, resized, randomly flipped. Evaluation: the central 87.5%, resized.
    `fast` (tests, small synthetic images): decode and resize only.
    """
    encoded = parsed["image/encoded"]
    if fast:
        image = tf.image.decode_jpeg(encoded, channels=3)
    elif is_training:
        shape = tf.image.extract_jpeg_shape(encoded)
        begin, size, _ = tf.image.sample_distorted_bounding_box(
            shape,
            bounding_boxes=boxes(parsed),
            min_object_covered=0.1,
            aspect_ratio_range=(0.75, 1.33),
            area_range=(0.05, 1.0),
            max_attempts=100,
            use_image_if_no_bounding_boxes=True,
        )
        offset_y, offset_x, _ = tf.unstack(begin)
        height, width, _ = tf.unstack(size)
        image = tf.image.decode_and_crop_jpeg(encoded, tf.stack([offset_y, offset_x, height, width]), channels=3)
        image = tf.image.random_flip_left_right(image)
    else:
        image = tf.image.central_crop(tf.image.decode_jpeg(encoded, channels=3), EVAL_CENTRAL_FRACTION)
    image = tf.image.resize(tf.cast(image, tf.float32), [image_size, image_size])
    image.set_shape([image_size, image_size, 3])
    return image - tf.constant(CHANNEL_MEANS, tf.float32)
