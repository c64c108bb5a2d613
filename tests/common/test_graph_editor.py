"""tf.contrib.graph_editor.get_backward_walk_ops (compat.graph_editor) walks a graph as TF 1.15's did.

tests/common/tf1_programs/graph_walks.py, a TF 1 program, runs unmodified under uai-run; its walks must
be the ones real TensorFlow 1.15 printed (tests/common/golden/tf115_graph_walks.json).
"""

import sys

from tests.support import runs as _runs
from tests.support.goldens import run_against_tf115


def test_uai_run_walks_the_graph_as_tf115_did(tmp_path):
    values, golden = run_against_tf115("graph_walks.py", "tf115_graph_walks.json", tmp_path)
    assert values == golden


def test_the_rest_of_the_graph_editor_stops_uai_run_in_one_line(tmp_path):
    script = tmp_path / "reroute.py"
    script.write_text("import tensorflow as tf\n\ntf.contrib.graph_editor.reroute_ts([], [])\n")
    result = _runs.run([sys.executable, "-m", "uai_run", str(script)], tmp_path)
    assert result.returncode == 2
    assert "tf.contrib.graph_editor.reroute_ts is not available on this TensorFlow" in result.stderr.splitlines()[-1]
