"""Is a file TF 2 code, whose TensorFlow names uai-migrate must not read as TF1's?

The tf1-api rule reads every `tf.X` as TF1's name: `tf.summary.scalar`, `tf.Variable`, `tf.train.Checkpoint` become
`tf.compat.v1.*`, which is right in a TF1 program and breaks TF 2 code (`tf.compat.v1.summary.scalar` takes no
`step`). A file is TF 2 code when it names something only TF 2 has (the tables' `v2_only`: no TF1 program could
name it) or calls a summary op with TF 2's `step=`, and names nothing TF 2's `tf` lacks (the tables' `v1_only`
and `moved` names, `tf.contrib`). codemods/_migrate_file.py then runs the rules without tf1-api: what TF 2 code
may still need is done (compat's `tf.estimator`, an Estimator strategy's graph mode, NumPy's removed names), and a
native port, or a TF 2 module of a tree being migrated, keeps its names. A file of both is left to all the rules:
its TF1 names need them.
"""

import ast

from codemods import tables
from codemods.engine.names import bindings, dotted

TF = "tensorflow"
SUMMARIES = frozenset({"summary.scalar", "summary.histogram", "summary.image", "summary.audio", "summary.text"})


def _paths(tree: ast.Module) -> list[tuple[str, ast.AST]]:
    """(path below `tensorflow.`, node) for each TensorFlow name the module reads, through the names it binds
    to TensorFlow by import (`import tensorflow as tf`, `from tensorflow import summary`)."""
    bound = {name: qualified for name, qualified in bindings(tree) if qualified and qualified.split(".")[0] == TF}
    # the imports name modules too (`from tensorflow.contrib import slim`)
    found: list[tuple[str, ast.AST]] = [(q[len(TF) + 1 :], tree) for q in bound.values() if q.startswith(TF + ".")]
    for node in ast.walk(tree):
        if isinstance(node, (ast.Attribute, ast.Name)) and isinstance(node.ctx, ast.Load):
            chain = dotted(node)
            head, _, rest = (chain or "").partition(".")
            if head in bound:
                full = ".".join(filter(None, (bound[head], rest)))
                if full.startswith(TF + "."):
                    found.append((full[len(TF) + 1 :], node))
    return found


def _tf1_only(path: str, api: dict) -> bool:
    return (
        path in api["v1_only"]
        or path in api["moved"]
        or path.split(".")[0] in api["v1_only_modules"]
        or path.startswith("contrib")
    )


def evidence(tree: ast.Module) -> tuple[str, int] | None:
    """(`tf.<name>` that makes the file TF 2 code: `tf.summary.create_file_writer`, `tf.summary.scalar(step=)`,
    its line), or None: it names nothing only TF 2 has, or also something TF 2's `tf` lacks."""
    api = tables.tf_api()
    paths = _paths(tree)
    if any(_tf1_only(path, api) for path, _ in paths):
        return None
    for path, node in paths:
        if path in api["v2_only"]:
            return f"tf.{path}", getattr(node, "lineno", 0)
    calls = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call) and _with_step(node)}
    for path, node in paths:
        if path in SUMMARIES and id(node) in calls:
            return f"tf.{path}(step=...)", getattr(node, "lineno", 0)
    return None


def _with_step(call: ast.Call) -> bool:
    return any(keyword.arg == "step" for keyword in call.keywords)
