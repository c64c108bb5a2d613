"""Running the project's commands and Python programs in the environment under test, and reading their output."""

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Sequence
from typing import Any

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def python_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env.pop("TF_CONFIG", None)
    env.update(extra or {})
    return env


def run_file(path: str, *args: str) -> subprocess.CompletedProcess:
    """Run the Python program at `path` (a port uai-migrate wrote) with this interpreter; it must succeed."""
    return subprocess.run(
        [sys.executable, path, *args], env=python_env(), capture_output=True, text=True, timeout=300, check=True
    )


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


def module_command(module: str, *args: str) -> list[str]:
    """`python -m module args` with this interpreter."""
    return [sys.executable, "-m", module, *args]


def run_module(
    module: str,
    args: Sequence[str] = (),
    env: dict[str, str] | None = None,
    timeout: float = 300,
    check: bool = False,
    cwd: str | os.PathLike = REPO,
) -> subprocess.CompletedProcess:
    """Run `python -m module args` (from the repository root unless `cwd` is given) in the test environment;
    return the CompletedProcess with its text output."""
    return subprocess.run(
        module_command(module, *args),
        cwd=str(cwd),
        env=python_env(env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=check,
    )


def start_module(
    module: str, args: Sequence[str] = (), cwd: str | os.PathLike = REPO, **popen: Any
) -> subprocess.Popen:
    """Start `python -m module args` in the test environment, text mode (`popen`: the pipes); the caller waits."""
    return subprocess.Popen(module_command(module, *args), cwd=str(cwd), env=python_env(), text=True, **popen)


# What TensorFlow's C++ runtime logs at import whatever TF_CPP_MIN_LOG_LEVEL says: on TF 2.21
# with oneDNN active (CPUs with AVX-512 VNNI/BF16) an info line and absl's "before
# InitializeLog" notice still print at level 2. Not the program's output.
TF_RUNTIME_NOISE = ("WARNING: All log messages before absl::InitializeLog()", "I0000 ", "W0000 ", "E0000 ")


def program_lines(stderr):
    """The lines of a process's stderr without TensorFlow's C++ runtime log lines."""
    return [line for line in stderr.strip().splitlines() if not line.startswith(TF_RUNTIME_NOISE)]


def assert_one_line_error(result, message):
    """A CLI edge's bad-input contract: exit 2, one stderr line naming the problem, no traceback."""
    lines = program_lines(result.stderr)
    assert result.returncode == 2, result.stderr[-2000:]
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in result.stderr, result.stderr


def result_json(stdout: str):
    """The JSON a test program printed on its `RESULT {...}` line."""
    return json.loads(next(line for line in stdout.splitlines() if line.startswith("RESULT "))[len("RESULT ") :])
