"""native-estimator: at --level native, an Estimator program stays on the Estimator, and its file says so once.

native-estimator-loop turns only a single-process program of the simple shape into TF 2's own loop (and withdraws
this entry where it does). Otherwise the model_fn, input_fn, hooks and RunConfig run inside the graph, session and
checkpoints the Estimator makes; a custom loop under a tf.distribute strategy computes the same only where that is
proven, program by program, which no rule does yet. So the native level leaves the program as the safe level ports
it (tf.estimator through compat on TF >= 2.16) and gives the file one info entry, at its first Estimator name, saying so: a
reader of the report sees why that file kept tf.compat.v1 while its Session scripts did not. The entry says
what stays in this program: the tf.compat.v1 names left in the file once every rule has run (rules building the
same ops, as native-layers, native-losses and native-io, still convert inside a model_fn), sorted by what holds them (the
Estimator, the hooks its session runs, the graph its model_fn and input_fn build), and whether the model is
built from Keras layers: only such a model_fn could take the modern_tf2 shape, which no rule proves equal.
A tf.train optimizer left in it gets its reason: a Keras optimizer's state has other checkpoint names; so does a
v1 canned estimator (TF 2's class of the same name trains with a Keras optimizer).
"""

import libcst as cst
from libcst.codemod.visitors import RemoveImportsVisitor

from codemods.engine.rule import FileState, Rule
from codemods.engine.syntax import OutermostChain
from codemods.rule_description import Example
from codemods.rules import _tf
from codemods.rules._native_v1_left import Dropped, v1_names_left
from codemods.rules._shared import ESTIMATOR

# the Estimator's modules, and the contrib classes and runners TF 1.x programs built an Estimator program with
_FAMILY = (
    *ESTIMATOR,
    "tensorflow.contrib.estimator",
    "tensorflow.contrib.tpu.TPUEstimator",
    "tensorflow.contrib.tpu.RunConfig",
    "tensorflow.contrib.learn.Estimator",
    "tensorflow.contrib.learn.Experiment",
    "tensorflow.contrib.learn.RunConfig",
    "tensorflow.contrib.learn.learn_runner",
    "tensorflow.contrib.learn.python.learn.learn_runner",
)
MESSAGE = (
    "Estimator program left at the safe level: native-estimator-loop turns only a single-process program of the "
    "simple shape into TF 2's own loop "
    "(its model_fn, input_fn and hooks run in the graph and session the Estimator makes; a custom training "
    "loop under the strategy TF_CONFIG calls for is a port by hand, as modern_tf2/imagenet_main.py is of "
    "legacy_tf1/imagenet_main.py); tf.estimator runs on TF >= 2.16 through compat"
)


# what holds a name left in tf.compat.v1, by its path below it: (the holder, the path's start, or its end)
_HOLDERS = (
    ("in the Estimator", ("estimator.",), ()),
    ("in the hooks its session runs", ("train.SessionRun",), ("Hook",)),
)
_GRAPH = (
    "in its model_fn, input_fn and the code around them (graph code the Estimator runs in its own graph and session; "
    "no rule proves a TF 2 spelling of the same ops for these; a tf.layers call native-layers leaves has its own "
    "entry saying why)"
)

# why a tf.train optimizer of a model_fn stays (measured with tf-keras in a v1 graph)
_OPTIMIZER = (
    "Its tf.train optimizer stays too: a Keras optimizer names its state otherwise (slots as SGD/m/<variable>, and "
    "iteration and learning_rate variables, where TF1 wrote <variable>/Momentum or <variable>/Adam), so a "
    "checkpoint of the safe port would not load into the Estimator, and in a graph its minimize takes no loss "
    "tensor without a tape"
)

# why a v1 canned estimator stays (LinearClassifier measured on TF 2.15: 5 steps, v1's class against TF 2's)
_CANNED = (
    "Its v1 canned estimator stays: TF 2's class of the same name (with loss_reduction=SUM, TF1's sum of the loss) "
    "trains with a Keras optimizer whose state is named otherwise, so a model_dir the v1 class wrote does not restore "
    "into it (for LinearClassifier: the same weights after 5 steps, but the v1 Ftrl slots are "
    "<variable>/part_0/Ftrl where TF 2's class reads training/Ftrl/<variable>/accumulator)"
)
# (a classifier's: a regressor evaluates no AUC)
_CANNED_AUC = "and a classifier's AUC metrics are computed otherwise (auc_precision_recall 1e-4 off)"


def _in_family(name: str) -> bool:
    if ".ModeKeys" in name:
        return False  # (a constant: a Session script's input function reads it too)
    return any(name == prefix or name.startswith(prefix + ".") for prefix in _FAMILY)


class NativeEstimatorRule(OutermostChain, Rule):
    ID = "native-estimator"
    DESCRIPTION = "An Estimator program stays on the Estimator at --level native: one info entry per file says why."
    LEVEL = "native"
    ORDER = 198  # reports only: after the native rules, so its entry follows theirs
    EXAMPLE = Example(
        "Outside native-estimator-loop's shape (a single-process train() of Keras layers and a tf.train optimizer), no "
        "native rule converts an Estimator program: its model_fn, input_fn and hooks run inside the graph and "
        "session the Estimator builds, and a custom loop under a tf.distribute strategy is equal only where that "
        "is proven program by program. At --level native the file keeps the safe level's port (tf.estimator "
        "through compat; the rules building the same ops, as native-layers and native-losses, still convert in its "
        "model_fn) and gets one info entry, at its first Estimator name, saying so and what stays in "
        "tf.compat.v1 once every rule has run, by what holds it (the Estimator, the hooks its session runs, its "
        "model_fn, input_fn and the code around them), and whether the model is built from Keras layers (only such a "
        "model could take the modern_tf2 shape, which no rule proves equal). What may change: nothing; the rule "
        "rewrites no code.",
        "import tensorflow as tf\n\nestimator = tf.estimator.Estimator(model_fn)\n",
        "import tensorflow as tf\n\nestimator = tf.estimator.Estimator(model_fn)\n",
    )
    ROOTS = frozenset({"tensorflow_estimator"})

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._said = False
        self._at: tuple[cst.CSTNode, int] | None = None  # the first Estimator name and its top-level statement

    def _found(self, node: cst.CSTNode) -> None:
        if not self._said:
            self._said = True
            self._at = (node, self.state.top)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if self._at is not None:
            node, top = self._at
            dropped = self.state.context.scratch.get(RemoveImportsVisitor.CONTEXT_KEY, [])
            self.report(node, f"{MESSAGE}. {what_stays(updated_node, dropped)}", native=True, statement=top)
        return updated_node

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        if not self._said and self.outermost(original_node) and self.match_prefix(original_node, _FAMILY):
            if not any(".ModeKeys" in name for name in self.qualified_names(original_node)):
                self._found(original_node)
        return updated_node

    def visit_Import(self, node: cst.Import) -> None:
        if any(_in_family(_tf.full_name(alias.name)) for alias in node.names):
            self._found(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.module is None or node.relative or isinstance(node.names, cst.ImportStar):
            return
        module = _tf.full_name(node.module)
        if any(_in_family(f"{module}.{_tf.full_name(alias.name)}") for alias in node.names):
            self._found(node)


def what_stays(module: cst.Module, dropped: Dropped = ()) -> str:
    """What of the program stays in tf.compat.v1 (the names left in `module`, the ported file), by what holds it,
    and whether its model is Keras layers."""
    left, keras = v1_names_left(module, dropped)
    groups: dict[str, list[str]] = {}
    for name in left:
        holder = next((h for h, start, end in _HOLDERS if name.startswith(start) or name.endswith(end)), _GRAPH)
        groups.setdefault(holder, []).append(name)
    said = "; ".join(f"{holder}: {', '.join(names)}" for holder, names in groups.items())
    stays = f"What stays in tf.compat.v1 here: {said}" if said else "No tf.compat.v1 name is left in the file"
    if any(name.startswith("train.") and name.endswith("Optimizer") for name in left):
        stays += f". {_OPTIMIZER}"
    canned = [name for name in left if name.startswith("estimator.") and name.endswith(("Classifier", "Regressor"))]
    if canned:
        stays += f". {_CANNED}" + (f", {_CANNED_AUC}" if any(n.endswith("Classifier") for n in canned) else "")
    model = (
        "its model_fn builds Keras layers, but no rule proves the modern_tf2 shape (a Keras model in a custom loop "
        "under the strategy TF_CONFIG calls for) equal to the Estimator's training: a port by hand"
        if keras
        else "its model is not built from Keras layers, so there is no Keras model for the modern_tf2 shape"
    )
    return f"{stays}. {model[0].upper()}{model[1:]}"
