"""The TF 1.4 cifar10_estimator-style program, after `uai-migrate --write`, trains and evaluates on this TensorFlow.

runtime_programs/cifar10_estimator_tf1.py is the program as its users wrote it on TF 1.4;
cifar10_estimator_tf1_migrated.py is uai-migrate's output for it (tests/codemods/test_cifar10_migrate.py
checks that it still is). Here the migrated copy runs unchanged with plain `python` on generated
TFRecords: alone with two GPU towers (soft-placed on the CPU), and as a master + worker + ps
cluster through uai-launch's engine, learn_runner choosing each task's schedule from TF_CONFIG.
"""

import os
import sys

import pytest

from tests.support.clusters import run_cluster
from tests.support.processes import result_json
from tests.support.programs import CIFAR10_TRAIN_STEPS as TRAIN_STEPS
from tests.support.programs import cifar10_args

PROGRAMS = os.path.join(os.path.dirname(__file__), "runtime_programs")
MIGRATED = os.path.join(PROGRAMS, "cifar10_estimator_tf1_migrated.py")


def _command(data_dir, job_dir):
    return [sys.executable, MIGRATED, *cifar10_args(data_dir, job_dir)]


def _tower_variables(job_dir):
    """(name, requested device, bytes) of the variables the towers' device setter placed, in creation order."""
    import tensorflow as tf
    from google.protobuf import text_format
    from tensorflow.core.framework import graph_pb2

    graph = text_format.Parse((job_dir / "graph.pbtxt").read_text(), graph_pb2.GraphDef())
    placed = []
    for node in graph.node:
        # the optimizer's slots are colocated with their variable, not placed by the setter
        colocated = [group for group in node.attr["_class"].list.s if group.decode() != f"loc:@{node.name}"]
        if node.op in ("VarHandleOp", "VariableV2") and node.name.startswith("resnet/") and not colocated:
            size = tf.TensorShape(node.attr["shape"].shape).num_elements() * tf.as_dtype(node.attr["dtype"].type).size
            placed.append((node.name, node.device, size))
    return placed


def test_migrated_program_trains_and_evaluates_with_greedy_placed_gpu_towers(cifar10_port_run):
    import tensorflow as tf

    result, job_dir = cifar10_port_run  # (tests/common/conftest.py: test_uai_run_programs.py reads the same run)
    assert result.returncode == 0, result.stderr[-3000:]
    out = result_json(result.stdout)
    assert out["is_chief"] and out["metrics"]["global_step"] == TRAIN_STEPS, out
    assert 0 <= out["metrics"]["accuracy"] <= 1, out
    assert tf.train.latest_checkpoint(str(job_dir)).endswith(f"model.ckpt-{TRAIN_STEPS}")
    assert "examples/sec" in result.stderr and "learning_rate = " in result.stderr  # the program's two hooks ran
    # GreedyLoadBalancingStrategy(2, byte_size_load_fn): each variable goes to the GPU with fewer bytes so far.
    variables = _tower_variables(job_dir)
    load = {"/device:GPU:0": 0, "/device:GPU:1": 0}
    assert len(variables) >= 4 and {device for _, device, _ in variables} == set(load), variables
    for name, device, size in variables:
        assert load[device] == min(load.values()), (name, variables)
        load[device] += size


@pytest.mark.slow
def test_migrated_program_as_master_worker_ps_cluster(data_dir, tmp_path):
    """TF_CONFIG in the platform's master dialect: learn_runner picks train_and_evaluate, train and run_std_server."""
    import tensorflow as tf

    job_dir = tmp_path / "job"
    status, logs = run_cluster(
        tmp_path, command=_command(data_dir, job_dir), timeout=120, chief=1, workers=1, ps=1, dialect="master"
    )
    assert status == 0, logs
    # Asynchronous between-graph training with two trainers: StopAtStepHook reads the global step in
    # the same run that increments it, so both may read TRAIN_STEPS - 2 in concurrent runs and each
    # take one more step after that (seen in CI: 8 for 6 steps); at most one extra step each.
    step = int(tf.train.latest_checkpoint(str(job_dir)).rsplit("-", 1)[1])
    assert TRAIN_STEPS <= step <= TRAIN_STEPS + 2, logs
    master = result_json(logs["chief:0"])
    assert master["task"] == "master" and master["is_chief"], master
    # train_and_evaluate returns the master's evaluation of the last checkpoint (the ones it made while
    # training depend on when the worker's steps land; test_runtime_learn.py checks them alone)
    assert master["metrics"]["global_step"] == step, master
    # The worker joined the cluster and built its training graph; whether it finishes before the
    # master does depends on when it first finds the variables initialised (the Estimator's
    # session retries every 30 s), so its own RESULT is not required.
    assert "Graph was finalized" in logs["worker:0"], logs["worker:0"][-3000:]
    assert "RESULT " not in logs["ps:0"], logs["ps:0"][-3000:]  # run_std_server serves until stopped
