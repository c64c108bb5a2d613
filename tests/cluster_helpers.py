"""Run a script or a program as a real local cluster (one process per task, free ports, own TF_CONFIG) in tests.

A thin layer over `compat.launch.LocalCluster` (uai-launch's engine): it adds the test
environment (repo on PYTHONPATH, quiet TF logs) and always stops every process group.
"""

import sys
import textwrap

from compat.launch import Layout, LocalCluster
from tests.conftest import REPO, python_env


def run_cluster(tmp_path, source=None, timeout=180, env=None, command=None, **layout):
    """Run `source` (a script) or `command` (argv, e.g. `tests.conftest.module_command(...)`) once per task of
    `Layout(**layout)`; return (chief exit status, {"job:i": log})."""
    if command is None:
        script = tmp_path / "task.py"
        script.write_text(textwrap.dedent(source))
        command = [sys.executable, str(script)]
    cluster = LocalCluster(Layout(**layout), command, str(tmp_path / "logs"), env=python_env(env), cwd=REPO)
    try:
        cluster.start()
        status = cluster.wait(timeout=timeout)
    finally:
        cluster.stop()
    return status, {str(task): text for task, text in cluster.logs().items()}
