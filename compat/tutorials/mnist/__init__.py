"""`from compat.tutorials.mnist import input_data` replaces `from tensorflow.examples.tutorials.mnist import input_data`."""

__all__ = ["input_data"]  # (read by migrating)
