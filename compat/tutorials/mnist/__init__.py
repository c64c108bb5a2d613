"""`from compat.tutorials.mnist import input_data` replaces `from tensorflow.examples.tutorials.mnist import input_data`."""
