"""`# uai-migrate: tf2`, the pragma of a file of TF 2 code (codemods/_tf2_code.py): a native port names only what
TF 1.15 also had (`tf.Variable`, `tf.train.Checkpoint`, `tf.random_normal_initializer`), so without it the pre-commit
hook's safe run read them as TF1's and put tf.compat.v1 back into the eager port, and a native run did it too."""

import ast
import json
import textwrap

import pytest

from bench.corpus import CORPUS
from codemods import _tf2_code
from codemods._migrate_file import Options, migrate_notebook, migrate_python
from codemods._report import TF2_CODE
from codemods._tf2_code import PRAGMA

# the native ports the lead found changed by a second run: tf.train.Checkpoint, tf.Variable in an Estimator file,
# tf.random_normal_initializer (tf1-api), tf.device(setter) (tf-device)
PORTS = ["session_saver.py", "contrib_data_tf14.py", "session_variable_scope.py", "device_replica_setter.py"]


def migrated(source: str, level: str = "safe") -> tuple[str, list]:
    outcome = migrate_python(source.encode(), Options(level=level))
    return (source if outcome.new is None else outcome.new.decode()), outcome.entries


def native_port(name: str) -> tuple[str, list]:
    with open(f"{CORPUS}/{name}", encoding="utf-8") as handle:
        return migrated(handle.read(), level="native")


@pytest.mark.parametrize("name", PORTS)
def test_a_native_port_made_fully_tf2_holds_the_pragma_and_a_second_run_at_either_level_changes_nothing(name):
    port, entries = native_port(name)
    ast.parse(port)
    assert PRAGMA + "\n" in port and "compat.v1" not in port, port
    assert [e.severity for e in entries if e.rule == TF2_CODE] == ["info"], entries
    for level in ("safe", "native"):
        again, entries = migrated(port, level)
        assert again == port, (level, entries)
        tf2 = [e for e in entries if e.rule == TF2_CODE]
        assert [(e.severity, e.line) for e in tf2] == [("info", port.splitlines().index(PRAGMA) + 1)], entries
        assert PRAGMA in tf2[0].message


def test_a_native_port_keeping_tf_compat_v1_gets_no_pragma():
    # its Estimator keeps tf.compat.v1 (a v1 canned LinearClassifier): reading its other names as TF 2's is not proven
    port, entries = native_port("estimator_train_and_evaluate.py")
    assert "tf.compat.v1." in port and PRAGMA not in port
    assert TF2_CODE not in {e.rule for e in entries}


def test_a_file_no_native_rule_converted_gets_no_pragma():
    # no tf.compat.v1 in its safe port either, but nothing native made it TF 2: its tf.matmul may be a TF1 graph's
    source = "import tensorflow as tf\n\n\ndef f(x):\n    return tf.matmul(x, x)\n"
    assert migrated(source, "native") == (source, [])


TF1 = "import tensorflow as tf\nx = tf.placeholder(tf.float32)\nv = tf.Variable(1.0)\n"


def test_a_tf1_file_holding_the_pragma_is_migrated_as_tf1_with_a_warning_naming_the_tf1_name():
    source = f"{PRAGMA}\n{TF1}"
    text, entries = migrated(source)
    assert text == f"{PRAGMA}\n{migrated(TF1)[0]}" and "tf.compat.v1.Variable(1.0)" in text  # as without the pragma
    warnings = [e for e in entries if e.rule == TF2_CODE]
    assert [(e.severity, e.line) for e in warnings] == [("warning", 3)], entries
    assert "tf.placeholder" in warnings[0].message and PRAGMA in warnings[0].message and warnings[0].manual


def test_a_tf1_program_without_the_pragma_is_migrated_as_before():
    text, entries = migrated(TF1)
    assert "tf.compat.v1.placeholder" in text and "tf.compat.v1.Variable" in text
    assert TF2_CODE not in {e.rule for e in entries}


@pytest.mark.parametrize(
    "source",
    [
        # after the docstring: the docstring is code, the pragma is read only before any (as PEP 484's type: ignore)
        f'"""Doc."""\n{PRAGMA}\nimport tensorflow as tf\nv = tf.Variable(1.0)\n',
        # not a line of its own
        f"import tensorflow as tf  {PRAGMA}\nv = tf.Variable(1.0)\n",
        f"# not a pragma: {PRAGMA[2:]}\nimport tensorflow as tf\nv = tf.Variable(1.0)\n",
    ],
    ids=["after-docstring", "trailing", "inside-another-comment"],
)
def test_the_pragma_counts_only_on_a_line_of_its_own_before_any_code(source):
    text, entries = migrated(source)
    assert "tf.compat.v1.Variable" in text and TF2_CODE not in {e.rule for e in entries}


NATIVE_SESSION = """\
{head}import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 2])
y = tf.placeholder(tf.float32, [None, 1])
w = tf.Variable(tf.zeros([2, 1]))
loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for _ in range(2):
        sess.run(train, {{x: [[1.0, 2.0]], y: [[1.0]]}})
"""


@pytest.mark.parametrize(
    "head, first",
    [
        ("", 0),
        ("#!/usr/bin/env python\n", 1),
        ("#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n", 2),
        ("# -*- coding: utf-8 -*-\n", 1),
        # a docstring and a __future__ import stay the module's docstring and its first statement
        ('"""Doc."""\nfrom __future__ import print_function\n', 0),
        ("# Copyright 2017 The Authors.\n\n", 0),
    ],
    ids=["bare", "shebang", "shebang-coding", "coding", "docstring-future", "header"],
)
def test_the_pragma_goes_after_the_shebang_and_encoding_lines(head, first):
    port, _ = migrated(NATIVE_SESSION.format(head=head), "native")
    lines = head.splitlines(keepends=True)
    assert port.startswith("".join(lines[:first]) + PRAGMA + "\n" + "".join(lines[first:])), port
    tree = ast.parse(port)
    if "Doc" in head:
        assert ast.get_docstring(tree) == "Doc." and isinstance(tree.body[1], ast.ImportFrom), port
    assert migrated(port, "safe")[0] == port and migrated(port, "native")[0] == port


def notebook_of(cells: list[str]) -> bytes:
    return json.dumps(
        {
            "cells": [{"cell_type": "markdown", "metadata": {}, "source": "# title"}]
            + [
                {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": c}
                for c in cells
            ],
            "metadata": {},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    ).encode()


def code_cells(data: bytes) -> list[str]:
    return ["".join(c["source"]) for c in json.loads(data)["cells"] if c["cell_type"] == "code"]


def test_a_notebook_native_port_holds_the_pragma_in_its_first_code_cell_and_migrates_again_unchanged():
    with open(f"{CORPUS}/notebook_session.ipynb", "rb") as handle:
        outcome = migrate_notebook(handle.read(), Options(level="native"))
    assert outcome.new is not None
    cells = code_cells(outcome.new)
    assert cells[0].startswith(PRAGMA + "\n") and "%matplotlib inline\n" in cells[0], cells
    assert not any("compat.v1" in c for c in cells), cells
    for level in ("safe", "native"):
        again = migrate_notebook(outcome.new, Options(level=level))
        assert again.new is None, (level, again.entries)
        assert [(e.rule, e.severity, e.cell, e.line) for e in again.entries] == [(TF2_CODE, "info", 1, 1)]


def test_a_notebook_holding_the_pragma_and_a_tf1_name_is_migrated_with_a_warning():
    data = notebook_of([f"{PRAGMA}\nimport tensorflow as tf", "v = tf.Variable(1.0)", "x = tf.placeholder(tf.float32)"])
    outcome = migrate_notebook(data, Options())
    assert outcome.new is not None and code_cells(outcome.new)[2].endswith("\nx = tf.compat.v1.placeholder(tf.float32)")
    assert [(e.severity, e.cell, e.line) for e in outcome.entries if e.rule == TF2_CODE] == [("warning", 3, 1)]
    # without the TF1 name the pragma holds: tf.Variable keeps TF 2's reading
    outcome = migrate_notebook(notebook_of([f"{PRAGMA}\nimport tensorflow as tf", "v = tf.Variable(1.0)"]), Options())
    assert outcome.new is None and [(e.rule, e.severity) for e in outcome.entries] == [(TF2_CODE, "info")]


def test_explain_and_help_say_what_the_pragma_does(cli):
    code, out, _ = cli("--explain", TF2_CODE)
    assert code == 0 and out.startswith(f"{TF2_CODE}\n") and PRAGMA in out, out
    before, after = out.split("Before:\n")[1].split("After:\n")
    assert textwrap.dedent(before).strip() == textwrap.dedent(after).strip()  # TF 2 code is left as written
    example = _tf2_code.EXAMPLE
    for level in ("safe", "native"):
        outcome = migrate_python(example.before.encode(), Options(level=level))
        assert outcome.new is None and [e.rule for e in outcome.entries] == [TF2_CODE]
    code, out, _ = cli("--help")
    assert code == 0 and PRAGMA in out and "--explain tf2-code" in " ".join(out.split())


def test_sarif_describes_a_wrong_pragma_warning(cli, tmp_path):
    # code scanning shows the rule's description beside the warning: "tf2-code" alone said nothing
    (tmp_path / "train.py").write_text(f"{PRAGMA}\n{TF1}")
    code, out, _ = cli("--format", "sarif", tmp_path / "train.py")
    run = json.loads(out)["runs"][0]
    [result] = [r for r in run["results"] if r["ruleId"] == TF2_CODE]
    assert code == 1 and result["level"] == "warning"
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["shortDescription"]["text"] == _tf2_code.DESCRIPTION
