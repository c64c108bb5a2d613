"""What the ResNet and slim programs share across runtimes: their flags, configuration and schedules.

`legacy_tf1` (Estimator, graph mode) and `modern_tf2` (tf.distribute) both import these, so
the two programs take the same command line and train with the same hyper-parameters.

Layering: this package is not a runtime shim. It is the programs' shared code (with
`compat.models` and `compat.data`): `legacy_tf1` and `modern_tf2` import it, it imports the
shims (`compat.slim`, `compat.errors`, ...), and no shim imports it. It lives under `compat`
only for its import path. Programs -> shared code -> shims; `tests/common/test_layering.py` checks it.
"""
