"""Contrib names tensor2tensor's trainer reads, served by uai-run as TF 1.x behaved."""

import json
import sys

from tests.support import runs as _runs

PROGRAM = """
import json
import tensorflow as tf

with tf.name_scope("outer"):
    with tf.name_scope("inner"):
        inside = tf.contrib.framework.get_name_scope()
print(json.dumps([inside, tf.contrib.framework.get_name_scope()]))
"""


def test_get_name_scope_is_the_graphs_current_name_scope(tmp_path):
    (tmp_path / "program.py").write_text(PROGRAM)
    result = _runs.run([sys.executable, "-m", "uai_run", str(tmp_path / "program.py")], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert json.loads(result.stdout.splitlines()[-1]) == ["outer/inner", ""]
