"""Input data written once for both runtimes.

`imagenet`: ImageNet TFRecords (train-*/validation-* shards) -> tf.data, as an Estimator
`input_fn` or per-replica for strategies. `slim_layout`: TF-slim's `<name>_<split>_*.tfrecord`
+ labels.txt. `synth`: `python -m trainlib.data.synth` writes a small synthetic ImageNet set.
`towers`: a global batch split over towers.

Layering: this package is not a runtime shim. It is the programs' shared code (with
`trainlib.models` and `trainlib.training`): `legacy_tf1` and `modern_tf2` import it, it imports the
shims (`compat.slim`, `compat.errors`, ...), and no shim imports it. It lives under `compat`
only for its import path. Programs -> shared code -> shims; `tests/common/test_layering.py` checks it.
"""
