"""Report positions come from per-statement positioning: they must equal libcst's whole-module ones."""

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.metadata import MetadataWrapper, PositionProvider

from codemods._apply import apply_rules
from codemods.rules import RULES

SOURCE = '''"""doc"""  # comment
import tensorflow as tf; import os

# a comment before a decorated function
@decorator(
    tf.contrib.layers)
def f(x):
    x = (1,
         2); y = tf.contrib.framework.arg_scope
    return tf.app.flags.FLAGS


class C:
    z = tf.contrib.learn.RunConfig()
tf.app.run()
'''


def test_entry_positions_match_libcst_positions_on_the_whole_module():
    module = cst.parse_module(SOURCE)
    context = CodemodContext()
    rules = [rule(context) for rule in RULES]
    applied = apply_rules(module, rules)
    reference = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    state = rules[0].state
    expected = sorted((reference[node].start.line, reference[node].start.column + 1) for _, node, _ in state.reports)
    assert [(e.line, e.col) for e in applied.entries] == expected
    assert len(expected) == 5 and expected[0] == (6, 5)
