"""The golden maker's command line (`python3 dev.py tf115 -- ...`): help and bad names, before TensorFlow is read."""

import os
import subprocess
import sys

MAKER = os.path.join(os.path.dirname(__file__), "golden", "make_tf115_goldens.py")


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, MAKER, *args], capture_output=True, text=True, timeout=60)


def test_help_names_the_golden_files_and_exits_0():
    done = _run("--help")
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout
    assert "tf115_random.json" in done.stdout


def test_an_unknown_golden_file_is_one_line_and_exit_2():
    done = _run("tf115_nosuch.json")
    assert done.returncode == 2
    assert "tf115_nosuch.json" in done.stderr
    assert "Traceback" not in done.stderr
