"""The native ports of tests/corpus/uai_dist_local.py and of tests/common/tf1_programs/uai_dist_trainer.py
(samples/tf1/train_slim_classifier.py's cluster part, plain ops for its net and input; codemods/rules/_native_cluster.py)
train as their safe ports:

- without TF_CONFIG, through bench/native.py's method (the safe port's step-0 checkpoint loaded by TF1 names, the
  losses of each step compared);
- as real clusters of processes on 127.0.0.1: the safe port as TF1's one trainer (the platform's master, its ps task
  a server that only serves: the script itself would make the ps train too, racing the master), the native port as
  ParameterServerStrategy's (master-dialect TF_CONFIG from uai-launch's engine: chief, one worker, one ps), the same
  losses step by step;
- a cluster of a master and a ps alone stops the native port with one line (compat.strategy.NO_WORKER), on each task;
- uai_dist_trainer's chief writes its checkpoints where TF1's master did (--output_dir: model.ckpt-0 and -<last step>,
  the same values), and the safe port's ps task joins its server there as the script says.
"""

import json
import os
import pathlib
import signal
import subprocess
import sys

import pytest

from bench import native
from compat.strategy import NO_WORKER
from tests.support.clusters import run_cluster
from tests.support.processes import REPO, python_env
from uai_launch._layout import free_ports

SCRIPT = os.path.join(REPO, "tests", "corpus", "uai_dist_local.py")
NAME = os.path.basename(SCRIPT)
TRAINER = os.path.join(REPO, "tests", "common", "tf1_programs", "uai_dist_trainer.py")
TRAINER_STEPS = 4  # (its --max_step)
# a TF1 parameter server of the safe port's cluster ({"ps": ..., "worker": [master]}, as the script builds it)
PS_SERVER = (
    "import json, os\nimport tensorflow as tf\nc = json.loads(os.environ['TF_CONFIG'])['cluster']\n"
    "tf.distribute.Server(tf.train.ClusterSpec({'ps': c['ps'], 'worker': c['master']}), job_name='ps', task_index=0)"
    ".join()\n"
)
TIMEOUT = 120


def _ported(out, script: str) -> dict[str, str]:
    """`script` ported at both levels (the native level converts it, no tf.compat.v1 left): level -> path."""
    name = os.path.basename(script)
    reports = {
        level: native.migrate([script], str(out / level), level, in_process=True) for level in ("safe", "native")
    }
    assert [os.path.basename(p) for p in native.converted(reports["native"])] == [name]
    files = {level: native.ported_file(str(out / level), name, name) for level in reports}
    with open(files["native"], encoding="utf-8") as handle:
        assert native.references(handle.read())[1] == 0
    return files


@pytest.fixture(scope="module")
def ports(tmp_path_factory):
    return _ported(tmp_path_factory.mktemp("ports"), SCRIPT)


@pytest.fixture(scope="module")
def trainer_ports(tmp_path_factory):
    return _ported(tmp_path_factory.mktemp("trainer_ports"), TRAINER)


def losses(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("loss ")]


def test_without_a_cluster_the_native_port_trains_as_the_safe_port(ports, tmp_path):
    row = native.equivalence(NAME, ports["safe"], ports["native"], [], str(tmp_path))
    assert row["steps"] == 3 and row["loaded"] == "1/1" and row["max_diff"] == 0.0 and row["equal"], row
    assert losses(row["stdout"][0]) == losses(row["stdout"][1]) and len(losses(row["stdout"][0])) == 3


def _config(cluster: dict, task: str) -> dict[str, str]:
    return python_env({"TF_CONFIG": json.dumps({"cluster": cluster, "task": {"type": task, "index": 0}})})


def _safe_cluster(script: str, args: tuple[str, ...] = (), joins: bool = False) -> str:
    """The safe port as the master of a master + ps cluster: the master's output. The ps task is a server (PS_SERVER),
    or the script where it `joins` its server itself."""
    master, ps = (f"127.0.0.1:{port}" for port in free_ports(2))
    cluster = {"master": [master], "ps": [ps]}
    server = subprocess.Popen(
        [sys.executable, script, *args] if joins else [sys.executable, "-c", PS_SERVER],
        env=_config(cluster, "ps"),
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        run = subprocess.run(
            [sys.executable, script, *args],
            env=_config(cluster, "master"),
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
        serving = server.poll() is None  # (a ps serves until stopped)
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    assert run.returncode == 0 and serving, run.stderr[-3000:]
    return run.stdout


def _native_cluster(command: list[str], tmp_path: pathlib.Path) -> dict[str, str]:
    """`command` as the tasks of a master-dialect cluster of a chief, a worker and a ps (uai-launch's engine): the
    logs by task, the chief having ended well."""
    status, found = run_cluster(
        tmp_path, command=command, timeout=TIMEOUT, grace=0, chief=1, workers=1, ps=1, dialect="master"
    )
    assert status == 0, found
    return found


@pytest.mark.slow
def test_on_a_cluster_the_native_port_trains_as_tf1s_one_trainer(ports, tmp_path):
    expected = losses(_safe_cluster(ports["safe"]))
    logs = _native_cluster([sys.executable, ports["native"]], tmp_path)
    assert len(expected) == 3 and losses(logs["chief:0"]) == expected, (expected, logs["chief:0"][-3000:])
    assert losses(logs["worker:0"]) == losses(logs["ps:0"]) == []  # (they serve: the steps ran there, printed here)


def test_a_master_and_a_ps_alone_stop_the_native_port_with_one_line(ports):
    cluster = {"master": ["127.0.0.1:1"], "ps": ["127.0.0.1:2"]}  # (no server starts: nothing listens there)
    for task in ("master", "ps"):
        run = subprocess.run(
            [sys.executable, ports["native"]],
            env=_config(cluster, task),
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
        errors = [line for line in run.stderr.splitlines() if ": error: " in line]
        assert run.returncode == 2 and errors == [f"{NAME}: error: {NO_WORKER}"], (task, run.stderr[-3000:])
        assert "Traceback" not in run.stderr and losses(run.stdout) == []


def test_without_a_cluster_the_trainers_native_port_trains_and_saves_as_the_safe_port(trainer_ports, tmp_path):
    argv = {level: [f"--output_dir={tmp_path / 'runs' / level}"] for level in trainer_ports}
    name = os.path.basename(TRAINER)
    row = native.equivalence(
        name, trainer_ports["safe"], trainer_ports["native"], argv["safe"], str(tmp_path / "runs"), argv["native"]
    )
    assert row["steps"] == TRAINER_STEPS and row["loaded"] == "1/1" and row["max_diff"] == 0.0 and row["equal"], row
    _same_checkpoints(tmp_path / "runs" / "safe", tmp_path / "runs" / "native")


def _same_checkpoints(tf1_dir, port_dir) -> None:
    """The port's checkpoints are TF1's (names, global step, the weights' values), without graph.pbtxt and .meta; their
    data in a shard per device holding variables (TF1's Saver wrote one: under ParameterServerStrategy, the ps's and
    the chief's)."""
    import numpy as np
    import tensorflow as tf

    def named(folder):
        return sorted(f for f in os.listdir(folder) if f.startswith("model.ckpt") and f.endswith(".index"))

    assert named(port_dir) == named(tf1_dir) and f"model.ckpt-{TRAINER_STEPS}.index" in named(tf1_dir)
    tf1 = tf.train.load_checkpoint(str(tf1_dir / f"model.ckpt-{TRAINER_STEPS}"))
    port = tf.train.load_checkpoint(str(port_dir / f"model.ckpt-{TRAINER_STEPS}"))
    assert port.get_tensor("global_step/.ATTRIBUTES/VARIABLE_VALUE") == tf1.get_tensor("global_step") == TRAINER_STEPS
    assert np.array_equal(port.get_tensor("weights/.ATTRIBUTES/VARIABLE_VALUE"), tf1.get_tensor("Variable"))


@pytest.mark.slow
def test_on_a_cluster_the_trainers_native_port_trains_and_its_chief_saves_as_tf1s_master(trainer_ports, tmp_path):
    tf1_dir, port_dir = tmp_path / "tf1", tmp_path / "port"
    expected = losses_of_steps(_safe_cluster(trainer_ports["safe"], (f"--output_dir={tf1_dir}",), joins=True))
    logs = _native_cluster([sys.executable, trainer_ports["native"], f"--output_dir={port_dir}"], tmp_path)
    assert len(expected) == TRAINER_STEPS and losses_of_steps(logs["chief:0"]) == expected, logs["chief:0"][-3000:]
    assert losses_of_steps(logs["worker:0"]) == losses_of_steps(logs["ps:0"]) == []
    _same_checkpoints(tf1_dir, port_dir)


def losses_of_steps(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("step ") and " loss " in line]
