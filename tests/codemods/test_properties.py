"""Engine properties: sources without TensorFlow come out byte-identical; reused rules carry no state between files."""

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codemods._migrate_file import Options, migrate, migrate_python

NAMES = st.sampled_from(["tf", "flags", "slim", "app", "tensorflow", "contrib", "x", "uflag"])
MODULES = st.sampled_from(["os", "json", "myproject.tensorflow_utils", "numpy", "tensorflow_like", "uaitrain_lib"])
# Text that passes the cheap pre-filter, so the full libcst pass runs on these files too.
MENTIONS = st.sampled_from(
    [
        "tf.app.flags.DEFINE_integer('n', 1, '')",
        "import tensorflow.contrib.slim as slim",
        "from uaitrain.arch.tensorflow import uflag",
        "tf.contrib.layers.conv2d",
    ]
)


@st.composite
def statements(draw, depth=0):
    name, other = draw(NAMES), draw(NAMES)
    filler = draw(st.text("ab \t", max_size=5))
    simple = [
        f"{name} = {other}",
        f"import {draw(MODULES)} as {name}",
        f"{name}.app.flags.DEFINE_integer('steps', {draw(st.integers(0, 99))}, 'doc')",
        f"{name} = {other}.contrib.slim.conv2d({name}, 3)",
        f"{name}.app.run()",
        f"# {draw(MENTIONS)}",
        f"{name} = {draw(MENTIONS)!r}",
        f"{name} = '''{draw(MENTIONS)}\n{filler}'''",
        f"{name} = [{other},  {other}]  # {draw(MENTIONS)}",
    ]
    line = draw(st.sampled_from(simple))
    if depth < 2 and draw(st.booleans()):
        indent = draw(st.sampled_from(["    ", "\t", "  "]))
        body = draw(st.lists(statements(depth + 1), min_size=1, max_size=3))
        head = draw(
            st.sampled_from(
                [
                    f"def {name}({other}):",
                    f"class {name.upper()}:",
                    f"for {name} in {other}:",
                    f"if {name}:",
                    f"with {other} as {name}:",
                ]
            )
        )
        inner = "".join(indent + part for stmt in ["pass\n", *body] for part in stmt.splitlines(keepends=True))
        return f"{head}\n{inner}"
    return line + draw(st.sampled_from(["", "  ", "\t"])) + "\n"


@st.composite
def sources(draw):
    text = "".join(draw(st.lists(statements(), min_size=1, max_size=12)))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    text = text.replace("\n", newline)
    if draw(st.booleans()):
        text = text.rstrip("\r\n")  # no final newline
    prefix = draw(st.sampled_from([b"", b"\xef\xbb\xbf", b"# -*- coding: latin-1 -*-\n"]))
    return prefix + text.encode("latin-1" if b"latin-1" in prefix else "utf-8")


@settings(max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(sources())
def test_sources_without_tensorflow_come_out_byte_identical(data):
    for level in ("safe", "native"):
        outcome = migrate_python(data, Options(level=level))
        assert outcome.new is None
        assert not outcome.skipped, outcome.entries
        assert outcome.entries == []


def test_a_file_migrates_the_same_whichever_files_were_migrated_before_it():
    # A worker builds each file's rules afresh, but the rule classes and the engine's caches (claims,
    # tables, node types) serve every file: every file of the corpus must come out the same in either order.
    from bench.corpus import CORPUS

    sources = []
    for root, _, files in os.walk(CORPUS):
        sources += [os.path.join(root, name) for name in sorted(files) if name.endswith(".py")]
    assert len(sources) >= 30
    reused = {}
    for path in sources:
        with open(path, "rb") as handle:
            reused[path] = migrate_python(handle.read(), Options())
    for path in reversed(sources):
        with open(path, "rb") as handle:
            assert migrate_python(handle.read(), Options()) == reused[path], path


def _fixture_files():
    from bench.corpus import CORPUS, REPO

    found = []
    for folder in (CORPUS, os.path.join(REPO, "samples")):
        for root, _, files in os.walk(folder):
            found += [os.path.join(root, n) for n in sorted(files) if n.endswith((".py", ".ipynb"))]
    return sorted(found)


FIXTURES = _fixture_files()


@pytest.mark.parametrize("path", FIXTURES, ids=[os.path.basename(p) for p in FIXTURES])
def test_migrating_a_migrated_file_changes_nothing(path):
    kind = "notebook" if path.endswith(".ipynb") else "python"
    with open(path, "rb") as handle:
        data = handle.read()
    once = migrate(kind, data, Options()).new or data
    again = migrate(kind, once, Options())
    assert again.new is None, [e.message for e in again.entries if e.severity == "info"][:20]


def _tf1_names():
    from codemods import tables
    from codemods.rules import _tf

    api, upgrade = _tf.api(), tables.tf_upgrade()
    private = sorted(f"{module}.{name}" for module, names in api["private"].items() for name in names)
    # with the names of tf_upgrade_v2's tables, the contrib homes and the 0.x names, whose targets other
    # rules may read again
    public = sorted(
        {
            *api["moved"],
            *api["v1_only"],
            *api["differs"],
            *upgrade["renames"],
            *upgrade["contrib"],
            *upgrade["renames"].values(),
            *tables.pre_1_0(),
        }
    )
    return private, public


PRIVATE_NAMES, TF_PATHS = _tf1_names()
CALLS = st.sampled_from(["", "()", "(x)", "(x, 1)", "(x, keep_dims=True)", "(x, axis=1)", "(x, name='n')", "(*args)"])


@st.composite
def tf1_sources(draw):
    """TF1 scripts made of names the rules rewrite: private imports, tf.* names of every kind, calls."""
    lines = ["import tensorflow as tf"]
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.booleans()):
            module, _, name = draw(st.sampled_from(PRIVATE_NAMES)).rpartition(".")
            parent, _, leaf = module.rpartition(".")
            lines.insert(1, f"from {parent} import {leaf}")
            use = f"{leaf}.{name}"
        else:
            use = f"tf.{draw(st.sampled_from(TF_PATHS))}"
        lines.append(f"y = {use}{draw(CALLS)}")
    if draw(st.booleans()):
        lines = [
            *lines[:1],
            "def main(_):",
            *("    " + line for line in lines[1:] if not line.startswith("from")),
            *(line for line in lines[1:] if line.startswith("from")),
        ]
    return "\n".join(lines) + "\n"


@settings(max_examples=100, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(tf1_sources())
def test_migrating_twice_is_migrating_once(source):
    once = migrate_python(source.encode(), Options()).new or source.encode()
    again = migrate_python(once, Options())
    assert again.new is None, (once.decode(), again.new)


@pytest.mark.parametrize("rebinding", ['tf = __import__("numpy")', "del tf\nimport numpy as tf", "import numpy as tf"])
def test_a_tf_name_re_bound_to_something_else_gets_no_tensorflow_renames_after_it(rebinding):
    source = f"import tensorflow as tf\nx = tf.log(2.0)\n{rebinding}\ny = tf.log(2.0)\n"
    outcome = migrate_python(source.encode(), Options())
    new = outcome.new.decode()
    assert new.startswith("import tensorflow as tf\nx = tf.math.log(2.0)\n") and new.endswith("\ny = tf.log(2.0)\n"), (
        new
    )
    [warning] = [e for e in outcome.entries if e.severity == "warning"]
    assert warning.line == 3 and "re-bound" in warning.message


def test_a_tf_name_only_read_or_bound_inside_a_function_keeps_its_renames():
    source = "import tensorflow as tf\nd = {}\nd[tf] = 1\n\ndef f(tf):\n    return tf\ny = tf.log(2.0)\ntf = tf\nz = tf.log(1.0)\n"
    new = migrate_python(source.encode(), Options()).new.decode()
    assert new.count("tf.math.log(") == 2, new


def test_from_tensorflow_import_star_is_converted_not_silent():
    source = (
        "from tensorflow import *\nx = placeholder(float32, [None])\nwith Session() as s:\n    s.run(x, {x: [1.0]})\n"
    )
    outcome = migrate_python(source.encode(), Options())
    assert outcome.new is not None, outcome.entries
    new = outcome.new.decode()
    assert "from tensorflow.compat.v1 import *" in new and "disable_eager_execution()" in new
    assert migrate_python(outcome.new, Options()).new is None


def test_a_tf_name_re_bound_to_tf_compat_v1_means_tf_compat_v1_after_it():
    source = "import tensorflow as tf\ntf = tf.compat.v1\nx = tf.placeholder(tf.float32)\nwith tf.Session() as s:\n    pass\n"
    new = migrate_python(source.encode(), Options()).new.decode()
    assert new == "import compat\n" + source.replace(  # (compat: graph-mode's, TF 1.15's op seeds)
        "tf = tf.compat.v1\n",
        "tf = tf.compat.v1\ntf.disable_eager_execution()\ntf.disable_resource_variables()\ntf.disable_control_flow_v2()\n",
    ), new
