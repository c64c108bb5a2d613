"""When a file's TensorFlow code runs eagerly, for the native rules that rewrite eager-only TF1 names
(codemods/rules/native_optimizer.py): what they prove before they touch a file.

A file is proven eager when it has no graph-mode code (no Session, placeholder, queue runner, Estimator,
tf.Graph or switch turning eager execution off: its code then runs as TF 2 runs it, eagerly or inside a
tf.function / Keras `fit`) and it is a program: it runs itself (a main block or TensorFlow calls at its
top level) or turns eager execution on as TF 1.x eager programs did. A library module (functions only)
is not proven: the program importing it may call it in a graph.
"""

from __future__ import annotations

from collections.abc import Container, Iterable

import libcst as cst

from codemods.rules import _tf
from codemods.rules._native_graph import descendants
from codemods.rules._shared import graph_names

_BOTH = ("", "compat.v1.")
# besides graph_names(): what builds or enters a graph, or turns eager execution off
_GRAPH = frozenset(
    f"tensorflow.{p}{n}"
    for n in (
        "Graph",
        "get_default_graph",
        "reset_default_graph",
        "wrap_function",
        "disable_eager_execution",
        "disable_v2_behavior",
        "graph_util.import_graph_def",
        "import_graph_def",
    )
    for p in _BOTH
)
_GRAPH_PREFIXES = tuple(f"tensorflow.{p}{n}" for n in ("estimator.", "contrib.learn.", "tpu.") for p in _BOTH)
EAGER_SWITCHES = frozenset(
    f"tensorflow.{p}{n}" for n in ("enable_eager_execution", "enable_v2_behavior") for p in _BOTH
)


class EagerFile:
    """What a native rule learns of a file in the pass (the TensorFlow calls), and the proof it asks for."""

    def __init__(self) -> None:
        self.graph: str | None = None  # the first graph-mode name the file calls
        self.switched_on = False  # tf.enable_eager_execution() / enable_v2_behavior()

    def call(self, names: Iterable[str]) -> None:
        """A TensorFlow call the pass met (`names`: what its function is)."""
        found = frozenset(names)
        if self.graph is None:
            graph = found & (graph_names() | _GRAPH) or {n for n in found if n.startswith(_GRAPH_PREFIXES)}
            if graph:
                self.graph = "tf." + (_tf.tf_path(min(graph)) or min(graph))
        self.switched_on |= bool(found & EAGER_SWITCHES)

    def why_not(self, module: cst.Module, tf_calls: Container[int]) -> str | None:
        """None when the file is proven eager, else why not (for the info entry). `tf_calls`: the ids of
        the module's TensorFlow calls."""
        if self.graph is not None:
            return f"the file has graph-mode code ({self.graph}): its TensorFlow code runs in a graph"
        runs = self.switched_on or any(map(_is_main_guard, module.body))
        if not (runs or any(id(call) in tf_calls for call in _top_level_calls(module))):
            return "a library module (no main block, no TensorFlow call at its top level): its callers may run it in a graph"
        return None


def _top_level_calls(module: cst.Module) -> list[cst.Call]:
    """The calls that run when the module is imported: outside functions, classes and lambdas."""
    found: list[cst.Call] = []

    class Calls(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if isinstance(node, cst.Call):
                found.append(node)
            return not isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda))

    module.visit(Calls())
    return found


def _is_main_guard(stmt: cst.CSTNode) -> bool:
    if not isinstance(stmt, cst.If) or not isinstance(stmt.test, cst.Comparison):
        return False
    parts = [stmt.test.left, *(c.comparator for c in stmt.test.comparisons)]
    return {p.value if isinstance(p, cst.Name) else getattr(p, "evaluated_value", None) for p in parts} == {
        "__name__",
        "__main__",
    }


def parents(module: cst.Module) -> dict[int, cst.CSTNode]:
    """id(node) -> its parent, for every node of `module`."""
    found: dict[int, cst.CSTNode] = {}
    for node in descendants(module):
        for child in node.children:
            found[id(child)] = node
    return found
