"""What compat has of tf.contrib.learn.datasets: `base`, its CSV loaders and tuples.

Its `mnist` is compat.tutorials.mnist.input_data (compat/tf1_names.py). TF 1.15's load_dataset, load_iris and
load_boston (CSV files TensorFlow shipped), make_dataset (synthetic) and text_datasets are not here.
"""

__all__ = ["base"]  # (read by migrating: a name this package lacks is reported, not moved)
