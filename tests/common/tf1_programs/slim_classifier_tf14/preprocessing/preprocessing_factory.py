"""Picks the preprocessing function of a network by name."""

import tensorflow as tf

from preprocessing import tiny_preprocessing

slim = tf.contrib.slim


def get_preprocessing(name, is_training=False):
    """preprocessing_fn(image, output_height, output_width, **kwargs) for the named network."""
    preprocessing_fn_map = {
        "tinynet": tiny_preprocessing,
    }

    if name not in preprocessing_fn_map:
        raise ValueError(f"Preprocessing name [{name}] was not recognized")

    def preprocessing_fn(image, output_height, output_width, **kwargs):
        return preprocessing_fn_map[name].preprocess_image(
            image, output_height, output_width, is_training=is_training, **kwargs
        )

    return preprocessing_fn
