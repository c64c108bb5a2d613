"""legacy_tf1.imagenet_main: the Estimator ResNet program, as a process, on generated TFRecords.

Runs in both environments: TF 2.15's own Estimator (tf1) and compat's on TF 2.21 (tf2),
with the same source.
"""

import json
import re
import signal
import subprocess
import time

import pytest

from tests.support import tf_free
from tests.support.clusters import run_cluster
from tests.support.processes import REPO, module_command, python_env, run_module
from trainlib.data import synth

NUM_CLASSES = 5
TINY = [
    "--resnet_size=8",
    "--image_size=32",
    f"--num_classes={NUM_CLASSES + 1}",
    "--train-batch-size=16",
    "--eval-batch-size=16",
    "--train_images=128",
    "--epochs_per_eval=100",
    "--learning-rate=0.1",
    "--batch-norm-decay=0.9",
    "--log_every_n_steps=5",
    "--seed=1",
]
# Estimator's own progress line: "loss = 2.31, step = 5 (0.7 sec)".
LOSS_LINE = re.compile(r"loss = ([0-9.]+), step = (\d+)")


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("imagenet")
    synth.generate(
        str(out),
        train_shards=2,
        validation_shards=1,
        images=128,
        validation_images=32,
        size=32,
        num_classes=NUM_CLASSES,
        seed=3,
    )
    return str(out)


def program_args(data_dir, output_dir, *extra):
    return [f"--data_dir={data_dir}", f"--output_dir={output_dir}", *TINY, *extra]


def command(data_dir, output_dir, *extra):
    return module_command("legacy_tf1.imagenet_main", *program_args(data_dir, output_dir, *extra))


def run(data_dir, output_dir, *extra, env=None, timeout=300):
    return run_module("legacy_tf1.imagenet_main", program_args(data_dir, output_dir, *extra), env=env, timeout=timeout)


def training_losses(log):
    return [float(loss) for loss, _ in LOSS_LINE.findall(log)]


def load_export(output_dir):
    import tensorflow as tf

    exports = sorted((output_dir / "export").iterdir())
    assert exports, "no SavedModel exported"
    return tf.saved_model.load(str(exports[-1]))


def test_single_device_trains_evaluates_and_exports(data_dir, tmp_path):
    import numpy as np
    import tensorflow as tf

    out, logs = tmp_path / "out", tmp_path / "logs"
    result = run(data_dir, out, "--max_step=30", f"--log_dir={logs}")
    assert result.returncode == 0, result.stderr[-3000:]
    losses = training_losses(result.stderr)
    assert len(losses) >= 3 and np.mean(losses[-2:]) < losses[0], losses
    assert re.search(r"^step 30/30 loss [0-9.]+ top_1 [0-9.]+ top_5 [0-9.]+$", result.stdout, re.M), result.stdout
    assert tf.train.latest_checkpoint(str(out)).endswith("model.ckpt-30")
    assert list(logs.glob("events.out.tfevents.*")), "no summaries in --log_dir"
    serve = load_export(out).signatures["serving_default"]
    probabilities = serve(images=tf.zeros([2, 32, 32, 3]))["probabilities"].numpy()
    assert probabilities.shape == (2, NUM_CLASSES + 1)
    np.testing.assert_allclose(probabilities.sum(axis=1), 1.0, rtol=1e-5)


def training_graph(output_dir):
    """The GraphDef of the training graph the Estimator wrote to `graph.pbtxt`."""
    from google.protobuf import text_format
    from tensorflow.core.framework import graph_pb2

    return text_format.Parse((output_dir / "graph.pbtxt").read_text(), graph_pb2.GraphDef())


def ancestors(graph, name):
    """Names of the nodes `name` depends on (data and control inputs), transitively."""
    inputs = {node.name: [i.lstrip("^").split(":")[0] for i in node.input] for node in graph.node}
    seen, todo = set(), [name]
    while todo:
        for parent in inputs[todo.pop()]:
            if parent not in seen:
                seen.add(parent)
                todo.append(parent)
    return seen


def test_two_towers_on_two_cpus_place_variables_on_the_parameter_device(data_dir, tmp_path):
    out = tmp_path / "out"
    result = run(data_dir, out, "--max_step=10", "--num_gpus=2", "--export=false")
    assert result.returncode == 0, result.stderr[-3000:]
    graph = training_graph(out)
    placed = {node.name: (node.op, node.device) for node in graph.node}
    variables = {device for name, (op, device) in placed.items() if op == "VarHandleOp" and name.startswith("resnet/")}
    convs = {
        tower: {d for name, (op, d) in placed.items() if op == "Conv2D" and name.startswith(f"tower_{tower}/")}
        for tower in (0, 1)
    }
    assert variables == {"/device:CPU:0"}, variables
    assert convs == {0: {"/device:CPU:0"}, 1: {"/device:CPU:1"}}, convs
    # The train op runs the batch-norm statistics updates of tower 0 only.
    train_op = next(
        node.name for node in graph.node if node.op == "AssignAddVariableOp" and "global_step" in "".join(node.input)
    )
    updates = {
        name.split("/")[0]
        for name in ancestors(graph, train_op)
        if placed[name][0] == "AssignSubVariableOp" and "AssignMovingAvg" in name
    }
    assert updates == {"tower_0"}, updates


def test_mirrored_strategy_variant_trains(data_dir, tmp_path):
    import tensorflow as tf

    out = tmp_path / "out"
    result = run(data_dir, out, "--max_step=6", "--num_gpus=2", "--multi_device=mirrored", "--export=false")
    assert result.returncode == 0, result.stderr[-3000:]
    assert tf.train.latest_checkpoint(str(out)).endswith("model.ckpt-6")


@pytest.mark.parametrize(
    "extra, env, message",
    [
        (["--num_gpus=3"], None, "does not split evenly over 3 towers"),
        (
            [],
            {"TF_CONFIG": json.dumps({"cluster": {"master": ["127.0.0.1:1"]}, "task": {"type": "worker", "index": 0}})},
            "worker",
        ),
        (["--data_dir=/nonexistent/imagenet"], None, "does not exist"),
        (["--multi_device=replicas"], None, "--multi_device"),
    ],
    ids=["batch-not-divisible", "task-not-in-cluster", "missing-data-dir", "bad-enum"],
)
def test_bad_input_is_one_line_and_exit_2_before_tensorflow_is_imported(data_dir, tmp_path, extra, env, message):
    result = tf_free.run_module("legacy_tf1.imagenet_main", program_args(data_dir, tmp_path / "out", *extra), env=env)
    tf_free.assert_one_line_error_before_tensorflow(result, message)


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["async", "sync"])
def test_master_worker_ps_cluster_finishes(data_dir, tmp_path, mode):
    """The platform's cluster: master + worker + ps, TF_CONFIG in the master dialect, between-graph training."""
    import tensorflow as tf

    out = tmp_path / "out"
    extra = ["--max_step=8", "--save_checkpoints_steps=4", *(["--sync"] if mode == "sync" else [])]
    status, logs = run_cluster(
        tmp_path, command=command(data_dir, out, *extra), timeout=240, chief=1, workers=1, ps=1, dialect="master"
    )
    assert status == 0, logs
    assert tf.train.latest_checkpoint(str(out)).endswith("model.ckpt-8"), logs
    assert "exported SavedModel" in logs["chief:0"], logs


def test_sync_builds_a_sync_replicas_training_graph():
    """`--sync`: gradients of all workers aggregated per step (SyncReplicasOptimizer and its chief hook).

    The graph, built in-process so its accumulators can be counted; the cluster test above runs it.
    """
    import compat

    compat.install()
    import tensorflow as tf

    from legacy_tf1 import resnet_model_fn
    from trainlib.training.resnet_config import ResNetConfig

    config = ResNetConfig(resnet_size=8, num_classes=6, batch_norm_decay=0.9, image_size=32, batches_per_epoch=10)
    rows = []
    for replicas in (0, 2):
        params = resnet_model_fn.estimator_params(config, resnet_model_fn.Deployment(sync_replicas=replicas))
        with tf.Graph().as_default() as graph:
            spec = resnet_model_fn.model_fn(
                tf.zeros([4, 32, 32, 3]), tf.zeros([4], tf.int32), tf.estimator.ModeKeys.TRAIN, params
            )
            accumulators = sum(op.type.endswith("ConditionalAccumulator") for op in graph.get_operations())
            hooks = [type(hook).__name__ for hook in spec.training_hooks]
            rows.append((accumulators, len(tf.compat.v1.trainable_variables()), hooks))
    (async_accumulators, _, async_hooks), (sync_accumulators, variables, sync_hooks) = rows
    assert async_accumulators == 0 and async_hooks == []
    # One accumulator per trainable variable, and the hook that runs the chief's queue.
    assert sync_accumulators == variables and "_SyncReplicasOptimizerHook" in sync_hooks


@pytest.mark.slow
def test_killed_chief_restarts_from_its_last_checkpoint(data_dir, tmp_path):
    """SIGKILL mid-run, start again: training resumes from model_dir's checkpoint and finishes."""
    import tensorflow as tf

    out = tmp_path / "out"
    args = ("--max_step=400", "--save_checkpoints_steps=5", "--export=false")
    first = subprocess.Popen(
        command(data_dir, out, *args), cwd=REPO, env=python_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 120
        while checkpoint_step(out) < 10:
            assert first.poll() is None and time.monotonic() < deadline, "no checkpoint at step 10 in time"
            time.sleep(0.1)
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    killed_at = checkpoint_step(out)
    # The index names complete files: the checkpoint it points at loads.
    assert tf.train.load_checkpoint(str(out)).get_tensor("global_step") == killed_at
    final = killed_at + 10
    second = run(data_dir, out, f"--max_step={final}", "--save_checkpoints_steps=5", "--export=false")
    assert second.returncode == 0, second.stderr[-3000:]
    assert f"model.ckpt-{killed_at}" in second.stderr and "Restoring parameters" in second.stderr
    first_logged_step = int(LOSS_LINE.search(second.stderr).group(2))
    # Estimator logs the step it starts from: the restored one, not 0.
    assert first_logged_step >= killed_at >= 10, (first_logged_step, killed_at)
    assert checkpoint_step(out) == final


def checkpoint_step(model_dir):
    import tensorflow as tf

    path = tf.train.latest_checkpoint(str(model_dir))
    return int(path.rsplit("-", 1)[1]) if path else -1
