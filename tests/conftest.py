"""Shared fixtures: run real Python subprocesses in the environment under test."""

import os
import subprocess
import sys
import textwrap

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def python_env(extra=None):
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env.pop("TF_CONFIG", None)
    env.update(extra or {})
    return env


def run_script(tmp_path, source, args=(), env=None, timeout=300, name="script.py"):
    """Write `source` to a file and run it with this interpreter; return the CompletedProcess."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return subprocess.run(
        [sys.executable, str(path), *args],
        cwd=str(tmp_path),
        env=python_env(env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def assert_one_line_error(result, message):
    """A CLI edge's bad-input contract: exit 2, one stderr line naming the problem, no traceback."""
    lines = result.stderr.strip().splitlines()
    assert result.returncode == 2, result.stderr[-2000:]
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in result.stderr, result.stderr


@pytest.fixture
def run_py(tmp_path):
    def run(source, *args, env=None, timeout=300):
        return run_script(tmp_path, source, args, env=env, timeout=timeout)

    return run
