"""uai-migrate never imports TensorFlow (pipx installs it without one): not its rules' tables, not a run."""

import subprocess
import sys

from tests.support.processes import python_env

PROGRAM = """
import sys
from codemods import cli
status = cli.main(["--quiet", "--no-cache", sys.argv[1]])
print("tensorflow imported" if "tensorflow" in sys.modules else "no tensorflow", status)
"""


def test_a_run_over_contrib_names_with_compat_homes_imports_no_tensorflow(tmp_path):
    source = tmp_path / "train.py"
    source.write_text(
        "import tensorflow as tf\n"
        "hooks = tf.contrib.learn.monitors.replace_monitors_with_hooks([], None)\n"
        "config = tf.contrib.learn.RunConfig(model_dir='m')\n"
        "hparams = tf.contrib.training.HParams(lr=0.1)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", PROGRAM, str(source)], capture_output=True, text=True, env=python_env(), timeout=300
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.splitlines()[-1] == "no tensorflow 0", result.stdout + result.stderr[-2000:]
