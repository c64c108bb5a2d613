"""What TF1's `tensorflow.examples.tutorials` gave tutorial-era code, for current TensorFlow.

TensorFlow 2 no longer ships `tensorflow.examples.tutorials`; `compat.tutorials.mnist.input_data`
keeps its `read_data_sets` API over the same four IDX files.
"""

__all__ = ["mnist"]  # (read by migrating: a name this package lacks is reported, not moved)
