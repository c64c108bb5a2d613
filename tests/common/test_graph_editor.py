"""tf.contrib.graph_editor.get_backward_walk_ops (compat.graph_editor) walks a graph as TF 1.15's did.

tests/common/tf1_programs/graph_walks.py, a TF 1 program, runs unmodified under uai-run; its walks must
be the ones real TensorFlow 1.15 printed (tests/common/golden/tf115_graph_walks.json).
"""

import json
import os
import sys

from tests.support import runs as _runs
from tests.support.processes import REPO

PROGRAM = os.path.join(REPO, "tests", "common", "tf1_programs", "graph_walks.py")
GOLDEN = os.path.join(REPO, "tests", "common", "golden", "tf115_graph_walks.json")


def test_uai_run_walks_the_graph_as_tf115_did(tmp_path):
    with open(GOLDEN) as handle:
        golden = json.load(handle)
    assert golden["tensorflow"].startswith("1.15.") and "python3 dev.py tf115" in golden["_header"]
    result = _runs.run([sys.executable, "-m", "uai_run", PROGRAM], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    line = next(line for line in result.stdout.splitlines() if line.startswith("RESULT "))
    assert json.loads(line[len("RESULT ") :]) == golden["values"]


def test_the_rest_of_the_graph_editor_stops_uai_run_in_one_line(tmp_path):
    script = tmp_path / "reroute.py"
    script.write_text("import tensorflow as tf\n\ntf.contrib.graph_editor.reroute_ts([], [])\n")
    result = _runs.run([sys.executable, "-m", "uai_run", str(script)], tmp_path)
    assert result.returncode == 2
    assert "tf.contrib.graph_editor.reroute_ts is not available on this TensorFlow" in result.stderr.splitlines()[-1]
