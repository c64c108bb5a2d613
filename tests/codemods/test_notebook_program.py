"""At --level native a notebook's code cells are migrated as one program (codemods/_cells.py): a graph built in
one cell and run by a Session in another converts, each cell keeping its own lines and IPython lines."""

import ast
import json
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codemods._migrate_file import Options, migrate
from tests.support.processes import REPO

NATIVE = Options(level="native")


def notebook(*cells: str) -> bytes:
    code = [{"cell_type": "code", "metadata": {}, "source": c, "outputs": [], "execution_count": None} for c in cells]
    markdown = {"cell_type": "markdown", "metadata": {}, "source": "# a TF1 notebook"}
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [markdown, *code]}).encode()


def cells(data: bytes) -> list[str]:
    return [c["source"] for c in json.loads(data)["cells"] if c["cell_type"] == "code"]


GRAPH = "x = tf.placeholder(tf.float32, [None, 3])\nw = tf.Variable(tf.ones([3, 1]))\ny = tf.matmul(x, w)"
SESSION = "!echo shell lines stay\nsess = tf.Session()\nsess.run(tf.global_variables_initializer())"
RUN = "print('result', sess.run(y, {x: np.ones((2, 3))}).ravel())"


def test_a_session_run_in_another_cell_than_its_graph_converts_each_cell_keeping_its_lines():
    before = notebook("%matplotlib inline\nimport numpy as np\nimport tensorflow as tf", GRAPH, SESSION, RUN)
    done = migrate("notebook", before, NATIVE)
    assert cells(done.new) == [
        "# uai-migrate: tf2\nimport compat\n\n%matplotlib inline\nimport numpy as np\nimport tensorflow as tf",
        'w = tf.Variable(tf.ones([3, 1]), name="Variable")\n\n'
        'def model(x):\n    y = tf.matmul(x, w)\n    return {"y": y}\n\n'
        "evaluate = tf.function(model, input_signature=[tf.TensorSpec([None, 3], tf.float32)])",
        "!echo shell lines stay",
        "print('result', evaluate(np.ones((2, 3)))[\"y\"].numpy().ravel())",
    ]
    said = [(e.cell, e.line) for e in done.entries if e.rule == "native-session"]
    assert said == [(3, 2)]  # (the Session's line in its cell; cell 0 is the markdown)
    assert migrate("notebook", done.new, NATIVE).new is None


def test_must_not_fire_where_the_cells_are_no_one_program():
    # a __future__ import is a cell's first statement, not the joined program's: each cell is migrated alone,
    # and no cell holds a whole Session script
    before = notebook(
        "from __future__ import division\nimport numpy as np\nimport tensorflow as tf", GRAPH, SESSION, RUN
    )
    later = notebook(
        "import numpy as np\nimport tensorflow as tf", "from __future__ import division\n" + GRAPH, SESSION, RUN
    )
    for data in (before, later):
        done = migrate("notebook", data, NATIVE)
        said = [e.message for e in done.entries if e.rule == "native-session"]
        assert said and all(m.startswith("Session script left at the safe level") for m in said), said
        assert "sess.run" in cells(done.new)[-1]
    # the safe level migrates each cell alone as before
    safe = migrate("notebook", notebook("import tensorflow as tf", GRAPH, SESSION, RUN), Options())
    assert not [e for e in safe.entries if e.level == "native"] and "tf.compat.v1.Session()" in cells(safe.new)[2]


SCRIPTS = [
    os.path.join(REPO, "tests", "corpus", name)
    for name in ("session_softmax.py", "session_summaries.py", "contrib_data_tf14.py", "device_function.py")
]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=st.sampled_from(SCRIPTS), cuts=st.sets(st.integers(1, 60), max_size=4))
def test_a_script_cut_into_cells_migrates_as_the_script(script, cuts):
    """Cut between top-level statements, a script's cells come out of --level native as the script does (blank
    lines aside, and where the imports the rules add go: a cell's first statement is not its module's)."""
    with open(script, encoding="utf-8") as handle:
        text = handle.read()
    starts = sorted({node.lineno - 1 for node in ast.parse(text).body} & cuts)
    lines = text.splitlines(keepends=True)
    bounds = [0, *starts, len(lines)]
    sources = ["".join(lines[a:b]) for a, b in zip(bounds, bounds[1:]) if a < b]
    whole = migrate("python", text.encode(), NATIVE).new.decode()
    done = migrate("notebook", notebook(*sources), NATIVE)
    joined = "\n".join(cells(done.new) if done.new else sources)
    assert _read(joined) == _read(whole)


def _read(code: str) -> tuple[list[str], list[str]]:
    """(the lines but imports and blank ones, the import lines sorted)"""
    lines = [line for line in code.splitlines() if line.strip()]
    imports = [line for line in lines if line.startswith(("import ", "from "))]
    return [line for line in lines if line not in imports], sorted(imports)
