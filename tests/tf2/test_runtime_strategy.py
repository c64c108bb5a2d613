"""compat.strategy() in real multi-process clusters whose TF_CONFIG is in the platform's `master` dialect."""

import pytest

from tests.support.clusters import run_cluster

TASK = """
    import os
    import compat
    import tensorflow as tf

    strategy = compat.strategy()  # ps / PS-workers serve here until stopped
    print("STRATEGY", type(strategy).__name__, strategy.num_replicas_in_sync, flush=True)
    with strategy.scope():
        weight = tf.Variable(1.0)

    @tf.function
    def step():
        def replica():
            with tf.GradientTape() as tape:
                loss = (weight * 3.0 - 6.0) ** 2
            weight.assign_sub(0.01 * tape.gradient(loss, weight))
            return loss
        return strategy.reduce("SUM", strategy.run(replica), axis=None)

    if isinstance(strategy, tf.distribute.experimental.ParameterServerStrategy):
        coordinator = compat.strategy.coordinator(strategy)
        losses = [coordinator.schedule(step) for _ in range(3)]
        coordinator.join()
        print("LOSS", losses[-1].fetch(), flush=True)
    else:
        print("LOSS", float(step()), flush=True)
"""


@pytest.mark.slow
def test_master_and_worker_train_with_multi_worker_mirrored(tmp_path):
    status, logs = run_cluster(tmp_path, TASK, chief=1, workers=1, dialect="master")
    assert status == 0, logs
    for task in ("chief:0", "worker:0"):
        # tf.distribute.MultiWorkerMirroredStrategy is the class CollectiveAllReduceStrategy; 2 replicas in sync.
        assert "STRATEGY CollectiveAllReduceStrategy 2" in logs[task], logs[task][-2000:]
        assert "LOSS 18.0" in logs[task]  # (1*3-6)^2 summed over the 2 replicas


@pytest.mark.slow
def test_master_worker_ps_train_with_parameter_server_and_coordinator(tmp_path):
    status, logs = run_cluster(tmp_path, TASK, chief=1, workers=1, ps=1, dialect="master")
    assert status == 0, logs
    assert "STRATEGY ParameterServerStrategyV2" in logs["chief:0"], logs["chief:0"][-2000:]
    assert "LOSS" in logs["chief:0"]
    assert "STRATEGY" not in logs["worker:0"] and "STRATEGY" not in logs["ps:0"]  # they only served
