"""Input data written once for both runtimes.

`imagenet`: ImageNet TFRecords (train-*/validation-* shards) -> tf.data, as an Estimator
`input_fn` or per-replica for strategies. `slim_layout`: TF-slim's `<name>_<split>_*.tfrecord`
+ labels.txt. `synth`: `python -m compat.data.synth` writes a small synthetic ImageNet set.
`towers`: a global batch split over towers.
"""
