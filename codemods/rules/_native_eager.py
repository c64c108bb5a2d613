"""When a file's TensorFlow code runs eagerly, for the native rules that rewrite eager-only TF1 names
(codemods/rules/native_optimizer.py): what they prove before they touch a file.

A file is proven eager when it has no graph-mode code (no Session, placeholder, queue runner, Estimator,
tf.Graph or switch turning eager execution off: its code then runs as TF 2 runs it, eagerly or inside a
tf.function / Keras `fit`) and it is a program: it runs itself (a main block or TensorFlow calls at its
top level) or turns eager execution on as TF 1.x eager programs did. A library module (functions only)
is not proven: the program importing it may call it in a graph.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Sequence
from typing import cast

import libcst as cst

from codemods.engine import tree
from codemods.engine.rule import FileState, Rule
from codemods.rules import _tf
from codemods.rules._native_syntax import Refused, descendants, leading
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
        "keras.backend.get_session",
        "keras.backend.set_session",
    )
    for p in _BOTH
)
# the Estimator family (its model_fn and input_fn run in the graph it builds), named anywhere in the file
_ESTIMATORS = ("estimator", "contrib.learn", "contrib.tpu", "contrib.estimator", "tpu", "contrib.slim")
_GRAPH_PREFIXES = (
    *(f"tensorflow.{p}{n}" for n in _ESTIMATORS for p in _BOTH),
    "tensorflow_estimator",
    "tf_slim",
)
_FAMILY_WORDS = frozenset(n.split(".")[-1] for n in _ESTIMATORS)
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
            self.graph = _graph(found)
        self.switched_on |= bool(found & EAGER_SWITCHES)

    def name(self, names: Iterable[str]) -> None:
        """A name the file reads or imports (`tf.estimator.ModeKeys.TRAIN`): the Estimator family's count too."""
        if self.graph is None:
            self.graph = _graph(frozenset(names))

    def why_not(self, module: cst.Module, tf_calls: Container[int], graph: bool = False) -> str | None:
        """None when the file is proven eager, else why not (for the info entry). `tf_calls`: the ids of
        the module's TensorFlow calls; `graph`: graph-mode code is allowed (the file need only be a program)."""
        if self.graph is not None and not graph:
            return f"the file has graph-mode code ({self.graph}): its TensorFlow code runs in a graph"
        runs = self.switched_on or any(map(is_main_guard, module.body))
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


def _graph(names: frozenset[str]) -> str | None:
    """How the report names the first graph-mode name of `names` (None: none is)."""
    graph = sorted(n for n in names if n in graph_names() or n in _GRAPH or _tf.under(n, _GRAPH_PREFIXES))
    if not graph:
        return None
    return "tf." + (_tf.tf_path(graph[0]) or "") if graph[0].startswith("tensorflow.") else graph[0]


def is_main_guard(stmt: cst.CSTNode) -> bool:
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


class EagerRewrite(Rule):
    """A native rule rewriting TensorFlow calls in a file proven eager (a class with no ID: not a rule itself).

    A subclass says which calls it reads (`candidate`) and what each becomes (`convert`: an expression, or
    None to delete the statement the call is); the pass records the calls, and once the whole file is
    known the calls are converted, or each left with an info entry saying why (`Refused`). A rule whose
    rewrite builds the same ops in a graph too sets GRAPH: the file is not proven eager, and the rule proves
    what it needs of the file itself (in `convert`).
    """

    GRAPH = False

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._eager = EagerFile()
        for name in state.table.imported.values():  # `from tensorflow.contrib import tpu` ...
            self._eager.name(name)
        self._found: list[tuple[cst.Call, str, int]] = []  # (original call, what it is, top-level statement)
        self._found_ids: set[int] = set()
        self._updated: dict[int, cst.Call] = {}  # id(original call) -> as the pass left it
        self._tf_calls: dict[int, cst.Call] = {}  # every TensorFlow call: id -> call
        # id(a call of the module the pass left) -> its replacement and the statements written after its line
        self._edits: dict[int, tuple[cst.BaseExpression, list[cst.BaseStatement]]] = {}

    def candidate(self, names: frozenset[str]) -> str | None:
        """What a TensorFlow call of one of `names` is, for the report, if the rule reads it (else None)."""
        raise NotImplementedError

    def convert(
        self, call: cst.Call, what: str, updated: cst.Call, module: cst.Module, parent: dict[int, cst.CSTNode]
    ) -> tuple[cst.BaseExpression | None, str]:
        """(the call's replacement, None: delete its statement; the report's entry, "": nothing to convert), or
        Refused."""
        raise NotImplementedError

    def visit_Call(self, node: cst.Call) -> None:
        names = frozenset(n for n in self.qualified_names(node.func) if n.startswith(_tf.TF))
        if not names:
            return
        self._tf_calls[id(node)] = node
        self._eager.call(names)
        what = self.candidate(names)
        if what is not None:
            self._found.append((node, what, self.state.top))
            self._found_ids.add(id(node))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value in _FAMILY_WORDS:  # (the Estimator family's modules: the rest are calls)
            self._eager.name(self.qualified_names(node))

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if id(original_node) in self._found_ids:
            self._updated[id(original_node)] = updated_node
        return updated_node

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if self.level != "native" or not self._found:
            return updated_node
        present = {id(n) for n in descendants(updated_node)}
        why = None if self.GRAPH else self._eager.why_not(original_node, self._tf_calls)
        if why is None and not self.GRAPH:
            self.state.signals.add(tree.EAGER_PROGRAM)  # (whatever the tree tells: Facts are the bytes')
            importers = self.state.tree.importers if self.state.tree else ()
            if importers:
                why = (
                    f"the tree's {', '.join(importers)} import{'s' * (len(importers) == 1)} this module: its code may "
                    "run there in a graph"
                )
        parent = parents(original_node) if why is None else {}
        replaced: dict[int, cst.BaseExpression | None] = {}
        converted: list[cst.Call] = []
        for call, what, top in self._found:
            updated = self._updated.get(id(call))
            if updated is None or id(updated) not in present:
                continue  # a later rule wrote it anew (native-session, converting a Session script)
            try:
                if why is not None:
                    raise Refused(call, why)
                replacement, said = self.convert(call, what, updated, original_node, parent)
            except Refused as refused:
                self.report(call, f"{what} left at the safe level: {refused.why}", native=True, statement=top)
                continue
            if not said:
                continue  # (nothing to convert: already TF 2's)
            replaced[id(updated)] = replacement
            converted.append(call)
            self.report(call, said, native=True, statement=top)
        if not converted:
            return updated_node
        inside = {id(n) for call in converted for n in descendants(call)}
        self.state.reports[:] = [  # tf1-api's entries for the names rewritten again here
            (top, node, entry)
            for top, node, entry in self.state.reports
            if not (id(node) in inside and entry.rule != self.ID and "compat.v1" in entry.message)
        ]
        # (only the paths down to the edited calls are rebuilt: the other rules' nodes keep their identity)
        targets = [id(n) for n in descendants(updated_node) if id(n) in replaced or id(n) in self._edits]
        above = parents(updated_node)
        path: set[int] = set()
        for key in targets:
            while key not in path:
                path.add(key)
                if key not in above:
                    break  # (the module)
                key = id(above[key])
        return cast(cst.Module, updated_node.visit(_Replace(replaced, self._edits, path)))


class _Replace(cst.CSTTransformer):
    """Each call by its replacement; the statement of a call replaced by None deleted (its blank lines and
    comments kept, above the next statement)."""

    def __init__(
        self,
        replaced: dict[int, cst.BaseExpression | None],
        edits: dict[int, tuple[cst.BaseExpression, list[cst.BaseStatement]]],
        path: set[int],
    ) -> None:
        super().__init__()
        self.replaced, self.edits, self.path = replaced, edits, path
        self.deleted: set[int] = set()  # id() of the deleted statements, as this pass leaves them

    def on_visit(self, node: cst.CSTNode) -> bool:
        return id(node) in self.path  # (a subtree off the paths is left as it is: the very same nodes)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if id(original_node) in self.edits:
            return self.edits[id(original_node)][0]
        return self.replaced.get(id(original_node)) or updated_node

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.FlattenSentinel[cst.BaseStatement]:
        body = original_node.body
        if len(body) == 1 and isinstance(body[0], cst.Expr) and id(body[0].value) in self.replaced:
            if self.replaced[id(body[0].value)] is None:
                self.deleted.add(id(updated_node))
        if len(body) == 1 and isinstance(body[0], cst.Expr) and id(body[0].value) in self.edits:
            return cst.FlattenSentinel([updated_node, *self.edits[id(body[0].value)][1]])
        return updated_node

    def _body(self, body: Sequence[cst.BaseStatement]) -> list[cst.BaseStatement]:
        kept: list[cst.BaseStatement] = []
        pending: list[cst.EmptyLine] = []
        for stmt in body:
            if id(stmt) in self.deleted:
                pending += leading(stmt)
                continue
            if pending:
                stmt = stmt.with_changes(leading_lines=[*pending, *leading(stmt)])
                pending = []
            kept.append(stmt)
        return kept

    def leave_IndentedBlock(
        self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
    ) -> cst.IndentedBlock:
        return updated_node.with_changes(body=self._body(updated_node.body))

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        return updated_node.with_changes(body=self._body(updated_node.body))


def keras_2(rule: Rule) -> bool:
    """Is tf.keras Keras 2 (tf-keras) on every TF release here: the file imports compat, or the pass adds it?
    (A rule does not add it: that would change the Keras of the whole program, the models' too.)"""
    return rule.state.needs_compat or "compat" in rule.state.table.toplevel.values()


def only_statement(line: cst.CSTNode, parent: dict[int, cst.CSTNode]) -> bool:
    """Is `line` the only statement of its block (deleting it would leave the block empty)?"""
    block = parent.get(id(line))
    return isinstance(block, cst.IndentedBlock) and len(block.body) == 1
