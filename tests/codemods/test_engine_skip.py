"""Skipping the top-level statements no rule can act on (Rule.WORDS) must not change any migration."""

import ast

import libcst as cst
from hypothesis import given, settings
from hypothesis import strategies as st

from codemods.engine import names as _names
from codemods.engine.apply import apply_rules, claims_of
from codemods.engine.quiet import quiet_statements
from codemods.rules import RULES
from codemods.rules._moves import ModuleMoveRule
from tests.support.sources import corpus_and_sample_sources as _sources

# The same rules with the skip off: a rule without WORDS makes the engine visit every statement.
UNWORDED = tuple(type(rule.__name__, (rule,), {"WORDS": None}) for rule in RULES)


def _migrate(text, rules):
    module = cst.parse_module(text)
    applied = apply_rules(module, [rule() for rule in rules], claims_of(rules))
    return applied.module.code, [(e.rule, e.message, e.line, e.col) for e in applied.entries]


def _quiet(text, rules):
    tree = ast.parse(text)
    return set(quiet_statements([rule() for rule in rules], _names.scan([tree]), tree, text)[0])


def test_every_rule_declares_its_words():
    assert [rule.ID for rule in RULES if rule.WORDS is None] == []


def test_the_corpus_migrates_the_same_with_its_quiet_statements_skipped():
    skipped = 0
    for path, text in _sources():
        assert _migrate(text, RULES) == _migrate(text, UNWORDED), path
        skipped += len(_quiet(text, RULES))
    assert skipped  # the comparison covered skipped statements


SOURCE = """import os
import tensorflow as tf

x = os.path.join("a", "b")  # nothing of ours
y = tf.zeros([2])


@tf.function
def f(v):  # its decorator mentions tf
    return v


def g(v):  # only this comment mentions TF_CONFIG, a rule's word
    return v


def h(v):
    return v
"""


def test_a_statement_is_quiet_when_its_source_has_no_watched_name_and_no_rule_word():
    statements = ast.parse(SOURCE).body
    assert [type(s).__name__ for s in statements] == [
        "Import",
        "Import",
        "Assign",
        "Assign",
        "FunctionDef",
        "FunctionDef",
        "FunctionDef",
    ]
    # numbered as the pass meets them: f is 4 and its `return` 5, g 6 and its `return` 7, h 8
    assert _quiet(SOURCE, RULES) == {0, 2, 5, 7, 8}  # `import os`, the os.path line, the returns in f and g, h
    assert _quiet(SOURCE, (*RULES, UNWORDED[0])) == set()  # a rule without WORDS sees every statement


NESTED = """import tensorflow as tf


def model(x):
    y = x * 2
    z = tf.zeros([2])
    if y:
        w = 3; v = tf.ones([w])
        return w
    else: u = 4; t = tf.ones([u])
    return y
"""


def test_a_statement_inside_another_is_quiet_on_its_own_source():
    # import 0, model 1, y 2, z 3, if 4, the `w = 3; v = ...` line 5 (one statement line), return w 6,
    # return y 7: the else's one-line suite belongs to the `if`
    assert _quiet(NESTED, RULES) == {2, 6, 7}
    assert _migrate(NESTED, RULES) == _migrate(NESTED, UNWORDED)


def test_nothing_is_quiet_after_a_star_import_of_tensorflow():
    assert _quiet("from tensorflow import *\nx = Session()\n", RULES) == set()


def test_nothing_is_quiet_where_a_statement_starts_after_a_backslash_newline():
    # the ast says `b` starts on line 2; libcst's statement line starts on line 1 with `a = 1;`
    text = "import tensorflow as tf\nx = 1\na = 1; \\\nb = tf.Session()\n"
    assert _quiet(text, RULES) == set()
    assert _migrate(text, RULES) == _migrate(text, UNWORDED)


# Statements a rule acts on although their source lacks the rule's words and the names the module
# binds to TensorFlow as plain words: each must still be visited.
ACTED_ON = {
    "a form feed line (Python's tokenizer ends no line there)": "import tensorflow as tf\nx = 1\n\x0c\ny = tf.Session()\n",
    "tf_slim under an alias": "import tf_slim as s\n\n\ndef main(op):\n    s.learning.train(op, '/tmp')\n",
    "compat.slim under an alias": "import compat.slim as cs\n\n\ndef main(op):\n    cs.learning.train(op, '/tmp')\n",
    "tensorflow_estimator under an alias": "import tensorflow_estimator as tfe\n\nmodel = tfe.estimator.Estimator(fn)\n",
    "urllib under an alias": "import urllib as u\n\nu.urlretrieve(url, path)\n",
    "TF_CONFIG spelled with escapes": (
        "import json\nimport os\n\n"
        'if "TF_\\x43ONFIG" in os.environ:\n'
        '    config = json.loads(os.environ["TF_\\x43ONFIG"])\n'
        '    config["cluster"]["chief"] = config["cluster"].pop("master")\n'
        '    os.environ["TF_\\x43ONFIG"] = json.dumps(config)\n'
    ),
    "TF_CONFIG split by a backslash-newline in a string": (
        "import json\nimport os\n\n"
        'if "TF_\\\nCONFIG" in os.environ:\n'
        '    config = json.loads(os.environ["TF_\\\nCONFIG"])\n'
        '    config["cluster"]["chief"] = config["cluster"].pop("master")\n'
        '    os.environ["TF_\\\nCONFIG"] = json.dumps(config)\n'
    ),
    # the ast (and so the module's table) reads identifiers NFKC-normalised, libcst as written
    "a fullwidth alias where scopes decide": (
        "import tensorflow as \uff54\uff46\n\n\ndef f(tf):\n    return tf\n\n\nx = \uff54\uff46.Session()\n"
    ),
}


def test_statements_acted_on_without_a_plain_word_are_visited():
    for case, text in ACTED_ON.items():
        full = _migrate(text, UNWORDED)
        assert full != (text, []), case  # some rule acts on it
        assert _migrate(text, RULES) == full, case


def test_the_module_moving_rules_move_only_names_of_watched_packages():
    # they declare no words: what they move must be bound to TensorFlow, the platform SDK or their ROOTS
    for rule in RULES:
        if issubclass(rule, ModuleMoveRule):
            roots = {name.partition(".")[0] for name in (*rule.MOVES, *rule.PACKAGES)}
            assert roots <= _names.WATCHED_ROOTS | rule.ROOTS, rule.ID


_IMPORTS = st.sampled_from(
    [
        "import tensorflow as tf",
        "import tensorflow as \uff54\uff46",
        "import tensorflow.contrib.slim as slim",
        "from tensorflow.contrib import slim",
        "from tensorflow import layers",
        "import tf_slim as s",
        "import compat.slim as cs",
        "import tensorflow_estimator as tfe",
        "import urllib as u",
        "import cPickle as pk",
        "from uaitrain.arch.tensorflow import uflag",
        "import numpy as np",
    ]
)
_STATEMENTS = st.sampled_from(
    [
        "tf = tf.compat.v1",
        "tf = None",
        "del tf",
        "x = tf.Session()",
        "y = \uff54\uff46.placeholder(np.float32)",
        "def f(tf):\n    return tf.log(1)",
        "def g(op):\n    s.learning.train(op, '/tmp')",
        "cs.learning.train(op, '/tmp')",
        "e = tfe.estimator.Estimator(fn)",
        "u.urlretrieve(a, b)",
        "for i in xrange(3):\n    pass",
        "v = d.iteritems()",
        "n = x.shape[0].value",
        "h = np.zeros(3)  # a comment",
        "\x0c",
        "w = slim.fully_connected(h, 3)",
        "net = layers.dense(h, 3)",
        "flags = uflag.flags",
        "with tf.device(lambda op: '/cpu:0'):\n    pass",
        'if "TF_\\x43ONFIG" in os.environ:\n    c = json.loads(os.environ["TF_\\x43ONFIG"])\n'
        '    c["chief"] = c.pop("master")\n    os.environ["TF_\\x43ONFIG"] = json.dumps(c)',
        "class A:\n    def g(self):\n        return tf.train.Saver()",
        "if __name__ == '__main__':\n    g()",
        "z = (1 +\n     2)",
        "def k(a):\n    b = a; c = tf.zeros([1])\n    return b",
        "def m(a):\n    b = a\n    if b: c = 1; d = tf.ones([c])\n    return b",
        "try:\n    import numpy\nexcept ImportError:\n    pass\nelse:\n    q = tf.Session()\nfinally:\n    r = 1",
        "for i in range(2):\n    pass\nelse:\n    tf.Session()",
        "while False:\n    x = 1\n    if x:\n        pass\n    elif tf:\n        p = 2",
        "with open(f) as handle:\n    data = handle.read()\n    t = tf.constant(data)",
        "a = 1; \\\nb = tf.Session()",
        "match p:\n    case 1:\n        x = 1\n    case _:\n        tf.Session()",
        "@tf.function\ndef n(a):\n    return a",
    ]
)


@settings(max_examples=100, deadline=None)
@given(st.lists(_IMPORTS, max_size=5, unique=True), st.lists(_STATEMENTS, min_size=1, max_size=6))
def test_families_of_modules_migrate_the_same_with_their_quiet_statements_skipped(imports, statements):
    text = "\n".join([*imports, *statements]) + "\n"
    assert _migrate(text, RULES) == _migrate(text, UNWORDED)
