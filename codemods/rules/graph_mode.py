"""Graph-mode TF1 scripts (Session, placeholder, queue runners, slim.learning.train ...) get `tf.compat.v1.disable_eager_execution()` once.

Where: first thing in the `if __name__ == "__main__":` block, so importing the module changes
nothing; in a script without one that builds graphs at module level, after its leading imports
and after the statement that binds the name the call uses (`tf`), wherever that import is.
A module that only uses them inside functions and has no main block is a library: the call
belongs in the program that imports it, so that is reported instead. Not added when the file
already switches eager execution or v2 behaviour off (or on).
"""

import functools

import libcst as cst

from codemods._rule import Rule
from codemods.rules import _tf
from codemods.rules._syntax import after_binding, head

GRAPH_ONLY = (
    "Session",
    "InteractiveSession",
    "placeholder",
    "placeholder_with_default",
    "sparse_placeholder",
    "train.MonitoredTrainingSession",
    "train.MonitoredSession",
    "train.SingularMonitoredSession",
    "train.Supervisor",
    "train.start_queue_runners",
    "train.QueueRunner",
    "train.string_input_producer",
    "train.batch",
    "train.shuffle_batch",
)
# tf-slim's training and evaluation loops build their own Supervisor sessions
SLIM_LOOPS = ("learning.train", "evaluation.evaluation_loop", "evaluation.evaluate_once")
SWITCHES = ("disable_eager_execution", "disable_v2_behavior", "enable_eager_execution", "enable_v2_behavior")
GRAPH_NAMES = frozenset(f"tensorflow.{p}{n}" for n in GRAPH_ONLY for p in ("", "compat.v1.")) | frozenset(
    f"{p}.{n}" for n in SLIM_LOOPS for p in ("tensorflow.contrib.slim", "tf_slim", "compat.slim")
)
STAR_MODULES = ("tensorflow", "tensorflow.compat.v1")
SWITCH_NAMES = frozenset(f"tensorflow.{p}{n}" for n in SWITCHES for p in ("", "compat.v1."))


@functools.lru_cache(maxsize=1)
def graph_names() -> frozenset:
    """GRAPH_NAMES and their private `tensorflow.python.*` spellings (`session.Session`), which the
    tf-private rule turns into the public ones: a second run must find nothing new."""
    private = {
        f"{module}.{name}"
        for module, names in _tf.api()["private"].items()
        for name, homes in names.items()
        if any(home and home.removeprefix("compat.v1.") in GRAPH_ONLY for home in homes)
    }
    return GRAPH_NAMES | private


def _is_main_guard(stmt):
    if not isinstance(stmt, cst.If) or not isinstance(stmt.test, cst.Comparison):
        return False
    parts = [stmt.test.left, *(c.comparator for c in stmt.test.comparisons)]
    texts = {
        p.value if isinstance(p, cst.Name) else p.evaluated_value if isinstance(p, cst.SimpleString) else None
        for p in parts
    }
    return texts == {"__name__", "__main__"}


class GraphModeRule(Rule):
    ID = "graph-mode"
    DESCRIPTION = "Scripts using Session/placeholder/queue runners: tf.compat.v1.disable_eager_execution() once."
    WORDS = frozenset()
    ROOTS = frozenset(name.partition(".")[0] for name in GRAPH_NAMES | SWITCH_NAMES)  # tf_slim's and compat's loops

    def begin_file(self, state):
        super().begin_file(state)
        self._uses, self._switched, self._top_level_use = [], False, False
        self._graph_names = graph_names()
        self._star = False  # `from tensorflow import *` seen
        self._depth = 0  # function nesting

    def visit_FunctionDef(self, node):
        self._depth += 1

    def leave_FunctionDef(self, original_node, updated_node):
        self._depth -= 1
        return updated_node

    def visit_Attribute(self, node):
        names = self.qualified_names(node)
        if names & SWITCH_NAMES:
            self._switched = True
        elif names & self._graph_names:
            self._use(node)

    def _use(self, node):
        if not self._uses:
            self._first_top = self.state.top  # reported when the pass has left it
        self._uses.append(node)
        self._top_level_use |= self._depth == 0

    def visit_Name(self, node):
        self.visit_Attribute(node)  # `from tensorflow import Session`

    def visit_ImportFrom(self, node):
        if isinstance(node.names, cst.ImportStar) and node.module and not node.relative:
            self._star |= _tf.full_name(node.module) in STAR_MODULES

    def visit_Call(self, node):
        # `from tensorflow import *` binds `Session`: a call of a name nothing else binds is TensorFlow's
        func = node.func
        if self._star and isinstance(func, cst.Name) and func.value in GRAPH_ONLY:
            if func.value not in self.state.table.bound:
                self._use(func)

    def _call(self):
        """(the statement, the name it uses)"""
        first = head(self._uses[0])
        names = self.qualified_names(first) if isinstance(first, cst.Name) else frozenset()
        v1 = [name for name, qualified in self.state.table.toplevel.items() if qualified == "tensorflow.compat.v1"]
        if "tensorflow.compat.v1" in names:
            call = f"{first.value}.disable_eager_execution"
        elif v1:
            call = f"{v1[0]}.disable_eager_execution"
        else:
            call = f"{_tf.tf_alias(self, self._uses[0])}.compat.v1.disable_eager_execution"
        return cst.SimpleStatementLine(body=[cst.Expr(cst.Call(func=_tf.dotted(call)))]), call.split(".")[0]

    def leave_Module(self, original_node, updated_node):
        if not self._uses or self._switched:
            return updated_node
        body = list(updated_node.body)
        guards = [i for i, stmt in enumerate(body) if _is_main_guard(stmt)]
        first = self._uses[0]
        if guards:
            guard = body[guards[0]]
            block = guard.body
            statement, _ = self._call()
            body[guards[0]] = guard.with_changes(body=block.with_changes(body=[statement, *block.body]))
            message = "graph-mode TF1 code: tf.compat.v1.disable_eager_execution() first in the __main__ block"
            self.report(first, message, statement=self._first_top)
        elif self._top_level_use:
            statement, name = self._call()
            body.insert(after_binding(body, name), statement)
            message = "graph-mode TF1 code at module level: tf.compat.v1.disable_eager_execution() after the imports"
            self.report(first, message, statement=self._first_top)
        else:
            self.report(
                first,
                "graph-mode TF1 code in a module without a __main__ block",
                severity="warning",
                manual="call tf.compat.v1.disable_eager_execution() at the start of the program that uses this module",
                statement=self._first_top,
            )
            return updated_node
        return updated_node.with_changes(body=body)
