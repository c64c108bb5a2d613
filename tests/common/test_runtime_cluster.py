"""A chief + worker + ps Estimator cluster on 127.0.0.1, TF_CONFIG in the platform's `master` dialect."""

import pytest

from tests.support.clusters import run_cluster

ESTIMATOR_TASK = """
    import json, os, tempfile
    import numpy as np
    import compat
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()

    def input_fn():
        x = np.random.RandomState(0).rand(64, 4).astype("float32")
        return tf.data.Dataset.from_tensor_slices((x, (x.sum(1) > 2).astype("int32"))).repeat().batch(8)

    def model_fn(features, labels, mode):
        logits = tf.layers.dense(tf.layers.dense(features, 8, tf.nn.relu), 2)
        loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
        step = tf.train.get_or_create_global_step()
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=tf.train.AdagradOptimizer(0.1).minimize(loss, step))

    tf.logging.set_verbosity(tf.logging.INFO)
    config = compat.strategy.run_config(model_dir=os.environ["MODEL_DIR"], save_checkpoints_steps=3)
    print("TASK", config.task_type, config.task_id, config.num_ps_replicas, config.num_worker_replicas, flush=True)
    estimator = tf.estimator.Estimator(model_fn, config=config)
    tf.estimator.train_and_evaluate(
        estimator, tf.estimator.TrainSpec(input_fn, max_steps=6), tf.estimator.EvalSpec(input_fn, steps=1)
    )
    print("DONE", config.task_type, estimator.get_variable_value("global_step") if config.is_chief else "", flush=True)
"""


@pytest.mark.slow
def test_chief_worker_ps_estimator_cluster_finishes(tmp_path):
    status, logs = run_cluster(
        tmp_path, ESTIMATOR_TASK, env={"MODEL_DIR": str(tmp_path / "model")}, chief=1, workers=1, ps=1, dialect="master"
    )
    assert status == 0, logs
    assert "TASK chief 0 1 2" in logs["chief:0"] and "TASK worker 0 1 2" in logs["worker:0"]
    assert "TASK ps 0 1 2" in logs["ps:0"]
    done = [line for line in logs["chief:0"].splitlines() if line.startswith("DONE chief")]
    assert done and int(done[0].split()[2]) >= 6, logs["chief:0"][-2000:]
