"""No rewrite reads a name above the line that binds it, whichever rules rewrite the lines: module-level
aliases of TF1 modules (`slim = tf.contrib.slim`, `flags = tf.app.flags`, ...) and the lines reading them, in
every order a program can have them, through all the safe rules. (A rule that rewrites an alias into an
import, or a read into another alias's name, must not move a read above its binding: `NameError` at import.)"""

import ast

from hypothesis import given, settings
from hypothesis import strategies as st

from codemods._migrate_file import Options, migrate_python
from tests.support.sources import reads_before_bound

# Lines binding a TF1 module or name to an alias, and lines reading those aliases (each rule that writes
# aliases or imports has its lines here: contrib-slim, tf-layers, tf-flags, tf-estimator, the platform SDK...).
LINES = [
    "slim = tf.contrib.slim",
    "import tensorflow.contrib.slim as slim",
    "from tensorflow.contrib import slim",
    "arg_scope = tf.contrib.framework.arg_scope",
    "layer = slim.conv2d",
    "layers = tf.contrib.layers",
    "from tensorflow.contrib import layers",
    "fc = layers.fully_connected",
    "flags = tf.app.flags",
    "FLAGS = flags.FLAGS",
    "flags.DEFINE_integer('steps', 3, 'training steps')",
    "FLAGS = tf.app.flags.FLAGS",
    "learn = tf.contrib.learn",
    "keys = learn.ModeKeys",
    "logging = tf.logging",
    "logging.set_verbosity(logging.INFO)",
    "estimator = tf.estimator",
    "spec = estimator.EstimatorSpec",
    "from uaitrain.arch.tensorflow import uflag",
    "uflag.DEFINE_string('data_dir', '', 'input')",
    "def net(x):\n    return arg_scope([slim.conv2d, layers.fully_connected])",
]


def _names(line: str, ctx: type) -> set[str]:
    tree = ast.parse(line)
    found = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ctx)}
    if ctx is ast.Store:
        found |= {
            a.asname or a.name.split(".")[0]
            for n in ast.walk(tree)
            if isinstance(n, ast.Import | ast.ImportFrom)
            for a in n.names
        }
    return found


def _program(order: list[int]) -> str:
    """The lines in `order`, each kept only if every alias it reads at module level is bound above it."""
    aliases = set().union(*(_names(line, ast.Store) for line in LINES))
    bound, kept = {"tf"}, []
    for index in order:
        line = LINES[index]
        reads = set() if line.startswith("def ") else _names(line, ast.Load) & aliases
        if reads <= bound:
            kept.append(line)
            bound |= _names(line, ast.Store)
    return "import tensorflow as tf\n\n" + "\n".join(kept) + "\n"


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, len(LINES) - 1), min_size=1, max_size=9, unique=True))
def test_no_rewrite_of_any_rule_reads_a_name_above_the_line_that_binds_it(order):
    source = _program(order)
    assert reads_before_bound(source) == []  # the program as written is fine
    outcome = migrate_python(source.encode(), Options())
    code = outcome.new.decode() if outcome.new is not None else source
    assert reads_before_bound(code) == [], f"{source}\n---\n{code}"
