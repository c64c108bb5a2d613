"""uai-launch stops every descendant of its tasks, even one that left the task's session, and does not
wait on one that holds a finished task's output pipe.

Real processes: each task starts a grandchild in a new session (`setsid`, so a signal to the task's
process group misses it), writes its pid to a file, then exits or sleeps.
"""

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

from tests.support.processes import start_module
from uai_launch import Layout, LocalCluster

# argv: PID_FILE then words: "exit" (the task ends at once) or "sleep"; "clear-env" (the grandchild
# gets an empty environment); "hold-stdout" (it inherits the task's stdout and stderr, else it has
# neither); "lines=N" (the task prints N lines before it ends); "worker-only" (only the worker task
# does all this, the others sleep).
TASK = """\
import json, os, subprocess, sys, time
pid_file, words = sys.argv[1], sys.argv[2:]
if "worker-only" in words and json.loads(os.environ["TF_CONFIG"])["task"]["type"] != "worker":
    time.sleep(300)
child = subprocess.Popen(
    [{sleep!r}, "300"],
    start_new_session=True,
    env={{}} if "clear-env" in words else None,
    stdout=None if "hold-stdout" in words else subprocess.DEVNULL,
    stderr=None if "hold-stdout" in words else subprocess.DEVNULL,
)
for word in words:
    if word.startswith("lines="):
        for i in range(int(word[6:])):
            print("line", i)
print("started", child.pid, flush=True)
with open(pid_file + ".tmp", "w") as f:
    f.write(str(child.pid))
os.rename(pid_file + ".tmp", pid_file)
if "sleep" in words:
    time.sleep(300)
os._exit(0)  # leaves the grandchild running, unwaited
"""


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie is dead for our purpose
    except OSError:
        return False


def _gone_within(pid, seconds):
    deadline = time.monotonic() + seconds
    while _alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _read_pid(path, launcher, within=20.0):
    deadline = time.monotonic() + within
    while not path.exists():
        assert launcher.poll() is None or path.exists(), launcher.stderr.read()
        assert time.monotonic() < deadline, "the task never wrote its grandchild's pid"
        time.sleep(0.02)
    return int(path.read_text())


def _kill(pid):
    """Test cleanup: whatever the launcher left behind."""
    if pid is not None and _alive(pid):
        os.kill(pid, signal.SIGKILL)


def _command(tmp_path, *words):
    task = tmp_path / "task.py"
    task.write_text(TASK.format(sleep=shutil.which("sleep")))
    return [sys.executable, str(task), str(tmp_path / "grandchild.pid"), *words]


def _start(tmp_path, *words, workers=0):
    return start_module(
        "uai_launch",
        ["--workers", str(workers), "--log-dir", str(tmp_path / "logs"), "--", *_command(tmp_path, *words)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


@pytest.mark.parametrize("env", ["", "clear-env"])
def test_a_grandchild_in_a_new_session_is_stopped_when_the_launcher_exits(tmp_path, env):
    launcher = _start(tmp_path, "exit", *filter(None, [env]))
    pid = None
    try:
        pid = _read_pid(tmp_path / "grandchild.pid", launcher)
        out, err = launcher.communicate(timeout=30)
        assert launcher.returncode == 0, err
        assert f"[chief:0] started {pid}" in out
        assert _gone_within(pid, 2), f"the task's grandchild {pid} outlived uai-launch"
    finally:
        launcher.kill()
        launcher.wait()
        _kill(pid)


@pytest.mark.parametrize("env", ["", "clear-env"])
def test_a_grandchild_in_a_new_session_is_stopped_when_the_launcher_is_killed(tmp_path, env):
    launcher = _start(tmp_path, "sleep", *filter(None, [env]))
    pid = None
    try:
        pid = _read_pid(tmp_path / "grandchild.pid", launcher)
        assert _alive(pid)
        launcher.kill()
        launcher.wait(10)
        assert _gone_within(pid, 5), f"the task's grandchild {pid} outlived a SIGKILLed uai-launch"
    finally:
        launcher.kill()
        launcher.wait()
        _kill(pid)


def test_an_orphan_without_the_environment_mark_is_stopped_when_the_launcher_is_killed(tmp_path):
    # The worker ends at once: its grandchild, with no environment, is the launcher's (a subreaper)
    # until the launcher is SIGKILLed, then init's. Only the watchdog's earlier look knows it then.
    launcher = _start(tmp_path, "exit", "clear-env", "worker-only", workers=1)
    pid = None
    try:
        pid = _read_pid(tmp_path / "grandchild.pid", launcher)
        time.sleep(1)  # the watchdog looks every 0.25 s
        assert _alive(pid)
        launcher.kill()
        launcher.wait(10)
        assert _gone_within(pid, 5), f"the worker's orphan {pid} outlived a SIGKILLed uai-launch"
    finally:
        launcher.kill()
        launcher.wait()
        _kill(pid)


def test_a_library_cluster_stops_a_grandchild_in_a_new_session(tmp_path):
    # Not a subreaper here (the test process runs other things): the orphan goes to init, and the
    # environment mark it inherited is how the watchdog finds it.
    command = _command(tmp_path, "exit")
    pid = None
    try:
        with LocalCluster(Layout(chief=1, workers=0), command, str(tmp_path / "logs")) as cluster:
            assert cluster.wait(timeout=20, grace=0.5) == 0
            pid = int((tmp_path / "grandchild.pid").read_text())
            assert _alive(pid)
        assert _gone_within(pid, 2), f"the task's grandchild {pid} outlived the cluster"
    finally:
        _kill(pid)


def test_a_grandchild_holding_a_finished_tasks_stdout_does_not_stall_the_launcher(tmp_path):
    # 3000 lines: the task's own output, all of which must reach stdout and the log.
    launcher = _start(tmp_path, "exit", "hold-stdout", "lines=3000")
    pid = None
    try:
        pid = _read_pid(tmp_path / "grandchild.pid", launcher)
        started = time.monotonic()
        out, err = launcher.communicate(timeout=30)
        took = time.monotonic() - started
        assert launcher.returncode == 0, err
        assert took < 2.0, f"uai-launch took {took:.1f} s to return after its only task ended"
        lines = [f"line {i}" for i in range(3000)] + [f"started {pid}"]
        assert out.splitlines() == [f"[chief:0] {line}" for line in lines]
        assert (tmp_path / "logs" / "chief-0.log").read_text().splitlines() == lines
        assert _gone_within(pid, 2)
    finally:
        launcher.kill()
        launcher.wait()
        _kill(pid)
