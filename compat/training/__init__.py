"""What the ResNet and slim programs share across runtimes: their flags and their schedules.

`legacy_tf1` (Estimator, graph mode) and `modern_tf2` (tf.distribute) both import these, so
the two programs take the same command line and train with the same hyper-parameters.
"""
