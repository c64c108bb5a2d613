"""uai-launch with real processes: configs, output, exit status, signals, no orphans, TFJob manifests."""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time

import pytest

from tests.support.processes import assert_one_line_error, run_module, start_module
from uai_launch import Layout, LocalCluster, tfjob_manifest

SHOW_TASK = [sys.executable, "-c", "import os, json; c = json.loads(os.environ['TF_CONFIG']); print(json.dumps(c))"]


def _launch(*args, timeout=120):
    # without --log-dir uai-launch keeps the task logs in a new temporary folder, for the user: here, in one the test
    # removes (TMPDIR), not in /tmp for good
    with tempfile.TemporaryDirectory() as scratch:
        return run_module("uai_launch", args, env={"TMPDIR": scratch}, timeout=timeout)


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
    with LocalCluster(
        Layout(chief=1, workers=1, ps=1, dialect="chief"), [sys.executable, "-c", ps_joins_forever], str(tmp_path)
    ) as cluster:
        assert cluster.wait(timeout=60, grace=1) == 0
        ps = cluster.tasks[next(t for t in cluster.tasks if t.type == "ps")]
    assert ps.poll() is not None


REQUIRED_REPLICA_TYPES = {"Chief", "Master", "Worker", "PS", "Evaluator"}


def test_kubeflow_manifest_has_the_tfjob_required_fields(tmp_path):
    path = tmp_path / "tfjob.json"
    result = _launch(
        "--workers",
        "2",
        "--ps",
        "1",
        "--dialect",
        "kubeflow",
        "--evaluator",
        "--kubeflow",
        str(path),
        "--image",
        "registry.example/train:1",
        "--",
        "python",
        "-m",
        "modern_tf2.imagenet_main",
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


# -- robustness: bad input is one line, signals and closed pipes never leave a process ----------


def _group_of(pid):
    try:
        return os.getpgid(pid)
    except ProcessLookupError:
        return None


def _kill_groups(pids):
    """Test cleanup: SIGKILL the process group of every pid still alive (never our own group)."""
    for group in {_group_of(pid) for pid in pids} - {None, os.getpgid(0)}:
        try:
            os.killpg(group, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _all_gone(pids, within):
    deadline = time.monotonic() + within
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [pid for pid in pids if _alive(pid)]


def _start_launcher(tmp_path, *args, stdout=subprocess.PIPE):
    return start_module(
        "uai_launch",
        ["--log-dir", str(tmp_path / "logs"), *args],
        cwd=tmp_path,
        stdout=stdout,
        stderr=subprocess.PIPE,
    )


def _pids(launcher, count):
    """The first `count` pids the tasks print, one per `[job:i] pid` line."""
    return [int(launcher.stdout.readline().split()[1]) for _ in range(count)]


# Each task (a shell: its pid, then two background sleeps' pids) leaves grandchildren in its group.
SHELL_WITH_GRANDCHILDREN = "{trap}echo $$; sleep 30 & echo $!; sleep 30 & echo $!; wait"


def test_no_grandchild_survives_when_the_launcher_is_killed(tmp_path):
    launcher = _start_launcher(tmp_path, "--workers", "1", "--", "sh", "-c", SHELL_WITH_GRANDCHILDREN.format(trap=""))
    pids = []
    try:
        pids = _pids(launcher, 6)
        assert all(_alive(pid) for pid in pids)
        launcher.kill()
        launcher.wait(10)
        assert _all_gone(pids, within=10) == []
    finally:
        launcher.kill()
        launcher.wait()
        _kill_groups(pids)


def _children():
    """Pids of this process's live children (the cluster's tasks and its watchdog among them)."""
    children = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and fields[0] != "Z":
            children.append(int(name))
    return children


def test_background_processes_of_a_finished_task_are_stopped_with_the_cluster(tmp_path):
    # The shell exits at once; its background sleep stays in the task's group, holding its output pipe.
    command = ["sh", "-c", "sleep 30 & echo $!"]
    pids = []
    try:
        with LocalCluster(Layout(chief=1, workers=0), command, str(tmp_path)) as cluster:
            assert cluster.wait(timeout=10, grace=0.5) == 0
            pids = [int(cluster.logs()[cluster.chief_task].split()[0])]
        assert _all_gone(pids, within=5) == []
        assert _children() == []  # the watchdog is gone too
    finally:
        _kill_groups(pids)


@pytest.mark.parametrize("signum,count", [(signal.SIGTERM, 3), (signal.SIGINT, 2)])
def test_repeated_signals_kill_tasks_that_ignore_them(tmp_path, signum, count):
    trap = f"trap '' {signal.Signals(signum).name[3:]}; "
    launcher = _start_launcher(tmp_path, "--workers", "1", "--", "sh", "-c", SHELL_WITH_GRANDCHILDREN.format(trap=trap))
    pids = []
    try:
        pids = _pids(launcher, 6)
        for _ in range(count):
            launcher.send_signal(signum)
            time.sleep(0.3)
        _, err = launcher.communicate(timeout=15)
        assert launcher.returncode == 128 + signum, err
        assert "Traceback" not in err, err
        assert _all_gone(pids, within=5) == []
    finally:
        launcher.kill()
        launcher.wait()
        _kill_groups(pids)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_is_forwarded_to_every_task_and_is_the_exit_status(tmp_path, signum):
    name = signal.Signals(signum).name
    handler = (
        "import signal, sys, time\n"
        f"def stop(*_):\n    print('got {name}', flush=True); sys.exit(0)\n"
        f"signal.signal(signal.{name}, stop)\nprint('ready', flush=True)\ntime.sleep(30)"
    )
    launcher = _start_launcher(tmp_path, "--workers", "1", "--", sys.executable, "-c", handler)
    try:
        ready = [launcher.stdout.readline() for _ in range(2)]
        assert all(line.endswith("ready\n") for line in ready), ready
        launcher.send_signal(signum)
        out, err = launcher.communicate(timeout=15)
        assert launcher.returncode == 128 + signum, err  # 130 for Ctrl-C, 143 for SIGTERM, as a shell reports
        assert out.count(f"got {name}") == 2
        assert "interrupted" in err and "Traceback" not in err
    finally:
        launcher.kill()
        launcher.wait()


def test_a_closed_stdout_does_not_block_the_tasks(tmp_path):
    # 200k lines: far more than a pipe holds, so a task blocks unless its output keeps being read.
    chatty = "import sys\nfor i in range(200000): sys.stdout.write(f'line {i}\\n')"
    launcher = _start_launcher(tmp_path, "--workers", "0", "--", sys.executable, "-c", chatty)
    try:
        assert launcher.stdout.readline().startswith("[chief:0] line 0")
        launcher.stdout.close()  # what `uai-launch ... | head -1` does after one line
        assert launcher.wait(timeout=20) == 0
        err = launcher.stderr.read()
        assert "Traceback" not in err and "Exception" not in err, err
        log = (tmp_path / "logs" / "chief-0.log").read_text().splitlines()
        assert len(log) == 200000 and log[-1] == "line 199999"
    finally:
        launcher.kill()
        launcher.wait()


@pytest.mark.parametrize(
    "args,message",
    [
        (["--", "uai-no-such-program"], "command: 'uai-no-such-program' not found"),
        (["--", "/nonexistent/program"], "command: '/nonexistent/program' is not an executable file"),
        (["--", "./not_executable.sh"], "command: './not_executable.sh' is not an executable file"),
        (["--", "."], "command: '.' not found on PATH"),
        (["--", "./"], "command: './' is not an executable file"),
        (["--log-dir", "a_file", "--", "true"], "--log-dir a_file: exists and is not a folder"),
        (["--log-dir", "a_file/logs", "--", "true"], "--log-dir a_file/logs: cannot create it"),
        (["--log-dir", "/proc/uai-launch-logs", "--", "true"], "--log-dir: "),
        (["--log-dir", "", "--", "true"], "--log-dir: "),
        (
            ["--kubeflow", "/nonexistent_dir/job.json", "--image", "i", "--", "true"],
            "--kubeflow /nonexistent_dir/job.json: folder",
        ),
        (["--kubeflow", ".", "--image", "i", "--", "true"], "--kubeflow .: is a folder"),
        (["--kubeflow", "", "--image", "i", "--", "true"], "--kubeflow: "),
        (["--kubeflow", "job.json", "--image", "", "--", "true"], "--image"),
        (["--kubeflow", "job.json", "--image", "i", "--name", "Bad_Name!", "--", "true"], "--name: "),
        (["--kubeflow", "job.json", "--image", "i", "--name", "a" * 64, "--", "true"], "--name: "),
        (["--kubeflow", "job.json", "--image", "i", "--name=-job", "--", "true"], "--name: "),
        (["--kubeflow", "job.json", "--image", "i", "--name=", "--", "true"], "--name: "),
        (["--workers", "100000", "--print-config"], "--workers"),
        (["--workers", "100000", "--", "true"], "--workers"),
        (["--timeout", "-5", "--", "true"], "--timeout: "),
        (["--timeout", "0", "--", "true"], "--timeout: "),
        (["--timeout", "nan", "--", "true"], "--timeout: "),
        (["--timeout", "inf", "--", "true"], "--timeout: "),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    (tmp_path / "a_file").write_text("")
    (tmp_path / "not_executable.sh").write_text("#!/bin/sh\n")
    result = run_module("uai_launch", args, cwd=tmp_path, timeout=60)
    assert_one_line_error(result, message)
    assert not (tmp_path / "job.json").exists()


def test_a_cluster_that_never_starts_leaves_no_empty_log_folder(tmp_path):
    # without --log-dir the logs go to a new temporary folder; a command that cannot start left it behind, empty
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    result = run_module("uai_launch", ["--", "uai-no-such-program"], env={"TMPDIR": str(scratch)}, timeout=60)
    assert_one_line_error(result, "command: 'uai-no-such-program' not found")
    assert list(scratch.iterdir()) == []
    # a cluster that ran keeps its logs there, as --help says
    result = run_module("uai_launch", ["--workers", "0", "--", "true"], env={"TMPDIR": str(scratch)}, timeout=60)
    assert result.returncode == 0, result.stderr
    [kept] = scratch.iterdir()
    assert kept.name.startswith("uai-launch-") and sorted(p.name for p in kept.iterdir()) == ["chief-0.log"]
