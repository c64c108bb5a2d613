"""Skipping the top-level statements no rule can act on (Rule.WORDS) must not change any migration."""

import ast

import libcst as cst
from libcst.codemod import CodemodContext

from codemods import _names
from codemods._apply import _quiet_statements, apply_rules, claims_of
from codemods.rules import RULES, py2
from tests.codemods.test_engine_imports import _sources

# The words the rules act on besides the names bound to TensorFlow or the platform SDK, read from
# their code, for rules that do not declare WORDS yet; a rule in neither keeps every statement seen.
PROPOSED = {
    "py2-port": frozenset({"xrange", "iteritems", "itervalues", "iterkeys", "urllib", *py2.MODULES}),
    "tf-config": frozenset({"TF_CONFIG"}),
    "tf-dimension-value": frozenset({"value"}),
    **{
        rule_id: frozenset()
        for rule_id in (
            "tf-flags",
            "uai-sdk",
            "contrib-slim",
            "contrib-equivalents",
            "tf-private",
            "tf-estimator",
            "tf-device",
            "tf-layers",
            "tf1-api",
            "graph-mode",
            "contrib-removed",
            "tf-upgrade",
        )
    },
}
WORDED = tuple(
    type(rule.__name__, (rule,), {"WORDS": PROPOSED.get(rule.ID)}) if rule.WORDS is None else rule for rule in RULES
)


def _migrate(text, rules):
    module = cst.parse_module(text)
    applied = apply_rules(module, [rule(CodemodContext()) for rule in rules], claims_of(rules))
    return applied.module.code, [(e.rule, e.message, e.line, e.col) for e in applied.entries]


def _quiet(text, rules):
    tree = ast.parse(text)
    return _quiet_statements([rule(CodemodContext()) for rule in rules], _names.scan([tree]), tree, text)


def test_the_corpus_migrates_the_same_with_its_quiet_statements_skipped():
    for path, text in _sources():
        assert _migrate(text, WORDED) == _migrate(text, RULES), path


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
    assert _quiet(SOURCE, WORDED) == {0, 2, 6}  # `import os`, the os.path line, h
    unworded = type("Unworded", (RULES[0],), {"WORDS": None})
    assert _quiet(SOURCE, (*WORDED, unworded)) == frozenset()  # a rule without WORDS sees every statement


def test_nothing_is_quiet_after_a_star_import_of_tensorflow():
    assert _quiet("from tensorflow import *\nx = Session()\n", WORDED) == frozenset()
