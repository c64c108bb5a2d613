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
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import tensorflow as tf

from compat.errors import DataError

# the key every object-based checkpoint holds: its variables were restored by the object graph, slots included
_OBJECT_GRAPH = "_CHECKPOINTABLE_OBJECT_GRAPH"


def restore_slots(optimizer: Any, variables: Iterable[tf.Variable], path: str | None) -> None:
    """After `tf.train.Checkpoint(...).restore(path)`: where `path` is a TF1 checkpoint, build `optimizer` (a Keras 2
    Adam, SGD or Adagrad) over the trainable `variables` and load TF1's slots of them into its own (none where the
    checkpoint has none). An object-based checkpoint, or None, is left to the restore."""
    if path is None:
        return
    reader = tf.train.load_checkpoint(path)
    keys = reader.get_variable_to_shape_map()
    if _OBJECT_GRAPH in keys:
        return
    trainable = [v for v in variables if v.trainable]
    optimizer.build(trainable)
    slots = {v.name: v for v in optimizer.variables}
    kind = type(optimizer).__name__
    for variable in trainable:
        name = variable.name.split(":")[0]
        if kind == "Adam" and f"{name}/Adam" in keys:
            slots[f"m/{name}:0"].assign(reader.get_tensor(f"{name}/Adam"))
            slots[f"v/{name}:0"].assign(reader.get_tensor(f"{name}/Adam_1"))
        elif kind == "SGD" and f"{name}/Momentum" in keys:
            rate = optimizer.learning_rate
            if not isinstance(rate, tf.Variable):
                raise DataError(f"{path}: {name}/Momentum needs a constant learning rate to map, found {rate!r}")
            slots[f"m/{name}:0"].assign(-rate * reader.get_tensor(f"{name}/Momentum"))
        elif kind == "Adagrad" and f"{name}/Adagrad" in keys:
            slots[f"accumulator/{name}:0"].assign(reader.get_tensor(f"{name}/Adagrad"))
    if kind == "Adam" and "beta1_power" in keys:
        power = float(reader.get_tensor("beta1_power"))
        optimizer.iterations.assign(round(math.log(power) / math.log(float(optimizer.beta_1))) - 1)
