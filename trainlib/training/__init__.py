"""What the ResNet and slim programs share across runtimes: their flags, configuration and schedules.

`legacy_tf1` (Estimator, graph mode) and `modern_tf2` (tf.distribute) both import these, so
the two programs take the same command line and train with the same hyper-parameters.
ResNet: `resnet_flags` (the flags), `resnet_config.ResNetConfig` (the model and its optimisation,
from the flags), `schedule` (the learning-rate schedule and step counts). Slim: `slim_flags`,
`slim_optimization` (the optimizer and decay table; each runtime picks its class), `slim_data`
(the dataset the flags name).

Layering: this package is not a runtime shim. It is the programs' shared code (with
`trainlib.models` and `trainlib.data`): `legacy_tf1` and `modern_tf2` import it, it imports the
shims (`compat.slim`, `compat.errors`, ...), and no shim imports it. It lives under `compat`
only for its import path. Programs -> shared code -> shims; `tests/common/test_layering.py` checks it.
"""
