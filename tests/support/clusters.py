"""Run a script or a program as a real local cluster (one process per task, free ports, own TF_CONFIG) in tests.

A thin layer over `uai_launch.LocalCluster` (uai-launch's engine): it adds the test
environment (repo on PYTHONPATH, quiet TF logs) and always stops every process group.
"""

import sys
import textwrap
import time

from tests.support.processes import REPO, python_env
from uai_launch import Layout, LocalCluster


def run_cluster(tmp_path, source=None, timeout=180, env=None, command=None, grace=10.0, **layout):
    """Run `source` (a script) or `command` (argv, e.g. `tests.conftest.module_command(...)`) once per task of
    `Layout(**layout)`; return (chief exit status, {"job:i": log}). `grace`: the seconds the other tasks get to end
    after the chief (LocalCluster.wait's; 0 for servers that only serve)."""
    if command is None:
        script = tmp_path / "task.py"
        script.write_text(textwrap.dedent(source))
        command = [sys.executable, str(script)]
    cluster = LocalCluster(Layout(**layout), command, str(tmp_path / "logs"), env=python_env(env), cwd=REPO)
    try:
        cluster.start()
        status = cluster.wait(timeout=timeout, grace=grace)
    finally:
        cluster.stop()
    return status, {str(task): text for task, text in cluster.logs().items()}


def run_cluster_to_end(tmp_path, source, timeout=180, env=None, serving=("ps",), **layout):
    """Run `source` once per task of `Layout(**layout)` until every task outside the `serving` jobs
    (servers that only join(), such as ps tasks) has ended; return ({"job:i": exit status, None if
    still running then or after `timeout` seconds}, {"job:i": log}). Unlike `run_cluster`, an evaluator that is still
    evaluating the last checkpoint when the chief ends gets to finish, and nobody waits out a grace
    period for the servers."""
    script = tmp_path / "task.py"
    script.write_text(textwrap.dedent(source))
    cluster = LocalCluster(
        Layout(**layout), [sys.executable, str(script)], str(tmp_path / "logs"), env=python_env(env), cwd=REPO
    )
    deadline = time.monotonic() + timeout
    try:
        cluster.start()
        finite = [proc for task, proc in cluster.tasks.items() if task.type not in serving]
        while any(proc.poll() is None for proc in finite) and time.monotonic() < deadline:
            if any(proc.poll() not in (None, 0) for proc in finite):
                break  # one failed: the others may wait for it forever
            time.sleep(0.2)
        statuses = {str(task): proc.poll() for task, proc in cluster.tasks.items()}
    finally:
        cluster.stop()
    return statuses, {str(task): text for task, text in cluster.logs().items()}
