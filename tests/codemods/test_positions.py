"""Report positions (from the ast, or libcst's code generation per statement) must equal libcst's whole-module ones."""

import ast
import os
import re

import libcst as cst
from hypothesis import example, given, settings
from hypothesis import strategies as st
from libcst.metadata import MetadataWrapper, PositionProvider

from codemods.engine.apply import apply_rules, claims_of
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


def _check_against_libcst(source, monkeypatch=None):
    """The entries of all rules on `source`, after checking their line:col against libcst's own.

    With `monkeypatch`, the engine must position them without libcst's PositionProvider."""
    module = cst.parse_module(source)
    rules = [rule() for rule in RULES]
    if monkeypatch is not None:
        with monkeypatch.context() as patched:
            patched.setattr(PositionProvider, "_gen_impl", _no_position_provider)
            applied = apply_rules(module, rules, claims_of(RULES))
    else:
        applied = apply_rules(module, rules, claims_of(RULES))
    reference = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    state = rules[0].state
    expected = sorted((reference[node].start.line, reference[node].start.column + 1) for _, node, _ in state.reports)
    assert [(e.line, e.col) for e in applied.entries] == expected
    return applied.entries


def _no_position_provider(provider, module):
    raise AssertionError("libcst's PositionProvider used")


def test_entry_positions_match_libcst_positions_on_the_whole_module():
    entries = _check_against_libcst(SOURCE)
    # every rule runs here, the native ones too: native-estimator names the file's Estimator program once
    assert [e.rule for e in entries] == [
        "contrib-removed",
        "contrib-slim",
        "tf-flags",
        "contrib-equivalents",
        "native-estimator",
        "tf-flags",
    ]
    assert (entries[0].line, entries[0].col) == (6, 5)


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
    from bench.corpus import CORPUS
    from codemods.engine import positions as _positions

    statements = []
    real = _positions._from_codegen
    monkeypatch.setattr(
        _positions,
        "_from_codegen",
        lambda items, module, stmt, line: statements.append(stmt) or real(items, module, stmt, line),
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
    # the fast path does the bulk: code generation positions only the statements it cannot
    assert len(statements) < checked / 10, len(statements)


# One class statement where the same text is reported with different entries (graph-mode's first
# use also gets tf1-api's entry) and once not at all (a shadowing parameter): the ast alone cannot
# tell which occurrence is which.
AMBIGUOUS = """import tensorflow as tf


class Model:
    @tf.contrib.framework.add_arg_scope
    def build(self):
        a = tf.placeholder(tf.float32)
        b = (tf.placeholder)(
            tf.float32)
        return a, b

    def wrap(self, tf):
        return tf.placeholder

    def again(self):
        \x0c
        return [tf.placeholder(tf.int32) for _ in "\u00e9"]
"""


def test_ambiguous_names_positioned_without_libcsts_position_provider(monkeypatch):
    # line endings and indentation other than the defaults of a new libcst Module
    for newline in ("\n", "\r\n", "\r"):
        for indent in ("    ", "  ", "\t"):
            source = AMBIGUOUS.replace("    ", indent).replace("\n", newline)
            entries = _check_against_libcst(source, monkeypatch)
            assert [e.line for e in entries] == [5, 7, 7, 8, 17], source


_CLASS_LINES = st.sampled_from(
    [
        "a = tf.placeholder(tf.float32)",
        "b = (tf.placeholder)(\n    tf.float32)",
        "def wrap(self, tf):\n    return tf.placeholder",
        "@tf.contrib.framework.add_arg_scope\ndef f(self):\n    return tf.Session()",
        "c = tf.nn.dropout(a, keep_prob=0.5)",
        "d = tf.nn.dropout(a, 0.5)",
        "s = tf.Session()  # a comment",
        "if x:\n    e = [tf.placeholder(tf.int32) for _ in 'é']",
        "g = f'{tf.placeholder}'",
        "h = tf.to_float(x); i = tf.to_float(x)",
        "with tf.Session() as s:\n    pass",
        "import tensorflow.contrib.slim as slim",
        "\x0c",
        "",
    ]
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(_CLASS_LINES, min_size=1, max_size=6),
    st.sampled_from(["    ", "  ", "\t"]),
    st.sampled_from(["\n", "\r\n", "\r"]),
)
# the reported name is in the f-string, which the ast's positions leave out; the other is not reported
@example(["def wrap(self, tf):\n    return tf.placeholder", "g = f'{tf.placeholder}'"], "    ", "\n")
def test_families_of_repeated_names_in_one_class_positioned_as_libcst_positions_them(lines, indent, newline):
    body = "\n".join(["x = 1", *lines]).split("\n")
    source = "import tensorflow as tf\n\n\nclass Model:\n" + "".join(f"{indent}{line}\n" for line in body)
    _check_against_libcst(source.replace("\n", newline))
