"""A TF1-era input helper: images resized with Pillow's ANTIALIAS (removed in Pillow 10), then fed to a graph."""

import numpy as np
import tensorflow as tf
from PIL import Image


def load(size):
    image = Image.fromarray(np.arange(64, dtype=np.uint8).reshape(8, 8))
    return np.asarray(image.resize((size, size), Image.ANTIALIAS), dtype=np.float32)


images = tf.placeholder(tf.float32, [None, 4, 4])
mean = tf.reduce_mean(images)
with tf.Session() as sess:
    print("resized mean %.3f" % sess.run(mean, {images: [load(4)]}))
