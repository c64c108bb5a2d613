"""Graph-mode TF1 scripts (Session, placeholder, queue runners, slim.learning.train ...) get
`tf.compat.v1.disable_eager_execution()`, `tf.compat.v1.disable_resource_variables()` and
`tf.compat.v1.disable_control_flow_v2()` once.

Ref variables, as TF 1.15 made them in a graph (`tf.Variable`, `get_variable`, `tf.layers`; Keras layers
ask for resource variables and keep them): measured with stable-baselines 2.10.2's PPO2, the port with
TF 2's resource variables drew one of several loss trajectories per run, where uai-run (ref variables)
and the port with them give one, run after run. Resource variables also add ops to the graph, and so
change its op seeds (compat/_graph_seed.py counts them out).

Control flow v1 too: TF1 graph code was written against it (tf.cond / tf.while_loop semantics), and
v2's If ops and functions change the graph's op count, so every graph-derived op seed: measured on
TF 2.15 and 2.21, tf.layers.dropout / batch_normalization on a `training` placeholder then give other
losses than under TF 1 behaviour on the same graph seed, and the same ones with control flow v1.

An Estimator program whose RunConfig takes a MultiWorkerMirroredStrategy is graph code too, though it
names no Session: the Estimator deep-copies its config, and TF 2 refuses to deep-copy that strategy
once it was made in eager mode ("cannot be deep copied in eager mode"). TF 1 made it in a graph, as
uai-run's TF1 face does. A file that uses both the strategy and an Estimator's RunConfig counts; the
strategy alone is TF 2 code (Keras under `strategy.scope()`).

Where: first thing in the `if __name__ == "__main__":` block, so importing the module changes
nothing. Unless the module's top level already calls TensorFlow: that code runs on import, before
the main block, and must run in graph mode (a `set_random_seed` there while eager is on seeds the
eager context, and the graph built later draws other numbers every run). Any call of a name bound to
TensorFlow or tf-slim outside functions, lambdas and the main block counts, except flag definitions
(`tf.app.flags` / `tf.flags`) and logging setup (`tf.logging`, `tf.get_logger`), which build no
graph state; names that are only read (`tf.float32`, `FLAGS = tf.app.flags.FLAGS`) do not count.
Then, as in a script without a main block that builds graphs at module level, the calls go after
its leading imports and after the statement that binds the name they use (`tf`), wherever that
import is. So, too, where the top level calls one of the module's functions that holds the graph code
(a script ending in `main()` with no main block): it runs that code on import. A module that has no
main block, calls no TensorFlow on import and only uses them inside functions it does not call there
is a library: the calls belong in the program that imports it, so that is reported instead.
That program is often in the tree migrated with it (a driver, t2t_trainer, a test): an entry script
(a `__main__` block) of the tree that imports such a library, directly or through other modules of the
tree, is a TF1 graph program, and gets the switches: before its first top-level import of the tree's
modules, whose code runs on import and may ask TensorFlow then (tensor2tensor caches
`common_layers.layers()`, Keras layers or tf.layers by `tf2.enabled()`, when a module is imported;
under TF 1 that ran in graph mode), else first in its `__main__` block. The library's
warning stays: a program outside the tree needs them too. Only a run over a tree knows this
(codemods/engine/tree.py: every file is migrated alone, then such an entry script again); a file
migrated alone is migrated as before.

Every file that gets the switches gets `import compat` too: a seeded graph draws TF 1.15's numbers only
with compat's op seeds (compat/_graph_seed.py; TF 2 derives others from the graph seed: measured,
`tf.set_random_seed(1); tf.random_normal([3])` and dropout masks drew TF 2's numbers in a port without it),
and the seed may be set anywhere (another module, a RunConfig), so every switched file gets it. It costs
little: compat is TensorFlow-free and lazy (about 0.1 s to import). And a graph-mode file that uses
tf.keras needs it: measured on TF 2.15 and 2.21, tf.keras layers in a seeded graph draw other initial
weights every run, Keras 3's and Keras 2's alike (their unseeded initializers take a seed from Python's
`random`); with compat's Keras 2 they follow the graph seed (compat/_keras_setup.py) and draw TF 1.15's
weights run after run, as under uai-run. A library (reported, not switched) gets neither: its report
asks the program that uses it for both.

Nothing is added when the file already switches eager execution or v2 behaviour off (or on): a
file switched by hand, or ported by an earlier uai-migrate that wrote the first call alone, is left
as written. A file that switches only control flow (`tf.enable_control_flow_v2()`, TF 1.x's opt-in)
or only resource variables (`tf.enable_resource_variables()`) keeps that choice: the other calls are added.
"""

from typing import Any, cast

import libcst as cst

from codemods.engine import tree
from codemods.engine.rule import FileState, Rule
from codemods.engine.syntax import after_binding, head
from codemods.rule_description import Example
from codemods.rules import _tf
from codemods.rules._shared import (
    CONTROL_FLOW_NAMES,
    EAGER_UNCOPIABLE,
    ESTIMATOR_CONFIGS,
    GRAPH_NAMES,
    GRAPH_ONLY,
    NO_GRAPH_STATE,
    RESOURCE_NAMES,
    STAR_MODULES,
    SWITCH_NAMES,
    TF_ROOTS,
    graph_names,
)
from codemods.rules._tf_bindings import tf_imports

# the switches that turn TF 1's graph mode on: a file calling one runs as a graph program
SWITCHED_OFF = frozenset(name for name in SWITCH_NAMES if name.rpartition(".")[2].startswith("disable"))


TF = "tensorflow"


def _imports_any(stmt: cst.CSTNode, modules: tuple[str, ...]) -> bool:
    """Is `stmt` an import statement of one of `modules` (as written: `..a.b` for `from ..a.b import c`)?"""
    if not isinstance(stmt, cst.SimpleStatementLine):
        return False
    for small in stmt.body:
        if isinstance(small, cst.Import) and any(_tf.full_name(alias.name) in modules for alias in small.names):
            return True
        if isinstance(small, cst.ImportFrom):
            written = "." * len(small.relative) + (_tf.full_name(small.module) if small.module else "")
            if written in modules:
                return True
    return False


def _tensorflow_before(body: list[cst.BaseStatement]) -> str | None:
    """The name of tf.compat.v1 that top-level `import tensorflow [as tf]` / `import tensorflow.compat.v1 as tf`
    lines of `body` bind, or None."""
    found = None
    for stmt in body:
        for binding in tf_imports(stmt).bindings if isinstance(stmt, cst.SimpleStatementLine) else ():
            imported, name, as_name = binding.imported
            if (imported, name) == (TF, None):
                found = f"{binding.name}.compat.v1"
            elif (imported, name) == (f"{TF}.compat.v1", None) and as_name:
                found = binding.name
    return found


def _prefixed(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def _is_main_guard(stmt: cst.CSTNode) -> bool:
    if not isinstance(stmt, cst.If) or not isinstance(stmt.test, cst.Comparison):
        return False
    parts = [stmt.test.left, *(c.comparator for c in stmt.test.comparisons)]
    texts = {
        p.value if isinstance(p, cst.Name) else p.evaluated_value if isinstance(p, cst.SimpleString) else None
        for p in parts
    }
    return texts == {"__name__", "__main__"}


class _Calls(cst.CSTVisitor):
    """The names called in a statement (`main()`, `sys.exit(main())`), lambdas left out."""

    def __init__(self) -> None:
        self.names: list[str] = []

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name):
            self.names.append(node.func.value)


def _called_on_import(body: list[cst.BaseStatement]) -> list[str]:
    """The names the module's top-level simple statements call (not its functions, classes or main block): read
    from the module, since the engine visits only statements naming TensorFlow (`main()` names none)."""
    calls = _Calls()
    for stmt in body:
        if isinstance(stmt, cst.SimpleStatementLine):
            stmt.visit(calls)
    return calls.names


class GraphModeRule(Rule):
    ID = "graph-mode"
    DESCRIPTION = (
        "Scripts using Session/placeholder/queue runners, or an Estimator with MultiWorkerMirroredStrategy, and "
        "in a tree the entry scripts importing a module that does: tf.compat.v1.disable_eager_execution(), "
        "disable_resource_variables() and disable_control_flow_v2() once, and `import compat` (TF 1.15's op seeds)."
    )
    ORDER = 170
    EXAMPLE = Example(
        why="Sessions, placeholders and queue runners need graph mode (TF2 starts eager); TF1 graph code expects "
        "TF1's ref variables and control flow (resource variables and v2's If/While ops change the graph, so its "
        "graph-derived seeds, and the order of reads and updates). A library using them (no __main__ block) gets "
        "a warning; in a tree migrated with it, the entry scripts that import it, directly or through other "
        "modules, get the switches. `import compat` gives a seeded graph TF 1.15's op seeds, and so TF 1.15's random numbers.",
        before="import tensorflow as tf\nx = tf.placeholder(tf.float32, [None])\nwith tf.Session() as sess:\n"
        "    sess.run(x, {x: [1.0]})\n",
        after="import compat\nimport tensorflow as tf\ntf.compat.v1.disable_eager_execution()\ntf.compat.v1.disable_resource_variables()\n"
        "tf.compat.v1.disable_control_flow_v2()\nx = tf.placeholder(tf.float32, [None])\nwith tf.Session() as sess:\n    sess.run(x, {x: [1.0]})\n",
    )
    WORDS = frozenset()
    # tf_slim's and compat's loops, tensorflow_estimator's and compat's RunConfig
    ROOTS = frozenset(name.partition(".")[0] for name in GRAPH_NAMES | SWITCH_NAMES | ESTIMATOR_CONFIGS)

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._uses: list[cst.Attribute | cst.Name] = []
        self._switched, self._top_level_use = False, False
        self._switched_off = False  # eager execution or v2 behaviour switched off: graph mode (a program)
        self._control_flow_switched = False
        self._resource_switched = False
        self._module_calls = False  # TensorFlow called on import (see the module docstring)
        self._graph_names = graph_names()
        self._star = False  # `from tensorflow import *` seen
        self._depth = 0  # function and lambda nesting
        self._guards: frozenset[int] = frozenset()
        self._in_guard = False
        # EAGER_UNCOPIABLE strategies (node, at module level, top-level statement): graph mode if an Estimator config is used
        self._uncopiable: list[tuple[cst.Attribute | cst.Name, bool, int]] = []
        self._estimator_config = False
        self._reason = "graph-mode TF1 code"  # what the report says made the file one
        self._keras = False  # tf.keras used: its layers need compat's Keras 2 in a graph (module docstring)
        self._function: str | None = None  # the top-level function being visited
        self._graph_functions: set[str] = set()  # top-level functions holding graph code

    def visit_Module(self, node: cst.Module) -> None:
        self._guards = frozenset(id(stmt) for stmt in node.body if _is_main_guard(stmt))

    def visit_If(self, node: cst.If) -> None:
        self._in_guard |= id(node) in self._guards

    def leave_If(
        self, original_node: cst.If, updated_node: cst.If
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement] | cst.RemovalSentinel:
        if id(original_node) in self._guards:
            self._in_guard = False
        return updated_node

    def visit_FunctionDef(self, node: cst.FunctionDef | cst.Lambda) -> None:
        if self._depth == 0 and isinstance(node, cst.FunctionDef):
            self._function = node.name.value
        self._depth += 1

    # (also leave_Lambda, which libcst types apart: Any, a statement or an expression)
    def leave_FunctionDef(self, original_node: cst.FunctionDef | cst.Lambda, updated_node: Any) -> Any:
        self._depth -= 1
        if self._depth == 0:
            self._function = None
        return updated_node

    visit_Lambda = visit_FunctionDef
    leave_Lambda = leave_FunctionDef

    def visit_Attribute(self, node: cst.Attribute | cst.Name) -> None:
        names = self.qualified_names(node)
        self._keras = self._keras or any(_tf.is_keras(name) for name in names)
        if names & SWITCH_NAMES:
            self._switched = True
            self._switched_off |= bool(names & SWITCHED_OFF)
        elif names & CONTROL_FLOW_NAMES:
            self._control_flow_switched = True
        elif names & RESOURCE_NAMES:
            self._resource_switched = True
        elif names & self._graph_names:
            self._use(node)
        elif names & EAGER_UNCOPIABLE:
            self._uncopiable.append((node, self._depth == 0, self.state.top))
        elif names & ESTIMATOR_CONFIGS:
            self._estimator_config = True

    def _use(self, node: cst.Attribute | cst.Name) -> None:
        if not self._uses:
            self._first_top = self.state.top  # reported when the pass has left it
        self._uses.append(node)
        self._top_level_use |= self._depth == 0
        if self._function is not None:
            self._graph_functions.add(self._function)

    def visit_Name(self, node: cst.Name) -> None:
        self.visit_Attribute(node)  # `from tensorflow import Session`

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.module and not node.relative:
            self._keras = self._keras or _tf.is_keras(_tf.full_name(node.module))
        if isinstance(node.names, cst.ImportStar) and node.module and not node.relative:
            self._star |= _tf.full_name(node.module) in STAR_MODULES

    def visit_Call(self, node: cst.Call) -> None:
        if self._depth == 0 and not self._in_guard and not self._module_calls:
            self._module_calls = any(
                _prefixed(name, TF_ROOTS) and not _prefixed(name, NO_GRAPH_STATE)
                for name in self.qualified_names(node.func)
            )
        # `from tensorflow import *` binds `Session`: a call of a name nothing else binds is TensorFlow's
        func = node.func
        if self._star and isinstance(func, cst.Name) and func.value in GRAPH_ONLY:
            if func.value not in self.state.table.bound:
                self._use(func)

    def _preamble(self, module: str | None = None) -> tuple[list[cst.SimpleStatementLine], str, str]:
        """(the statements, the name they use, what they call for the report); `module`: tf.compat.v1's name"""
        use = self._uses[0] if self._uses else None  # (none: a program of a graph library, _tree_program)
        first = head(use) if use is not None else None
        names = self.qualified_names(first) if isinstance(first, cst.Name) else frozenset()
        v1 = [name for name, qualified in self.state.table.toplevel.items() if qualified == "tensorflow.compat.v1"]
        if module is not None:
            pass
        elif "tensorflow.compat.v1" in names:
            module = cast(cst.Name, first).value  # (it has names: a Name)
        elif v1:
            module = v1[0]
        else:
            module = f"{_tf.tf_alias(self, use)}.compat.v1"
        calls = ["disable_eager_execution"]
        calls += [] if self._resource_switched else ["disable_resource_variables"]
        calls += [] if self._control_flow_switched else ["disable_control_flow_v2"]
        statements = [
            cst.SimpleStatementLine(body=[cst.Expr(cst.Call(func=_tf.dotted(f"{module}.{call}")))]) for call in calls
        ]
        spelled = [f"tf.compat.v1.{call}()" for call in calls]
        said = " and ".join([", ".join(spelled[:-1]), spelled[-1]] if len(spelled) > 1 else spelled)
        return statements, module.split(".")[0], said

    def _estimator_strategy(self) -> None:
        """An Estimator's RunConfig holding a strategy it cannot deep-copy in eager mode makes the file graph code."""
        if self._uses or not (self._estimator_config and self._uncopiable):
            return
        self._uses = [node for node, _, _ in self._uncopiable]
        self._first_top = self._uncopiable[0][2]
        self._top_level_use = any(top_level for _, top_level, _ in self._uncopiable)
        self._reason = (
            "an Estimator program with MultiWorkerMirroredStrategy (the Estimator deep-copies its RunConfig, "
            "which TF 2 cannot do for this strategy in eager mode)"
        )

    def _tree_program(self, module: cst.Module) -> cst.CSTNode | None:
        """Where the report entry of an entry script the tree shows importing a graph library goes (its first
        top-level import of the tree's modules, else its main block), or None (codemods/engine/tree.py)."""
        tree = self.state.tree
        guards = [i for i, stmt in enumerate(module.body) if _is_main_guard(stmt)]
        if tree is None or tree.graph_library is None or not guards:
            return None
        via, library = tree.graph_library
        imports = [i for i, stmt in enumerate(module.body) if _imports_any(stmt, tree.tree_imports)]
        self._first_top = imports[0] if imports else guards[0]
        self._reason = (
            f"a program: it imports {via}, which loads {library}, graph-mode TF1 code in a module without a "
            "__main__ block"
        )
        return module.body[self._first_top]

    def _switch_before_tree_imports(self, body: list[cst.BaseStatement], at: int, first: cst.CSTNode) -> None:
        """The switches before top-level statement `at`, the first that imports the tree's modules: code
        of theirs that runs on import (a t2t module caches `common_layers.layers()`, which asks
        tf2.enabled()) runs in graph mode, as under TF 1."""
        module, bind = _tensorflow_before(body[:at]), []
        if module is None:  # the import the module makes later, or a new one, here
            later = [(name, q) for name, q in self.state.table.toplevel.items() if q in (TF, f"{TF}.compat.v1")]
            alias, imported = later[0] if later else (self.free_name("tf", "tensorflow"), TF)
            line = f"import {imported} as {alias}" if alias != imported else f"import {imported}"
            bind = [cst.parse_statement(line)]
            module = alias if imported != TF else f"{alias}.compat.v1"
        statements, _, said = self._preamble(module)
        body[at:at] = [*bind, *statements]
        message = f"{self._reason}: {said} before its first import of the tree's modules (their code runs on import)"
        self.report(first, message, statement=self._first_top)

    def _place(self, body: list[cst.BaseStatement], guards: list[int], first: cst.CSTNode) -> bool:
        """Write the switches where the module docstring says, into `body`; False for a library (reported)."""
        statements, name, said = self._preamble()
        runs = next((f for f in _called_on_import(body) if f in self._graph_functions), None)
        if runs is not None and not self._module_calls:  # a script without a main block: its graph code runs on import
            self._module_calls = True
            self._reason = f"graph-mode TF1 code run on import (the module calls {runs}())"
        if guards and not self._module_calls:
            guard = cast(cst.If, body[guards[0]])  # (a main guard: an `if`)
            block = guard.body
            body[guards[0]] = guard.with_changes(body=block.with_changes(body=[*statements, *block.body]))
            message = f"{self._reason}: {said} first in the __main__ block"
            self.report(first, message, statement=self._first_top)
        elif guards or self._top_level_use or self._module_calls:
            at = after_binding(body, name)
            body[at:at] = statements
            at_top = self._top_level_use and not guards
            why = f"{self._reason} at module level" if at_top else "TensorFlow called on import"
            why = self._reason if runs is not None and not at_top else why
            self.report(first, f"{why}: {said} after the imports", statement=self._first_top)
        else:
            self.state.signals.add(tree.GRAPH_LIBRARY)
            self.report(
                first,
                f"{self._reason} in a module without a __main__ block",
                severity="warning",
                manual=f"call {said} and `import compat` at the start of the program that uses this module",
                statement=self._first_top,
            )
            return False
        return True

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        self._estimator_strategy()
        if self._switched:
            if self._switched_off:
                self.state.signals.add(tree.GRAPH_PROGRAM)
            return updated_node
        first = self._uses[0] if self._uses else self._tree_program(original_node)
        if first is None:
            return updated_node
        body: list[cst.BaseStatement] = list(updated_node.body)
        guards = [i for i, stmt in enumerate(body) if _is_main_guard(stmt)]
        tree_imports = self.state.tree.tree_imports if self.state.tree and not self._uses else ()
        at = next((i for i, stmt in enumerate(body) if _imports_any(stmt, tree_imports)), None)
        if at is not None:
            self._switch_before_tree_imports(body, at, first)
        elif not self._place(body, guards, first):
            return updated_node
        if self._uses:  # the file's own graph code: its Facts are a function of its bytes (codemods/engine/tree.py)
            self.state.signals.add(tree.GRAPH_PROGRAM)
        _tf.ensure_compat(self)
        keras = (
            "; tf.keras is Keras 2, whose initializers follow the graph seed as TF 1.x's did (Keras 3's, and "
            "Keras 2's without compat, draw from Python's random)"
        )
        self.report(
            first,
            "`import compat`: TF 1.15's op seeds in graph mode, so a seeded graph draws TF 1.15's numbers (TF 2 "
            "derives other op seeds from the graph seed)" + (keras if self._keras else ""),
            statement=self._first_top,
        )
        return updated_node.with_changes(body=body)
