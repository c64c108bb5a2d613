"""Models written once for both runtimes.

`resnet.ResNet`: ResNet v1/v2 (ImageNet sizes 18-200, CIFAR-size 8/14/20) as a Keras model
that works inside an Estimator `model_fn` (graph mode, TF 2.15 and TF 2.21 via compat) and
under tf.distribute strategies. `names`: stable variable names for checkpoints that cross
runtimes. `resnet_layout`: the sizes and their blocks (TensorFlow-free). `slim_zoo`: tf-slim nets
by `model_name`, one table row per net (`lenet`, our own, in `lenet`).

Layering: this package is not a runtime shim. It is the programs' shared code (with
`trainlib.data` and `trainlib.training`): `legacy_tf1` and `modern_tf2` import it, it imports the
shims (`compat.slim`, `compat.errors`, ...), and no shim imports it. It lives under `compat`
only for its import path. Programs -> shared code -> shims; `tests/common/test_layering.py` checks it.
"""
