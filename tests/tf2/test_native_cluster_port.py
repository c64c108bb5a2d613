"""The native port of tests/corpus/uai_dist_local.py (codemods/rules/_native_cluster.py) trains as its safe port:

- without TF_CONFIG, through bench/native.py's method (the safe port's step-0 checkpoint loaded by TF1 names, the
  losses of each step compared);
- as real clusters of processes on 127.0.0.1: the safe port as TF1's one trainer (the platform's master, its ps task
  a server that only serves: the script itself would make the ps train too, racing the master), the native port as
  ParameterServerStrategy's (master-dialect TF_CONFIG from uai-launch's engine: chief, one worker, one ps), the same
  losses step by step;
- a cluster of a master and a ps alone stops the native port with one line (compat.strategy.NO_WORKER), on each task.
"""

import json
import os
import signal
import subprocess
import sys

import pytest

from bench import native
from compat.strategy import NO_WORKER
from tests.support.processes import REPO, python_env
from uai_launch import Layout, LocalCluster
from uai_launch._layout import free_ports

SCRIPT = os.path.join(REPO, "tests", "corpus", "uai_dist_local.py")
NAME = os.path.basename(SCRIPT)
# a TF1 parameter server of the safe port's cluster ({"ps": ..., "worker": [master]}, as the script builds it)
PS_SERVER = (
    "import json, os\nimport tensorflow as tf\nc = json.loads(os.environ['TF_CONFIG'])['cluster']\n"
    "tf.distribute.Server(tf.train.ClusterSpec({'ps': c['ps'], 'worker': c['master']}), job_name='ps', task_index=0)"
    ".join()\n"
)
TIMEOUT = 120


@pytest.fixture(scope="module")
def ports(tmp_path_factory):
    """uai_dist_local.py ported at both levels (the native level converts it, no tf.compat.v1 left): level -> path."""
    out = tmp_path_factory.mktemp("ports")
    reports = {
        level: native.migrate([SCRIPT], str(out / level), level, in_process=True) for level in ("safe", "native")
    }
    assert [os.path.basename(p) for p in native.converted(reports["native"])] == [NAME]
    files = {level: native.ported_file(str(out / level), NAME, NAME) for level in reports}
    with open(files["native"], encoding="utf-8") as handle:
        assert native.references(handle.read())[1] == 0
    return files


def losses(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("loss ")]


def test_without_a_cluster_the_native_port_trains_as_the_safe_port(ports, tmp_path):
    row = native.equivalence(NAME, ports["safe"], ports["native"], [], str(tmp_path))
    assert row["steps"] == 3 and row["loaded"] == "1/1" and row["max_diff"] == 0.0 and row["equal"], row
    assert losses(row["stdout"][0]) == losses(row["stdout"][1]) and len(losses(row["stdout"][0])) == 3


def _config(cluster: dict, task: str) -> dict[str, str]:
    return python_env({"TF_CONFIG": json.dumps({"cluster": cluster, "task": {"type": task, "index": 0}})})


def _safe_cluster(script: str) -> str:
    """The safe port as the master of a master + ps cluster (the ps a server): the master's output."""
    master, ps = (f"127.0.0.1:{port}" for port in free_ports(2))
    cluster = {"master": [master], "ps": [ps]}
    server = subprocess.Popen(
        [sys.executable, "-c", PS_SERVER],
        env=_config(cluster, "ps"),
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        run = subprocess.run(
            [sys.executable, script],
            env=_config(cluster, "master"),
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    finally:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    assert run.returncode == 0, run.stderr[-3000:]
    return run.stdout


@pytest.mark.slow
def test_on_a_cluster_the_native_port_trains_as_tf1s_one_trainer(ports, tmp_path):
    expected = losses(_safe_cluster(ports["safe"]))
    layout = Layout(chief=1, workers=1, ps=1, dialect="master")
    cluster = LocalCluster(
        layout, [sys.executable, ports["native"]], str(tmp_path / "logs"), env=python_env(), cwd=REPO
    )
    try:
        cluster.start()
        status = cluster.wait(timeout=TIMEOUT, grace=0)
    finally:
        cluster.stop()
    logs = {str(task): text for task, text in cluster.logs().items()}
    assert status == 0, logs
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
