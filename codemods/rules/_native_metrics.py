"""native-session's metrics: a v1 streaming metric's (value, update op) pair (tf.metrics.accuracy / mean,
tf-slim's streaming_accuracy / streaming_mean) -> a Keras metric made once; a sess.run of the update op ->
`update_state` on the tensors model() computes, a sess.run of the value -> `result()`."""

from __future__ import annotations

from typing import cast

import libcst as cst

from codemods.rules import _native_tables as tables
from codemods.rules._native_names import METRICS
from codemods.rules._native_summaries import Summaries
from codemods.rules._native_syntax import Refused, arguments, target_names


class Metrics(Summaries):
    """v1 streaming metrics."""

    def metric_function(self, value: cst.BaseExpression) -> str | None:
        """The v1 metric (a key of _native_tables.METRICS) a call is, else None."""
        if not isinstance(value, cst.Call):
            return None
        names = set(self.rule.tf_names(value)) | {self.rule.variable_library(value) or ""}
        found = sorted(METRICS[n] for n in names if n in METRICS)
        return found[0] if found else None

    def metric(self, stmt: cst.BaseStatement, small: cst.Assign) -> bool:
        """`value, update = tf.metrics.accuracy(labels, predictions)`: a Keras metric object made once."""
        function = cast(str, self.metric_function(small.value))
        keras, params, update_params = tables.METRICS[function]
        targets = target_names(small)
        if targets is None or len(targets) != 2 or len(small.targets) != 1:
            raise Refused(stmt, f"{function}() whose value and update op are not unpacked into two names")
        args = arguments(cast(cst.Call, small.value), params, stmt, function)
        if set(args) != set(params):
            raise Refused(stmt, f"{function}() without its {' and '.join(params)}")
        not_tensors = {*self.state(), *self.metrics, *self.metric_updates, *self.inits, *self.merged, self.train_op}
        inputs = {}
        for param, arg in args.items():
            if not isinstance(arg.value, cst.Name) or arg.value.value not in self.graph - not_tensors:
                raise Refused(stmt, f"{function}() of something other than tensors the graph names")
            inputs[param] = arg.value.value
        value, update = targets
        var = f"{value}_metric"
        if var in self.rule.module_names() or var in self.names.values():
            raise Refused(stmt, f"no free name for the metric object of `{value}`")
        self.metric_objects.append((var, keras, function))
        self.metrics[value] = var
        self.metric_updates[update] = (var, [inputs[p] for p in update_params])
        sources = set(inputs.values())
        for name in targets:
            self.depends[name] = sources.union(*(self.depends.get(r, {r}) for r in sources))
        self.graph.update(targets)
        self.replacements[id(stmt)] = []
        return True

    def metric_run(
        self,
        line: cst.CSTNode,
        small: cst.BaseSmallStatement | None,
        run: cst.Call,
        new: cst.Call,
        fetches: list[str],
        listed: bool,
    ) -> str:
        """A sess.run of a metric's value (its result) or, as a statement of its own, of its update op (update_state
        on the tensors an evaluate() call computes from the same feed)."""
        if listed or len(fetches) != 1:
            raise Refused(line, "a sess.run of a metric's value or update op with other fetches")
        fetched = fetches[0]
        if fetched in self.metrics:
            return f"{self.metrics[fetched]}.result().numpy()"
        if not (isinstance(small, cst.Expr) and small.value is run):
            raise Refused(line, "the value of a metric's update op is used (a sess.run of it is not a statement)")
        if self.inputs is not None:
            raise Refused(line, "a metric update with a tf.data input (TF1 draws only when a fetch needs it)")
        metric, inputs = self.metric_updates[fetched]
        for name in inputs:
            if name not in self.eval_outputs:
                self.eval_outputs.append(name)
        call = f"{self.names['evaluate']}({self.feed(line, run, new)})"
        self.metric_updated = self.steps_seen = True
        if metric in self.accuracies:
            # TF1's accuracy cast the predictions to the labels' dtype (truncating floats for int labels); Keras's
            # Accuracy casts both to float32 and compares those
            labels, predictions = (f'outputs["{name}"]' for name in inputs)
            cast_predictions = f"{self.alias}.cast({predictions}, {labels}.dtype)"
            return f"{metric}.update_state(*[({labels}, {cast_predictions}) for outputs in [{call}]][0])"
        keys = ", ".join(f'"{name}"' for name in inputs) + ("," if len(inputs) == 1 else "")
        return f"{metric}.update_state(*[outputs[name] for outputs in [{call}] for name in ({keys})])"

    @property
    def accuracies(self) -> set[str]:
        """The metric objects that are Keras Accuracy (their update casts, as TF1's accuracy did)."""
        return {var for var, keras, _ in self.metric_objects if keras == "Accuracy"}
