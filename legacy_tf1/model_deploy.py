"""Model clones over devices, in the style of TF-slim's `model_deploy` (our own implementation).

    config = DeploymentConfig(num_clones=2)
    clones = create_clones(config, model_fn, args=(iterator,))      # model_fn adds tf.losses
    total_loss, grads_and_vars = optimize_clones(clones, optimizer)
    train_op = optimizer.apply_gradients(grads_and_vars, global_step)

Each clone is built under name scope `clone_<i>` on its own device, sharing variables (clone 0
creates them). A clone's losses are divided by the number of clones and the gradients summed,
so the update is that of the mean loss over all clones' batches; regularization is added once,
on the first clone. Clones go on GPUs, or on logical CPUs `/device:CPU:<i>` when the node has
none (see `compat.devices.session_config`). With parameter servers every device is prefixed
with `/job:worker/task:<replica>` and variables go round-robin on `/job:ps/task:<t>`.
"""

from __future__ import annotations

import collections
import contextlib
from collections.abc import Callable, Sequence
from typing import Any, cast

import tensorflow as tf

import compat.slim as slim
from compat import devices
from compat.errors import DeviceError

v1 = tf.compat.v1

Clone = collections.namedtuple("Clone", "outputs scope device")


class DeploymentConfig:
    """Where clones, inputs, the optimizer and variables go (model_deploy's DeploymentConfig)."""

    def __init__(
        self,
        num_clones: int = 1,
        clone_on_cpu: bool = False,
        replica_id: int | None = 0,  # None on a ps task, which builds no clones
        num_replicas: int = 1,
        num_ps_tasks: int = 0,
        on_gpus: bool | None = None,
    ) -> None:
        if num_clones < 1:
            raise DeviceError(f"need at least one clone, got {num_clones}")
        self.num_clones = num_clones
        self.clone_on_cpu = clone_on_cpu
        self.replica_id = replica_id
        self.num_replicas = num_replicas
        self.num_ps_tasks = num_ps_tasks
        self.on_gpus = bool(tf.config.list_physical_devices("GPU")) if on_gpus is None else on_gpus
        self._variables_device: str | devices.DeviceFunction | None = None

    @property
    def worker_device(self) -> str:
        return f"/job:worker/task:{self.replica_id}" if self.num_ps_tasks > 0 else ""

    def clone_device(self, index: int) -> str:
        if self.on_gpus or self.clone_on_cpu:
            replica = cast(int, self.replica_id)  # (clones are built on workers only)
            return devices.clone_device(index, self.num_ps_tasks, replica, on_cpu=self.clone_on_cpu)
        # No GPU: clone i on logical CPU i, which the session's device_count creates.
        return f"{self.worker_device}/device:CPU:{index}"

    def clone_scope(self, index: int) -> str:
        return f"clone_{index}" if self.num_clones > 1 else ""

    def optimizer_device(self) -> str:
        return f"{self.worker_device}/device:CPU:0"

    inputs_device = optimizer_device

    def variables_device(self) -> str | devices.DeviceFunction:
        """One device (function) for every variable, so round-robin over ps tasks covers the whole model."""
        if self._variables_device is None:
            replica = cast(int, self.replica_id)  # (clones are built on workers only)
            self._variables_device = devices.slim_variables_device(self.num_ps_tasks, replica)
        return self._variables_device

    def session_config(self, **fields: Any) -> tf.compat.v1.ConfigProto:
        """A ConfigProto with a CPU device per clone when clones run on logical CPUs."""
        cpus = 1 if self.on_gpus or self.clone_on_cpu else self.num_clones
        return devices.session_config(cpus, **fields)


def create_clones(
    config: DeploymentConfig,
    model_fn: Callable[..., Any],
    args: Sequence[Any] = (),
    kwargs: dict[str, Any] | None = None,
) -> list[Clone]:
    """Build `model_fn(*args, **kwargs)` once per clone; variables are created by clone 0 and reused."""
    clones = []
    with slim.arg_scope([slim.model_variable, slim.variable], device=config.variables_device()):
        for index in range(config.num_clones):
            scope, device = config.clone_scope(index), config.clone_device(index)
            with _name_scope(scope), tf.device(device):
                with v1.variable_scope(v1.get_variable_scope(), reuse=True if index > 0 else None):
                    outputs = model_fn(*args, **(kwargs or {}))
            clones.append(Clone(outputs, scope, device))
    return clones


def _name_scope(clone_scope: str) -> contextlib.AbstractContextManager[Any]:
    # "clone_0/" names the scope absolutely: optimize_clones re-enters the scope create_clones
    # made (a plain "clone_0" would open "clone_0_1"), and collections filter on that prefix.
    return v1.name_scope(clone_scope + "/") if clone_scope else contextlib.nullcontext()


def clone_losses(clone: Clone) -> list[tf.Tensor]:
    """The losses `model_fn` added in this clone (tf.compat.v1.losses)."""
    return v1.losses.get_losses(_collection_scope(clone))


def _clone_loss(clone: Clone, num_clones: int, regularization_losses: list[tf.Tensor] | None) -> tf.Tensor | None:
    """This clone's share of the loss (None when it has no losses), regularization included."""
    parts = []
    losses = clone_losses(clone)
    if losses:
        loss = tf.add_n(losses, name="clone_loss")
        if num_clones > 1:
            loss = tf.math.divide(loss, float(num_clones), name="scaled_clone_loss")
        parts.append(loss)
    if regularization_losses:
        parts.append(tf.add_n(regularization_losses, name="regularization_loss"))
    return tf.add_n(parts) if parts else None


def _sum_gradients(
    clone_grads: Sequence[Sequence[tuple[tf.Tensor | None, tf.Variable]]],
) -> list[tuple[tf.Tensor, tf.Variable]]:
    """[(sum over clones of d/dv, v)] for every variable some clone has a gradient for."""
    summed = []
    for grads_and_vars in zip(*clone_grads):
        variable = grads_and_vars[0][1]
        grads = [g for g, _ in grads_and_vars if g is not None]
        if not grads:
            continue
        total = grads[0] if len(grads) == 1 else tf.add_n(grads, name=variable.op.name + "/sum_grads")
        summed.append((total, variable))
    return summed


def optimize_clones(
    clones: Sequence[Clone],
    optimizer: tf.compat.v1.train.Optimizer,
    regularization_losses: list[tf.Tensor] | None = None,
    **kwargs: Any,
) -> tuple[tf.Tensor, list[tuple[tf.Tensor, tf.Variable]]]:
    """(total loss, summed gradients) of all clones; kwargs go to `optimizer.compute_gradients`."""
    if regularization_losses is None:
        regularization_losses = v1.losses.get_regularization_losses()
    losses, clone_grads = [], []
    for index, clone in enumerate(clones):
        with _name_scope(clone.scope), tf.device(clone.device):
            loss = _clone_loss(clone, len(clones), regularization_losses if index == 0 else None)
            if loss is None:
                continue
            losses.append(loss)
            clone_grads.append(optimizer.compute_gradients(loss, **kwargs))
    if not losses:
        raise ValueError("the model_fn added no losses (tf.compat.v1.losses) in any clone")
    return tf.add_n(losses, name="total_loss"), _sum_gradients(clone_grads)


def first_clone_update_ops(clones: Sequence[Clone]) -> list[tf.Operation]:
    """Batch-norm moving-average updates of clone 0 only, as model_deploy took them."""
    return v1.get_collection(v1.GraphKeys.UPDATE_OPS, _collection_scope(clones[0]))


def _collection_scope(clone: Clone) -> str | None:
    # Collections filter by name prefix: "clone_1" alone would also match "clone_10/...".
    return clone.scope + "/" if clone.scope else None
