"""legacy_tf1.slim_main (TF-slim train_image_classifier) as a process, on generated TFRecords.

Both environments: TF 2.15 (tf1) and TF 2.21 through compat (tf2), same source.
"""

import json
import re
import shutil

import pytest

from tests.support import tf_free
from tests.support.clusters import run_cluster
from tests.support.processes import module_command, run_module
from trainlib.data import synth

NUM_CLASSES = 5  # labels 1..5; the model has 6 outputs, 0 being background as in ImageNet
TINY = [
    "--model_name=lenet",
    "--train_image_size=32",
    f"--num_classes={NUM_CLASSES + 1}",
    "--batch_size=16",
    "--optimizer=sgd",
    "--learning_rate=0.01",
    "--log_every_n_steps=5",
]
# slim's progress line: "global step 20: loss = 0.6615 (0.332 sec/step)".
LOSS_LINE = re.compile(r"^global step (\d+): loss = ([0-9.]+|nan)", re.M)
FINISHED = re.compile(r"^finished training at global step (\d+) after (\d+) steps here$", re.M)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("imagenet")
    synth.generate(
        str(out),
        train_shards=2,
        validation_shards=1,
        images=128,
        validation_images=16,
        size=32,
        num_classes=NUM_CLASSES,
        seed=3,
    )
    return out


def program_args(data_dir, output_dir, *extra):
    return [f"--data_dir={data_dir}", f"--output_dir={output_dir}", *TINY, *extra]


def run(data_dir, output_dir, *extra, env=None, timeout=300):
    return run_module("legacy_tf1.slim_main", program_args(data_dir, output_dir, *extra), env=env, timeout=timeout)


def losses(stdout):
    return [float(loss) for _, loss in LOSS_LINE.findall(stdout)]


def checkpoint(folder):
    import tensorflow as tf

    return tf.train.load_checkpoint(str(folder))


@pytest.fixture(scope="module")
def trained(data_dir, tmp_path_factory):
    """One clone, 40 steps: (train_dir, CompletedProcess)."""
    out = tmp_path_factory.mktemp("slim_train")
    return out, run(data_dir, out, "--max_step=40")


def test_trains_loss_falls_and_checkpoint_reloads(trained):
    import numpy as np

    out, result = trained
    assert result.returncode == 0, result.stderr[-3000:]
    curve = losses(result.stdout)
    assert len(curve) == 8 and np.all(np.isfinite(curve)), result.stdout
    assert np.mean(curve[-2:]) < curve[0] / 2, curve
    assert FINISHED.search(result.stdout).groups() == ("40", "40"), result.stdout
    reader = checkpoint(out)
    assert reader.get_tensor("global_step") == 40
    assert reader.get_variable_to_shape_map()["LeNet/fc4/weights"] == [1024, NUM_CLASSES + 1]
    # Without clones there are no clone scopes: the graph is that of a one-device slim model.
    assert "clone_0/" not in (out / "graph.pbtxt").read_text()


def node_devices(graph_pbtxt):
    """{node name: requested device} from a GraphDef in text form, without variable reads.

    Reads of a resource variable are built outside any device scope (TensorFlow clears it) and
    are placed with their variable.
    """
    import tensorflow as tf
    from google.protobuf import text_format

    graph = text_format.Parse(graph_pbtxt.read_text(), tf.compat.v1.GraphDef())
    return {node.name: node.device for node in graph.node if node.op != "ReadVariableOp"}


def test_two_clones_on_two_logical_cpus(data_dir, tmp_path):
    import numpy as np

    out = tmp_path / "out"
    result = run(data_dir, out, "--max_step=10", "--num_gpus=2", "--batch_size=8", "--moving_average_decay=0.99")
    assert result.returncode == 0, result.stderr[-3000:]
    assert np.all(np.isfinite(losses(result.stdout))), result.stdout
    devices = node_devices(out / "graph.pbtxt")
    for clone in (0, 1):
        # The clone's batch comes off the shared iterator, which lives on the inputs device (CPU:0).
        assert devices[f"clone_{clone}/IteratorGetNext"] == "/device:CPU:0"
        ops = {d for name, d in devices.items() if name.startswith(f"clone_{clone}/") and "IteratorGetNext" not in name}
        assert ops == {f"/device:CPU:{clone}"}, (clone, ops)
    # Variables (created by clone 0) live on CPU:0; each one's clone gradients are summed.
    assert devices["LeNet/conv1/weights"] == "/device:CPU:0"
    assert any(name.endswith("sum_grads") for name in devices), sorted(devices)[:50]
    # The clone losses are each divided by 2, and regularization is added on clone 0 only.
    assert "clone_0/scaled_clone_loss" in devices and "clone_1/scaled_clone_loss" in devices
    assert "clone_0/regularization_loss" in devices and "clone_1/regularization_loss" not in devices
    reader = checkpoint(out)
    assert reader.get_tensor("global_step") == 10
    assert "LeNet/conv1/weights/ExponentialMovingAverage" in reader.get_variable_to_shape_map()


def slim_layout_copy(data_dir, folder, name):
    """The generated train shards as slim's `<name>_train_*.tfrecord` files with a labels.txt."""
    folder.mkdir()
    for index, shard in enumerate(sorted(data_dir.glob("train-*"))):
        shutil.copy(shard, folder / f"{name}_train_{index:05d}.tfrecord")
    names = ["background"] + [f"class{i}" for i in range(1, NUM_CLASSES + 1)]
    (folder / "labels.txt").write_text("".join(f"{i}:{label}\n" for i, label in enumerate(names)))
    return folder


def test_fine_tune_restores_all_but_excluded_scopes(trained, data_dir, tmp_path):
    import numpy as np

    base, _ = trained
    data = slim_layout_copy(data_dir, tmp_path / "mini", "mini")
    out = tmp_path / "out"
    result = run(
        data,
        out,
        "--max_step=5",
        "--dataset_name=mini",
        "--num_classes=0",
        f"--checkpoint_path={base}",
        "--checkpoint_exclude_scopes=LeNet/fc4",
        "--trainable_scopes=LeNet/fc4",
    )
    assert result.returncode == 0, result.stderr[-3000:]
    old, new = checkpoint(base), checkpoint(out)
    assert new.get_tensor("global_step") == 5
    # Restored and frozen (outside --trainable_scopes): exactly the base run's weights.
    for frozen in ("LeNet/conv1/weights", "LeNet/fc3/biases"):
        np.testing.assert_array_equal(new.get_tensor(frozen), old.get_tensor(frozen))
    # Excluded from the restore: freshly initialised, then trained.
    assert not np.allclose(new.get_tensor("LeNet/fc4/weights"), old.get_tensor("LeNet/fc4/weights"))


NO_SUCH_TASK = {"type": "worker", "index": 0}  # the cluster has a master only


@pytest.mark.parametrize(
    "extra, env, message",
    [
        ([], {"TF_CONFIG": json.dumps({"cluster": {"master": ["127.0.0.1:1"]}, "task": NO_SUCH_TASK})}, "worker"),
        (["--data_dir=/nonexistent/imagenet"], None, "does not exist"),
        (["--model_name=resnet_v9"], None, "must be one of"),
        (["--checkpoint_path=/nonexistent/model.ckpt"], None, "does not exist"),
    ],
    ids=["task-not-in-cluster", "missing-data-dir", "unknown-model", "missing-checkpoint"],
)
def test_bad_input_is_one_line_and_exit_2_before_tensorflow_is_imported(data_dir, tmp_path, extra, env, message):
    result = tf_free.run_module("legacy_tf1.slim_main", program_args(data_dir, tmp_path / "out", *extra), env=env)
    tf_free.assert_one_line_error_before_tensorflow(result, message)


@pytest.mark.slow
@pytest.mark.parametrize("sync", [False, True], ids=["async", "sync-replicas"])
def test_master_worker_ps_cluster_trains(data_dir, tmp_path, sync):
    """The platform's cluster: master (worker 0, chief) + worker + ps, TF_CONFIG in the master dialect.

    Asynchronous as the example ran, or with `--sync_replicas` aggregating both workers' gradients.
    """
    out = tmp_path / "out"
    steps = 10 if sync else 30  # a synchronous step waits for both workers: fewer keep the test short
    args = [f"--data_dir={data_dir}", f"--output_dir={out}", *TINY, f"--max_step={steps}"]
    if sync:
        args += ["--sync_replicas", "--replicas_to_aggregate=2"]
    status, logs = run_cluster(
        tmp_path,
        command=module_command("legacy_tf1.slim_main", *args),
        timeout=240,
        chief=1,
        workers=1,
        ps=1,
        dialect="master",
    )
    assert status == 0, logs
    assert "ps task 0 serving at grpc://127.0.0.1:" in logs["ps:0"]
    assert ("sync_replicas/" in (out / "graph.pbtxt").read_text()) == sync
    # Both replicas stepped the one global step (on the ps) up to the limit.
    for task in ("chief:0", "worker:0"):
        finished = FINISHED.search(logs[task])
        assert finished and int(finished.group(1)) >= steps and int(finished.group(2)) >= 1, logs[task][-3000:]
    assert checkpoint(out).get_tensor("global_step") >= steps
    # model_deploy's placement on the chief (worker 0): variables on the ps, the model on its own task.
    devices = node_devices(out / "graph.pbtxt")
    assert devices["global_step"] == devices["LeNet/fc4/weights"] == "/job:ps/task:0/device:CPU:0"
    assert devices["LeNet/conv1/Conv2D"] == "/job:worker/task:0/device:CPU:0"
