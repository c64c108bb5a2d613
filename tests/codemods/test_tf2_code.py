"""TF 2 code keeps its TensorFlow names (codemods/_tf2_code.py): tf1-api reads `tf.summary.scalar`, `tf.Variable` and
`tf.train.Checkpoint` as TF1's names, and their `tf.compat.v1` spellings break TF 2 code."""

import ast
import json
import textwrap

import pytest

from bench.corpus import CORPUS
from codemods._migrate_file import Options, migrate_notebook, migrate_python
from codemods._report import TF2_CODE

TF2_PROGRAM = """
    import tensorflow as tf

    writer = tf.summary.create_file_writer("logs")
    step = tf.Variable(0, dtype=tf.int64)
    checkpoint = tf.train.Checkpoint(step=step)
    with writer.as_default(), tf.name_scope("train"):
        tf.summary.scalar("loss", 1.0, step=step)
"""


def migrated(source: str, level: str = "safe") -> tuple[str, list]:
    data = textwrap.dedent(source).encode()
    outcome = migrate_python(data, Options(level=level))
    return (data if outcome.new is None else outcome.new).decode(), outcome.entries


@pytest.mark.parametrize(
    "source, why",
    [
        (TF2_PROGRAM, "tf.summary.create_file_writer is TF 2's"),
        # a summary op given TF 2's step: tf.compat.v1.summary.scalar has no such parameter
        ("import tensorflow as tf\ntf.summary.scalar('loss', 1.0, step=tf.Variable(1, dtype=tf.int64))\n", "step=...)"),
        ("from tensorflow import summary\nsummary.scalar('loss', 1.0, step=1)\n", "tf.summary.scalar(step=...)"),
        ("from tensorflow.summary import create_file_writer\nw = create_file_writer('l')\n", "create_file_writer is"),
    ],
    ids=["tf2-only-name", "summary-step", "summary-imported", "name-imported"],
)
def test_tf2_code_is_left_as_written_with_one_entry_saying_why(source, why):
    text, entries = migrated(source)
    assert text == textwrap.dedent(source)
    assert [(e.rule, e.severity) for e in entries] == [(TF2_CODE, "info")], entries
    assert why in entries[0].message and "left as written" in entries[0].message


@pytest.mark.parametrize(
    "source",
    [
        # TF1 code naming TF 2's name too: its tf.Session needs the rules
        "import tensorflow as tf\nw = tf.summary.create_file_writer('l')\nwith tf.Session() as s:\n    pass\n",
        # TF1's summary call: no step
        "import tensorflow as tf\nx = tf.Variable(1.0)\ntf.summary.scalar('x', x)\n",
        "import tensorflow as tf\nfrom tensorflow.contrib import slim\ntf.summary.create_file_writer('l')\n",
    ],
    ids=["with-tf1-only-name", "no-tf2-evidence", "with-contrib"],
)
def test_tf1_code_is_migrated_as_before(source):
    text, entries = migrated(source)
    assert text != textwrap.dedent(source) or entries
    assert TF2_CODE not in {e.rule for e in entries}


def test_what_tf2_code_still_needs_is_done():
    # compat's tf.estimator (TF >= 2.16), an Estimator's strategy, which TF 2 cannot deep-copy in eager mode
    # (graph-mode's switches), NumPy 2's removed np.bool (library-names): only tf1-api's reading of TensorFlow's
    # names as TF1's is left out
    source = """
        import numpy as np
        import tensorflow as tf

        def main():
            strategy = tf.distribute.MultiWorkerMirroredStrategy()
            config = tf.estimator.RunConfig(model_dir="/tmp/m", train_distribute=strategy)
            tf.summary.scalar("ok", tf.Variable(1.0), step=np.array(1, dtype=np.bool))

        if __name__ == "__main__":
            main()
    """
    text, entries = migrated(source)
    assert "tf.compat.v1.disable_eager_execution()" in text and "dtype=bool)" in text, text
    assert "import compat\n" in text  # tf.estimator on TF >= 2.16
    assert "tf.summary.scalar(" in text and "tf.Variable(" in text and "tf.compat.v1.summary" not in text, text
    assert {TF2_CODE, "graph-mode", "library-names"} <= {e.rule for e in entries}, entries


def test_tf2_code_gets_tf1_keras_optimizers_and_keeps_tf2s_softmax_labels():
    # keras-optimizers: TF 2.0-2.10's tf.keras took lr= as TF 1.x's did, so TF 2 code gets the legacy class too;
    # softmax-labels reads the name as TF1's (a TF1 reading, left out here): TF 2's gradient into the labels may be wanted
    source = """
        import tensorflow as tf
        writer = tf.summary.create_file_writer('logs')
        optimizer = tf.keras.optimizers.Adam(lr=1e-3)
        loss = tf.nn.softmax_cross_entropy_with_logits(labels=soft, logits=logits)
    """
    text, entries = migrated(source)
    assert {TF2_CODE, "keras-optimizers"} <= {e.rule for e in entries}, entries
    assert "optimizer = tf.keras.optimizers.legacy.Adam(learning_rate=1e-3)" in text and "import compat" in text, text
    assert "loss = tf.nn.softmax_cross_entropy_with_logits(labels=soft, logits=logits)" in text, text
    alone = "import tensorflow as tf\nw = tf.summary.create_file_writer('l')\nloss = tf.nn.softmax_cross_entropy_with_logits(labels=s, logits=x)\n"
    assert migrated(alone)[0] == alone


@pytest.mark.parametrize("name", ["session_summaries.py", "layers_graph.py", "rnn_text_classifier.py"])
def test_a_native_port_migrated_again_comes_out_as_it_went_in(name):
    # on each of these the second, safe, run rewrote tf.summary.scalar(..., step=), tf.Variable or
    # tf.train.Checkpoint into tf.compat.v1's names (the first breaks: v1's scalar has no step)
    with open(f"{CORPUS}/{name}", encoding="utf-8") as handle:
        port, _ = migrated(handle.read(), level="native")
    ast.parse(port)
    again, entries = migrated(port)
    assert again == port, entries
    assert TF2_CODE in {e.rule for e in entries}


@pytest.mark.parametrize("level", ["safe", "native"])
def test_a_notebook_of_tf2_code_keeps_its_names(level):
    # its cells share one namespace: the import in one cell, TF 2's name in another and tf.summary.scalar(step=) in
    # a third; tf1-api made that call tf.compat.v1.summary.scalar(..., step=1), a TypeError on TF 2.21 (helper-76)
    cells = [
        "import tensorflow as tf",
        "writer = tf.summary.create_file_writer('logs')\nv = tf.Variable(1.0)",
        "with writer.as_default():\n    tf.summary.scalar('loss', v, step=1)",
    ]
    notebook = {
        "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": c} for c in cells],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    outcome = migrate_notebook(json.dumps(notebook).encode(), Options(level=level))
    assert outcome.new is None, outcome.entries
    assert [(e.rule, e.cell, e.line) for e in outcome.entries] == [(TF2_CODE, 1, 1)], outcome.entries


def test_a_notebook_of_tf1_and_tf2_names_is_migrated():
    cells = ["import tensorflow as tf", "w = tf.summary.create_file_writer('l')", "x = tf.placeholder(tf.float32)"]
    notebook = {
        "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "source": c} for c in cells],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    outcome = migrate_notebook(json.dumps(notebook).encode(), Options())
    assert outcome.new is not None and b"tf.compat.v1.placeholder" in outcome.new
    assert TF2_CODE not in {e.rule for e in outcome.entries}


@pytest.mark.parametrize(
    "imports",
    ["from tensorflow import summary as tfs", "import tensorflow.summary as tfs", "from tensorflow import eig as tfs"],
)
def test_a_tf2_name_read_through_an_alias_of_a_tensorflow_module_is_evidence(imports):
    # the text filter looked for `summary.create_file_writer` or `.eig` and walked no such file: tf1-api made
    # tfs.scalar("loss", v, 1) tf.compat.v1.summary.scalar("loss", v, 1), whose third parameter is collections
    # (TypeError: 'int' object is not iterable on TF 2.21; helper-76)
    use = "tfs(tf.eye(2))" if "eig" in imports else "tfs.create_file_writer('l')\ntfs.scalar('loss', v, 1)"
    source = f"import tensorflow as tf\n{imports}\nv = tf.Variable(1.0)\n{use}\n"
    text, entries = migrated(source)
    assert text == source
    assert [e.rule for e in entries] == [TF2_CODE], entries


@pytest.mark.parametrize(
    "source, name, tf1, ported",
    [
        # tf.lite.TFLiteConverter is in both APIs (another class in each), from_keras_model TF 2's only: tf1-api made
        # it tf.compat.v1.lite.TFLiteConverter.from_keras_model, and the TF 2 script failed on TF 2.21
        # (AttributeError: type object 'TFLiteConverter' has no attribute 'from_keras_model'); TF1's converter stays
        # TF1's
        (
            "model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])\n"
            "converter = tf.lite.TFLiteConverter.from_keras_model(model)\n",
            "from_keras_model",
            "c = tf.lite.TFLiteConverter.from_session(None, [], [])\n",
            "tf.compat.v1.lite.TFLiteConverter.from_session",
        ),
        # ckpt.read is TF 2's Checkpoint's only: tf.compat.v1.train.Checkpoint failed (AttributeError: 'CheckpointV1'
        # object has no attribute 'read'); a name bound again may be another object (a file: its read proves nothing)
        (
            "v = tf.Variable(1.0)\nckpt = tf.train.Checkpoint(v=v)\nckpt.read(ckpt.write('ckpt')).assert_consumed()\n",
            "tf.train.Checkpoint.read",
            "v = tf.Variable(1.0)\nckpt = tf.train.Checkpoint(v=v)\nckpt = open('f')\nckpt.read()\n",
            "tf.compat.v1.train.Checkpoint",
        ),
    ],
    ids=["class-attribute", "method-of-an-object-made-once"],
)
def test_a_tf2_only_attribute_of_a_class_both_apis_have_is_evidence(source, name, tf1, ported):
    # (helper-76's hostile pass: each TF 2 script ran before its migration and failed after it, on TF 2.21)
    source = "import tensorflow as tf\n" + source
    text, entries = migrated(source)
    assert text == source
    assert [e.rule for e in entries] == [TF2_CODE] and name in entries[0].message, entries
    text, entries = migrated("import tensorflow as tf\n" + tf1)
    assert ported in text and TF2_CODE not in {e.rule for e in entries}, text
