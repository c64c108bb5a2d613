"""contrib-removed: every tf.contrib name no rule converts is an error entry with a manual step."""

from codemods.rules import RULES
from codemods.rules.contrib import ContribRule
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
        "from tensorflow.contrib import seq2seq\n"
        "x = tf.contrib.seq2seq.BasicDecoder(1)\n"
        "y = seq2seq.dynamic_decode(x)\n"
    )
    assert _entries(source) == [
        ("contrib-removed", "error", 2, "tensorflow.contrib.seq2seq has no automatic conversion"),
        ("contrib-removed", "error", 3, "tensorflow.contrib.seq2seq.BasicDecoder has no automatic conversion"),
        ("contrib-removed", "error", 4, "tensorflow.contrib.seq2seq.dynamic_decode has no automatic conversion"),
    ]
    applied = apply(source, ContribRule)
    assert all(e.manual and "tf.contrib was removed" in e.manual for e in applied.entries)


def test_contrib_behind_a_tf_compat_v1_prefix_is_reported_as_tf_contrib():
    source = "import tensorflow.compat.v1 as tf\ndecoder = tf.contrib.seq2seq.BasicDecoder(1)\n"
    assert _entries(source) == [
        ("contrib-removed", "error", 2, "tensorflow.compat.v1.contrib.seq2seq.BasicDecoder has no automatic conversion")
    ]
    [entry] = apply(source, ContribRule).entries
    assert "tf.contrib.seq2seq.BasicDecoder" in entry.manual


def test_the_manual_step_is_the_one_uai_run_gives():
    from compat import tf1_names

    [entry] = apply("import tensorflow as tf\nx = tf.contrib.zz_gone.f\n", ContribRule).entries
    assert entry.manual == tf1_names.manual_for("tensorflow.contrib.zz_gone.f")


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
