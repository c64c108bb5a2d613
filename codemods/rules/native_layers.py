"""native-layers: TF1's functional layers (`tf.layers.conv2d(x, 8, 3, name="conv0")`, or the safe level's
tf.compat.v1.layers) in an Estimator's model_fn -> the Keras 2 layer object made at the call and called once
(`tf.keras.layers.Conv2D(8, 3, name="conv0")(x)`), with the variables' checkpoint names kept.

A Session script's layers are native-session's business (it makes them once, outside its train step); a model_fn
is graph code the Estimator calls once per graph it builds, so a layer made at the call is made once in that graph
and builds the same ops: tf.compat.v1.layers' classes are Keras 2's with a variable scope around them. What the
rule proves before it writes a call:

- the file is a program whose tf.keras is Keras 2 on every TF release (it imports compat);
- the call runs in a model_fn: the function passed to an Estimator or TPUEstimator as its model_fn, or a function
  of the module it calls (by name, at any depth); not a TPUEstimator's unless it says use_tpu=False (on a TPU the
  model_fn runs inside the TPU loop, which nothing here runs);
- the names are kept: TF1 names a layer's variables by its variable scope, Keras by the name scope, so the call
  runs under no variable_scope or name_scope (in its function nor at a call on the way from the model_fn: under
  `variable_scope(reuse=...)` towers share variables by name, which a Keras layer does only by being called
  again); and every call of the same layer function in the file converts, or none (TF1 numbers unnamed layers
  per variable scope, Keras per graph: mixed, the numbers would part);
- nothing goes to a collection Keras does not fill: no regularizer (REGULARIZATION_LOSSES), no `reuse`; a batch
  normalization in training mode keeps its moving-average updates in `layer.updates`, not in UPDATE_OPS. So
  where nothing runs that collection it converts as it is (neither port updates the moving statistics); where
  the model_fn reads it once, `X = get_collection(GraphKeys.UPDATE_OPS)`, after every such batch normalization,
  each on a line of its own in that function, and nothing else fills or runs the collection, each layer is bound
  to `batch_norm` and kept in a list `batch_norms` made at the function's start, and the read becomes
  `[update for layer in batch_norms for update in layer.updates]`: the same update ops, run by the same train_op.
  Any other read refuses the batch normalizations.

Else the call stays at the safe level with an info entry saying why. tf.layers.dropout stays (a random op: its
mask is drawn by another op under the graph seed).
"""

from __future__ import annotations

from typing import cast

import libcst as cst

from codemods.engine.rule import FileState
from codemods.rule_description import Example
from codemods.rules import _tf
from codemods.rules._native_eager import EagerRewrite, keras_2, parents
from codemods.rules._native_syntax import EQUAL, Refused, all_names, arguments, collect, descendants, source_of
from codemods.rules._native_tables import LAYERS
from codemods.rules._shared import ESTIMATOR, collection_reads

_FUNCTIONS = {name: row for name, row in LAYERS.items() if name != "dropout"}
_NAMES = {f"tensorflow.{p}layers.{n}": n for n in _FUNCTIONS for p in ("", "compat.v1.")}
# keywords of a layer the Keras layer takes but TF1 put in a collection (REGULARIZATION_LOSSES) Keras does not fill
_NORM = "tf.layers.batch_normalization"
# names besides the UPDATE_OPS read by which a file fills or runs that collection, or that the rewrite of the read
# would meet (a Keras batch normalization of the user's own: TF1 did not run its updates)
_OTHER_UPDATES = frozenset(
    {
        "create_train_op",
        "optimize_loss",
        "add_to_collection",
        "add_to_collections",
        "slim",
        "tf_slim",
        "BatchNormalization",
        "batch_norm",
        "batch_norms",
    }
)
_COLLECTED = frozenset({"beta_regularizer", "gamma_regularizer"})
# the with-items that name variables otherwise for TF1's variable scopes and Keras's name scopes
_SCOPES = frozenset({"variable_scope", "name_scope", "variable_op_scope", "op_scope"})
# names through which a file runs the UPDATE_OPS collection (TF's key, tf-slim's create_train_op, contrib's optimize_loss)
_UPDATE_READERS = frozenset({"UPDATE_OPS", "create_train_op", "optimize_loss"})
_ESTIMATORS = frozenset({"Estimator", "TPUEstimator"})
_FAMILY = (*ESTIMATOR, "tensorflow.contrib.")  # (contrib.tpu's TPUEstimator, contrib.learn's Estimator)
GRAPH_ENTRY = "graph code: "  # (bench/native.py runs no probe for such an entry: a model_fn is not a Session script)


class NativeLayersRule(EagerRewrite):
    ID = "native-layers"
    DESCRIPTION = (
        "tf.layers.conv2d/dense/batch_normalization/flatten/pooling in an Estimator's model_fn -> the Keras layer "
        "object, its variables' checkpoint names kept (its UPDATE_OPS read -> the batch normalizations' updates)."
    )
    LEVEL = "native"
    ORDER = 191  # after native-session, which makes a Session script's layers itself
    GRAPH = True  # the same ops in the Estimator's graph: the rule proves the call runs in a model_fn
    EXAMPLE = Example(
        "TF1's functional layers live on in TF 2 only as tf.compat.v1.layers, whose classes are Keras 2's layers "
        "inside a variable scope. In an Estimator's model_fn (the function given to the Estimator, or one it calls) "
        "a call becomes the Keras layer made and called there (the model_fn runs once per graph, so the layer is made "
        "once in it), with TF1's arguments and name: the variables keep their checkpoint names (conv0/kernel, "
        "batch_normalization/moving_mean, dense_1/bias), so a checkpoint of the safe port loads. Only in a program "
        "whose tf.keras is Keras 2 (it imports compat), not in a TPUEstimator's unless use_tpu=False, under no variable_scope or name_scope (on the way from the "
        "model_fn either: towers sharing variables under variable_scope(reuse=...) stay), without regularizers or "
        "reuse, and where every call of that layer function in the file converts. A batch normalization in training "
        "mode keeps its moving-average updates in the Keras layer's layer.updates, not in the UPDATE_OPS "
        "collection: where nothing runs that collection, neither port updates them; where the model_fn reads it "
        "once (update_ops = get_collection(GraphKeys.UPDATE_OPS)) after each such layer, each on a line of its own "
        "in that function, and nothing else fills or runs it, the layers are kept in a list batch_norms and the "
        "read becomes their updates (the same ops, run by the same train_op); any other read (create_train_op, "
        "optimize_loss, a read before a layer or elsewhere) leaves them. What may change: the initial weights, drawn by other ops (Keras's "
        "initializers, not the variable scope's) and in another op order under a graph seed (a checkpoint of the "
        "safe port, loaded by the same names, starts both from the same weights, and then they train alike); the "
        "layers' variables are no longer in the variable scope store (tf.compat.v1.get_variable cannot reuse them by "
        "name) and their updates and losses not in the graph's collections; ops' names in the graph (e.g. "
        "conv0/Conv2D stays, the layer's call scope may be numbered otherwise). Each layer gets dtype=<its input>.dtype: "
        "TF1's layers made their variables in their input's dtype (float64 from a numpy array an input_fn did not "
        "cast), Keras's in float32; an input that is not a name, nor a layer of one, stays at the safe level.",
        "import compat\nimport tensorflow as tf\n\n"
        "def model_fn(features, labels, mode):\n"
        '    net = tf.compat.v1.layers.conv2d(features, 8, 3, padding="same", name="conv0")\n'
        "    logits = tf.compat.v1.layers.dense(tf.compat.v1.layers.flatten(net), 3)\n"
        "    return tf.estimator.EstimatorSpec(mode, loss=tf.reduce_mean(logits))\n\n"
        'if __name__ == "__main__":\n'
        "    tf.estimator.Estimator(model_fn)\n",
        "import compat\nimport tensorflow as tf\n\n"
        "def model_fn(features, labels, mode):\n"
        '    net = tf.keras.layers.Conv2D(8, 3, padding="same", name="conv0", dtype=features.dtype)(features)\n'
        "    logits = tf.keras.layers.Dense(3, dtype=net.dtype)(tf.keras.layers.Flatten(dtype=net.dtype)(net))\n"
        "    return tf.estimator.EstimatorSpec(mode, loss=tf.reduce_mean(logits))\n\n"
        'if __name__ == "__main__":\n'
        "    tf.estimator.Estimator(model_fn)\n",
    )
    CLAIMS = ()  # it rewrites the safe pass's result (tf.compat.v1.layers), which tf1-api writes
    WORDS = frozenset()  # it acts on TensorFlow's names; the model_fns and scopes are read from the whole module

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._model_fns: list[str] = []  # the names given to an Estimator as its model_fn
        self._tpu_fns: list[str] = []  # those given to a TPUEstimator that may run on a TPU
        self._why: dict[int, str | None] = {}  # id(call) -> why it stays (None: it converts)
        self._staying: set[str] = set()  # the layer functions of which a call stays

    def candidate(self, names: frozenset[str]) -> str | None:
        found = sorted(names & _NAMES.keys())
        return f"tf.layers.{_NAMES[found[0]]}" if found else None

    def visit_Call(self, node: cst.Call) -> None:
        super().visit_Call(node)
        if any(n.startswith(_FAMILY) and n.rsplit(".", 1)[-1] in _ESTIMATORS for n in self.qualified_names(node.func)):
            given = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "model_fn"), None)
            if given is None and node.args and node.args[0].keyword is None and not node.args[0].star:
                given = node.args[0].value
            if isinstance(given, cst.Name):
                self._model_fns.append(given.value)
                if any(n.endswith(".TPUEstimator") for n in self.qualified_names(node.func)) and not _off_tpu(node):
                    self._tpu_fns.append(given.value)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        self._read: tuple[str, cst.SimpleStatementLine] | None = None
        if self.level == "native" and self._found:
            parent = parents(original_node)
            scoped = _model_fn_functions(original_node, self._model_fns, parent)
            self._on_tpu = set(_model_fn_functions(original_node, self._tpu_fns, parent))
            norms = [c for c, what, _ in self._found if what == _NORM and _training(c)]
            self._read = _updates_read(original_node, self._model_fns, parent, norms)
            for call, what, _ in self._found:
                try:
                    self._check(call, what, original_node, parent, scoped)
                    self._why[id(call)] = None
                except Refused as refused:
                    self._why[id(call)] = refused.why
                    self._staying.add(what)
        ported = super().leave_Module(original_node, updated_node)
        if self._read is None or _NORM in self._staying:
            return ported
        function, line = self._read
        alias = _tf.tf_alias(self)
        inside = {id(n) for n in descendants(line)}
        self.state.reports[:] = [  # (tf1-api's entries for the names of the read the rule rewrites)
            (top, node, entry)
            for top, node, entry in self.state.reports
            if not (id(node) in inside and entry.rule != self.ID and "compat.v1" in entry.message)
        ]
        self.report(
            line,
            f"{GRAPH_ENTRY}get_collection(UPDATE_OPS) in a model_fn -> the updates of its Keras batch normalizations "
            "(layer.updates: the same moving-average ops, which the collection no longer holds)",
            native=True,
            statement=next(
                i
                for i, stmt in enumerate(original_node.body)
                if isinstance(stmt, cst.FunctionDef) and stmt.name.value == function
            ),
        )
        body = [
            stmt.visit(_Updates(alias, stmt))
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value == function
            else stmt
            for stmt in ported.body
        ]
        return ported.with_changes(body=body)

    def _check(
        self, call: cst.Call, what: str, module: cst.Module, parent: dict[int, cst.CSTNode], scoped: dict[str, str]
    ) -> None:
        """Refused unless the call is proven (all but the rule's one-kind-or-none check)."""
        if self._eager.why_not(module, self._tf_calls, graph=True) is not None:
            raise Refused(call, "a library module (no main block, no TensorFlow call at its top level)")
        if not keras_2(self):
            raise Refused(call, "tf.keras may be Keras 3 here (TF >= 2.16 without import compat): other layer code")
        function, scope = _enclosing(call, parent)
        if function is None or function.name.value not in scoped:
            raise Refused(
                call,
                "not in an Estimator's model_fn (the function given to the Estimator or one it calls by name): "
                "a graph the rule does not know",
            )
        if function.name.value in self._on_tpu:
            raise Refused(
                call,
                "in the model_fn of a TPUEstimator whose use_tpu is not False: on a TPU it runs inside the TPU "
                "loop, where nothing here runs the Keras layers to prove them equal",
            )
        scope = scope or scoped[function.name.value]
        if scope:
            raise Refused(call, scope)
        keras, params, call_keywords = _FUNCTIONS[what.removeprefix("tf.layers.")]
        args = arguments(call, ("inputs", *params, "name"), call, what)
        if "inputs" not in args:
            raise Refused(call, f"{what} without its inputs")
        if _dtype_source(args["inputs"].value, self._ids()) is None:
            raise Refused(
                call,
                f"{what} of an input that is not a name (nor a layer of one): TF1's layer made its variables in its "
                "input's dtype, which the rule writes as that name's .dtype",
            )
        clash = _named_alike(args.get("name"), keras, module, {id(c) for c, _, _ in self._found})
        if clash:
            raise Refused(
                call,
                f"another op or scope of the file is named {clash!r}: Keras names a layer's variables by a name scope "
                "made unique in the graph (it would write its_name_1/kernel), TF1 by the variable scope",
            )
        if set(args) & _COLLECTED:
            raise Refused(
                call, f"{what} with a regularizer: TF1 adds its loss to REGULARIZATION_LOSSES, Keras does not"
            )
        training = args.get("training")
        if what == _NORM and training is not None and not _false(training.value):
            reader = _update_reader(module)
            if reader and self._read is None:
                raise Refused(
                    call,
                    f"in training mode in a file that runs the UPDATE_OPS collection ({reader}) otherwise than by "
                    "one read after its batch normalizations in their model_fn: a Keras BatchNormalization keeps "
                    "its moving-average updates in layer.updates, not in that collection, so the train_op would no "
                    "longer update the moving statistics",
                )

    def convert(
        self, call: cst.Call, what: str, updated: cst.Call, module: cst.Module, parent: dict[int, cst.CSTNode]
    ) -> tuple[cst.BaseExpression | None, str]:
        why = self._why.get(id(call))
        if why is not None:
            raise Refused(call, why)
        if what in self._staying:
            raise Refused(
                call,
                f"another {what} call of the file stays at the safe level, and TF1 numbers unnamed layers per "
                "variable scope, Keras per graph: the calls of one layer function convert all or none",
            )
        updated = self._inner(updated, module, parent)
        keras, params, call_keywords = _FUNCTIONS[what.removeprefix("tf.layers.")]
        args = arguments(updated, ("inputs", *params, "name"), call, what)
        alias = _tf.tf_alias(self, call.func)
        made: list[cst.Arg] = []
        for index, arg in enumerate(updated.args):
            param = next(p for p, a in args.items() if a is arg)
            if param == "inputs" or param in call_keywords:
                continue
            if arg.keyword is None and index <= 2:  # (the first two: the same place in Keras's constructor)
                made.append(arg.with_changes(comma=cst.MaybeSentinel.DEFAULT))
            else:
                made.append(cst.Arg(arg.value, keyword=cst.Name(param), equal=EQUAL))
        called = [cst.Arg(args["inputs"].value)]
        called += [cst.Arg(args[k].value, keyword=cst.Name(k), equal=EQUAL) for k in call_keywords if k in args]
        if "training" in call_keywords and "training" not in args:
            called.append(cst.Arg(cst.Name("False"), keyword=cst.Name("training"), equal=EQUAL))  # (TF1's default)
        source = _dtype_source(arguments(call, ("inputs", *params, "name"), call, what)["inputs"].value, self._ids())
        assert source is not None  # (_check refused the call otherwise)
        made.append(cst.Arg(cst.Attribute(source, cst.Name("dtype")), keyword=cst.Name("dtype"), equal=EQUAL))
        layer = cst.Call(func=cst.parse_expression(f"{alias}.keras.layers.{keras}"), args=made)
        said = (
            f"{GRAPH_ENTRY}{what} in a model_fn -> tf.keras.layers.{keras}, made at the call, its variables' names kept"
        )
        return cst.Call(func=layer, args=called), said

    def _ids(self) -> set[int]:
        """The ids of the file's layer calls (original nodes)."""
        return {id(c) for c, _, _ in self._found}

    def _inner(self, updated: cst.Call, module: cst.Module, parent: dict[int, cst.CSTNode]) -> cst.Call:
        """`updated` with the layer calls in its arguments converted too (the pass replaces the outer call whole)."""
        inner = {id(self._updated[id(c)]): (c, w) for c, w, _ in self._found if id(c) in self._updated}
        rule = self

        class Inner(cst.CSTTransformer):
            def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
                if original_node is updated or id(original_node) not in inner:
                    return updated_node
                call, what = inner[id(original_node)]
                try:
                    return rule.convert(call, what, updated_node, module, parent)[0] or updated_node
                except Refused:
                    return updated_node

        return cast(cst.Call, updated.visit(Inner()))


_AT = ("inputs", *_FUNCTIONS["batch_normalization"][1]).index("training")  # (its place in TF1's parameters)


def _dtype_source(value: cst.BaseExpression, layer_calls: set[int]) -> cst.BaseExpression | None:
    """The name (or attribute) whose dtype a layer's input has: the input itself, or, through layer calls (TF1's
    layers compute in their input's dtype), their input's; None for anything else.

    TF1's layers had no dtype of their own: a layer made its variables in the dtype of its first input (float64
    from a numpy array an input_fn did not cast), where a Keras 2 layer makes float32 ones and casts its input. So
    the rule writes `dtype=<name>.dtype`, read once where the call was.
    """
    while isinstance(value, cst.Call) and id(value) in layer_calls and value.args:
        first = next((a for a in value.args if a.keyword is not None and a.keyword.value == "inputs"), value.args[0])
        if first.keyword is not None and first.keyword.value != "inputs":
            return None
        value = first.value
    if isinstance(value, cst.Name) or (isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name)):
        return value
    return None


def _off_tpu(call: cst.Call) -> bool:
    """Does a TPUEstimator(...) call say use_tpu=False (its default is True)?"""
    given = [a for a in call.args if a.keyword is not None and a.keyword.value == "use_tpu"]
    return bool(given) and _false(given[0].value)


def _training(call: cst.Call) -> bool:
    """Does a batch normalization call (as the source wrote it) run in training mode, or may it?"""
    for index, arg in enumerate(call.args):
        if (arg.keyword is not None and arg.keyword.value == "training") or (arg.keyword is None and index == _AT):
            return not _false(arg.value)
    return False


def _updates_read(
    module: cst.Module, roots: list[str], parent: dict[int, cst.CSTNode], norms: list[cst.Call]
) -> tuple[str, cst.SimpleStatementLine] | None:
    """(the model_fn, the line) where the file's one UPDATE_OPS read, `X = get_collection(GraphKeys.UPDATE_OPS)`,
    follows every batch normalization in training mode (`norms`), each on a line of its own in that same function,
    and nothing else fills or reads the collection: the read can become the Keras layers' updates. Else None."""
    names = [name.value for name in all_names(module)]
    if (
        names.count("UPDATE_OPS") != 1
        or set(names) & _OTHER_UPDATES
        or len(collection_reads(module, "UPDATE_OPS")) != 1
    ):
        return None
    key = next(n for n in all_names(module) if n.value == "UPDATE_OPS")
    line = parent.get(id(key))
    while line is not None and not isinstance(line, cst.SimpleStatementLine):
        line = parent.get(id(line))
    if line is None or len(line.body) != 1 or not isinstance(line.body[0], cst.Assign):
        return None
    assign = line.body[0]
    value = assign.value
    if not (
        len(assign.targets) == 1
        and isinstance(assign.targets[0].target, cst.Name)
        and isinstance(value, cst.Call)
        and len(value.args) == 1
        and isinstance(value.args[0].value, cst.Attribute)
        and value.args[0].value.attr is key
    ):
        return None
    function, scope = _enclosing(line, parent)
    if function is None or function.name.value not in roots or scope == _NESTED:
        return None
    order = {id(n): i for i, n in enumerate(descendants(module))}
    for norm in norms:
        held = parent.get(id(norm))
        while held is not None and not isinstance(held, cst.SimpleStatementLine):
            held = parent.get(id(held))
        if (
            held is None
            or len(held.body) != 1
            or _enclosing(norm, parent)[0] is not function
            or order[id(held)] > order[id(line)]
            or sum(1 for n in norms if id(n) in {id(d) for d in descendants(held)}) != 1
        ):
            return None
    return function.name.value, line


class _Updates(cst.CSTTransformer):
    """In the model_fn `function`: each Keras batch normalization the rule made is bound to `batch_norm` and kept in
    `batch_norms` (made at the function's start); the UPDATE_OPS read becomes their updates. Only the paths down to
    those lines are rebuilt: the later rules find their calls elsewhere by identity."""

    def __init__(self, alias: str, function: cst.FunctionDef) -> None:
        super().__init__()
        self.layer = f"{alias}.keras.layers.BatchNormalization"
        self.function = id(function)
        above = {id(child): node for node in descendants(function) for child in node.children}
        self.path: set[int] = set()
        for line in collect(function, cst.SimpleStatementLine):
            if self._read(line) or len(self._made(line)) == 1:
                key: cst.CSTNode | None = line
                while key is not None and id(key) not in self.path:
                    self.path.add(id(key))
                    key = above.get(id(key))

    def _read(self, line: cst.SimpleStatementLine) -> bool:
        small = line.body[0]
        return isinstance(small, cst.Assign) and any(n.value == "UPDATE_OPS" for n in all_names(small.value))

    def _made(self, line: cst.SimpleStatementLine) -> list[cst.Call]:
        calls = collect(line, cst.Call)
        return [c for c in calls if isinstance(c.func, cst.Call) and source_of(c.func.func) == self.layer]

    def on_visit(self, node: cst.CSTNode) -> bool:
        return id(node) in self.path and super().on_visit(node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef) -> cst.FunctionDef:
        if id(original_node) != self.function:
            return updated_node
        body = list(cast(cst.IndentedBlock, updated_node.body).body)
        first = 1 if body and _docstring(body[0]) else 0
        body.insert(first, cst.parse_statement("batch_norms = []\n"))
        return updated_node.with_changes(body=updated_node.body.with_changes(body=body))

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.FlattenSentinel[cst.BaseStatement]:
        if id(original_node) not in self.path:
            return updated_node  # (libcst leaves a node it did not enter too)
        small = updated_node.body[0]
        if self._read(updated_node) and isinstance(small, cst.Assign):
            reads = "[update for layer in batch_norms for update in layer.updates]"
            return updated_node.with_changes(body=[small.with_changes(value=cst.parse_expression(reads))])
        (norm,) = self._made(updated_node)
        bound = cst.SimpleStatementLine(
            [cst.Assign([cst.AssignTarget(cst.Name("batch_norm"))], norm.func)],
            leading_lines=updated_node.leading_lines,
        )
        kept = cst.parse_statement("batch_norms.append(batch_norm)\n")
        called = updated_node.deep_replace(norm, norm.with_changes(func=cst.Name("batch_norm")))
        return cst.FlattenSentinel([bound, kept, cast(cst.SimpleStatementLine, called).with_changes(leading_lines=[])])


def _docstring(stmt: cst.BaseStatement) -> bool:
    return (
        isinstance(stmt, cst.SimpleStatementLine)
        and isinstance(stmt.body[0], cst.Expr)
        and isinstance(stmt.body[0].value, cst.SimpleString)
    )


def _false(value: cst.BaseExpression) -> bool:
    return isinstance(value, cst.Name) and value.value == "False"


def _scope_of(node: cst.With) -> str | None:
    """Why a with-statement names variables otherwise for TF1 and Keras (None: it does not)."""
    for item in node.items:
        call = item.item
        if not isinstance(call, cst.Call):
            continue
        func = call.func
        name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
        if name not in _SCOPES:
            continue
        reuse = [a for a in call.args if a.keyword is not None and a.keyword.value == "reuse"]
        if reuse and not (isinstance(reuse[0].value, cst.Name) and reuse[0].value.value in ("None", "False")):
            return (
                "under variable_scope(reuse=...): its variables are shared by name between calls (towers), "
                "which a Keras layer does only by being called again"
            )
        return (
            f"under {name}(...): TF1 names a layer's variables by the variable scope, Keras by the name scope, "
            "so the checkpoint names would not be kept"
        )
    return None


_NESTED = "in a function defined in another one: the rule does not follow where (under which scopes) it is called"


def _enclosing(node: cst.CSTNode, parent: dict[int, cst.CSTNode]) -> tuple[cst.FunctionDef | None, str | None]:
    """The module-level function holding `node`, and why a scope around it there names variables otherwise (a
    shared one's reason first; None: no scope)."""
    scopes = []
    found = parent.get(id(node))
    function = None
    while found is not None:
        if isinstance(found, cst.With):
            scopes.append(_scope_of(found))
        if isinstance(found, (cst.FunctionDef, cst.Lambda)):
            if function is not None:
                scopes.append(_NESTED)  # (where it is called, and under which scope, is not followed)
            function = found
        found = parent.get(id(found))
    if not isinstance(function, cst.FunctionDef):
        return None, None
    said = [why for why in scopes if why is not None]
    return function, next((why for why in said if "reuse" in why), said[0] if said else None)


def _model_fn_functions(module: cst.Module, roots: list[str], parent: dict[int, cst.CSTNode]) -> dict[str, str]:
    """The module-level functions a model_fn runs (the roots and the functions they call by name, at any depth):
    name -> "" or why a scope around a call on the way names variables otherwise."""
    defs: dict[str, cst.FunctionDef] = {}
    seen: set[str] = set()
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef):
            name = stmt.name.value
            if name in seen:
                defs.pop(name, None)  # (bound twice: which one runs is not the rule's to prove)
            else:
                defs[name] = stmt
            seen.add(name)
    found: dict[str, str] = {}
    todo = [(root, "") for root in roots if root in defs]
    while todo:
        name, why = todo.pop()
        if name in found and (found[name] or not why):
            continue
        found[name] = why
        for call in collect(defs[name], cst.Call):
            if isinstance(call.func, cst.Name) and call.func.value in defs:
                _, scope = _enclosing(call, parent)
                todo.append((call.func.value, why or scope or ""))
    return found


def _named_alike(name: cst.Arg | None, keras: str, module: cst.Module, layers: set[int]) -> str | None:
    """The name of an op or scope of `module` (a literal `name=` of another call, or a scope's literal name) that
    the layer's name scope would meet, making Keras number it: its literal name, the literal start of a computed
    one, or (unnamed) Keras's default name and its numbered forms."""
    if name is None:
        base = "".join(f"_{c.lower()}" if c.isupper() else c for c in keras).lstrip("_").replace("2_d", "2d")
        exact, start = base, base + "_"
    elif isinstance(name.value, cst.SimpleString):
        exact, start = str(name.value.evaluated_value), None
    else:
        head = collect(name.value, cst.SimpleString)
        exact, start = None, str(head[0].evaluated_value).split("%")[0].split("{")[0] if head else ""
    for call in collect(module, cst.Call):
        if id(call) in layers:
            continue
        func = call.func
        scope = (func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")) in _SCOPES
        for index, arg in enumerate(call.args):
            named = arg.keyword is not None and arg.keyword.value in ("name", "name_or_scope", "default_name")
            if (named or scope and index == 0 and arg.keyword is None) and isinstance(arg.value, cst.SimpleString):
                value = str(arg.value.evaluated_value)
                if value == exact or (start is not None and value.startswith(start)):
                    return value
    return None


def _update_reader(module: cst.Module) -> str | None:
    """How the file runs the UPDATE_OPS collection (a name, or a collection read by a key that may be it), if it does."""
    names = sorted({name.value for name in all_names(module)} & _UPDATE_READERS)
    return names[0] if names else next(iter(collection_reads(module, "UPDATE_OPS")), None)
