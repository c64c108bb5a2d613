"""native-left: at --level native, a file keeping tf.compat.v1 names that no native rule spoke of gets one info
entry saying what stays and why.

Each native rule that leaves its pattern at the safe level says why (native-session for a Session script,
native-estimator for an Estimator program, native-io for the logging message calls ...). A file can hold none of
their patterns and still keep tf.compat.v1: a graph built and read without a Session (nothing runs it through
sess.run for native-session to turn into eager calls), a graph run through a Session native-session does not port
(Keras's get_session, a Supervisor), a module of functions and classes that runs nothing itself (its code runs where
it is called, in a graph or eagerly), or names no native rule takes. Its report would then say nothing of them. This
rule runs last and reports only: once every rule has run, where the file keeps tf.compat.v1 names and no native rule
gave it an entry leaving code at the safe level (an entry converting code says nothing of the rest), it says them
once, at the file's first TensorFlow import, with the reason that applies.
"""

import builtins

import libcst as cst
from libcst.codemod.visitors import RemoveImportsVisitor

from codemods.engine.rule import FileState, Rule
from codemods.engine.syntax import head_name
from codemods.rule_description import Example
from codemods.rules import _tf
from codemods.rules._native_syntax import collect, names_in
from codemods.rules._native_v1_left import v1_names_left
from codemods.rules._tf_bindings import is_tensorflow, tf_imports

# the graph-mode switches the safe level writes for graph code at module level (rules/graph_mode.py)
_GRAPH_SWITCHES = frozenset({"disable_eager_execution", "disable_v2_behavior"})
# what makes a Session that runs the graph: a tf.compat.v1 *Session class, a Supervisor (managed_session), Keras's
# get_session, the default session
_RUNNERS = ("Session", "train.Supervisor", "keras.backend.get_session", "get_default_session")
# the methods running a graph (sess.run, tensor.eval, op.run); not app.run / flags.run, which run main
_RUN_METHODS = frozenset({"run", "eval"})
_NOT_GRAPH_RUNS = frozenset({"app", "flags"})
GRAPH_ONLY = (
    "the program builds a graph and runs no Session: native-session ports the sess.run calls of a program, and no "
    "rule proves what reading the graph itself (its tensors, collections or variables) gives in eager TF 2"
)
LIBRARY = (
    "the module defines functions and classes and runs nothing itself: their TensorFlow code runs where a caller "
    "calls it, in a graph or eagerly, which no rule can tell from this file"
)
OTHERS = "no native rule takes these names"
# what each native rule's entry leaving code at the safe level says (a conversion's says `old -> new`, and says
# nothing of the tf.compat.v1 names the file keeps besides)
LEFT = "left at the safe level"


def runs_elsewhere(runners: list[str]) -> str:
    """Why a graph run through `runners` (tf.compat.v1 names below tf.compat.v1.) stays."""
    return (
        f"the program runs its graph through {', '.join(runners)}, which native-session does not port (it ports a "
        "tf.compat.v1.Session's sess.run calls of the tutorial shape)"
    )


def importers_say(importers: tuple[str, ...]) -> str:
    return f"the tree's {', '.join(importers)} import{'s' * (len(importers) == 1)} this module: its code runs in their graphs"


class NativeLeftRule(Rule):
    ID = "native-left"
    DESCRIPTION = "A file keeping tf.compat.v1 names no native rule spoke of: one info entry says what stays and why."
    LEVEL = "native"
    ORDER = 200  # reports only, last: it reads what every rule left and which native entries they gave
    EXAMPLE = Example(
        "The native rules that leave their pattern at the safe level each say why. A file may hold none of their "
        "patterns and still keep tf.compat.v1 names: a graph built and read without a Session, a graph run through a "
        "Session native-session does not port (Keras's get_session, a Supervisor), a module of functions and classes "
        "that runs nothing itself, names no native rule takes. Where a file keeps such names and no native rule gave "
        "it an entry leaving code at the safe level (an entry converting code says nothing of the rest), this rule "
        "gives one, at its first TensorFlow import: the names, and why they stay. What may change: nothing; the rule "
        "rewrites no code.",
        "import tensorflow as tf\n\ntf.compat.v1.disable_eager_execution()\n"
        "images = tf.compat.v1.placeholder(tf.float32, [None, 4])\nprint(images.shape.as_list())\n",
        "import tensorflow as tf\n\ntf.compat.v1.disable_eager_execution()\n"
        "images = tf.compat.v1.placeholder(tf.float32, [None, 4])\nprint(images.shape.as_list())\n",
    )
    WORDS = frozenset()  # it acts on TensorFlow's names only

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._first: tuple[cst.CSTNode, int] | None = None  # the first TensorFlow import and its statement

    def _import(self, node: cst.Import | cst.ImportFrom, modules: list[str]) -> None:
        if self._first is None and any(is_tensorflow(m) for m in modules):
            self._first = (node, self.state.top)

    def visit_Import(self, node: cst.Import) -> None:
        self._import(node, [_tf.full_name(alias.name) for alias in node.names])

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.module is not None and not node.relative:
            self._import(node, [_tf.full_name(node.module)])

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if self.level != "native" or self._first is None:
            return updated_node
        if any(entry.level == "native" and LEFT in entry.message for _, _, entry in self.state.reports):
            return updated_node  # (a native rule said why it left what it left)
        dropped = self.state.context.scratch.get(RemoveImportsVisitor.CONTEXT_KEY, [])
        left, _ = v1_names_left(updated_node, dropped)
        if not left:
            return updated_node
        importers = self.state.tree.importers if self.state.tree else ()
        if importers:
            why = importers_say(importers)
        elif _runs_nothing(original_node):
            why = LIBRARY
        elif runners := [name for name in left if name.endswith(_RUNNERS)]:
            why = runs_elsewhere(runners)
        elif _GRAPH_SWITCHES & set(left) and not _runs_a_graph(original_node):
            why = GRAPH_ONLY
        else:
            why = OTHERS
        node, top = self._first
        self.report(node, f"{LEFT}, in tf.compat.v1: {', '.join(left)}: {why}", native=True, statement=top)
        return updated_node


def _runs_nothing(module: cst.Module) -> bool:
    """Whether the module's top level only imports, defines and binds names without calling TensorFlow, a function
    or class of its own or one of its package's (a docstring, constants, a namedtuple): a library of functions and
    classes. `MODEL = build()` runs build's TensorFlow code at import."""
    imports = tf_imports(module)
    tf_names = set(imports.names) | _own_bindings(module)
    bound = _bound_anywhere(module) if imports.star else set()

    def calls_tensorflow(call: cst.Call) -> bool:
        name = head_name(call.func)
        # (a star import of TensorFlow binds names no import lists: one the module binds nowhere, and no builtin's,
        # may be TensorFlow's)
        return name in tf_names or bool(imports.star and name and name not in bound and not hasattr(builtins, name))

    for statement in module.body:
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            continue
        if not isinstance(statement, cst.SimpleStatementLine):
            return False  # (an if, a with, a loop: it runs something)
        for small in statement.body:
            if isinstance(small, (cst.Import, cst.ImportFrom)):
                continue
            if isinstance(small, cst.Expr) and isinstance(small.value, (cst.SimpleString, cst.ConcatenatedString)):
                continue  # (a docstring)
            if isinstance(small, (cst.Assign, cst.AnnAssign)) and not any(
                calls_tensorflow(call) for call in collect(small, cst.Call)
            ):
                continue
            return False
    return True


def _bound_anywhere(module: cst.Module) -> set[str]:
    """The names the module binds, at any depth: by an import (of any package), a def or class, an assignment, a
    parameter (a lambda's too), a for or comprehension target, a with or except alias, or a walrus."""
    bound = {alias.evaluated_alias or alias.evaluated_name.split(".")[0] for alias in collect(module, cst.ImportAlias)}
    bound.update(d.name.value for d in collect(module, cst.FunctionDef) + collect(module, cst.ClassDef))
    bound.update(param.name.value for param in collect(module, cst.Param))
    targets: list[cst.CSTNode] = [*collect(module, cst.AssignTarget), *collect(module, cst.NamedExpr)]
    targets += [loop.target for loop in collect(module, cst.For) + collect(module, cst.CompFor)]
    targets += [alias.name for alias in collect(module, cst.AsName)]  # (with ... as, except ... as; imports' too)
    for target in targets:
        # (not an attribute's name: `x.attr = ...` binds no `attr`)
        bound.update(names_in(target.target if isinstance(target, cst.NamedExpr) else target).names)
    return bound


def _runs_a_graph(module: cst.Module) -> bool:
    """Whether the module calls a method that runs a graph (x.run(...), y.eval()) on something other than app or
    flags: a session from elsewhere (a library's) runs it."""
    for call in collect(module, cst.Call):
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value in _RUN_METHODS:
            receiver = func.value
            last = receiver.attr.value if isinstance(receiver, cst.Attribute) else getattr(receiver, "value", None)
            if last not in _NOT_GRAPH_RUNS:
                return True
    return False


def _own_bindings(module: cst.Module) -> set[str]:
    """The functions and classes the module defines at its top level, and the names it imports from its own package
    (`from .model import build`): calling one runs code the module or its package holds."""
    own = {s.name.value for s in module.body if isinstance(s, (cst.FunctionDef, cst.ClassDef))}
    for imported in collect(module, cst.ImportFrom):
        if imported.relative and not isinstance(imported.names, cst.ImportStar):
            own.update(alias.evaluated_alias or _tf.full_name(alias.name) for alias in imported.names)
    return own
