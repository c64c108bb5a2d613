"""contrib-removed: every tf.contrib name no rule converts is an error entry with a manual step."""

import sys

import pytest

from codemods.rules import RULES
from codemods.rules.contrib import ContribRule
from tests.support import runs as _runs
from tests.support.processes import assert_one_line_error, program_lines
from tests.support.rule_test import RuleTest, apply


def _entries(source):
    applied = apply(source, *RULES)
    return [(e.rule, e.severity, e.line, e.message) for e in applied.entries if e.rule == ContribRule.ID]


class TestContribRule(RuleTest):
    TRANSFORM = ContribRule

    def test_reports_but_never_changes_code(self):
        source = """
            import tensorflow as tf
            cell = tf.contrib.rnn.LSTMBlockCell(8)
        """
        self.assertCodemod(source, source)


def test_each_use_reported_once_at_the_outermost_name_with_a_manual_step():
    source = (
        "import tensorflow as tf\n"
        "from tensorflow.contrib import crf\n"
        "x = tf.contrib.crf.crf_log_likelihood(1)\n"
        "y = crf.viterbi_decode(x)\n"
    )
    assert _entries(source) == [
        ("contrib-removed", "error", 2, "tensorflow.contrib.crf has no automatic conversion"),
        ("contrib-removed", "error", 3, "tensorflow.contrib.crf.crf_log_likelihood has no automatic conversion"),
        ("contrib-removed", "error", 4, "tensorflow.contrib.crf.viterbi_decode has no automatic conversion"),
    ]
    applied = apply(source, ContribRule)
    assert all(e.manual and "tf.contrib was removed" in e.manual for e in applied.entries)


def test_contrib_behind_a_tf_compat_v1_prefix_is_reported_as_tf_contrib():
    source = "import tensorflow.compat.v1 as tf\nhelper = tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper(1)\n"
    assert _entries(source) == [
        (
            "contrib-removed",
            "error",
            2,
            "tensorflow.compat.v1.contrib.seq2seq.ScheduledEmbeddingTrainingHelper has no automatic conversion",
        )
    ]
    [entry] = apply(source, ContribRule).entries
    assert "tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper" in entry.manual


def _manual(name):
    """uai-migrate's manual step for the TF1 name `name` read in a 3-line program."""
    [entry] = apply(f"import tensorflow as tf\n\nx = tf{name[len('tensorflow') :]}\n", *RULES).entries
    assert entry.rule == ContribRule.ID and entry.severity == "error"
    return entry.manual


# contrib families with no TF 2 home: each has its closest replacement (compat.tf1_names.CLOSEST), not the generic step
HOMELESS = {
    "tensorflow.contrib.factorization.KMeans": "tf.compat.v1.estimator.experimental.KMeans",
    "tensorflow.contrib.tensor_forest.python.tensor_forest.RandomForestGraphs": "tfdf.keras.RandomForestModel",
    "tensorflow.contrib.learn.preprocessing.VocabularyProcessor": "tf.keras.layers.TextVectorization",
    "tensorflow.contrib.seq2seq.ScheduledEmbeddingTrainingHelper": "tfa.seq2seq",
    "tensorflow.contrib.zz_gone.f": "use the TF2 or tf_slim equivalent of tf.contrib.zz_gone.f",
}


@pytest.mark.parametrize("name", sorted(HOMELESS))
def test_the_manual_step_is_the_one_uai_run_gives(name):
    from uai_run import _tf1_modules  # (test only: codemods never imports uai_run)

    path, _, attr = name.rpartition(".")
    with pytest.raises(_tf1_modules.MissingTF1Name) as raised:
        getattr(_tf1_modules.Face(path), attr)
    assert raised.value.manual == _manual(name) and HOMELESS[name] in raised.value.manual


def test_uai_run_stops_a_homeless_contrib_name_in_one_line_naming_uai_migrates_replacement(tmp_path):
    script = tmp_path / "kmeans.py"
    script.write_text("import tensorflow as tf\n\nkmeans = tf.contrib.factorization.KMeans(num_clusters=2)\n")
    result = _runs.run([sys.executable, "-m", "uai_run", str(script)], tmp_path)
    # the face stops at the module, which is gone as a whole: the same replacement as uai-migrate's entry names
    assert_one_line_error(result, f"error: tf.contrib.factorization is not available on this TensorFlow ({script}:3)")
    manual = _manual("tensorflow.contrib.factorization.KMeans")
    closest = manual[manual.index("; the closest is ") :]
    assert program_lines(result.stderr)[-1].endswith(closest), result.stderr


def test_names_another_rule_converts_are_not_reported():
    assert _entries("import tensorflow as tf\nnet = tf.contrib.slim.conv2d(x, 1, 3)\n") == []


def test_a_partly_converted_module_is_reported_at_its_unconverted_uses_and_at_the_import_they_keep():
    source = (
        "from tensorflow.contrib import layers\n"
        "init = layers.xavier_initializer()\n"  # tf-slim has it: contrib-slim converts it
        "emb = layers.embed_sequence(ids, 10, 4)\n"  # tf-slim has not
    )
    assert _entries(source) == [
        (
            "contrib-removed",
            "error",
            1,
            "tensorflow.contrib.layers stays imported for its unconverted uses, and is no module on TF 2.21",
        ),
        ("contrib-removed", "error", 3, "tensorflow.contrib.layers.embed_sequence has no automatic conversion"),
    ]


def test_must_not_fire_on_shadowed_tf_strings_or_comments():
    source = (
        "import tensorflow as tf\n"
        "def f(tf):\n"
        "    return tf.contrib.layers  # tf.contrib.layers\n"
        "s = 'tf.contrib.layers.conv2d'\n"
    )
    assert _entries(source) == []


def test_an_import_kept_for_unconverted_uses_is_reported_where_it_will_fail():
    from codemods.rules.upgrade import UpgradeRule

    source = (
        "from tensorflow.contrib import rnn\n"
        "a = rnn.GRUCell(2)\n"  # converted: tf-upgrade's
        "b = rnn.LSTMBlockCell(2)\n"  # not: the import has to stay, and fails on TF 2.21
    )
    applied = apply(source, UpgradeRule, ContribRule)
    assert "from tensorflow.contrib import rnn" in applied.module.code
    errors = sorted((e.line, e.message) for e in applied.entries if e.severity == "error")
    assert [line for line, _ in errors] == [1, 3] and "stays imported" in errors[0][1]


# -- no contrib import left behind silently: each one that reaches the output is reported at its line


def _contrib_imports_left(source, code):
    """The lines of `source` whose import statement is still in the migrated `code`, importing tensorflow.contrib."""
    import ast

    found = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        if any(f"{name}.".startswith(("tensorflow.contrib.", "tensorflow.compat.v1.contrib.")) for name in names):
            text = ast.get_source_segment(code, node)
            found.update(n for n, line in enumerate(source.splitlines(), 1) if line.strip() == text)
    return found


class TestUnusedContribImports(RuleTest):
    TRANSFORM = ContribRule

    def test_an_unused_contrib_import_is_removed(self):
        self.assertCodemod(
            """
            import tensorflow as tf
            from tensorflow.contrib import learn
            x = tf.constant(1)
            """,
            """
            import tensorflow as tf
            x = tf.constant(1)
            """,
        )

    def test_an_unused_dotted_contrib_import_is_removed(self):
        self.assertCodemod(
            """
            import tensorflow.contrib.crf
            x = 1
            """,
            """
            x = 1
            """,
        )

    def test_an_unused_contrib_import_in_a_function_is_removed(self):
        self.assertCodemod(
            """
            def f():
                from tensorflow.contrib import learn as contrib_learn
                return 1
            """,
            """
            def f():
                return 1
            """,
        )

    def test_an_import_another_name_reads_is_not_removed(self):
        source = """
            from tensorflow.contrib import learn
            __all__ = ["learn"]
        """
        self.assertCodemod(source, source)


def test_a_partly_converted_module_used_as_a_value_is_reported_at_its_import():
    # (alone in its import, contrib-module-values binds compat's object for it: tests/codemods/test_rule_contrib_modules.py)
    source = (
        "def framework():\n"
        "    from tensorflow.contrib import framework as contrib_framework, zz_gone\n"  # contrib-slim converts some of it
        "    return contrib_framework, zz_gone\n"  # the modules themselves: nothing converts them
    )
    assert _entries(source) == [
        (
            "contrib-removed",
            "error",
            2,
            "tensorflow.contrib.framework stays imported for its unconverted uses, and is no module on TF 2.21",
        ),
        ("contrib-removed", "error", 2, "tensorflow.contrib.zz_gone has no automatic conversion"),
    ]


def test_an_import_whose_uses_were_all_converted_goes():
    source = "import tensorflow.contrib.layers\nx = tensorflow.contrib.layers.xavier_initializer()\n"
    applied = apply(source, *RULES)
    assert _contrib_imports_left(source, applied.module.code) == set()


@pytest.mark.parametrize(
    "source",
    [
        "from tensorflow.contrib import learn as contrib_learn, crf\nconfig = contrib_learn.RunConfig()\n"
        "m = contrib_learn, crf\n",
        "from tensorflow import contrib\nx = contrib.layers.xavier_initializer()\ny = contrib.crf\n",
        "import tensorflow.contrib.layers as L, tensorflow.contrib.crf as S\ninit = L.xavier_initializer()\nf(L, S)\n",
        "from tensorflow.contrib.framework import arg_scope\nfrom tensorflow.contrib.layers import embed_sequence\n"
        "with arg_scope([]):\n    embed_sequence(ids, 10, 4)\n",
        "from tensorflow.contrib.layers import *\n",
    ],
)
def test_every_contrib_import_left_in_the_output_has_an_error_at_its_line(source):
    applied = apply(source, *RULES)
    errors = {e.line for e in applied.entries if e.severity == "error"}
    left = _contrib_imports_left(source, applied.module.code)
    assert left, "the fixture keeps a contrib import"
    assert left <= errors, (applied.module.code, applied.entries)


# -- a TF 1 check: `try: <import from tf.contrib>` whose `except` catches the ImportError

CHECK = """
    try:
        from tensorflow.contrib import slim as tf_slim
        is_tf2 = False
    except:  # noqa: E722 - tensor2tensor's own spelling
        import tf_slim
        is_tf2 = True
"""


def test_a_tf1_check_that_another_rule_rewrites_now_finds_tf1_and_says_so():
    import textwrap

    applied = apply(textwrap.dedent(CHECK), *RULES)
    assert "import compat.slim as tf_slim" in applied.module.code  # the TF 1 branch runs, converted
    [entry] = [e for e in applied.entries if e.rule == ContribRule.ID]
    assert (entry.severity, entry.line) == ("warning", 3)
    assert "TF 1 check" in entry.message and "uai-run" in entry.manual


def test_a_fallback_import_that_another_rule_rewrites_is_no_check():
    # the try and its except only import: nothing branches on which one ran
    source = "try:\n    from tensorflow.contrib import slim\nexcept ImportError:\n    import tf_slim as slim\n"
    applied = apply(source, *RULES)
    assert "import compat.slim as slim" in applied.module.code
    assert [e.severity for e in applied.entries if e.rule == ContribRule.ID] == ["info"]


class TestTf1Checks(RuleTest):
    TRANSFORM = ContribRule

    def test_a_tf1_check_left_as_written_is_neither_removed_nor_an_error(self):
        for source in (
            """
            try:
                import tensorflow.contrib
                is_tf2 = False
            except ImportError:
                is_tf2 = True
            """,
            """
            def layers():
                try:
                    from tensorflow.contrib import layers as contrib_layers
                    return contrib_layers
                except (ModuleNotFoundError, AttributeError):
                    return None
            """,
        ):
            self.assertCodemod(source, source)
            assert [e.severity for e in self.applied(source).entries] == ["info"]

    def test_a_try_that_does_not_catch_the_import_error_is_no_check(self):
        source = """
            try:
                from tensorflow.contrib import layers as contrib_layers
                f(contrib_layers)
            except ValueError:
                pass
        """
        self.assertCodemod(source, source)
        assert [e.severity for e in self.applied(source).entries] == ["error"]


def test_in_a_notebook_an_import_another_cell_may_read_stays_reported():
    # each cell is migrated apart: the cell of the import cannot see what the others read
    import json

    from codemods._migrate_file import Options, migrate_notebook

    cells = [["from tensorflow.contrib import learn\n"], ["model_fns = [learn]\n"]]
    notebook = {
        "cells": [
            {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": c} for c in cells
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    outcome = migrate_notebook(json.dumps(notebook).encode(), Options())
    kept = outcome.new is None or json.loads(outcome.new)["cells"][0]["source"] == cells[0]
    errors = [(e.cell, e.line) for e in outcome.entries if e.rule == ContribRule.ID and e.severity == "error"]
    assert kept and errors == [(0, 1)], outcome.entries


def test_seq2seq_names_compat_provides_are_ported_and_the_rest_reported():
    source = (
        "import tensorflow as tf\n"
        "decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, state)\n"
        "helper = tf.contrib.seq2seq.ScheduledEmbeddingTrainingHelper(inputs, lengths, embedding, 0.5)\n"
        "beams = tf.contrib.seq2seq.BeamSearchDecoder(cell, embedding, start, end, state, 3)\n"
    )
    applied = apply(source, *RULES)
    assert "compat_seq2seq.BasicDecoder(cell, helper, state)" in applied.module.code
    assert "compat_seq2seq.BeamSearchDecoder(cell, embedding, start, end, state, 3)" in applied.module.code
    assert _entries(source) == [
        (
            "contrib-removed",
            "error",
            3,
            "tensorflow.contrib.seq2seq.ScheduledEmbeddingTrainingHelper has no automatic conversion",
        )
    ]


# A homeless family's name in each spelling TF1 programs wrote: the public one, the private module it was
# defined in (below `contrib.learn.python.learn`, a package whose other modules compat.learn has), through a
# `tf.compat.v1` prefix, imported from either module. Each line reading it gets an error entry whose manual
# step names the family's closest replacement, and nothing is rewritten to a module that does not exist.
SPELLINGS = {
    "x = tf.contrib.learn.preprocessing.VocabularyProcessor(10)": "TextVectorization",
    "x = tf.contrib.learn.python.learn.preprocessing.VocabularyProcessor(10)": "TextVectorization",
    "x = tf.contrib.learn.python.learn.preprocessing.text.VocabularyProcessor(10)": "TextVectorization",
    "x = tf.compat.v1.contrib.learn.python.learn.preprocessing.VocabularyProcessor(10)": "TextVectorization",
    "from tensorflow.contrib.learn.python.learn.preprocessing import VocabularyProcessor; "
    "x = VocabularyProcessor(10)": "TextVectorization",
    "from tensorflow.contrib.learn.python.learn import preprocessing; "
    "x = preprocessing.VocabularyProcessor(10)": "TextVectorization",
    "x = tf.contrib.factorization.python.ops.gmm_ops.gmm": "KMeans",
    "from tensorflow.contrib.factorization.python.ops import clustering_ops; x = clustering_ops.KMeans": "KMeans",
    "x = tf.contrib.tensor_forest.client.random_forest.TensorForestEstimator": "tfdf.keras.RandomForestModel",
    "from tensorflow.contrib.tensor_forest.python import tensor_forest; "
    "x = tensor_forest.ForestHParams": "tfdf.keras.RandomForestModel",
}


@pytest.mark.parametrize("line", sorted(SPELLINGS))
def test_every_spelling_of_a_homeless_family_gets_its_entry(line):
    applied = apply(f"import tensorflow as tf\n{line}\n", *RULES)
    errors = [e for e in applied.entries if e.severity == "error" and e.line == 2]
    assert errors and all(SPELLINGS[line] in e.manual for e in errors), applied.entries
    assert [e for e in applied.entries if e.severity == "warning"] == []
    assert "compat.learn.preprocessing" not in applied.module.code and "compat.learn import preprocessing" not in (
        applied.module.code
    )
