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
  runs under no variable_scope or name_scope (in its function nor at a call on the way from the model_fn); and
  every call of the same layer function in the file converts, or none (TF1 numbers unnamed layers per variable
  scope, Keras per graph: mixed, the numbers would part);
- or the call is written in a tower (`_layer_towers`): `for i in range(n): with variable_scope("net", reuse=i > 0)`
  (or `bool(i != 0)`, AUTO_REUSE; tf.device items beside it), under no other scope, condition, loop or function
  there, with a literal name or none and arguments no tower changes. Tower 0 makes the variables and the others
  reuse them by name, so the Keras layer is made once, in the first tower (`if i == 0:` before the call's
  statement), and called by every tower: built under the scope's first name scope ("net/"), it names its
  variables as TF1 did (net/conv2d/kernel). A tower converts whole or stays whole; an unnamed layer converts only
  if every call of its function is in that tower; a batch normalization in training mode in towers only where
  nothing runs UPDATE_OPS (each tower's call adds its updates of the shared variables there);
- or the call is in a function the towers call (cifar10_estimator's shape: a network function, a residual block under
  its own `variable_scope(name)`, a `name_scope("tower_%d" % i)` in the tower), proven by `_layer_called`: it becomes
  `compat.scoped_layers.layer(tf.keras.layers.Conv2D, ..., name="conv1")(x)` (so does a call written in the tower
  under a name_scope there), the Keras layer of the variable scope's
  path, made where the scope does not reuse and built under that path (TF1's names, resnet/stage0/conv1/kernel,
  whatever the name scopes), called again where it reuses; the layers of those functions convert all or none, a batch
  normalization in training mode only where nothing runs UPDATE_OPS or the model_fn reads the first tower's
  (`if i == 0: update_ops = get_collection(UPDATE_OPS, scope)`), which becomes the updates of the layers made by
  then (`compat.scoped_layers.made()`): the first tower's, as in TF1;
- nothing goes to a collection Keras does not fill: no regularizer (REGULARIZATION_LOSSES), no `reuse`; a batch
  normalization in training mode keeps its moving-average updates in `layer.updates`, not in UPDATE_OPS. So
  where nothing runs that collection it converts as it is (neither port updates the moving statistics); where
  the model_fn reads it once, `X = get_collection(GraphKeys.UPDATE_OPS)`, after every such batch normalization,
  each on a line of its own in that function, and nothing else fills or runs the collection, each layer is bound
  to `batch_norm` and kept in a list `batch_norms` made at the function's start, and the read becomes
  `[update for layer in batch_norms for update in layer.updates]`: the same update ops, run by the same train_op.
  Any other read refuses the batch normalizations.

tf-slim's conv2d, fully_connected and flatten in a model_fn's body, also under one `arg_scope`, convert as
`_layer_slim` proves them (all or none: TF1 numbered their unnamed layers, Conv, Conv_1, in the order they ran):
the Keras layer of a subclass naming its variables as TF1's (Conv/weights), the arg_scope's defaults written out on
each call and its block's statements kept without it.

Else the call stays at the safe level with an info entry saying why. tf.layers.dropout stays (a random op: its
mask is drawn by another op under the graph seed).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import cast

import libcst as cst

from codemods.engine.rule import FileState
from codemods.rule_description import Example
from codemods.rules import _tf
from codemods.rules._layer_called import (
    Called,
    called_from_towers,
    called_in_tower,
    first_tower_updates,
    named_in_tower,
)
from codemods.rules._layer_names import default_name, dtype_source, named_alike
from codemods.rules._layer_scopes import ESTIMATORS, FAMILY, NESTED, enclosing, false, model_fn_functions, off_tpu
from codemods.rules._layer_slim import ModelFnSlim
from codemods.rules._layer_towers import Tower, TowerLayers, layer_name, shared_alike, tower_of, whole_towers
from codemods.rules._layer_updates import Updates, training_mode, update_reader, updates_read
from codemods.rules._native_eager import EagerRewrite, keras_2, parents
from codemods.rules._native_names import SLIM_FUNCTIONS, VARIABLE_LIBRARIES
from codemods.rules._native_names import SLIM_LAYERS as SLIM_NAMES
from codemods.rules._native_slim import drop_slim_imports
from codemods.rules._native_syntax import EQUAL, Refused, all_names, arguments, collect, descendants, names_in
from codemods.rules._native_tables import LAYERS

_FUNCTIONS = {name: row for name, row in LAYERS.items() if name != "dropout"}
_NAMES = {f"tensorflow.{p}layers.{n}": n for n in _FUNCTIONS for p in ("", "compat.v1.")}
_NORM = "tf.layers.batch_normalization"
# keywords of a layer the Keras layer takes but TF1 put in a collection (REGULARIZATION_LOSSES) Keras does not fill
_COLLECTED = frozenset({"beta_regularizer", "gamma_regularizer"})
GRAPH_ENTRY = "graph code: "  # (bench/native.py runs no probe for such an entry: a model_fn is not a Session script)


class NativeLayersRule(EagerRewrite):
    ID = "native-layers"
    DESCRIPTION = (
        "tf.layers.conv2d/dense/batch_normalization/flatten/pooling in an Estimator's model_fn -> the Keras layer "
        "object, its variables' checkpoint names kept (its UPDATE_OPS read -> the batch normalizations' updates); "
        "tf-slim's conv2d/fully_connected/flatten there, also under arg_scope, alike."
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
        "whose tf.keras is Keras 2 (it imports compat), not in a TPUEstimator's unless use_tpu=False, under no "
        "variable_scope or name_scope (on the way from the model_fn either), without regularizers or reuse, and "
        "where every call of that layer function in the file converts. The towers of a multi-GPU model_fn (for i "
        "in range(n): with variable_scope(name, reuse=i > 0): layer calls) convert whole: each Keras layer is made "
        "once, in the first tower (if i == 0:), and called by every tower, as TF1's reuse shared its variables "
        "(net/conv2d/kernel); not with a condition inside the tower, per-tower arguments, two layers of a tower named alike (AUTO_REUSE shared them), towers in a function the file runs "
        "more than once, or a batch normalization in training mode where UPDATE_OPS is run. The layers of the functions a "
        "tower calls (cifar10_estimator: a network function, residual blocks under their own variable_scope(name), a "
        "name_scope per tower), and those written under a name_scope in the tower, become compat.scoped_layers.layer(tf.keras.layers.Conv2D, ..., name=...)(x): the Keras "
        "layer of the variable scope's path, made where the scope does not reuse and built under that path, so its "
        "variables have TF1's names (resnet/stage0/conv1/kernel; a name scope named none of TF1's), called again where "
        "it reuses; they convert all or none, named, with arguments nothing per tower changes, under no scope but a "
        "variable_scope of a name, a name_scope or a device; cifar10's read of the first tower's updates (if i == 0: "
        "update_ops = get_collection(UPDATE_OPS, scope)) becomes those of the layers made by then "
        "(compat.scoped_layers.made()): the first tower's, as TF1 ran them. A batch normalization in training "
        "mode keeps its moving-average updates in the Keras layer's layer.updates, not in the UPDATE_OPS "
        "collection: where nothing runs that collection, neither port updates them; where the model_fn reads it "
        "once (update_ops = get_collection(GraphKeys.UPDATE_OPS)) after each such layer, each on a line of its own "
        "in that function, and nothing else fills or runs it, the layers are kept in a list batch_norms and the "
        "read becomes their updates (the same ops, run by the same train_op); any other read (create_train_op, "
        "optimize_loss, a read before a layer or elsewhere) leaves them. What may change: the initial weights, drawn by other ops (Keras's "
        "initializers, not the variable scope's) and in another op order under a graph seed (a checkpoint of the "
        "safe port, loaded by the same names, starts both from the same weights, and then they train alike, but for "
        "a tower's random ops, as tf.layers.dropout in training mode: their op seeds come from the op order too, "
        "which the towers' layers made once change, so under a graph seed they draw other masks); the "
        "layers' variables are no longer in the variable scope store (tf.compat.v1.get_variable cannot reuse them by "
        "name) and their updates and losses not in the graph's collections; ops' names in the graph (e.g. a scoped "
        "layer's are under its variable scope's path, not the tower's name scope, resnet/stage0/conv1/Conv2D; "
        "conv0/Conv2D stays, the layer's call scope may be numbered otherwise). Each layer gets dtype=<its input>.dtype: "
        "TF1's layers made their variables in their input's dtype (float64 from a numpy array an input_fn did not "
        "cast), Keras's in float32; an input that is not a name, nor a layer of one, stays at the safe level. "
        "tf-slim's conv2d, fully_connected and flatten in the body of a model_fn, also under one arg_scope([conv2d, "
        "fully_connected], ...), become Keras layers made at the call: conv2d and fully_connected of a class the rule "
        "writes once before the model_fn, a Keras Conv2D or Dense naming its variables as TF1 did (Conv/weights, "
        "Conv_1/biases, fully_connected/weights: TF1's numbering of unnamed layers in the order they ran), with the "
        "arg_scope's defaults and tf-slim's own (relu, SAME padding) written out, xavier_initializer() as "
        "GlorotUniform; the arg_scope block's statements stay without it. They convert all or none, and not under a "
        "loop, condition or other scope, in a function the model_fn calls, with an arg_scope over other functions or "
        "whose block calls anything but those layers and TensorFlow's ops, a normalizer, reuse, collections, "
        "trainable=False, a regularizer (TF1 adds its loss to REGULARIZATION_LOSSES), an initializer it does not "
        "know, a computed scope or two layers of one scope.",
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
    ROOTS = frozenset(name.partition(".")[0] for name in VARIABLE_LIBRARIES)  # tf-slim's layers (compat.slim, tf_slim)

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._model_fns: list[str] = []  # the names given to an Estimator as its model_fn
        self._tpu_fns: list[str] = []  # those given to a TPUEstimator that may run on a TPU
        self._why: dict[int, str | None] = {}  # id(call) -> why it stays (None: it converts)
        self._staying: set[str] = set()  # the layer functions of which a call stays
        self._towers: dict[int, Tower] = {}  # id(call) -> the tower sharing its variables (a call in towers)
        self._names: dict[int, str] = {}  # id(call in towers) -> the name bound to its Keras layer
        self._made: dict[int, tuple[str, cst.SimpleStatementLine]] = {}  # id(its call) -> (index, the layer made)
        self._via_towers: set[int] = set()  # id(call in a function a tower calls, or under a tower's name_scope)
        self._called: dict[int, Called] = {}  # id(such a call, proven) -> how the towers reach it
        self._first_read: cst.SimpleStatementLine | None = None  # the first tower's UPDATE_OPS read, proven
        # tf-slim's layers (_layer_slim), read as native-session reads them (_native_slim's SlimNames)
        self.updated_calls: dict[int, cst.Call] = {}  # id(a library call) -> as the pass left it
        self._library: dict[int, frozenset[str]] = {}  # id(a call or an attribute) -> its library names
        self._tf_names: dict[int, frozenset[str]] = {}  # id(a TensorFlow call) -> its names
        self._slim: ModelFnSlim | None = None

    def candidate(self, names: frozenset[str]) -> str | None:
        found = sorted(names & _NAMES.keys())
        return f"tf.layers.{_NAMES[found[0]]}" if found else None

    def visit_Call(self, node: cst.Call) -> None:
        super().visit_Call(node)
        qualified = self.qualified_names(node.func)
        library = frozenset(n for n in qualified if n.startswith(VARIABLE_LIBRARIES))
        if library:
            self._library[id(node)] = library
            kind = min((SLIM_NAMES[n] for n in library if n in SLIM_NAMES), default=None)
            if kind is not None and id(node) not in self._found_ids:
                self._found.append((node, f"slim.{kind}", self.state.top))
                self._found_ids.add(id(node))
        if id(node) in self._tf_calls:
            self._tf_names[id(node)] = frozenset(n for n in qualified if n.startswith(_tf.TF))
        if any(n.startswith(FAMILY) and n.rsplit(".", 1)[-1] in ESTIMATORS for n in self.qualified_names(node.func)):
            given = next((a.value for a in node.args if a.keyword is not None and a.keyword.value == "model_fn"), None)
            if given is None and node.args and node.args[0].keyword is None and not node.args[0].star:
                given = node.args[0].value
            if isinstance(given, cst.Name):
                self._model_fns.append(given.value)
                if any(n.endswith(".TPUEstimator") for n in self.qualified_names(node.func)) and not off_tpu(node):
                    self._tpu_fns.append(given.value)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        super().visit_Attribute(node)
        if node.attr.value in SLIM_FUNCTIONS:  # (an arg_scope's list names them)
            self._library[id(node)] = frozenset(
                n for n in self.qualified_names(node) if n.startswith(VARIABLE_LIBRARIES)
            )

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in SLIM_FUNCTIONS:  # (an arg_scope's list of names imported from tf-slim)
            self._library[id(node)] = frozenset(
                n for n in self.qualified_names(node) if n.startswith(VARIABLE_LIBRARIES)
            )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if id(original_node) in self._library:
            self.updated_calls[id(original_node)] = updated_node
        return super().leave_Call(original_node, updated_node)

    def library_names(self, call: cst.CSTNode) -> frozenset[str]:
        return self._library.get(id(call), frozenset())

    def attribute_names(self, node: cst.CSTNode) -> frozenset[str]:
        return self._library.get(id(node), frozenset())

    def is_call(self, node: cst.CSTNode, names: Iterable[str]) -> str | None:
        found = self._tf_names.get(id(node), frozenset()) & frozenset(names)
        return min(found) if found else None

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        self._read: tuple[str, cst.SimpleStatementLine] | None = None
        if not self._model_fns:  # (tf-slim's layers outside an Estimator program are native-session's business)
            self._found = [found for found in self._found if not found[1].startswith("slim.")]
        if self.level == "native" and self._found:
            parent = parents(original_node)
            scoped = model_fn_functions(original_node, self._model_fns, parent)
            self._on_tpu = set(model_fn_functions(original_node, self._tpu_fns, parent))
            norms = [c for c, what, _ in self._found if what == _NORM and training_mode(c)]
            self._read = updates_read(original_node, self._model_fns, parent, norms)
            slim = [(c, what.removeprefix("slim.")) for c, what, _ in self._found if what.startswith("slim.")]
            if slim:
                self._slim = ModelFnSlim(
                    self,
                    _tf.tf_alias(self),
                    original_node,
                    parent,
                    set(self._model_fns),
                    set(self._tpu_fns),
                    slim,
                    set(self._tf_calls),
                )
            for call, what, _ in self._found:
                if what.startswith("slim."):
                    continue  # (below: they convert all or none)
                try:
                    self._check(call, what, original_node, parent, scoped)
                    self._why[id(call)] = None
                except Refused as refused:
                    self._why[id(call)] = refused.why
                    self._staying.add(what)
            self._called_whole(original_node, parent)
            whole_towers([(c, w) for c, w, _ in self._found], self._towers, self._why, self._staying)
            if self._slim is not None:
                common = self._common(original_node)
                found = self._slim.check(self._ids(), self._unnamed_defaults())
                self._why.update({key: common or why for key, why in found.items()})
        ported = super().leave_Module(original_node, updated_node)
        if self._slim is not None and any(self._why.get(id(c)) is None for c in self._slim.calls):
            ported = self._slim.finish(ported)
            drop_slim_imports(self, ported)
        if self._made:
            ported = cast(cst.Module, ported.visit(TowerLayers(ported, self._made)))
        if self._first_read is not None and any(self._why.get(i) is None for i in self._called):
            ported = self._first_tower_read(original_node, ported, self._first_read)
        if self._read is None or _NORM in self._staying:
            return ported
        function, line = self._read
        alias = _tf.tf_alias(self)
        self._drop_safe_entries(line)
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
            stmt.visit(Updates(alias, stmt))
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value == function
            else stmt
            for stmt in ported.body
        ]
        return ported.with_changes(body=body)

    def _unnamed(self, skip: cst.Call | None = None) -> Iterator[tuple[cst.Call, str, str]]:
        """(call, what, Keras's default name) of each tf.layers call of the file given no name (but `skip`)."""
        for other, what, _ in self._found:
            row = _FUNCTIONS.get(what.removeprefix("tf.layers."))
            if other is skip or row is None or what.startswith("slim."):
                continue
            positional = sum(a.keyword is None and not a.star for a in other.args)  # (name: after inputs and params)
            if positional < len(row[1]) + 2 and not any(a.keyword and a.keyword.value == "name" for a in other.args):
                yield other, what, default_name(row[0])

    def _unnamed_defaults(self) -> frozenset[str]:
        return frozenset(base for _, _, base in self._unnamed())

    def _not_a_default_name(self, call: cst.Call, name: str) -> None:
        """Refused where `name` is the default name (or a numbered one) of another layer the rule makes unnamed: in the
        graph an Estimator builds, Keras would number this layer's name scope past that one's (flatten_1/kernel),
        where TF1 reopened the variable scope (a layer without variables, as a Flatten, left it free)."""
        for _, what, base in self._unnamed(skip=call):
            if re.fullmatch(rf"{base}(_\d+)?", name, re.IGNORECASE):
                raise Refused(
                    call,
                    f"the name {name!r} is Keras's default name of another layer the rule makes unnamed ({what}): "
                    "in the graph an Estimator builds Keras would number this layer's name scope past it, TF1 "
                    "named its variables by the variable scope",
                )

    def _check(
        self, call: cst.Call, what: str, module: cst.Module, parent: dict[int, cst.CSTNode], scoped: dict[str, str]
    ) -> None:
        """Refused unless the call is proven (all but the rule's one-kind-or-none check)."""
        common = self._common(module)
        if common is not None:
            raise Refused(call, common)
        function, scope = enclosing(call, parent)
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
        on_the_way = scoped[function.name.value]
        called = None
        if "reuse" in on_the_way:
            self._via_towers.add(id(call))
            called = called_from_towers(call, module, parent, set(self._model_fns))
        elif on_the_way:
            raise Refused(call, on_the_way)
        elif scope and "reuse" not in scope and scope != NESTED:
            raise Refused(call, scope)
        elif scope and named_in_tower(call, parent):
            self._via_towers.add(id(call))
            called = called_in_tower(call, parent, set(self._model_fns))
        keras, params, call_keywords = _FUNCTIONS[what.removeprefix("tf.layers.")]
        args = arguments(call, ("inputs", *params, "name"), call, what)
        if called is not None:
            self._called_alike(call, what, args, called, call_keywords)
        elif scope:
            self._in_tower(call, what, tower_of(call, parent), args, module, call_keywords)
        if "inputs" not in args:
            raise Refused(call, f"{what} without its inputs")
        if dtype_source(args["inputs"].value, self._ids()) is None:
            raise Refused(
                call,
                f"{what} of an input that is not a name (nor a layer of one): TF1's layer made its variables in its "
                "input's dtype, which the rule writes as that name's .dtype",
            )
        clash = None if called else named_alike(args.get("name"), keras, module, {id(c) for c, _, _ in self._found})
        if clash:
            raise Refused(
                call,
                f"another op or scope of the file is named {clash!r}: Keras names a layer's variables by a name scope "
                "made unique in the graph (it would write its_name_1/kernel), TF1 by the variable scope",
            )
        given = args.get("name")
        if given is not None and isinstance(given.value, cst.SimpleString):
            self._not_a_default_name(call, str(given.value.evaluated_value))
        if set(args) & _COLLECTED:
            raise Refused(
                call, f"{what} with a regularizer: TF1 adds its loss to REGULARIZATION_LOSSES, Keras does not"
            )
        if called is not None:
            self._called[id(call)] = called  # (a batch normalization's updates: _called_whole)
            return
        training = args.get("training")
        if what == _NORM and training is not None and not false(training.value):
            reader = update_reader(module)
            if reader and self._read is None:
                raise Refused(
                    call,
                    f"in training mode in a file that runs the UPDATE_OPS collection ({reader}) otherwise than by "
                    "one read after its batch normalizations in their model_fn: a Keras BatchNormalization keeps "
                    "its moving-average updates in layer.updates, not in that collection, so the train_op would no "
                    "longer update the moving statistics",
                )

    def _common(self, module: cst.Module) -> str | None:
        """Why no layer call of the file converts, if none does."""
        if self._eager.why_not(module, self._tf_calls, graph=True) is not None:
            return "a library module (no main block, no TensorFlow call at its top level)"
        if not keras_2(self):
            return "tf.keras may be Keras 3 here (TF >= 2.16 without import compat): other layer code"
        return None

    def _called_alike(
        self, call: cst.Call, what: str, args: dict[str, cst.Arg], called: Called, call_keywords: tuple[str, ...]
    ) -> None:
        """Refused unless the Keras layer made where the call first runs is what TF1 made at every call sharing its
        variables: a literal name, and arguments read from nothing that may differ from one tower to the next."""
        name = args.get("name")
        if name is None or not isinstance(name.value, cst.SimpleString):
            raise Refused(
                call,
                f"{what} in a function a tower calls (or under its name_scope), without a literal name: TF1 numbered unnamed layers per "
                "variable scope (and named computed ones per call), which the layer of a scope's path does not follow",
            )
        varying = sorted(
            {n for k, a in args.items() if k not in ("inputs", *call_keywords) for n in names_in(a.value).names}
            & called.varying
        )
        for arg in [a for k, a in args.items() if k not in ("inputs", *call_keywords)]:
            for inner in collect(arg.value, cst.Call):
                if isinstance(inner.func, cst.Name):
                    raise Refused(
                        call,
                        f"in a function a tower calls (or under its name_scope), with an argument calling {inner.func.value}(...), which may "
                        "give each tower another value: TF1's later towers made their layers with their own "
                        "arguments around the shared variables, the Keras layer made in the first tower has its",
                    )
        if varying:
            raise Refused(
                call,
                f"in a function a tower calls (or under its name_scope), with arguments read from {', '.join(varying)}, which may differ per "
                "tower: TF1's later towers made their layers with their own arguments around the shared variables, "
                "the Keras layer made in the first tower has its arguments",
            )

    def _called_whole(self, module: cst.Module, parent: dict[int, cst.CSTNode]) -> None:
        """The layers of the functions the towers call convert all or none (one staying, the others do: the
        layers of one variable scope share a store in TF1); a batch normalization in training mode among them only
        where nothing runs UPDATE_OPS, or where the model_fn reads it as cifar10 does (`if i == 0: update_ops =
        get_collection(UPDATE_OPS, scope)`), which becomes the updates of the layers made by then."""
        proven = [c for c, _, _ in self._found if id(c) in self._called and self._why.get(id(c)) is None]
        norms = [c for c, what, _ in self._found if what == _NORM and training_mode(c)]
        reader = update_reader(module)
        if proven and reader and any(id(n) in self._called for n in norms):
            self._first_read = first_tower_updates(module, parent, [self._called[id(c)] for c in proven])
            for norm in norms:
                if (
                    id(norm) in self._called
                    and self._why.get(id(norm)) is None
                    and (self._first_read is None or any(self._why.get(id(n)) is not None for n in norms))
                ):
                    self._why[id(norm)] = (
                        f"in training mode in a function a tower calls (or under its name_scope), in a file that runs the UPDATE_OPS collection "
                        f"({reader}) otherwise than by one read of the first tower's (if i == 0: update_ops = "
                        "get_collection(GraphKeys.UPDATE_OPS, <the tower's name scope>) after the tower's calls): a "
                        "Keras BatchNormalization keeps its updates in layer.updates, and which of them TF1 ran is "
                        "not proven"
                    )
        kept = [c for c in self._via_towers if self._why.get(c) is not None]
        for call, what, _ in self._found:
            if id(call) in self._called and self._why.get(id(call)) is None and kept:
                self._why[id(call)] = (
                    "another layer call in the functions the towers call (or under their name_scope) stays at the "
                    "safe level: they convert all or none (TF1's layers of one variable scope share its store)"
                )
                self._staying.add(what)

    def _drop_safe_entries(self, line: cst.SimpleStatementLine) -> None:
        """tf1-api's entries for the names of a read the rule rewrites."""
        inside = {id(n) for n in descendants(line)}
        self.state.reports[:] = [
            (top, node, entry)
            for top, node, entry in self.state.reports
            if not (id(node) in inside and entry.rule != self.ID and "compat.v1" in entry.message)
        ]

    def _first_tower_read(self, module: cst.Module, ported: cst.Module, line: cst.SimpleStatementLine) -> cst.Module:
        """`ported` with the first tower's UPDATE_OPS read -> the updates of the Keras layers made by then."""
        self._drop_safe_entries(line)
        self.report(
            line,
            f"{GRAPH_ENTRY}the first tower's get_collection(UPDATE_OPS, scope) -> the updates of the Keras layers made "
            "by then (compat.scoped_layers.made(): the first tower's batch normalizations, the moving-average updates "
            "TF1 ran; the later towers' stay unrun, as in TF1)",
            native=True,
            statement=next(i for i, stmt in enumerate(module.body) if id(line) in {id(d) for d in descendants(stmt)}),
        )
        reads = cst.parse_expression("[update for layer in compat.scoped_layers.made() for update in layer.updates]")

        above = {id(child): node for node in descendants(ported) for child in node.children}
        target = next(
            n
            for n in descendants(ported)
            if isinstance(n, cst.Assign) and any(name.value == "UPDATE_OPS" for name in all_names(n.value))
        )
        path: set[int] = set()
        node: cst.CSTNode | None = target
        while node is not None:
            path.add(id(node))
            node = above.get(id(node))

        class Read(cst.CSTTransformer):
            """Only the path down to the read is rebuilt: the later rules find their calls elsewhere by identity."""

            def on_visit(self, node: cst.CSTNode) -> bool:
                return id(node) in path

            def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
                return updated_node.with_changes(value=reads) if original_node is target else updated_node

        return cast(cst.Module, ported.visit(Read()))

    def _in_tower(
        self,
        call: cst.Call,
        what: str,
        tower: Tower,
        args: dict[str, cst.Arg],
        module: cst.Module,
        call_keywords: tuple[str, ...],
    ) -> None:
        """Refused unless the Keras layer made in the first tower is what every tower's call shared in TF1."""
        shared_alike(call, what, tower, args, module, call_keywords, [(c, w) for c, w, _ in self._found])
        if what == _NORM and training_mode(call) and update_reader(module):
            raise Refused(
                call,
                "in training mode in a tower of a file that runs the UPDATE_OPS collection: each tower's call adds "
                "its moving-average updates of the shared variables there (a read of all of them runs two "
                "updates of one variable per step, in an order the graph does not fix; cifar10's read of the "
                "first tower's name scope needs a name_scope in the variable scope, under which Keras would name "
                "the variables otherwise)",
            )
        self._towers[id(call)] = tower
        taken = {n.value for n in all_names(module)} | set(self._names.values())
        self._names[id(call)] = layer_name(what, args.get("name"), taken)

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
        if what.startswith("slim.") and self._slim is not None:
            return self._slim.convert(call, updated)
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
        source = dtype_source(arguments(call, ("inputs", *params, "name"), call, what)["inputs"].value, self._ids())
        assert source is not None  # (_check refused the call otherwise)
        made.append(cst.Arg(cst.Attribute(source, cst.Name("dtype")), keyword=cst.Name("dtype"), equal=EQUAL))
        layer = cst.Call(func=cst.parse_expression(f"{alias}.keras.layers.{keras}"), args=made)
        if id(call) in self._called:
            direct = self._called[id(call)].sites == (call,)
            where = (
                "in a model_fn's tower, under its name_scope," if direct else "in a function a model_fn's towers call"
            )
            shared = cst.Call(
                func=cst.parse_expression("compat.scoped_layers.layer"),
                args=[cst.Arg(cst.parse_expression(f"{alias}.keras.layers.{keras}")), *made],
            )
            said = (
                f"{GRAPH_ENTRY}{what} {where} -> tf.keras.layers.{keras}, one per "
                "variable scope path (compat.scoped_layers.layer: made where the scope does not reuse, built under "
                "its path, called again where it reuses), its variables' names kept"
            )
            return cst.Call(func=shared, args=called), said
        tower = self._towers.get(id(call))
        if tower is not None:
            bound = self._names[id(call)]
            called_in_towers = cst.Call(func=cst.Name(bound), args=called)
            self._made[id(called_in_towers)] = (
                tower.index,
                cst.SimpleStatementLine([cst.Assign([cst.AssignTarget(cst.Name(bound))], layer)]),
            )
            said = (
                f"{GRAPH_ENTRY}{what} in a model_fn's towers (variable_scope({tower.name!r}, reuse=...) in a "
                f"loop over {tower.index}) -> tf.keras.layers.{keras} made in the first tower and called by every "
                "tower (TF1's reuse shared its variables), its variables' names kept"
            )
            return called_in_towers, said
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
