"""uai-launch with real processes: configs, output, exit status, signals, no orphans, TFJob manifests."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from compat.launch import Layout, LocalCluster, tfjob_manifest
from tests.conftest import REPO, python_env

SHOW_TASK = [sys.executable, "-c", "import os, json; c = json.loads(os.environ['TF_CONFIG']); print(json.dumps(c))"]


def _launch(*args, timeout=120, **kwargs):
    return subprocess.run(
        [sys.executable, "-m", "compat.launch", *args],
        capture_output=True,
        text=True,
        env=python_env(),
        cwd=REPO,
        timeout=timeout,
        **kwargs,
    )


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is dead for our purpose
        return stat.read().split()[2] != "Z"


def test_print_config_gives_each_task_its_tf_config_in_the_dialect():
    result = _launch("--chief", "1", "--workers", "2", "--ps", "1", "--dialect", "master", "--print-config")
    assert result.returncode == 0, result.stderr
    configs = dict(line.split("\t") for line in result.stdout.strip().splitlines())
    assert sorted(configs) == ["chief:0", "ps:0", "worker:0", "worker:1"]
    parsed = {name: json.loads(text) for name, text in configs.items()}
    assert parsed["chief:0"]["task"] == {"type": "master", "index": 0}
    clusters = {json.dumps(c["cluster"], sort_keys=True) for c in parsed.values()}
    assert len(clusters) == 1
    cluster = parsed["worker:1"]["cluster"]
    addresses = cluster["master"] + cluster["worker"] + cluster["ps"]
    assert len(set(addresses)) == 4 and all(a.startswith("127.0.0.1:") for a in addresses)


@pytest.mark.parametrize(
    "args,field",
    [
        (["--evaluator", "--dialect", "master"], "--evaluator"),
        (["--evaluator", "--dialect", "sagemaker"], "--evaluator"),
        (["--chief", "0", "--workers", "0"], "--workers"),
        (["--chief", "1", "--workers", "0", "--ps", "1"], "--workers"),
        (["--chief", "2"], "--chief"),
    ],
)
def test_layouts_a_dialect_cannot_express_fail_in_one_line(args, field):
    result = _launch(*args, "--", "true")
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and field in result.stderr and "Traceback" not in result.stderr


def test_no_command_is_a_usage_error():
    result = _launch("--workers", "1")
    assert result.returncode == 2 and "no command given" in result.stderr


def test_run_prefixes_output_logs_per_task_and_returns_the_chief_status(tmp_path):
    result = _launch("--workers", "1", "--ps", "1", "--dialect", "chief", "--log-dir", str(tmp_path), "--", *SHOW_TASK)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    by_task = {line.split(" ", 1)[0]: json.loads(line.split(" ", 1)[1]) for line in lines}
    assert by_task["[chief:0]"]["task"] == {"type": "chief", "index": 0}
    assert by_task["[worker:0]"]["task"] == {"type": "worker", "index": 0}
    assert by_task["[ps:0]"]["task"] == {"type": "ps", "index": 0}
    assert sorted(os.listdir(tmp_path)) == ["chief-0.log", "ps-0.log", "worker-0.log"]
    logged = json.loads((tmp_path / "ps-0.log").read_text())
    assert logged == by_task["[ps:0]"]


def test_chief_failure_status_and_first_other_failure(tmp_path):
    chief_fails = "import os, json, sys; t = json.loads(os.environ['TF_CONFIG'])['task']; sys.exit(3 if t['type'] == 'master' else 0)"
    result = _launch("--workers", "1", "--log-dir", str(tmp_path / "a"), "--", sys.executable, "-c", chief_fails)
    assert result.returncode == 3
    # A worker failing while the chief still runs ends the job with the worker's status.
    worker_fails = (
        "import os, json, sys, time; t = json.loads(os.environ['TF_CONFIG'])['task']\n"
        "if t['type'] == 'worker': sys.exit(5)\n"
        "time.sleep(60)"
    )
    started = time.monotonic()
    result = _launch("--workers", "1", "--log-dir", str(tmp_path / "b"), "--", sys.executable, "-c", worker_fails)
    assert result.returncode == 5
    assert time.monotonic() - started < 30


def test_join_only_servers_are_stopped_when_the_chief_finishes(tmp_path):
    ps_joins_forever = (
        "import os, json, time; t = json.loads(os.environ['TF_CONFIG'])['task']\n"
        "time.sleep(3600 if t['type'] == 'ps' else 0.1)"
    )
    with LocalCluster(Layout(chief=1, workers=1, ps=1, dialect="chief"), [sys.executable, "-c", ps_joins_forever], str(tmp_path)) as cluster:
        assert cluster.wait(timeout=60, grace=1) == 0
        ps = cluster.tasks[next(t for t in cluster.tasks if t.type == "ps")]
    assert ps.poll() is not None


def test_no_orphan_survives_when_the_launcher_is_killed(tmp_path):
    sleeper = "import os, time; print(os.getpid(), flush=True); time.sleep(3600)"
    launcher = subprocess.Popen(
        [sys.executable, "-m", "compat.launch", "--workers", "1", "--ps", "1", "--log-dir", str(tmp_path), "--", sys.executable, "-c", sleeper],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=python_env(),
        cwd=REPO,
        text=True,
    )
    try:
        pids = [int(launcher.stdout.readline().split()[1]) for _ in range(3)]
        assert all(_alive(pid) for pid in pids)
        launcher.send_signal(signal.SIGKILL)
        launcher.wait(10)
        deadline = time.monotonic() + 10
        while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(pid) for pid in pids)
    finally:
        launcher.kill()
        launcher.wait()


def test_ctrl_c_is_forwarded_and_everything_stops(tmp_path):
    handler = (
        "import signal, sys, time, os\n"
        "def stop(*_):\n    print('got SIGINT', flush=True); sys.exit(0)\n"
        "signal.signal(signal.SIGINT, stop)\nprint('ready', flush=True)\ntime.sleep(3600)"
    )
    launcher = subprocess.Popen(
        [sys.executable, "-m", "compat.launch", "--workers", "1", "--log-dir", str(tmp_path), "--", sys.executable, "-c", handler],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=python_env(),
        cwd=REPO,
        text=True,
    )
    try:
        ready = [launcher.stdout.readline() for _ in range(2)]
        assert all(line.endswith("ready\n") for line in ready), ready
        launcher.send_signal(signal.SIGINT)
        out, err = launcher.communicate(timeout=30)
        assert launcher.returncode == 130
        assert out.count("got SIGINT") == 2
        assert "interrupted" in err
    finally:
        launcher.kill()
        launcher.wait()


REQUIRED_REPLICA_TYPES = {"Chief", "Master", "Worker", "PS", "Evaluator"}


def test_kubeflow_manifest_has_the_tfjob_required_fields(tmp_path):
    path = tmp_path / "tfjob.json"
    result = _launch(
        "--workers", "2", "--ps", "1", "--dialect", "kubeflow", "--evaluator",
        "--kubeflow", str(path), "--image", "registry.example/train:1", "--", "python", "-m", "modern_tf2.imagenet_main",
    )
    assert result.returncode == 0, result.stderr
    manifest = json.loads(path.read_text())
    assert manifest["apiVersion"] == "kubeflow.org/v1" and manifest["kind"] == "TFJob"
    assert manifest["metadata"]["name"]
    specs = manifest["spec"]["tfReplicaSpecs"]
    assert set(specs) <= REQUIRED_REPLICA_TYPES
    assert {k: v["replicas"] for k, v in specs.items()} == {"Chief": 1, "Worker": 2, "PS": 1, "Evaluator": 1}
    for spec in specs.values():
        (container,) = spec["template"]["spec"]["containers"]
        assert container["name"] == "tensorflow"  # the operator injects TF_CONFIG into this container
        assert container["image"] == "registry.example/train:1"
        assert container["command"] == ["python", "-m", "modern_tf2.imagenet_main"]
    assert tfjob_manifest(Layout(chief=0, workers=1), ["x"], "img")["spec"]["tfReplicaSpecs"].keys() == {"Worker"}
    missing_image = _launch("--kubeflow", str(path), "--", "python")
    assert missing_image.returncode == 2 and "--image" in missing_image.stderr
