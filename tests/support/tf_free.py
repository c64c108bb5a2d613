"""A program's bad-input run as the user makes it (`python -m module args`), and whether it imported TensorFlow.

Our programs check their flags, TF_CONFIG and input paths before they import TensorFlow (4-5 s of CPU), so a
mistyped flag is one line at once. `run_module` runs the real command with `tf_probe/sitecustomize.py` on its
path, which writes at exit, into a file of its own, whether `tensorflow` was imported: the process's stdout and
stderr stay the program's, and the one-line contract is checked on them.
"""

import os
import subprocess
import tempfile
from collections.abc import Sequence

from tests.support import processes

PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_probe")


def run_module(module: str, args: Sequence[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`python -m module args`'s CompletedProcess; `.tensorflow` says whether it imported TensorFlow."""
    with tempfile.TemporaryDirectory(prefix="uai-tf-probe-") as folder:
        answer = os.path.join(folder, "answer")
        path = PROBE + os.pathsep + processes.REPO + os.pathsep + os.environ.get("PYTHONPATH", "")
        result = processes.run_module(module, args, env={**(env or {}), "UAI_TF_PROBE": answer, "PYTHONPATH": path})
        with open(answer, encoding="utf-8") as handle:
            result.tensorflow = handle.read() == "imported"
    return result


def assert_one_line_error_before_tensorflow(result: subprocess.CompletedProcess, message: str) -> None:
    """The CLI edge's bad-input contract (exit 2, one line naming the problem, no traceback), reached without
    importing TensorFlow."""
    processes.assert_one_line_error(result, message)
    assert not result.tensorflow, f"{result.args}: TensorFlow imported before the error"
