"""native-estimator-loop's reading of a model_fn: straight-line code of Keras layers, a loss and a tf.train optimizer's
minimize, turned into the layers made once, model()'s statements, the loss and the Keras optimizer (Refused where it
is not that shape). codemods/rules/native_estimator_loop.py writes the port around them.
"""

from __future__ import annotations

import json
import keyword
import re
from collections.abc import Callable
from typing import cast

import libcst as cst

from codemods.rules import _native_monitored as monitored
from codemods.rules import _native_tables as tables
from codemods.rules._native_names import unrun_updates
from codemods.rules._native_syntax import (
    Refused,
    arguments,
    assigned,
    bound_names,
    collect,
    names_in,
    single,
    source_of,
)

# EstimatorSpec's parameters in positional order (TF 1.15)
_SPEC = (
    "mode",
    "predictions",
    "loss",
    "train_op",
    "eval_metric_ops",
    "export_outputs",
    "training_chief_hooks",
    "training_hooks",
    "scaffold",
    "evaluation_hooks",
    "prediction_hooks",
)
# TensorFlow's names below tf. that are not ops a train step may run at each call (they make state, or belong to
# TF1's graph, the Estimator or Keras's layers, models and optimizers)
_NOT_OPS = (
    "keras.",
    "compat.",
    "estimator.",
    "train.",
    "summary.",
    "random.",
    "Variable",
    "Module",
    "get_variable",
    "variable_scope",
    "Graph",
    "Session",
    "data.",
    "saved_model.",
)
# activations that keep their input's dtype (what a layer after them takes as its dtype)
_SAME_DTYPE = frozenset({"relu", "relu6", "elu", "selu", "tanh", "sigmoid", "softplus", "leaky_relu"})
# Keras layers whose call draws random values (another mask than TF1's graph seed drew)
RANDOM_LAYERS = frozenset({"Dropout", "SpatialDropout2D", "GaussianNoise", "GaussianDropout", "AlphaDropout"})

# the names the port binds where the train call was: a layer of the model_fn is named otherwise
PORT_NAMES = (
    "dataset",
    "dtype",
    "model",
    "optimizer",
    "global_step",
    "train_step",
    "batches",
    "first",
    "checkpoint",
    "manager",
    "last_step",
    "saved",
    "iteration",
    "step",
    "loss",
    "writer",
    "summarized",
)
# (the train step's parameters too, and the Estimator's params where the port binds them)
# the model_fn's parameters: a value read from one of them is computed by the model_fn
ARGUMENTS = frozenset({"features", "labels", "mode", "params"})
TAKEN = frozenset({*PORT_NAMES, "features", "labels", "params"})
# names TF gives ops by default (an op type: Const, MatMul; an operator's or tf.data's): TF1's graph named a variable as
# given only where no op made before it held the name, else <name>_1 (measured on TF 2.15), which the port's restore
# would not find
_OP_NAMES = re.compile(
    r"([A-Z][a-z]\w*|add|sub|mul|truediv|floordiv|mod|pow|neg|strided_slice|tensors|count|batch_size|buffer_size|"
    r"drop_remainder|seed2?)(_\d+)?"
)
# tf.get_variable's parameters in positional order (TF 1.15)
_GET_VARIABLE = (
    "name",
    "shape",
    "dtype",
    "initializer",
    "regularizer",
    "trainable",
    "collections",
    "caching_device",
    "partitioner",
    "validate_shape",
    "use_resource",
    "custom_getter",
    "constraint",
    "synchronization",
    "aggregation",
)


class ModelFn:
    """A model_fn read as straight-line code of Keras layers: its layers (hoisted), its statements for model(),
    its loss and the Keras optimizer."""

    def __init__(
        self, tf: str, is_: Callable[..., bool], node: cst.FunctionDef, classes: frozenset[str] = frozenset()
    ) -> None:
        # (tf: the module's name for tensorflow; is_(node, *names): is node one of TF's names, v1 or not; classes:
        # the module's Keras layers naming their variables as tf-slim's, _native_slim.written_classes)
        self.node, self.tf, self.is_, self.classes = node, tf, is_, classes
        self.bound: set[str] = set()  # names the body binds
        self.same: set[str] = set()  # names proven of the features' dtype
        self.lists: set[str] = set()  # native-layers' lists of batch normalizations
        self.updates: set[str] = set()  # the names of their updates
        self.said = ""  # what the optimizer's port changes
        self.layers: list[tuple[str, str, str | None]] = []  # (name, constructor, loop header)
        self.looped: set[str] = set()  # the layers made in a loop (a list of them, one per iteration)
        self.setters: dict[str, str] = {}  # local replica_device_setters -> their one device
        self.device: str | None = None
        self.on_device = self.minimized_on_device = False
        self.appended: set[str] = set()  # the layers appended to native-layers' lists of batch normalizations
        self.dependent = False  # is the minimize under control_dependencies of their updates?
        self.rebound: set[str] = set()  # the names a statement binds (for a loop's dtype invariant)
        self.top: list[cst.BaseStatement] = []
        self.optimizer: str | None = None
        self.loss: str | None = None
        self.train_op: str | None = None
        self.params = False  # does it read the Estimator's params?
        self.variables: list[str] = []  # the names bound to its tf.get_variable (tf.Variables made once)
        self.made_variables: list[str] = []  # the code making them
        self.tf1_names: list[str] = []  # their TF1 names
        self.global_step: str | None = None  # the name bound to get_or_create_global_step(), minimize's global step
        # its `if mode == ModeKeys.EVAL:` branch: each eval_metric_ops key -> (the Keras metric, its inputs' code)
        self.evaluation: dict[str, tuple[str, list[str]]] | None = None
        self.eval_loss: str | None = None

    def read(self) -> tuple[list[str], list[str], list[str], str, str, str | None, str]:
        """(the code making the layers once, their names, model()'s statements, the loss, the Keras optimizer, the
        device the model_fn's ops were placed on or None, what the entry says)."""
        node = self.node
        params = [p.name.value for p in node.params.params]
        others = (node.params.star_arg, node.params.star_kwarg, *node.params.kwonly_params, *node.params.posonly_params)
        if (
            params[:3] != ["features", "labels", "mode"]
            or len(params) > 4
            or any(isinstance(o, cst.Param) for o in others)
        ):
            raise Refused(node, "a model_fn whose parameters are not (features, labels, mode[, params])")
        text = source_of(node.body)
        if len(params) == 4 and params[3] == "params":
            self.params = reads_params(node, "a model_fn")
        elif len(params) == 4 and re.search(rf"\b{params[3]}\b", text):
            raise Refused(node, f"a model_fn reading `{params[3]}`")
        self.same = {"features"}
        statements = self._eval_first(list(cast(cst.IndentedBlock, node.body).body))
        self.top = statements
        branch = next((i for i, stmt in enumerate(statements[:-1]) if self._is_branch(stmt, "EVAL")), None)
        if branch is None:
            body = self._block(statements[:-1])
        else:  # (model() runs the statements around it; the branch's metrics read those before it)
            body = self._block(statements[:branch])
            before = set(self.bound)
            self._eval_branch(cast(cst.If, statements[branch]))
            body += self._block(statements[branch + 1 : -1])
            later = set().union(*(bound_names(stmt) for stmt in statements[branch + 1 : -1]))
            read = {n for _, inputs in (self.evaluation or {}).values() for code in inputs for n in _names(code)}
            again = sorted(read & later)
            if again:
                raise Refused(
                    statements[branch],
                    f"`{again[0]}`, which a metric reads, is bound again after the EVAL branch (TF1 returned before)",
                )
            if self.eval_loss is None or self.eval_loss not in before:
                raise Refused(statements[branch], "the EVAL EstimatorSpec's loss is not the minimize's")
        spec = self._spec(statements[-1])
        if self.optimizer is None or spec != (self.loss, self.train_op):
            raise Refused(statements[-1], "an EstimatorSpec whose loss and train_op are not the minimize's")
        if self.loss not in self.bound:
            raise Refused(statements[-1], "a loss the model_fn does not compute")
        if self.evaluation is not None and self.eval_loss != self.loss:
            raise Refused(statements[-1], "the EVAL EstimatorSpec's loss is not the minimize's")
        shadowed = sorted(self.layers_named() & (self.bound | set(params)))
        if shadowed:
            raise Refused(node, f"`{shadowed[0]}`, a layer's name, is a name the model_fn binds")
        for name, made, _ in self.layers:
            if ".BatchNormalization(" in made and not (name in self.appended and self.dependent):
                raise Refused(node, unrun_updates(name))
        if self.device is not None and not self.minimized_on_device:
            raise Refused(node, "a device block in the model_fn that does not hold its minimize")
        self._variables_alone()
        said = f"model_fn's {len(self.layers)} Keras layers made once, a tf.function train step, {self.said}"
        if self.variables:
            said += (
                f"; its {len(self.variables)} tf.get_variable -> tf.Variable made once under TF1's names "
                f"({', '.join(self.tf1_names)}: names TF gives no op by default, which TF1 kept), float32, drawn by the TF 2 initializer of the repo's table (TF1's "
                "default for a float where none is given: Glorot's uniform); their initial values are drawn in eager, "
                "not from TF1's graph seed (other values: the port trains from a checkpoint as TF1 did)"
            )
        if self.global_step is not None:
            said += (
                f"; `{self.global_step} = tf.train.get_or_create_global_step()`, read only as minimize's global step, "
                "is the port's global_step"
            )
        if self.device is not None:
            said += f"; its local replica_device_setter -> tf.device({self.device}), the one device it gave every op"
        names = [name for name, _, _ in self.layers]
        return self._made(), names, body, cast(str, self.loss), cast(str, self.optimizer), self.device, said

    def _variables_alone(self) -> None:
        """The global step's name is read only by the minimize; a variable's TF1 name is not a Keras layer's: TF1's
        graph made the layer's scope unique against it (dense_1/kernel), the port's layer names its weights dense/."""
        if self.global_step is not None and names_in(self.node.body).names.count(self.global_step) != 2:
            raise Refused(self.node, "the global step read other than as minimize's global_step")
        for tf1_name in self.tf1_names:
            head = tf1_name.split("/")[0]
            for _, made, _ in self.layers:
                call = cst.parse_expression(made)
                func = call.func if isinstance(call, cst.Call) else call
                given = [
                    a.value
                    for a in (call.args if isinstance(call, cst.Call) else ())
                    if a.keyword and a.keyword.value == "name"
                ]
                base = given[0].evaluated_value if given and isinstance(given[0], cst.SimpleString) else None
                base = str(base) if base is not None else _snake(source_of(func).rpartition(".")[2])
                if re.fullmatch(rf"{re.escape(base)}(_\d+)?", head):
                    raise Refused(self.node, f"the variable `{tf1_name}` named as a Keras layer of the model_fn")

    def _made(self) -> list[str]:
        """The code making the variables, then the layers in TF1's order (those of a loop in a loop of the same
        range)."""
        code: list[str] = list(self.made_variables)
        index = 0
        while index < len(self.layers):
            name, made, loop = self.layers[index]
            if loop is None:
                code.append(f"{name} = {made}")
                index += 1
                continue
            group = [layer for layer in self.layers[index:] if layer[2] == loop]
            group = group[: next((i for i, layer in enumerate(self.layers[index:]) if layer[2] != loop), len(group))]
            names = [g[0] for g in group]
            code.append(f"{', '.join(names)} = {', '.join('[]' for _ in names)}")
            code.append(loop)
            code += [f"    {g[0]}.append({g[1]})" for g in group]
            index += len(group)
        return code

    def _block(self, statements: list[cst.BaseStatement], loop: tuple[str, str] | None = None) -> list[str]:
        """model()'s statements for `statements` of the model_fn (in a loop: its variable and header)."""
        body: list[str] = []
        for stmt in statements:
            name, value = assigned(single(stmt))
            if isinstance(stmt, cst.With) and len(stmt.items) == 1 and self._updates_dependency(stmt.items[0].item):
                inner = list(cast(cst.IndentedBlock, stmt.body).body)
                if len(inner) != 1 or self._minimize(cast(cst.BaseExpression, assigned(single(inner[0]))[1])) is None:
                    raise Refused(stmt, "control_dependencies around more than the minimize")
                self.dependent = True
                stmt = inner[0]
                name, value = assigned(single(stmt))
            elif isinstance(stmt, cst.With):
                body += self._device_block(stmt, loop)
                continue
            if isinstance(stmt, cst.For):
                body += self._loop(stmt, loop)
                continue
            if not isinstance(stmt, cst.SimpleStatementLine):
                raise Refused(
                    stmt, "a block in the model_fn other than a loop over range(), a device and the minimize's"
                )
            small = single(stmt)
            if isinstance(small, cst.Expr) and self._append(small.value):
                self.appended.add(cast(cst.Name, cast(cst.Call, small.value).args[0].value).value)
                continue
            if name is None or value is None:
                raise Refused(stmt, f"`{source_of(stmt).strip()}`, a statement the rule does not read")
            if name in self.variables or name == self.global_step:
                raise Refused(stmt, f"`{name}`, a variable of the model_fn, bound again")
            if isinstance(value, cst.Call) and self.is_(value.func, "get_variable"):
                self._variable(name, value, stmt, loop)
                continue
            if (
                isinstance(value, cst.Call)
                and not value.args
                and self.is_(value.func, "train.get_or_create_global_step", "train.get_global_step")
            ):
                if self.global_step is not None or loop is not None or name in self.bound:
                    raise Refused(stmt, "the global step bound in a loop, twice, or to a name bound elsewhere")
                self.global_step = name  # (the Estimator made it before calling the model_fn: the port's)
                continue
            if isinstance(value, cst.List) and not value.elements:
                self.lists.add(name)
                continue
            if self._updates_list(value):
                self.updates.add(name)
                continue
            if isinstance(value, cst.Call) and self.is_(value.func, "train.replica_device_setter"):
                if loop is not None or self.setters:
                    raise Refused(stmt, "a device setter in a loop, or two")
                self.setters[name] = monitored.device_setter(value, value, name, self.top, stmt)[1]
                continue
            minimized = self._minimize(value)
            if minimized is not None:
                if self.optimizer is not None or loop is not None:
                    raise Refused(stmt, "two minimize calls, or one in a loop")
                self.optimizer, self.loss, self.train_op = minimized[0], minimized[1], name
                self.minimized_on_device = self.on_device
                continue
            line = self._statement(value, name, stmt, loop)
            if line is not None:
                body.append(f"{name} = {line}")
        return body

    def _is_branch(self, stmt: cst.BaseStatement, mode: str) -> bool:
        """`if mode == tf.estimator.ModeKeys.<mode>:`."""
        test = stmt.test if isinstance(stmt, cst.If) else None
        return (
            isinstance(test, cst.Comparison)
            and isinstance(test.left, cst.Name)
            and test.left.value == "mode"
            and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, cst.Equal)
            and self.is_(test.comparisons[0].comparator, f"estimator.ModeKeys.{mode}")
        )

    def _eval_first(self, statements: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
        """`if mode == TRAIN:` ending in its return, then the EVAL statements ending in theirs -> `if mode == EVAL:`
        of those, then the TRAIN branch's statements: the Estimator called model_fn in these two modes only."""
        at = next((i for i, stmt in enumerate(statements[:-1]) if self._is_branch(stmt, "TRAIN")), None)
        if at is None:
            return statements
        branch = cast(cst.If, statements[at])
        trained = list(cast(cst.IndentedBlock, branch.body).body)
        if branch.orelse is not None or not isinstance(single(trained[-1]), cst.Return):
            raise Refused(branch, "a TRAIN branch with an else, or not ending in its return")
        comparator = cast(cst.Comparison, branch.test).comparisons[0]
        evaluated = cast(cst.Attribute, comparator.comparator).with_changes(attr=cst.Name("EVAL"))
        test = cast(cst.Comparison, branch.test).with_changes(
            comparisons=[comparator.with_changes(comparator=evaluated)]
        )
        evaluation = cst.If(test=test, body=cst.IndentedBlock(body=statements[at + 1 :]))
        return [*statements[:at], evaluation, *trained]

    def _eval_branch(self, stmt: cst.If) -> None:
        """The EVAL branch: tf.metrics accuracy / mean bound to names, then `return EstimatorSpec(mode, loss=loss,
        eval_metric_ops={"key": metric, ...})` (a metric bound or written there) -> self.evaluation."""
        if stmt.orelse is not None:
            raise Refused(stmt, "an EVAL branch with an else")
        inner = list(cast(cst.IndentedBlock, stmt.body).body)
        named: dict[str, tuple[str, list[str]]] = {}
        for line in inner[:-1]:
            name, value = assigned(single(line))
            metric = self._metric(value, line) if name is not None and value is not None else None
            if metric is None:
                raise Refused(line, "a statement in the EVAL branch other than a metric (tf.metrics.accuracy or mean)")
            named[cast(str, name)] = metric
        small = single(inner[-1])
        spec = small.value if isinstance(small, cst.Return) else None
        if not (isinstance(spec, cst.Call) and self.is_(spec.func, "estimator.EstimatorSpec")):
            raise Refused(inner[-1], "an EVAL branch not ending in `return tf.estimator.EstimatorSpec(...)`")
        args = arguments(spec, _SPEC, spec, "EstimatorSpec")
        if set(args) != {"mode", "loss", "eval_metric_ops"}:
            raise Refused(spec, "an EVAL EstimatorSpec of more than mode, loss and eval_metric_ops")
        loss, ops = args["loss"].value, args["eval_metric_ops"].value
        self.eval_loss = loss.value if isinstance(loss, cst.Name) else None
        if not isinstance(ops, cst.Dict):
            raise Refused(spec, "eval_metric_ops other than a dict written out")
        evaluation: dict[str, tuple[str, list[str]]] = {}
        for element in ops.elements:
            if not (isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString)):
                raise Refused(spec, "an eval_metric_ops key that is not written out")
            key = str(element.key.evaluated_value)
            if key in ("loss", "global_step") or key in evaluation:
                raise Refused(spec, f'an eval_metric_ops key "{key}" (the Estimator defines it), or one given twice')
            value = element.value
            found = named.pop(value.value, None) if isinstance(value, cst.Name) else self._metric(value, spec)
            if found is None:
                raise Refused(spec, "an eval_metric_ops value other than a metric of the EVAL branch")
            evaluation[key] = found
        if named:
            raise Refused(stmt, f"`{min(named)}`, a metric of the EVAL branch, is not one of eval_metric_ops")
        branch = set(bound_names(stmt))
        if any(branch & _names(code) for _, inputs in evaluation.values() for code in inputs):
            raise Refused(stmt, "a metric of a value the EVAL branch computes")
        self.evaluation = evaluation

    def _metric(self, value: cst.BaseExpression, line: cst.CSTNode) -> tuple[str, list[str]] | None:
        """tf.metrics.accuracy / mean of values model() computes -> (the Keras metric, its update_state's inputs'
        code); None for another value, Refused for another tf.metrics."""
        if not isinstance(value, cst.Call):
            return None
        kind = next((k for k in ("accuracy", "mean") if self.is_(value.func, f"metrics.{k}")), None)
        if kind is None:
            if ".metrics." in source_of(value.func):
                raise Refused(line, "a metric other than tf.metrics.accuracy and tf.metrics.mean")
            return None
        keras, params, update = tables.METRICS[kind]
        optional = ("weights", "metrics_collections", "updates_collections", "name")
        args = arguments(value, (*params, *optional), line, f"tf.metrics.{kind}")
        if set(args) != set(params):
            raise Refused(line, f"tf.metrics.{kind} with weights or a name")
        for arg in args.values():
            text = source_of(arg.value)
            if "compat.v1" in text or re.search(r"random|dropout", text) or "mode" in names_in(arg.value).names:
                raise Refused(line, f"a metric of {text}: graph code, a random op or the mode")
            for call in collect(arg.value, cst.Call):
                func = call.func
                layer = isinstance(func, cst.Name) and func.value in self.layers_named()
                if layer or self._is_layer(call) or self._is_layer_class(call) or not self._op(call):
                    raise Refused(line, "a metric of a layer made or called in the EVAL branch, or of another call")
        inputs = [source_of(args[p].value) for p in update]
        if keras == "Accuracy":  # (labels, predictions)
            # (TF1 cast the predictions to the labels' dtype, truncating floats for int labels; Keras's Accuracy casts
            # both to float32 and compares those)
            labels = args["labels"].value
            simple = isinstance(labels, (cst.Name, cst.Attribute, cst.Call, cst.Subscript))
            inputs[1] = f"{self.tf}.cast({inputs[1]}, {inputs[0] if simple else f'({inputs[0]})'}.dtype)"
        return keras, inputs

    def _device_block(self, stmt: cst.With, loop: tuple[str, str] | None) -> list[str]:
        """`with tf.device(setter):` of a local replica_device_setter (_native_monitored proves its one device)."""
        item = stmt.items[0].item if len(stmt.items) == 1 and stmt.items[0].asname is None else None
        device = None
        if isinstance(item, cst.Call) and len(item.args) == 1 and isinstance(item.args[0].value, cst.Name):
            if source_of(item.func) in (f"{self.tf}.device", "compat.device"):
                device = self.setters.get(item.args[0].value.value)
        if device is None or loop is not None or self.device is not None:
            raise Refused(stmt, "a `with` block in the model_fn other than one device of a local replica_device_setter")
        self.device, self.on_device = device, True
        inner = self._block(list(cast(cst.IndentedBlock, stmt.body).body))
        self.on_device = False
        return inner

    def _loop(self, stmt: cst.For, loop: tuple[str, str] | None) -> list[str]:
        """`for i in range(n):` (n read from outside the model_fn): its layers made once per iteration, in a list."""
        target, call = stmt.target, stmt.iter
        if (
            loop is not None
            or stmt.orelse is not None
            or not isinstance(target, cst.Name)
            or not (isinstance(call, cst.Call) and source_of(call.func) == "range" and len(call.args) == 1)
        ):
            raise Refused(stmt, "a loop in the model_fn other than one `for i in range(n):`, not nested")
        count = call.args[0].value
        if collect(count, cst.Call) or set(names_in(count).names) & (self.bound | {"features", "labels", "mode"}):
            raise Refused(stmt, "a loop over range() of a value the model_fn computes, or calls")
        if target.value in self.bound or target.value in self.layers_named():
            raise Refused(stmt, f"`{target.value}`, the loop's variable, is bound elsewhere in the model_fn")
        header = f"for {target.value} in range({source_of(count)}):"
        before = set(self.same)
        inner = self._block(list(cast(cst.IndentedBlock, stmt.body).body), (target.value, header))
        if not before & self.rebound <= self.same:
            raise Refused(stmt, "a loop changing the dtype its layers take (not proven the features')")
        self.bound.add(target.value)
        return [header, *(f"    {line}" for line in inner)]

    def layers_named(self) -> set[str]:
        return {layer[0] for layer in self.layers}

    def _updates_dependency(self, item: cst.BaseExpression) -> bool:
        return (
            isinstance(item, cst.Call)
            and self.is_(item.func, "control_dependencies")
            and len(item.args) == 1
            and isinstance(item.args[0].value, cst.Name)
            and item.args[0].value.value in self.updates
        )

    def _append(self, value: cst.BaseExpression) -> bool:
        """`batch_norms.append(batch_norm)` of native-layers' list (Keras layers apply their updates in eager)."""
        return (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Attribute)
            and value.func.attr.value == "append"
            and isinstance(value.func.value, cst.Name)
            and value.func.value.value in self.lists
            and len(value.args) == 1
            and isinstance(value.args[0].value, cst.Name)
            and value.args[0].value.value in self.layers_named()
        )

    def _updates_list(self, value: cst.BaseExpression) -> bool:
        """native-layers' `[update for layer in batch_norms for update in layer.updates]`."""
        return (
            isinstance(value, cst.ListComp)
            and any(isinstance(f.iter, cst.Name) and f.iter.value in self.lists for f in collect(value, cst.CompFor))
            and source_of(value).endswith(".updates]")
        )

    def _minimize(self, value: cst.BaseExpression) -> tuple[str, str] | None:
        """`tf.train.<Optimizer>(...).minimize(loss, global_step)` -> (the Keras optimizer, the loss's name)."""
        if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)):
            return None
        if value.func.attr.value != "minimize" or not isinstance(value.func.value, cst.Call):
            return None
        code, self.said = keras_optimizer(self.tf, self.is_, value.func.value, self.bound)
        return code, minimized(self.is_, value, self.global_step)

    def _variable(self, name: str, call: cst.Call, stmt: cst.BaseStatement, loop: tuple[str, str] | None) -> None:
        """`name = tf.get_variable(...)` -> a tf.Variable made once (tf1_variable), at the model_fn's top level."""
        if loop is not None or self.on_device:
            raise Refused(stmt, "tf.get_variable in a loop or a device block")
        if name in self.bound or name in self.layers_named():
            raise Refused(stmt, f"`{name}`, a variable of the model_fn, bound again")
        if name in TAKEN:
            raise Refused(stmt, f"`{name}`, a variable of the model_fn, is a name the port binds")
        code, tf1_name = tf1_variable(self.tf, self.is_, call, stmt, self.bound)
        if tf1_name in self.tf1_names or tf1_name == "global_step":
            raise Refused(stmt, f"the variable `{tf1_name}` made twice (TF1 raised ValueError)")
        if _OP_NAMES.fullmatch(tf1_name.split("/")[0]):
            raise Refused(stmt, f"the variable `{tf1_name}` named as an op TF may have made before it")
        self.made_variables.append(f"{name} = {code}")
        self.variables.append(name)
        self.tf1_names.append(tf1_name)
        self.bound.add(name)

    def _spec(self, stmt: cst.BaseStatement) -> tuple[str | None, str | None]:
        small = single(stmt)
        spec = small.value if isinstance(small, cst.Return) else None
        if not (isinstance(spec, cst.Call) and self.is_(spec.func, "estimator.EstimatorSpec")):
            raise Refused(stmt, "a model_fn not ending in `return tf.estimator.EstimatorSpec(...)`")
        args = arguments(spec, _SPEC, spec, "EstimatorSpec")
        if set(args) != {"mode", "loss", "train_op"}:
            raise Refused(spec, "an EstimatorSpec of more than mode, loss and train_op (other modes' outputs)")
        loss, train_op = args["loss"].value, args["train_op"].value
        return (
            loss.value if isinstance(loss, cst.Name) else None,
            train_op.value if isinstance(train_op, cst.Name) else None,
        )

    def _statement(
        self, value: cst.BaseExpression, name: str, stmt: cst.BaseStatement, loop: tuple[str, str] | None
    ) -> str | None:
        """`name = value` for model(): each Keras layer made in it hoisted (made once), `mode == TRAIN` -> training."""
        text = source_of(value)
        if "compat.v1" in text or re.search(r"random|dropout|shuffle|multinomial", text) or "Variable" in text:
            raise Refused(stmt, f"`{name} = {text}`: graph code, a variable or a random op in the model_fn")
        port = self

        class Hoist(cst.CSTTransformer):
            def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
                if port._is_layer(original):
                    return updated.with_changes(func=port._layer(port._hoist(original, None, stmt, loop), loop))
                func = original.func
                if isinstance(func, cst.Name) and func.value in port.looped:
                    if loop is None:
                        raise Refused(stmt, f"`{func.value}`, a layer made in a loop, called after it")
                    return updated.with_changes(func=port._layer(func.value, loop))
                return updated

            def leave_Comparison(self, original: cst.Comparison, updated: cst.Comparison) -> cst.BaseExpression:
                return cst.Name("training") if port._training(original) else updated

        if self._is_layer_class(value):  # (`batch_norm = tf.keras.layers.BatchNormalization(...)`, called later)
            self._hoist(cast(cst.Call, value), name, stmt, loop)
            return None
        new = cast(cst.BaseExpression, value.visit(Hoist()))
        if "mode" in names_in(new).names:
            raise Refused(stmt, "the model_fn reads `mode` other than as `mode == tf.estimator.ModeKeys.TRAIN`")
        unknown = [n for n in names_in(new).names if n in self.layers_named() and n not in self.called(new)]
        if unknown:
            raise Refused(stmt, f"the layer `{unknown[0]}` used other than called")
        for call in collect(new, cst.Call):
            if not self._op(call):
                raise Refused(
                    stmt,
                    f"a call of {source_of(call.func)}, which may make variables or layers at each call (the rule "
                    "reads TensorFlow's ops, Keras losses and the layers it makes once)",
                )
        self.bound.add(name)
        self.rebound.add(name)
        if self._same_dtype(new):
            self.same.add(name)
        else:
            self.same.discard(name)
        return source_of(new)

    def _op(self, call: cst.Call) -> bool:
        """Is `call` one the port may run at each step: a layer made once, a Keras loss, a TensorFlow op?"""
        func, tf = call.func, self.tf
        if isinstance(func, cst.Subscript):
            func = func.value
        if isinstance(func, cst.Name):
            return func.value in self.layers_named()
        if isinstance(func, cst.Call):  # (a Keras loss made and called)
            return source_of(func.func).startswith(f"{tf}.keras.losses.")
        text = source_of(func)
        if not re.fullmatch(rf"{re.escape(tf)}\.[\w.]+", text):
            return False
        below = text.removeprefix(f"{tf}.")
        return below.startswith("keras.losses.") or not below.startswith(_NOT_OPS)

    def called(self, expr: cst.BaseExpression) -> set[str]:
        funcs = [c.func.value if isinstance(c.func, cst.Subscript) else c.func for c in collect(expr, cst.Call)]
        return {func.value for func in funcs if isinstance(func, cst.Name)}

    def _is_layer_class(self, value: cst.BaseExpression) -> bool:
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name):
            return value.func.value in self.classes
        return (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Attribute)
            and source_of(value.func).startswith(f"{self.tf}.keras.layers.")
        )

    def _is_layer(self, call: cst.Call) -> bool:
        """`tf.keras.layers.K(...)(x)`: a layer made and called."""
        return isinstance(call.func, cst.Call) and self._is_layer_class(call.func)

    def _layer(self, name: str, loop: tuple[str, str] | None) -> cst.BaseExpression:
        """A layer made once, as model() calls it: its name, or in a loop `name[i]`."""
        if loop is None or name not in self.looped:
            return cst.Name(name)
        return cst.parse_expression(f"{name}[{loop[0]}]")

    def _hoist(self, call: cst.Call, name: str | None, stmt: cst.BaseStatement, loop: tuple[str, str] | None) -> str:
        made = cast(cst.Call, call.func) if name is None else call
        kind = source_of(made.func).rpartition(".")[2]
        if kind in RANDOM_LAYERS:
            raise Refused(stmt, f"a Keras {kind}, which draws other values than TF1's graph seed gave")
        args = []
        for arg in made.args:
            if arg.keyword is not None and arg.keyword.value == "dtype":
                dtype = arg.value
                if not (
                    isinstance(dtype, cst.Attribute)
                    and dtype.attr.value == "dtype"
                    and isinstance(dtype.value, cst.Name)
                    and dtype.value.value in self.same
                ):
                    raise Refused(stmt, f"a layer of dtype {source_of(dtype)}, not proven the features' dtype")
                args.append(arg.with_changes(value=cst.Name("dtype")))
                continue
            read = set(names_in(arg.value).names) - ({loop[0]} if loop is not None else set())
            if read & (self.bound | {"features", "labels", "mode"}):
                raise Refused(stmt, f"a {kind} made of a value the model_fn computes")
            args.append(arg)
        if name is None:
            given = next((a.value for a in made.args if a.keyword is not None and a.keyword.value == "name"), None)
            base = given.evaluated_value if isinstance(given, cst.SimpleString) else None
            base = str(base) if base is not None and str(base).isidentifier() else _snake(kind)
            name, count = base, 0
            while name in self.layers_named() or keyword.iskeyword(name) or name in TAKEN:
                count += 1
                name = f"{base}_{count}"
        elif name in self.layers_named():
            raise Refused(stmt, f"`{name}`, a layer, is bound twice")
        elif name in TAKEN:
            raise Refused(stmt, f"`{name}`, a layer, is a name the port binds")
        self.layers.append((name, source_of(made.with_changes(args=args)), loop[1] if loop is not None else None))
        if loop is not None:
            self.looped.add(name)
        return name

    def _training(self, comparison: cst.Comparison) -> bool:
        """`mode == tf.estimator.ModeKeys.TRAIN` (the port trains: True in the step, False in the build call)."""
        return (
            isinstance(comparison.left, cst.Name)
            and comparison.left.value == "mode"
            and len(comparison.comparisons) == 1
            and isinstance(comparison.comparisons[0].operator, cst.Equal)
            and self.is_(comparison.comparisons[0].comparator, "estimator.ModeKeys.TRAIN")
        )

    def _same_dtype(self, expr: cst.BaseExpression) -> bool:
        """Is `expr` of the features' dtype: such a name, a layer's call on one, an activation of one?"""
        if isinstance(expr, cst.Name):
            return expr.value in self.same
        if isinstance(expr, cst.Call) and expr.args and expr.args[0].keyword is None:
            func = expr.func.value if isinstance(expr.func, cst.Subscript) else expr.func
            layer = isinstance(func, cst.Name) and func.value in self.layers_named()
            act = source_of(func) in {f"{self.tf}.nn.{a}" for a in _SAME_DTYPE}
            return (layer or act) and self._same_dtype(expr.args[0].value)
        return False


def reads_params(function: cst.FunctionDef, what: str) -> bool:
    """Does `function` read its parameter `params`, the Estimator's params? Only as `params["key"]` or
    `params.get("key"[, default])` (Refused otherwise): the Estimator gave each call a copy of its dict, the port
    gives them all the one it binds."""
    uses = names_in(function.body).names.count("params")
    keyed = [
        s
        for s in collect(function.body, cst.Subscript)
        if isinstance(s.value, cst.Name)
        and s.value.value == "params"
        and len(s.slice) == 1
        and isinstance(s.slice[0].slice, cst.Index)
        and isinstance(s.slice[0].slice.value, cst.SimpleString)
    ]
    # (`params.get("key")`, `params.get("key", default)`: a read of the dict too)
    got = [
        c
        for c in collect(function.body, cst.Call)
        if isinstance(c.func, cst.Attribute)
        and isinstance(c.func.value, cst.Name)
        and c.func.value.value == "params"
        and c.func.attr.value == "get"
        and 1 <= len(c.args) <= 2
        and not any(a.keyword or a.star for a in c.args)
        and isinstance(c.args[0].value, cst.SimpleString)
    ]
    targets: list[cst.CSTNode] = [t.target for t in collect(function.body, cst.AssignTarget)]
    targets += [t.target for t in collect(function.body, cst.AugAssign)]
    targets += [t.target for t in collect(function.body, cst.Del)]
    written = {id(found) for target in targets for found in collect(target, cst.Subscript)}
    if uses != len(keyed) + len(got) or any(id(found) in written for found in keyed):
        raise Refused(function, f'{what}: `params` read other than as params["key"] or params.get("key"), or changed')
    return uses > 0


def tf1_variable(
    tf: str, is_: Callable[..., bool], call: cst.Call, stmt: cst.BaseStatement, computed: set[str]
) -> tuple[str, str]:
    """A model_fn's `tf.get_variable("name", [literal shape][, dtype=tf.float32][, initializer=<v1 initializer>]
    [, trainable=True])` -> (the code of a tf.Variable of TF1's name, that name). In a model_fn the Estimator calls
    outside any variable scope, TF1 named it as given; its initial value is drawn by the TF 2 initializer of the repo's
    table (TF1's default for a float where none is given: Glorot's uniform), another draw than TF1's graph seed gave (the
    port trains from a checkpoint as TF1 did). Refused for what this does not prove TF1's: another dtype, a computed
    name or shape, a regularizer, partitioner, collections, trainable=False or another parameter."""
    args = arguments(call, _GET_VARIABLE, stmt, "tf.get_variable")
    others = sorted(set(args) - {"name", "shape", "dtype", "initializer", "trainable"})
    if others:
        raise Refused(stmt, f"tf.get_variable({others[0]}=...)")
    trainable = args["trainable"].value if "trainable" in args else None
    if trainable is not None and not (isinstance(trainable, cst.Name) and trainable.value == "True"):
        raise Refused(stmt, "tf.get_variable(trainable=False) or a computed trainable")
    literal = args["name"].value if "name" in args else None
    name = literal.evaluated_value if isinstance(literal, cst.SimpleString) else None
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9.][\w.\-/]*", name):
        raise Refused(stmt, "tf.get_variable with a computed name, or one TF1 refused")
    shape = args["shape"].value if "shape" in args else None
    if not (
        isinstance(shape, (cst.List, cst.Tuple))
        and all(isinstance(e, cst.Element) and isinstance(e.value, cst.Integer) for e in shape.elements)
    ):
        raise Refused(stmt, "tf.get_variable with a shape other than a list of integers written out")
    dtype = args["dtype"].value if "dtype" in args else None
    if dtype is not None and not is_(dtype, "float32"):
        raise Refused(stmt, "tf.get_variable with a dtype other than tf.float32")
    initializer = args["initializer"].value if "initializer" in args else None
    if initializer is None:
        return (
            f"{tf}.Variable({tf}.keras.initializers.GlorotUniform()({source_of(shape)}), name={json.dumps(name)})",
            name,
        )
    value = initial_value(tf, is_, initializer, source_of(shape), stmt, computed)
    return f"{tf}.Variable({value}, name={json.dumps(name)})", name


def initial_value(
    tf: str,
    is_: Callable[..., bool],
    initializer: cst.BaseExpression,
    shape: str,
    stmt: cst.BaseStatement,
    computed: set[str],
) -> str:
    """The code drawing a variable's initial value of `shape` by the TF 2 initializer the repo's table gives for
    get_variable's v1 `initializer=` (its parameters and TF1's defaults where TF 2's differ written out)."""
    func = initializer.func if isinstance(initializer, cst.Call) else initializer
    kind = next((k for k in tables.INITIALIZERS if is_(func, k)), None)
    if kind is None or not isinstance(initializer, cst.Call):
        raise Refused(stmt, "tf.get_variable with an initializer the repo's table does not read")
    if set(names_in(initializer).names) & (computed | ARGUMENTS):
        raise Refused(stmt, "tf.get_variable with an initializer of a value the model_fn computes")
    v2, params, pinned = tables.INITIALIZERS[kind]
    given = arguments(initializer, params, stmt, f"tf.{kind}")
    values = {**pinned, **{p: source_of(a.value) for p, a in given.items()}}
    keywords = ", ".join(f"{p}={values[p]}" for p in params if p in values)
    return f"{tf}.{v2}({keywords})({shape})"


def keras_optimizer(tf: str, is_: Callable[..., bool], made: cst.Call, computed: set[str]) -> tuple[str, str]:
    """A model_fn's `tf.train.<Optimizer>(...)` as the Keras optimizer of the repo's table: (its code, what the entry
    says), Refused where the table does not prove it equal or it reads `computed`, names the model_fn computes."""
    kind = source_of(made.func).rpartition(".")[2]
    if kind not in tables.OPTIMIZERS or not is_(made.func, f"train.{kind}"):
        raise Refused(made, f"{source_of(made.func)}, which the repo's optimizer table does not prove equal")
    args = arguments(made, tables.OPTIMIZERS[kind].params, made, kind)
    if "use_locking" in args:
        raise Refused(made, f"{kind}(use_locking=...)")
    renamed = tables.renamed_slots(kind, {p: source_of(a.value) for p, a in args.items()})
    if renamed is not None:
        raise Refused(made, renamed)
    for arg in args.values():
        if set(names_in(arg.value).names) & computed or isinstance(arg.value, cst.Call):
            raise Refused(made, f"{kind} of a value the model_fn computes (a learning rate schedule)")
    return tables.keras_optimizer(tf, kind, {p: source_of(a.value) for p, a in args.items()})


def minimized(is_: Callable[..., bool], minimize: cst.Call, global_step: str | None = None) -> str:
    """The loss's name of a model_fn's `<optimizer>.minimize(loss, tf.train.get_or_create_global_step())` (or of
    `global_step`, the name the model_fn bound it to); Refused for anything more or else."""
    args = arguments(minimize, ("loss", "global_step", "var_list"), minimize, "minimize")
    step = args.get("global_step")
    if set(args) != {"loss", "global_step"} or step is None:
        raise Refused(minimize, "minimize without (loss, global_step), or with more")
    if not (
        isinstance(step.value, cst.Call)
        and not step.value.args
        and is_(step.value.func, "train.get_or_create_global_step", "train.get_global_step")
    ) and not (global_step is not None and isinstance(step.value, cst.Name) and step.value.value == global_step):
        raise Refused(minimize, "minimize's global_step is not tf.train.get_or_create_global_step()")
    loss = args["loss"].value
    if not isinstance(loss, cst.Name):
        raise Refused(minimize, "minimize of an expression, not the loss's name")
    return loss.value


def _names(code: str) -> set[str]:
    return set(names_in(cst.parse_expression(code)).names)


def _snake(kind: str) -> str:
    """Keras's default name of a layer class (Conv2D -> conv2d, BatchNormalization -> batch_normalization)."""
    snake = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", kind)).lower()
    return re.sub(r"(\d)_d\b", r"\1d", snake)
