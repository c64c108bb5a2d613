"""Report positions (from the ast, or libcst per statement) must equal libcst's whole-module ones."""

import ast
import os
import re

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.metadata import MetadataWrapper, PositionProvider

from codemods._apply import apply_rules, claims_of
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


def _check_against_libcst(source):
    """The entries of all rules on `source`, after checking their line:col against libcst's own."""
    module = cst.parse_module(source)
    context = CodemodContext()
    rules = [rule(context) for rule in RULES]
    applied = apply_rules(module, rules, claims_of(RULES))
    reference = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    state = rules[0].state
    expected = sorted((reference[node].start.line, reference[node].start.column + 1) for _, node, _ in state.reports)
    assert [(e.line, e.col) for e in applied.entries] == expected
    return applied.entries


def test_entry_positions_match_libcst_positions_on_the_whole_module():
    entries = _check_against_libcst(SOURCE)
    assert len(entries) == 5 and (entries[0].line, entries[0].col) == (6, 5)


TRICKY = """import tensorflow as tf
x = tf.placeholder(tf.float32); y = tf.placeholder(tf.int32)
label = "é"; z = tf.to_float(y)  # non-ASCII before a reported name: bytes vs characters
msg = f"{tf.placeholder}"


def body():
    a = tf.placeholder(tf.float32)
    b = (tf.placeholder)(tf.float32)
    c = tf.nn.dropout(a,
                      keep_prob=0.5)
    d = tf.nn.dropout(a, keep_prob=0.5) + tf.nn.dropout(b, keep_prob=0.5)
    with tf.Session() as session:
        return session.run([a, b, c, d])
"""


def test_repeated_names_parentheses_fstrings_non_ascii_and_continuation_lines():
    uses = re.compile(r"tf\.(placeholder|to_float|nn\.dropout|Session)")
    lines = {number for number, line in enumerate(TRICKY.splitlines(), 1) if uses.search(line)}
    for source in (TRICKY, TRICKY.replace("\n", "\r\n")):
        assert {entry.line for entry in _check_against_libcst(source)} == lines


def test_every_corpus_file_and_most_statements_positioned_from_the_ast(monkeypatch):
    from codemods import _positions
    from tests.codemods.corpus_runner import CORPUS

    statements = []
    real = _positions._from_libcst
    monkeypatch.setattr(
        _positions, "_from_libcst", lambda items, stmt, line: statements.append(stmt) or real(items, stmt, line)
    )
    checked = 0
    for root, _, files in os.walk(CORPUS):
        for name in sorted(f for f in files if f.endswith(".py")):
            with open(os.path.join(root, name), encoding="utf-8") as handle:
                source = handle.read()
            try:
                ast.parse(source)
            except SyntaxError:
                continue  # the Python 2 scripts: the engine ports them before any rule runs
            checked += len(_check_against_libcst(source))
    assert checked > 200
    # the fast path does the bulk: libcst positions only the statements it cannot
    assert len(statements) < checked / 10, len(statements)
