"""tf.contrib.estimator's in-graph towers, `replicate_model_fn` and `TowerOptimizer` (TF 1.5 to 1.15), on TF 2.

TF 1.5-1.8 programs (official/resnet among them) ran an Estimator on several GPUs this way:

    model_fn = tf.contrib.estimator.replicate_model_fn(model_fn, loss_reduction=tf.losses.Reduction.MEAN)
    ...inside model_fn: optimizer = tf.contrib.estimator.TowerOptimizer(tf.train.MomentumOptimizer(...))

TF 2 has neither. Here, as in TF 1: the wrapped model_fn splits the batch into one equal slice per
device and calls the program's model_fn once per slice (a "tower"), variables shared and placed on the
first CPU, each tower's other ops on its device. The first tower keeps the program's own op names
(`cross_entropy`, `learning_rate` for its logging hooks); tower i is under the name scope `tower_i`.
A TowerOptimizer scales each tower's loss (by 1/towers unless the reduction is SUM), collects the
tower's gradients, and the last tower's applies their sum once. The spec's loss is the sum of the
scaled tower losses; evaluation metrics add up every tower's metric variables; predictions are
concatenated. With one device the model_fn runs as it is.
"""

import contextlib
import inspect
from collections.abc import Callable, Sequence
from typing import Any

from compat.devices import tower_setter
from compat.errors import DeviceError

# TensorFlow ships no types: tensors, specs and optimizers are Any here
ModelFn = Callable[..., Any]
_CONSOLIDATION = "/device:CPU:0"


class _Towers:
    """The towers of the model_fn call being built: their count, the loss reduction, each tower's gradients."""

    def __init__(self, count: int, loss_reduction: str) -> None:
        self.count = count
        self.loss_reduction = loss_reduction
        self.index = 0
        self.gradients: list[list[tuple[Any, Any]]] = []

    @property
    def last(self) -> bool:
        return self.index == self.count - 1


_building: list[_Towers] = []  # the replicated model_fn calls being built (innermost last)


def _local_devices(device_type: str) -> list[str]:
    import tensorflow as tf

    return [device.name for device in tf.config.list_logical_devices(device_type)]


def replicate_model_fn(
    model_fn: ModelFn, loss_reduction: str | None = None, devices: Sequence[str] | None = None
) -> ModelFn:
    """A model_fn running `model_fn` once per device in `devices` (default: every local GPU, else the CPU).

    `loss_reduction` is a `tf.compat.v1.losses.Reduction` (default SUM_BY_NONZERO_WEIGHTS, TF 1's);
    the program's optimizer must be a `TowerOptimizer`.
    """
    import tensorflow as tf

    reduction = tf.compat.v1.losses.Reduction
    loss_reduction = reduction.SUM_BY_NONZERO_WEIGHTS if loss_reduction is None else loss_reduction
    if loss_reduction == reduction.NONE:
        raise DeviceError("replicate_model_fn needs a loss reduction other than NONE: the towers' losses are added")
    devices = list(devices or _local_devices("GPU") or [_CONSOLIDATION])
    if len(devices) == 1:
        return model_fn

    def replicated_model_fn(features: Any, labels: Any, mode: str, params: Any = None, config: Any = None) -> Any:
        towers = _Towers(len(devices), loss_reduction)
        with tf.device(_CONSOLIDATION), tf.compat.v1.name_scope("split_inputs"):
            feature_shards = _split(features, len(devices))
            label_shards = _split(labels, len(devices))
        _building.append(towers)
        try:
            specs, metric_variables = _build_towers(
                model_fn, devices, towers, feature_shards, label_shards, mode, params, config
            )
        finally:
            _building.pop()
        return _combine(specs, metric_variables, mode, towers)

    return replicated_model_fn


def _split(value: Any, count: int) -> list[Any]:
    """`value` (a tensor, a dict of them, or None) cut into `count` equal slices along the batch."""
    import tensorflow as tf

    if value is None:
        return [None] * count
    if isinstance(value, dict):
        pieces = {key: _split(tensor, count) for key, tensor in value.items()}
        return [{key: pieces[key][i] for key in value} for i in range(count)]
    size = tf.compat.dimension_value(value.shape[0])
    if size is not None and size % count:
        raise DeviceError(f"a batch of {size} does not split into {count} towers: use a multiple of {count}")
    return tf.split(value, count)


def _call(model_fn: ModelFn, features: Any, labels: Any, mode: str, params: Any, config: Any) -> Any:
    """model_fn with the arguments it names (an Estimator's model_fn may leave out params and config)."""
    names = inspect.signature(model_fn).parameters
    kwargs = {name: value for name, value in (("params", params), ("config", config)) if name in names}
    if "labels" in names:
        kwargs["labels"] = labels
    return model_fn(features=features, mode=mode, **kwargs)


def _build_towers(
    model_fn: ModelFn,
    devices: list[str],
    towers: _Towers,
    feature_shards: list[Any],
    label_shards: list[Any],
    mode: str,
    params: Any,
    config: Any,
) -> tuple[list[Any], list[list[Any]]]:
    """Each tower's EstimatorSpec and the metric variables it made (in the order it made them)."""
    import tensorflow as tf

    v1 = tf.compat.v1
    specs, metric_variables = [], []
    for i, device in enumerate(devices):
        towers.index = i
        before = len(v1.get_collection(v1.GraphKeys.METRIC_VARIABLES))
        # the first tower keeps the program's names: its logging hooks read them
        with v1.variable_scope(v1.get_variable_scope(), reuse=True if i else None):
            scope = v1.name_scope(f"tower_{i}") if i else contextlib.nullcontext()
            with scope, v1.device(tower_setter(device, [_CONSOLIDATION])):
                specs.append(_call(model_fn, feature_shards[i], label_shards[i], mode, params, config))
        metric_variables.append(v1.get_collection(v1.GraphKeys.METRIC_VARIABLES)[before:])
    if mode == tf.estimator.ModeKeys.TRAIN and len(towers.gradients) != towers.count:
        raise DeviceError(
            f"{len(towers.gradients)} of {towers.count} towers applied gradients through a TowerOptimizer: "
            "wrap the model_fn's optimizer in TowerOptimizer"
        )
    return specs, metric_variables


def _scaled(loss: Any, towers: _Towers) -> Any:
    import tensorflow as tf

    if towers.loss_reduction == tf.compat.v1.losses.Reduction.SUM:
        return loss
    return loss / towers.count


def _combine(specs: list[Any], metric_variables: list[list[Any]], mode: str, towers: _Towers) -> Any:
    """One EstimatorSpec of the towers' specs."""
    import tensorflow as tf

    first = specs[0]
    with tf.device(_CONSOLIDATION):
        if mode == tf.estimator.ModeKeys.PREDICT:
            predictions = _concat([spec.predictions for spec in specs])
            return first._replace(predictions=predictions, export_outputs=_concat_outputs(specs))
        loss = tf.add_n([_scaled(spec.loss, towers) for spec in specs], name="loss")
        if mode == tf.estimator.ModeKeys.TRAIN:
            train_op = tf.group(*[spec.train_op for spec in specs])
            hooks = [hook for spec in specs for hook in spec.training_hooks]
            return first._replace(loss=loss, train_op=train_op, training_hooks=hooks)
        return first._replace(loss=loss, eval_metric_ops=_summed_metrics(specs, metric_variables))


def _concat(values: list[Any]) -> Any:
    import tensorflow as tf

    if isinstance(values[0], dict):
        return {key: tf.concat([value[key] for value in values], 0) for key in values[0]}
    return tf.concat(values, 0)


def _concat_outputs(specs: list[Any]) -> Any:
    """The first tower's export outputs, each over every tower's rows."""

    outputs = {}
    for name, output in (specs[0].export_outputs or {}).items():
        tensors = [spec.export_outputs[name].outputs for spec in specs]
        outputs[name] = type(output)(**_output_arguments(output, _concat(tensors)))
    return outputs or None


def _output_arguments(output: Any, tensors: dict[str, Any]) -> dict[str, Any]:
    """The constructor arguments of an export output holding `tensors` (keyed as its `outputs`)."""
    import tensorflow as tf

    export = tf.estimator.export
    if isinstance(output, export.ClassificationOutput):
        return {"scores": tensors.get("scores"), "classes": tensors.get("classes")}
    if isinstance(output, export.RegressionOutput):
        return {"value": tensors["outputs"]}
    return {"outputs": tensors}


def _summed_metrics(specs: list[Any], metric_variables: list[list[Any]]) -> dict[str, Any]:
    """The first tower's metrics over every tower's examples: after all towers' updates, each of its
    metric variables takes the sum of the towers' (theirs go back to zero for the next batch)."""
    import tensorflow as tf

    updates = [update for spec in specs for _, update in spec.eval_metric_ops.values()]
    with tf.control_dependencies(updates):
        totals = [
            tf.add_n([variables[j].read_value() for variables in metric_variables])
            for j in range(len(metric_variables[0]))
        ]
    with tf.control_dependencies(totals):
        assigns = [variable.assign(total) for variable, total in zip(metric_variables[0], totals)]
        assigns += [
            variable.assign(tf.zeros_like(variable)) for variables in metric_variables[1:] for variable in variables
        ]
    reduced = tf.group(*assigns)
    return {name: (value, reduced) for name, (value, _) in specs[0].eval_metric_ops.items()}


def _optimizer_class() -> type:
    import tensorflow as tf

    class TowerOptimizer(tf.compat.v1.train.Optimizer):
        """An optimizer for `replicate_model_fn`'s towers: gathers each tower's gradients, the last tower applies their sum."""

        def __init__(self, optimizer_or_optimizer_fn: Any) -> None:
            super().__init__(use_locking=False, name="TowerOptimizer")
            self._optimizer_or_fn = optimizer_or_optimizer_fn
            self._optimizer: Any = None

        def _wrapped(self) -> Any:
            if self._optimizer is None:
                made = self._optimizer_or_fn
                self._optimizer = made if isinstance(made, tf.compat.v1.train.Optimizer) else made()
            return self._optimizer

        def compute_gradients(self, loss: Any, *args: Any, **kwargs: Any) -> Any:
            towers = _building[-1] if _building else None
            scaled = _scaled(loss, towers) if towers else loss
            return self._wrapped().compute_gradients(scaled, *args, **kwargs)

        def apply_gradients(self, grads_and_vars: Any, global_step: Any = None, name: str | None = None) -> Any:
            towers = _building[-1] if _building else None
            if towers is None:  # one device: the model_fn was not replicated
                return self._wrapped().apply_gradients(grads_and_vars, global_step, name)
            towers.gradients.append(list(grads_and_vars))
            if not towers.last:
                return tf.no_op()
            # the last tower reuses the first one's variables; the optimizer's slots are new ones
            with tf.compat.v1.variable_scope(tf.compat.v1.get_variable_scope(), reuse=tf.compat.v1.AUTO_REUSE):
                return self._wrapped().apply_gradients(_summed_gradients(towers.gradients), global_step, name)

        def get_slot(self, *args: Any, **kwargs: Any) -> Any:
            return self._wrapped().get_slot(*args, **kwargs)

        def get_slot_names(self, *args: Any, **kwargs: Any) -> Any:
            return self._wrapped().get_slot_names(*args, **kwargs)

        def variables(self) -> Any:
            return self._wrapped().variables()

    return TowerOptimizer


def _summed_gradients(per_tower: list[list[tuple[Any, Any]]]) -> list[tuple[Any, Any]]:
    """(sum of the towers' gradients, variable) per variable, added on the variable's device in tower order."""
    import tensorflow as tf

    summed = []
    for pairs in zip(*per_tower):
        variable = pairs[0][1]
        grads = [grad for grad, _ in pairs if grad is not None]
        if not grads:
            summed.append((None, variable))
            continue
        with tf.compat.v1.colocate_with(variable):
            # an embedding's IndexedSlices are added as dense tensors
            summed.append((tf.add_n([tf.convert_to_tensor(grad) for grad in grads]), variable))
    return summed


_classes: dict[str, type] = {}


def __getattr__(name: str) -> Any:
    # TowerOptimizer subclasses TF's Optimizer, built on first use: importing compat loads no TensorFlow
    if name == "TowerOptimizer":
        if name not in _classes:
            _classes[name] = _optimizer_class()
        return _classes[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
