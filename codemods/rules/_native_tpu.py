"""native-estimator-loop's reading of a TPUEstimator program that the port runs off the TPU (BERT's run_classifier
shape, as the corpus's bert_tpu_estimator writes it).

TPUEstimator(use_tpu=False) ran its model_fn as a plain Estimator did (measured on TF 2.15's tensorflow-estimator:
"Running train on CPU/GPU"), with these differences the port keeps: input_fn and model_fn were given params with
"batch_size" (train_batch_size in train, eval_batch_size in evaluate, unsharded: TPUConfig's num_shards and
iterations_per_loop change nothing off the TPU); it logged no `loss = ..., step = ...` line (it turned the
RunConfig's log_step_count_steps off); its model_fn returns TPUEstimatorSpec, whose eval_metrics is
`(metric_fn, [tensors])`. Where use_tpu is not False written out, the port stops with a one-line error at run time
where it is true: nothing here runs a TPU to prove a port equal there.

The model_fn read here: straight-line statements of TensorFlow ops, module functions of ops (BERT's attention),
`tf.get_variable(name, shape, initializer=...)` (a tf.Variable of TF1's name, made once) and `tf.layers.dense` (a
Keras Dense of TF1's layer name, made once; native-layers leaves it where the model_fn may run on a TPU), then
`if mode == TRAIN:` making a tf.train optimizer, perhaps wrapping it in `CrossShardOptimizer` under
`if params["use_tpu"]:` (dead where use_tpu is false, the params key being the use_tpu given), its minimize and the
TRAIN spec; then `def metric_fn(...)` returning tf.metrics.accuracy / mean, and the EVAL spec.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import cast

import libcst as cst

from codemods.rules import _native_tables as tables
from codemods.rules._estimator_model_fn import ARGUMENTS, PORT_NAMES, TAKEN, initial_value, keras_optimizer, minimized
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

# TPUEstimator's parameters in positional order (TF 1.15)
ESTIMATOR_PARAMS = (
    "model_fn",
    "model_dir",
    "config",
    "params",
    "use_tpu",
    "train_batch_size",
    "eval_batch_size",
    "predict_batch_size",
    "batch_axis",
    "eval_on_tpu",
    "export_to_tpu",
    "export_to_cpu",
    "warm_start_from",
    "embedding_config_spec",
    "export_saved_model_api_version",
)
# (below tf.estimator.: the TPU names the program may read)
NAMES = (
    "estimator.tpu.TPUEstimator",
    "estimator.tpu.TPUEstimatorSpec",
    "estimator.tpu.RunConfig",
    "estimator.tpu.TPUConfig",
    "estimator.tpu.InputPipelineConfig.PER_HOST_V1",
    "estimator.tpu.InputPipelineConfig.PER_HOST_V2",
    "estimator.tpu.InputPipelineConfig.PER_SHARD_V1",
    "estimator.tpu.InputPipelineConfig.BROADCAST",
)
# TPUEstimatorSpec's parameters in positional order (TF 1.15)
_SPEC = (
    "mode",
    "predictions",
    "loss",
    "train_op",
    "eval_metrics",
    "export_outputs",
    "scaffold_fn",
    "host_call",
    "training_hooks",
    "evaluation_hooks",
    "prediction_hooks",
)
# tf.layers.dense's parameters the port keeps (TF 1.15's order)
_DENSE = ("inputs", "units", "activation", "use_bias")
# the names TensorFlow's ops may not start with below tf. (state, TF1's graph, random draws)
_NOT_OPS = ("compat.v1", "estimator.", "train.", "summary.", "random.", "Variable", "get_variable", "layers.", "data.")
# TensorFlow ops whose result's dtype is not their input's (TF's other ops take and give one dtype, promoting none)
_RETYPING = re.compile(
    r"cast|saturate_cast|bitcast|to_\w+|arg(max|min)|shape|size|rank|one_hot|(not_)?equal|less\w*|greater\w*|"
    r"logical_\w+|is_\w+|.*string.*|decode\w*|parse\w*"
)
# what the port stops with where use_tpu is true
STOP = (
    "use_tpu: this program, ported from a TPUEstimator program by uai-migrate --level native, trains on this "
    "machine's CPU or GPU, not on a TPU"
)


def use_tpu_guard(use_tpu: str) -> str:
    """The port's first lines where use_tpu is not False written out."""
    return f"if {use_tpu}:  # (the TPUEstimator ran on a TPU: the port runs here only)\n    sys.exit({STOP!r})\n"


class TpuModelFn:
    """A TPUEstimator's model_fn read as the port's pieces (Refused where it is not the shape above)."""

    def __init__(
        self,
        tf: str,
        is_: Callable[..., bool],
        module: cst.Module,
        node: cst.FunctionDef,
        off_tpu_key: str | None,
    ) -> None:
        # (off_tpu_key: the params key proven to hold the use_tpu the port runs with, false, or None)
        self.tf, self.is_, self.module, self.node, self.off_tpu_key = tf, is_, module, node, off_tpu_key
        self.made: list[str] = []  # the code making the variables and layers once
        self.variables: list[str] = []  # the tf.Variables made once
        self.layers: list[str] = []  # the Keras layers made once
        self.tf1_names: list[str] = []  # their TF1 names (a variable's, a layer's scope)
        self.body: list[str] = []
        self.bound: set[str] = set()
        self.values: dict[str, cst.BaseExpression] = {}  # what each name model() binds holds
        self.helpers: set[str] = set()  # the module functions model() calls
        self.evaluation: dict[str, tuple[str, list[str]]] | None = None
        self.eval_loss: str | None = None

    def read(self) -> tuple[list[str], list[str], list[str], list[str], str, str, str]:
        """(the code making the variables and layers once, the variables' names, the layers', model()'s statements,
        the loss, the Keras optimizer, what the entry says)."""
        node = self.node
        params = [p.name.value for p in node.params.params]
        if (
            params[:3] != ["features", "labels", "mode"]
            or len(params) > 4
            or isinstance(node.params.star_arg, cst.Param)
        ):
            raise Refused(node, "a model_fn whose parameters are not (features, labels, mode[, params])")
        # (`del labels` or `del labels, params` at the top level, neither read by another statement: the port, which
        # gives model() neither, drops it)
        body = list(cast(cst.IndentedBlock, node.body).body)
        statements = []
        for stmt in body:
            names = _deleted(stmt)
            if not names or not names <= {"labels", "params"}:
                statements.append(stmt)
                continue
            read = sorted({n.value for s in body if s is not stmt for n in names_in(s).nodes} & names)
            if read:
                raise Refused(
                    stmt,
                    f"`{source_of(stmt).strip()}` of {', '.join(read)} read by another statement of the model_fn (the "
                    "rule drops a `del` of labels or params read nowhere else)",
                )
        deletes = {id(n) for s in statements for d in collect(s, cst.Del) for n in names_in(d).nodes}
        reads = [n for s in statements for n in names_in(s).nodes if n.value == "labels" and id(n) not in deletes]
        if reads:  # (a `del` left: a statement the model_fn's reading refuses)
            raise Refused(node, "a TPU model_fn reading labels (its input_fn gives features only, here)")
        at = next((i for i, s in enumerate(statements) if self._is_train_branch(s)), None)
        if at is None:
            raise Refused(node, "a TPU model_fn without `if mode == tf.estimator.ModeKeys.TRAIN:`")
        for stmt in statements[:at]:
            self._statement(stmt)
        optimizer, loss, said = self._train(cast(cst.If, statements[at]))
        self._eval(statements[at + 1 :], loss)
        if any("params" in names_in(s).names for s in [*statements[:at], *statements[at + 1 :]]):
            raise Refused(node, "a TPU model_fn reading params (TPUEstimator gave each mode its batch_size)")
        taken = sorted({*self.variables, *self.layers} & TAKEN)
        if taken:
            raise Refused(node, f"`{taken[0]}`, a variable or layer of the model_fn, is a name the port binds")
        said = (
            f"TPUEstimator's model_fn (off the TPU): {len(self.variables)} tf.get_variable -> tf.Variable and "
            f"{len(self.layers)} tf.layers.dense -> Keras Dense made once, under TF1's names "
            f"({', '.join(self.tf1_names)}), a tf.function train step, {said}; each input_fn given its mode's "
            "batch_size (train_batch_size, eval_batch_size) as TPUEstimator gave it off the TPU, its TPUConfig and "
            "cluster resolver dropped (off the TPU they changed nothing); where use_tpu is true at run time, the port "
            "stops with a one-line error (nothing here runs a TPU, nor proves a port equal on one)"
        )
        return self.made, self.variables, self.layers, self.body, loss, optimizer, said

    def _is_train_branch(self, stmt: cst.BaseStatement) -> bool:
        test = stmt.test if isinstance(stmt, cst.If) else None
        return (
            isinstance(test, cst.Comparison)
            and source_of(test.left) == "mode"
            and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, cst.Equal)
            and self.is_(test.comparisons[0].comparator, "estimator.ModeKeys.TRAIN")
        )

    def _statement(self, stmt: cst.BaseStatement) -> None:
        """A statement before the TRAIN branch: a get_variable (made once), or `name = value` of ops for model()."""
        name, value = assigned(single(stmt)) if isinstance(stmt, cst.SimpleStatementLine) else (None, None)
        if name is None or value is None:
            raise Refused(stmt, "a statement in a TPU model_fn other than `name = value`")
        if name in self.variables or name in self.layers or name in self.bound:
            raise Refused(stmt, f"`{name}`, a variable or layer of the model_fn, bound again (or another name twice)")
        if isinstance(value, cst.Call) and self.is_(value.func, "get_variable"):
            self._variable(name, value, stmt)
            return
        port = self

        class Dense(cst.CSTTransformer):
            def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
                if not port.is_(original.func, "layers.dense"):
                    return updated
                return port._dense(updated, stmt)

        new = cast(cst.BaseExpression, value.visit(Dense()))
        text = source_of(new)
        if re.search(r"compat\.v1|random|dropout|shuffle|multinomial", text) or "mode" in names_in(new).names:
            raise Refused(stmt, f"`{name} = {text}`: graph code, a random op or the mode in the TPU model_fn")
        for call in collect(new, cst.Call):
            self._op(call, stmt)
        self.bound.add(name)
        self.values[name] = new
        self.body.append(f"{name} = {text}")

    def _variable(self, name: str, call: cst.Call, stmt: cst.BaseStatement) -> None:
        """`tf.get_variable("name", shape, initializer=v1 initializer(...))` -> a tf.Variable of TF1's name, its
        initial value drawn by the TF 2 initializer of the repo's table (another draw: the port trains from a
        checkpoint as TF1 did)."""
        args = arguments(call, ("name", "shape", "dtype", "initializer"), stmt, "tf.get_variable")
        literal = args["name"].value if "name" in args else None
        if not isinstance(literal, cst.SimpleString) or set(args) != {"name", "shape", "initializer"}:
            raise Refused(stmt, 'tf.get_variable other than ("name", shape, initializer=...) (float32)')
        shape, initializer = args["shape"].value, args["initializer"].value
        if set(names_in(shape).names) & (self.bound | ARGUMENTS):
            raise Refused(stmt, "a variable whose shape the model_fn computes")
        value = initial_value(self.tf, self.is_, initializer, source_of(shape), stmt, self.bound)
        tf1_name = str(literal.evaluated_value)
        self.made.append(f"{name} = {self.tf}.Variable({value}, name={source_of(literal)})")
        self.variables.append(name)
        self.tf1_names.append(tf1_name)

    def _dense(self, call: cst.Call, stmt: cst.BaseStatement) -> cst.BaseExpression:
        """`tf.layers.dense(x, units[, activation, use_bias], name=...)` -> a Keras Dense made once under TF1's layer
        name (dense, dense_1, ... in the model_fn's order, or the name given), called on x."""
        args = arguments(call, (*_DENSE, "name"), stmt, "tf.layers.dense")
        if "units" not in args or "inputs" not in args:
            raise Refused(stmt, "tf.layers.dense without inputs and units")
        given = args["name"].value if "name" in args else None
        if given is not None and not isinstance(given, cst.SimpleString):
            raise Refused(stmt, "tf.layers.dense with a computed name")
        base = str(given.evaluated_value) if isinstance(given, cst.SimpleString) else "dense"
        tf1_name, count = base, 0
        while tf1_name in self.tf1_names:  # (TF1 made a layer's name unique in its graph)
            count += 1
            tf1_name = f"{base}_{count}"
        layer = re.sub(r"\W", "_", tf1_name)
        if not layer.isidentifier() or layer in self.bound or layer in self.layers or layer in self.variables:
            raise Refused(stmt, f"the dense layer `{tf1_name}`, whose name is bound in the model_fn")
        self._float32(args["inputs"].value, stmt)
        for arg in (args["units"], *(args[k] for k in ("activation", "use_bias") if k in args)):
            if set(names_in(arg.value).names) & (self.bound | ARGUMENTS):
                raise Refused(stmt, "a dense layer made of a value the model_fn computes")
        keywords = [source_of(args["units"].value)]
        keywords += [f"{k}={source_of(args[k].value)}" for k in ("activation", "use_bias") if k in args]
        self.made.append(f"{layer} = {self.tf}.keras.layers.Dense({', '.join(keywords)}, name={json.dumps(tf1_name)})")
        self.layers.append(layer)
        self.tf1_names.append(tf1_name)
        inputs = args["inputs"].with_changes(
            keyword=None, equal=cst.MaybeSentinel.DEFAULT, comma=cst.MaybeSentinel.DEFAULT
        )
        return cst.Call(func=cst.Name(layer), args=[inputs])

    def _float32(self, inputs: cst.BaseExpression, stmt: cst.BaseStatement) -> None:
        """TF1's dense took its input's dtype, a Keras Dense computes in float32: the input is computed from a float32
        get_variable or layer output by ops keeping their inputs' dtype (TF's ops promote none), through the
        statements before it and the module functions they call."""
        todo, seen, reached = [inputs], set(), False
        while todo:
            expr = todo.pop()
            calls = list(collect(expr, cst.Call))
            for call in calls:
                func = call.func
                if isinstance(func, cst.Name) and func.value not in self.layers and func.value not in seen:
                    seen.add(func.value)
                    defs = [
                        f for f in self.module.body if isinstance(f, cst.FunctionDef) and f.name.value == func.value
                    ]
                    calls += [c for f in defs for c in collect(f.body, cst.Call)]
            for call in calls:
                name = source_of(call.func).rpartition(".")[2]
                keywords = {a.keyword.value for a in call.args if a.keyword is not None}
                if _RETYPING.fullmatch(name) or keywords & {"dtype", "output_type", "out_type"}:
                    raise Refused(
                        stmt, f"a dense layer's input not proven float32 (TF1's dense took its dtype): {name}"
                    )
            for name in names_in(expr).names:
                reached |= name in self.variables or name in self.layers
                if name in self.values and name not in seen:
                    seen.add(name)
                    todo.append(self.values[name])
        if not reached:
            raise Refused(stmt, "a dense layer's input not proven float32 (not computed from a variable or layer)")

    def _op(self, call: cst.Call, stmt: cst.BaseStatement) -> None:
        """Is `call` one model() may run at each step: a layer or helper function, a Keras loss, a TensorFlow op?"""
        func, tf = call.func, self.tf
        if isinstance(func, cst.Name):
            if func.value in self.layers:
                return
            self._helper(func.value, stmt)
            return
        if isinstance(func, cst.Call) and source_of(func.func).startswith(f"{tf}.keras.losses."):
            return
        text = source_of(func)
        below = text.removeprefix(f"{tf}.")
        if text.startswith(f"{tf}.") and re.fullmatch(r"[\w.]+", below) and not below.startswith(_NOT_OPS):
            if not below.startswith("keras.") or below.startswith("keras.losses."):
                return
        if re.fullmatch(r"(np|numpy)\.[\w.]+", text) and "random" not in text:
            return
        raise Refused(stmt, f"a call of {text} in the TPU model_fn, which may make variables or layers at each call")

    def _helper(self, name: str, stmt: cst.BaseStatement) -> None:
        """A module function model() calls: one undecorated def of TensorFlow ops (no state, no random draw)."""
        if name in self.helpers:
            return
        defs = [s for s in self.module.body if isinstance(s, cst.FunctionDef) and s.name.value == name]
        if len(defs) != 1 or defs[0].decorators or _bound_elsewhere(self.module, name):
            raise Refused(stmt, f"a call of `{name}`, not one undecorated function of the module")
        helper = defs[0]
        self.helpers.add(name)
        text = source_of(helper.body)
        if re.search(r"compat\.v1|random|dropout|global|nonlocal|yield", text):
            raise Refused(stmt, f"`{name}`, a function of graph code, state or a random op, called by the model_fn")
        for call in collect(helper.body, cst.Call):
            func = call.func
            if isinstance(func, cst.Name) and func.value not in ("len", "int", "float", "range", "min", "max"):
                self._op(call, stmt)
            elif not isinstance(func, cst.Name) and not source_of(func).startswith(f"{self.tf}.compat.dimension_value"):
                self._op(call, stmt)

    def _train(self, branch: cst.If) -> tuple[str, str, str]:
        """The TRAIN branch: (the Keras optimizer, the loss minimized, what its port says)."""
        if branch.orelse is not None:
            raise Refused(branch, "a TRAIN branch with an else")
        inner = list(cast(cst.IndentedBlock, branch.body).body)
        made: dict[str, cst.Call] = {}
        minimize: tuple[str, cst.Call] | None = None
        for stmt in inner[:-1]:
            if isinstance(stmt, cst.If) and self._cross_shard(stmt, made):
                continue
            name, value = assigned(single(stmt)) if isinstance(stmt, cst.SimpleStatementLine) else (None, None)
            if name is None or not isinstance(value, cst.Call) or minimize is not None:
                raise Refused(stmt, "a TRAIN branch other than an optimizer, its minimize and the spec")
            func = value.func
            if isinstance(func, cst.Attribute) and func.attr.value == "minimize":
                held = func.value
                optimizer = made.get(held.value) if isinstance(held, cst.Name) else held
                if not isinstance(optimizer, cst.Call):
                    raise Refused(stmt, "a minimize of an optimizer the TRAIN branch does not make")
                minimize = (name, value)
                made["minimize"] = optimizer
            elif source_of(func).startswith((f"{self.tf}.train.", f"{self.tf}.compat.v1.train.")) and not made:
                made[name] = value
            else:
                raise Refused(stmt, "a TRAIN branch other than an optimizer, its minimize and the spec")
        if minimize is None:
            raise Refused(branch, "a TRAIN branch without a tf.train optimizer's minimize")
        loss = minimized(self.is_, minimize[1])
        if loss not in self.bound:
            raise Refused(branch, "a loss the model_fn does not compute")
        args = self._spec(inner[-1], {"mode", "loss", "train_op"})
        if source_of(args["loss"].value) != loss or source_of(args["train_op"].value) != minimize[0]:
            raise Refused(inner[-1], "a TRAIN spec whose loss and train_op are not the minimize's")
        code, said = keras_optimizer(self.tf, self.is_, made["minimize"], self.bound)
        return code, loss, said

    def _cross_shard(self, stmt: cst.If, made: dict[str, cst.Call]) -> bool:
        """`if params["use_tpu"]: optimizer = CrossShardOptimizer(optimizer)`: dead where the port runs (use_tpu
        false), where the key holds the TPUEstimator's use_tpu."""
        test = stmt.test
        index = test.slice[0].slice if isinstance(test, cst.Subscript) and len(test.slice) == 1 else None
        key = index.value if isinstance(index, cst.Index) else None
        inner = list(cast(cst.IndentedBlock, stmt.body).body)
        name, value = assigned(single(inner[0])) if len(inner) == 1 else (None, None)
        if not (
            isinstance(test, cst.Subscript)
            and source_of(test.value) == "params"
            and isinstance(key, cst.SimpleString)
            and stmt.orelse is None
            and name in made
            and isinstance(value, cst.Call)
            and self.is_(value.func, "tpu.CrossShardOptimizer", "contrib.tpu.CrossShardOptimizer")
        ):
            return False
        if self.off_tpu_key is None or key.evaluated_value != self.off_tpu_key:
            raise Refused(stmt, "a CrossShardOptimizer under a condition other than params[key] of the use_tpu given")
        return True

    def _spec(self, stmt: cst.BaseStatement, fields: set[str]) -> dict[str, cst.Arg]:
        small = single(stmt)
        spec = small.value if isinstance(small, cst.Return) else None
        if not (isinstance(spec, cst.Call) and self.is_(spec.func, "estimator.tpu.TPUEstimatorSpec")):
            raise Refused(stmt, "a TPU model_fn branch not ending in `return TPUEstimatorSpec(...)`")
        args = arguments(spec, _SPEC, spec, "TPUEstimatorSpec")
        mode = source_of(args["mode"].value) if "mode" in args else "mode"
        differs = [
            *([f"without {', '.join(sorted(fields - set(args)))}"] if fields - set(args) else []),
            *([f"with {', '.join(sorted(set(args) - fields))}"] if set(args) - fields else []),
            *([f"with mode={mode}"] if mode != "mode" else []),
        ]
        if differs:
            others = sorted(fields - {"mode"})
            raise Refused(
                spec,
                f"a TPUEstimatorSpec {' and '.join(differs)} (the rule reads one of exactly mode=mode, "
                f"{', '.join(others[:-1])} and {others[-1]})",
            )
        return args

    def _eval(self, statements: list[cst.BaseStatement], loss: str) -> None:
        """After the TRAIN branch: `def metric_fn(...)` and `return TPUEstimatorSpec(mode, loss, eval_metrics=
        (metric_fn, [tensors]))` -> self.evaluation (the metrics' inputs, metric_fn's parameters given the tensors)."""
        if not statements:
            raise Refused(self.node, "a TPU model_fn without the EVAL spec after its TRAIN branch")
        args = self._spec(statements[-1], {"mode", "loss", "eval_metrics"})
        if source_of(args["loss"].value) != loss:
            raise Refused(statements[-1], "the EVAL spec's loss is not the minimize's")
        pair = args["eval_metrics"].value
        elements = [e.value for e in pair.elements] if isinstance(pair, (cst.Tuple, cst.List)) else []
        if (
            len(elements) != 2
            or not isinstance(elements[0], cst.Name)
            or not isinstance(elements[1], (cst.List, cst.Tuple))
        ):
            raise Refused(statements[-1], "eval_metrics other than (metric_fn, [tensors]) written out")
        tensors = [e.value for e in elements[1].elements]
        for tensor in tensors:
            if set(names_in(tensor).names) - (self.bound | {"features"}) or collect(tensor, cst.Call):
                raise Refused(statements[-1], "an eval_metrics tensor other than a value model() computes")
        defs = [s for s in statements[:-1] if isinstance(s, cst.FunctionDef) and s.name.value == elements[0].value]
        if len(defs) != 1 or len(statements) != 2 or defs[0].decorators:
            raise Refused(statements[0], "EVAL statements other than `def metric_fn(...)` and the spec")
        metric_fn = defs[0]
        names = [p.name.value for p in metric_fn.params.params]
        body = list(cast(cst.IndentedBlock, metric_fn.body).body)
        returned = single(body[-1]) if len(body) == 1 else None
        metrics = returned.value if isinstance(returned, cst.Return) else None
        if (
            len(names) != len(tensors)
            or isinstance(metric_fn.params.star_arg, cst.Param)
            or not isinstance(metrics, cst.Dict)
        ):
            raise Refused(metric_fn, "a metric_fn other than one `return {key: tf.metrics...}` of its tensors")
        given = {
            n: cst.parse_expression(f"({source_of(t)})") if not isinstance(t, (cst.Name, cst.Subscript)) else t
            for n, t in zip(names, tensors)
        }

        class Give(cst.CSTTransformer):
            def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
                return given.get(original.value, updated)

            def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
                return updated.with_changes(attr=original.attr)  # (an attribute's name is not a parameter)

            def leave_Arg(self, original: cst.Arg, updated: cst.Arg) -> cst.Arg:
                return updated.with_changes(keyword=original.keyword)

        evaluation: dict[str, tuple[str, list[str]]] = {}
        for element in metrics.elements:
            if not (isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString)):
                raise Refused(metric_fn, "a metric_fn key that is not written out")
            key = str(element.key.evaluated_value)
            if key in ("loss", "global_step") or key in evaluation:
                raise Refused(metric_fn, f'a metric_fn key "{key}" (the Estimator defines it), or one given twice')
            evaluation[key] = self._metric(cast(cst.BaseExpression, element.value.visit(Give())), metric_fn)
        self.evaluation = evaluation

    def _metric(self, value: cst.BaseExpression, line: cst.CSTNode) -> tuple[str, list[str]]:
        """tf.metrics.accuracy / mean of model()'s values -> (the Keras metric, its update_state's inputs' code)."""
        func = value.func if isinstance(value, cst.Call) else value
        kind = next((k for k in ("accuracy", "mean") if self.is_(func, f"metrics.{k}")), None)
        if kind is None or not isinstance(value, cst.Call):
            raise Refused(line, "a metric_fn value other than tf.metrics.accuracy or tf.metrics.mean")
        keras, params, update = tables.METRICS[kind]
        args = arguments(value, params, line, f"tf.metrics.{kind}")
        if set(args) != set(params):
            raise Refused(line, f"tf.metrics.{kind} with weights or a name")
        for arg in args.values():
            for call in collect(arg.value, cst.Call):
                self._op(call, cast(cst.BaseStatement, line))
            if set(names_in(arg.value).names) & self.helpers or re.search(r"compat\.v1|random", source_of(arg.value)):
                raise Refused(line, "a metric of a helper function, graph code or a random op")
        inputs = [source_of(args[p].value) for p in update]
        if keras == "Accuracy":  # (TF1 cast the predictions to the labels' dtype before comparing, as Keras does not)
            inputs[1] = f"{self.tf}.cast({inputs[1]}, {inputs[0]}.dtype)"
        return keras, inputs


def input_builder(module: cst.Module, call: cst.Call, node: cst.CSTNode) -> cst.FunctionDef:
    """`builder(args)` given as an input_fn (BERT's input_fn_builder): the nested `def input_fn(params)` the module
    function `builder` ends in returning, read by the port as the input_fn. Refused for another shape."""
    if not isinstance(call.func, cst.Name) or any(a.star for a in call.args):
        raise Refused(node, "an input_fn given as a call other than builder(args)")
    name = call.func.value
    defs = [s for s in module.body if isinstance(s, cst.FunctionDef) and s.name.value == name]
    if len(defs) != 1 or defs[0].decorators or _bound_elsewhere(module, name):
        raise Refused(node, f"`{name}` is not one undecorated function of the module")
    body = list(cast(cst.IndentedBlock, defs[0].body).body)
    returned = single(body[-1]) if body else None
    inner = source_of(returned.value) if isinstance(returned, cst.Return) and returned.value is not None else None
    nested = [s for s in body[:-1] if isinstance(s, cst.FunctionDef) and s.name.value == inner]
    if len(nested) != 1 or nested[0].decorators or any(isinstance(s, (cst.ClassDef,)) for s in body):
        raise Refused(node, f"`{name}` does not end in returning the input_fn it defines")
    for word, pattern in (("random", r"(?<!np\.)(?<!numpy\.)\brandom"), ("compat.v1", r"compat\.v1")):
        if re.search(pattern, source_of(defs[0])):
            raise Refused(node, f"`{name}` holds {word}")
    read = set(names_in(call).names) & {*PORT_NAMES, "params", "evaluate", "eval_step", "eval_metrics"}
    if read:
        raise Refused(node, f"`{min(read)}`, which an input_fn builder's call reads, is a name the port binds")
    if not _features_alone(defs[0], nested[0]):
        raise Refused(
            node,
            f"an input_fn whose batches are not proven features alone (`{name}`'s dataset does not end in a map to a "
            "dict): the port's batches are its features, where TPUEstimator split (features, labels) pairs",
        )
    return nested[0]


def _features_alone(builder: cst.FunctionDef, input_fn: cst.FunctionDef) -> bool:
    """Does the input_fn return `<dataset>.apply(map_and_batch(f, ...))` or `<dataset>.map(f)...batch(...)`, f
    (a lambda or a function the builder defines) returning a dict (written out, a comprehension, or
    parse_single_example's)?"""
    returned = single(cast(cst.IndentedBlock, input_fn.body).body[-1])
    value = returned.value if isinstance(returned, cst.Return) else None
    mapped = None
    while isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
        method = value.func.attr.value
        inner = value.args[0].value if value.args else None
        if method == "apply" and isinstance(inner, cst.Call) and source_of(inner.func).endswith(".map_and_batch"):
            mapped = inner.args[0].value if inner.args else None
            break
        if method == "map":
            mapped = inner
            break
        if method not in ("batch", "prefetch", "repeat", "take", "cache"):
            return False
        value = value.func.value
    if isinstance(mapped, cst.Lambda):
        result: cst.BaseExpression | None = mapped.body
    elif isinstance(mapped, cst.Name):
        found = [f for f in collect(builder.body, cst.FunctionDef) if f.name.value == mapped.value]
        last = single(cast(cst.IndentedBlock, found[0].body).body[-1]) if len(found) == 1 else None
        result = last.value if isinstance(last, cst.Return) else None
    else:
        return False
    if isinstance(result, (cst.Dict, cst.DictComp)):
        return True
    return isinstance(result, cst.Call) and source_of(result.func).endswith(("parse_single_example", "parse_example"))


def _bound_elsewhere(module: cst.Module, name: str) -> bool:
    """Is the module function `name` bound at the top level besides its def?"""
    return any(name in bound_names(s) for s in module.body if not isinstance(s, (cst.FunctionDef, cst.ClassDef)))


def _deleted(stmt: cst.BaseStatement) -> set[str] | None:
    """The names a `del a, b` line deletes (an empty set where it deletes something else); None for another
    statement."""
    small = single(stmt) if isinstance(stmt, cst.SimpleStatementLine) else None
    if not isinstance(small, cst.Del):
        return None
    target = small.target
    elements = [e.value for e in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else [target]
    return (
        {e.value for e in elements if isinstance(e, cst.Name)}
        if all(isinstance(e, cst.Name) for e in elements)
        else set()
    )
