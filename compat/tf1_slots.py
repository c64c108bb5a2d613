"""A TF1 checkpoint's optimizer slots into the Keras optimizer that continues its training.

`tf.train.Checkpoint.restore` reads a TF1 (name-based) checkpoint by its variables' names: the weights load
(`Conv/weights`), the slots of TF1's optimizer do not, since Keras names its own otherwise (`Conv/weights/Adam` and
`beta1_power` against `m/Conv/weights` and `iteration`): they would start at zero, and the first update after the
restore would not be TF1's (measured: a native port of a MonitoredTrainingSession restarting from TF1's checkpoint
trained its second step to another loss). `restore_slots` maps them, for the optimizers native-session writes:

- tf.train.AdamOptimizer -> Adam: `<v>/Adam` is m, `<v>/Adam_1` is v, and `beta1_power` (beta1 ** (t + 1) after t
  updates) gives the iteration count Keras's bias correction reads;
- tf.train.MomentumOptimizer -> SGD(momentum): TF1 keeps `accum = momentum * accum + g` and subtracts
  `lr * accum`, Keras keeps `m = momentum * m - lr * g` and adds it, so m is `-lr * <v>/Momentum` (at a constant
  learning rate, which is what the rule writes);
- tf.train.AdagradOptimizer -> Adagrad: `<v>/Adagrad` is the accumulator;
- tf.train.GradientDescentOptimizer -> SGD: no slot.

TF1's Saver.restore also stopped (NotFoundError) where the checkpoint lacked a variable of the graph; the name-based
restore leaves it at its initial value without a word, and a port trained on from there. `check_names` stops it as
TF1 did, and `restore_slots_when_built` calls it as the optimizer builds, when the first step has made the layers'
variables.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import tensorflow as tf

from compat.errors import CheckpointError, DataError

# the key every object-based checkpoint holds: its variables were restored by the object graph, slots included
_OBJECT_GRAPH = "_CHECKPOINTABLE_OBJECT_GRAPH"


def restore_slots(optimizer: Any, variables: Iterable[tf.Variable], path: str | None) -> None:
    """After `tf.train.Checkpoint(...).restore(path)`: where `path` is a TF1 checkpoint, build `optimizer` (a Keras 2
    Adam, SGD or Adagrad) over the trainable `variables` and load TF1's slots of them into its own (none where the
    checkpoint has none). An object-based checkpoint, or None, is left to the restore."""
    reader = _tf1_reader(path)
    if reader is not None:
        optimizer.build([v for v in variables if v.trainable])
        _load(optimizer, reader, str(path))


def check_names(variables: Iterable[tf.Variable], path: str | None) -> None:
    """Where `path` is a TF1 (name-based) checkpoint: raise CheckpointError naming the first of `variables` it holds
    no value of, as TF1's Saver.restore did. An object-based checkpoint, or None, is left to the restore (the port's
    own checkpoints are object-based: their restore matches objects, not TF1's names)."""
    reader = _tf1_reader(path)
    if reader is not None:
        _check_names(reader, variables, str(path))


def _check_names(reader: Any, variables: Iterable[tf.Variable], path: str) -> None:
    missing = sorted({v.name.split(":")[0] for v in variables} - set(reader.get_variable_to_shape_map()))
    if missing:
        raise CheckpointError(
            f"{path}: holds no {missing[0]}, which TF1's Saver.restore would have restored from it (NotFoundError)"
        )


def restore_slots_when_built(optimizer: Any, path: str | None) -> None:
    """As restore_slots, for an optimizer whose variables are not made yet (Keras layers make theirs at the first
    step, and the optimizer its slots then): TF1's slots load when it builds them, or now if it has. As it builds,
    the variables it trains must all be in the checkpoint (check_names): stopped before the first update."""
    if getattr(vars(optimizer).get("build"), "loads_tf1_slots", False):
        del optimizer.build  # (a later restore replaces a pending load, as in TF1 it overwrote the earlier one)
    reader = _tf1_reader(path)
    if reader is None:
        return
    if getattr(optimizer, "_built", False):
        _load(optimizer, reader, str(path))
        return
    build = optimizer.build

    def build_then_load(var_list: Any) -> None:
        _check_names(reader, var_list, str(path))
        build(var_list)
        del optimizer.build  # (once: Keras calls build at every apply_gradients)
        _load(optimizer, reader, str(path))

    build_then_load.loads_tf1_slots = True  # type: ignore[attr-defined]
    optimizer.build = build_then_load


def _tf1_reader(path: str | None) -> Any:
    """A reader of `path` where it is a TF1 (name-based) checkpoint, else None."""
    if path is None:
        return None
    reader = tf.train.load_checkpoint(path)
    return None if _OBJECT_GRAPH in reader.get_variable_to_shape_map() else reader


# Keras's slot (its name's head) -> TF1's slot of the same variable, by the Keras optimizer
_SLOTS = {"Adam": {"m": "Adam", "v": "Adam_1"}, "SGD": {"m": "Momentum"}, "Adagrad": {"accumulator": "Adagrad"}}


def _load(optimizer: Any, reader: Any, path: str) -> None:
    """TF1's slots into the built optimizer's, by name (`m/Conv/weights:0`, or `Adam/m/Conv/weights:0` where
    apply_gradients made it, <- `Conv/weights/Adam`)."""
    keys = reader.get_variable_to_shape_map()
    kind = type(optimizer).__name__
    heads = _SLOTS.get(kind, {})
    for slot in optimizer.variables:
        name = slot.name
        if name.partition("/")[0] not in heads and name.startswith(f"{optimizer.name}/"):
            name = name[len(optimizer.name) + 1 :]  # (slots made in apply_gradients are under its name scope)
        head, _, rest = name.partition("/")
        tf1 = f"{rest.rsplit(':', 1)[0]}/{heads.get(head, '')}"
        if not rest or head not in heads or tf1 not in keys:
            continue
        value = reader.get_tensor(tf1)
        if kind == "SGD":
            rate = optimizer.learning_rate
            if not isinstance(rate, tf.Variable):
                raise DataError(f"{path}: {tf1} needs a constant learning rate to map, found {rate!r}")
            # (in the slot's dtype: a float64 variable's slot is float64, the Keras learning rate float32)
            value = -tf.cast(rate, slot.dtype) * value
        slot.assign(value)
    if kind == "Adam" and "beta1_power" in keys:
        power = float(reader.get_tensor("beta1_power"))
        optimizer.iterations.assign(round(math.log(power) / math.log(float(optimizer.beta_1))) - 1)
