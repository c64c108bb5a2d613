"""The research/slim-style TF 1.4 program (tests/common/tf1_programs/slim_classifier_tf14/): its port is what
uai-migrate makes of it, and it trains unmodified under uai-run as asynchronous parameter-server training
in the platform's cluster (`uai-launch --dialect master`: ps + master + worker on 127.0.0.1).

tests/common/test_slim_classifier_tf14.py runs it and its port alone on both TensorFlows (TF 2.15 has no libcst).
"""

import os
import sys

import pytest

from tests.support import runs as _runs
from tests.support import slim_records
from tests.support.processes import run_module
from tests.support.uai_run import digests

PROGRAM = os.path.join(slim_records.PROGRAM_DIR, slim_records.PROGRAM)
PORT = PROGRAM + "_migrated"
CLUSTER_STEPS = 6


def test_the_kept_port_is_what_uai_migrate_makes_of_the_program(tmp_path):
    migrated = _runs.migrate("--out", tmp_path / "port", PROGRAM, cwd=tmp_path)
    assert migrated.returncode == 0, migrated.stdout + migrated.stderr
    assert digests(tmp_path / "port") == digests(PORT)


@pytest.mark.slow
def test_trains_unmodified_as_async_ps_training_under_uai_launch(tmp_path):
    import tensorflow as tf

    records = slim_records.write_records(tmp_path)
    train_dir = tmp_path / "train"
    program = os.path.join(PROGRAM, slim_records.SCRIPT)
    args = slim_records.arguments(records, train_dir, steps=CLUSTER_STEPS)
    layout = ["--dialect=master", "--ps=1", "--workers=1", "--timeout=150", f"--log-dir={tmp_path / 'logs'}"]
    result = run_module("uai_launch", [*layout, "--", sys.executable, "-m", "uai_run", program, *args], timeout=200)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    logs = {name: (tmp_path / "logs" / name).read_text() for name in os.listdir(tmp_path / "logs")}
    text = result.stdout + result.stderr
    assert "[ps:0] INFO:tensorflow:ps task 0 serving at grpc://127.0.0.1:" in text, logs
    task_text = {
        task: "".join(line for line in text.splitlines(True) if line.startswith(f"[{task}]"))
        for task in ("chief:0", "worker:0")
    }
    # the master (chief) trained the one global step the ps holds; the worker, a second replica with its
    # own reader, joined the cluster: it trains too, unless it first found the variables not yet
    # initialised (the Supervisor then waits 30 s, and the master is done before that)
    assert slim_records.LOSS_LINE.search(task_text["chief:0"]), text[-3000:]
    worker = task_text["worker:0"]
    assert slim_records.LOSS_LINE.search(worker) or "Waiting for model to be ready" in worker, worker[-3000:]
    reader = tf.train.load_checkpoint(str(train_dir))
    assert reader.get_tensor("global_step") >= CLUSTER_STEPS
    # model_deploy's placement on the master (the chief): variables on the ps, the clones on its own job
    devices = _node_devices(train_dir / "graph.pbtxt")
    assert devices["global_step"] == devices["TinyNet/conv1/weights"] == "/job:ps/task:0/device:CPU:0", devices
    assert devices["clone_1/TinyNet/conv1/Conv2D"] == devices["prefetch_queue/fifo_queue"] == "/job:master/device:CPU:0"


def _node_devices(graph_pbtxt):
    """{node name: requested device} of a GraphDef in text form."""
    import tensorflow as tf
    from google.protobuf import text_format

    graph = text_format.Parse(graph_pbtxt.read_text(), tf.compat.v1.GraphDef())
    return {node.name: node.device for node in graph.node}
