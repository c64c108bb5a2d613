"""compat.replicate: tf.contrib.estimator's replicate_model_fn and TowerOptimizer on both TFs (TF 2 has neither).

An Estimator whose model_fn is replicated over two logical CPUs with a MEAN loss reduction takes the
steps one device takes on the whole batch: same weights, same evaluation (the towers' metric variables
added up), every example predicted. The name uai-run serves and uai-migrate writes is this one.
"""

import numpy as np
import pytest

import compat

compat.install()

import tensorflow.compat.v1 as tf  # noqa: E402

from compat import devices, replicate  # noqa: E402
from compat.errors import DeviceError  # noqa: E402
from compat.tf1_names import SYMBOLS  # noqa: E402

BATCH, STEPS, SEED = 8, 3, 3


def input_fn():
    rng = np.random.RandomState(SEED)
    images = rng.rand(BATCH * 2, 4, 4, 1).astype("float32")
    labels = (images.mean(axis=(1, 2, 3)) > 0.5).astype("int32")
    return tf.data.Dataset.from_tensor_slices(({"x": images}, labels)).repeat().batch(BATCH, drop_remainder=True)


def model_fn(features, labels, mode, params):
    net = tf.layers.conv2d(features["x"], 3, 2, kernel_initializer=tf.glorot_uniform_initializer(seed=SEED))
    logits = tf.layers.dense(tf.layers.flatten(net), 2, kernel_initializer=tf.glorot_uniform_initializer(seed=SEED))
    classes = tf.argmax(logits, 1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"classes": classes})
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    metrics = {"accuracy": tf.metrics.accuracy(labels, classes)}
    optimizer = tf.train.MomentumOptimizer(0.5, 0.9)
    if params["towers"]:
        optimizer = replicate.TowerOptimizer(optimizer)
    train_op = optimizer.minimize(loss, tf.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, eval_metric_ops=metrics)


def _estimator(model_dir, towers):
    fn = replicate.replicate_model_fn(model_fn, tf.losses.Reduction.MEAN, ["/cpu:0", "/cpu:1"]) if towers else model_fn
    config = tf.estimator.RunConfig(model_dir=str(model_dir), session_config=devices.session_config(2))
    estimator = tf.estimator.Estimator(fn, config=config, params={"towers": towers})
    estimator.train(input_fn, max_steps=STEPS)
    return estimator


def test_two_towers_train_evaluate_and_predict_as_one_device_does(tmp_path):
    towered, single = _estimator(tmp_path / "towers", True), _estimator(tmp_path / "single", False)
    # (no batch normalisation: each tower normalises its own half of the batch, by design)
    for name in ("conv2d/kernel", "dense/kernel", "conv2d/kernel/Momentum"):
        assert np.allclose(towered.get_variable_value(name), single.get_variable_value(name), atol=1e-5), name
    got, expected = towered.evaluate(input_fn, steps=2), single.evaluate(input_fn, steps=2)
    assert got["global_step"] == STEPS and got["accuracy"] == pytest.approx(expected["accuracy"]), (got, expected)
    predictions = list(towered.predict(lambda: input_fn().map(lambda x, y: x).take(1)))
    assert len(predictions) == BATCH


def test_without_gpus_the_model_fn_runs_as_it_is():
    # TF 1's default devices are the local GPUs, else the CPU alone: one device, no towers
    assert not tf.config.list_logical_devices("GPU")
    assert replicate.replicate_model_fn(model_fn) is model_fn


def test_a_batch_that_does_not_split_over_the_towers_is_refused():
    fn = replicate.replicate_model_fn(model_fn, devices=["/cpu:0", "/cpu:1", "/cpu:2"])
    with tf.Graph().as_default(), pytest.raises(DeviceError, match="does not split into 3 towers"):
        fn({"x": tf.zeros([8, 4, 4, 1])}, tf.zeros([8], tf.int32), tf.estimator.ModeKeys.TRAIN, {"towers": True})


def test_the_contrib_names_are_served_by_compat():
    assert SYMBOLS["tensorflow.contrib.estimator.replicate_model_fn"] == "compat.replicate:replicate_model_fn"
    assert SYMBOLS["tensorflow.contrib.estimator.TowerOptimizer"] == "compat.replicate:TowerOptimizer"


def test_parallel_interleave_builds_tf_1_15s_ops_in_a_graph():
    # official/resnet reads its shards through tf.contrib.data.parallel_interleave; TF 1.15 built its
    # `sloppy` flag as a constant (5 constants and the dataset op, measured on TF 1.15 with
    # .nox/tf115/bin/python), TF 2 makes it an attribute: one op fewer shifted every later op seed
    # (the ResNet's initial weights under uai-run were not 1.15's)
    with tf.Graph().as_default() as graph:
        files = tf.data.Dataset.from_tensor_slices(["a", "b"])
        before = len(graph.get_operations())
        files.apply(tf.data.experimental.parallel_interleave(tf.data.TFRecordDataset, cycle_length=2))
        built = sorted(op.type for op in graph.get_operations()[before:])
    assert built[:-1] == ["Const"] * 5 and len(built) == 6, built
