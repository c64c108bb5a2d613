"""Deploying a slim model over clones (one per GPU or CPU) and replicas (between-graph, with ps tasks).

A clone is one copy of the model on one device, built in its own name scope and sharing the
variables of the first. Their losses are averaged and their gradients summed before the optimizer
applies them once. Replicas are separate processes (workers) whose variables live on the ps tasks.
"""

import collections

import tensorflow as tf

slim = tf.contrib.slim

__all__ = ["create_clones", "optimize_clones", "DeploymentConfig"]

# What `model_fn` returned, the clone's name scope and its device.
Clone = collections.namedtuple("Clone", ["outputs", "scope", "device"])


def create_clones(config, model_fn, args=None, kwargs=None):
    """Builds `model_fn(*args, **kwargs)` once per clone; the variables are created by the first one."""
    clones = []
    args = args or []
    kwargs = kwargs or {}
    with slim.arg_scope([slim.model_variable, slim.variable], device=config.variables_device()):
        for i in range(config.num_clones):
            with tf.name_scope(config.clone_scope(i)) as clone_scope:
                clone_device = config.clone_device(i)
                with tf.device(clone_device):
                    with tf.variable_scope(tf.get_variable_scope(), reuse=True if i > 0 else None):
                        outputs = model_fn(*args, **kwargs)
                    clones.append(Clone(outputs, clone_scope, clone_device))
    return clones


def _gather_clone_loss(clone, num_clones, regularization_losses):
    """The clone's total loss (scaled by 1 / num_clones), with the regularization losses if given."""
    sum_loss = None
    clone_loss = None
    regularization_loss = None
    with tf.device(clone.device):
        all_losses = []
        clone_losses = tf.get_collection(tf.GraphKeys.LOSSES, clone.scope)
        if clone_losses:
            clone_loss = tf.add_n(clone_losses, name="clone_loss")
            if num_clones > 1:
                clone_loss = tf.div(clone_loss, 1.0 * num_clones, name="scaled_clone_loss")
            all_losses.append(clone_loss)
        if regularization_losses:
            regularization_loss = tf.add_n(regularization_losses, name="regularization_loss")
            all_losses.append(regularization_loss)
        if all_losses:
            sum_loss = tf.add_n(all_losses)
    if clone_loss is not None:
        tf.summary.scalar("/".join(filter(None, ["Losses", clone.scope, "clone_loss"])), clone_loss)
    if regularization_loss is not None:
        tf.summary.scalar("Losses/regularization_loss", regularization_loss)
    return sum_loss


def _optimize_clone(optimizer, clone, num_clones, regularization_losses, **kwargs):
    sum_loss = _gather_clone_loss(clone, num_clones, regularization_losses)
    clone_grad = None
    if sum_loss is not None:
        with tf.device(clone.device):
            clone_grad = optimizer.compute_gradients(sum_loss, **kwargs)
    return sum_loss, clone_grad


def optimize_clones(clones, optimizer, regularization_losses=None, **kwargs):
    """(total loss, [(summed gradient, variable)]) of all clones; regularization counted on the first only."""
    grads_and_vars = []
    clones_losses = []
    num_clones = len(clones)
    if regularization_losses is None:
        regularization_losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
    for clone in clones:
        with tf.name_scope(clone.scope):
            clone_loss, clone_grad = _optimize_clone(optimizer, clone, num_clones, regularization_losses, **kwargs)
            if clone_loss is not None:
                clones_losses.append(clone_loss)
                grads_and_vars.append(clone_grad)
            regularization_losses = None
    total_loss = tf.add_n(clones_losses, name="total_loss")
    grads_and_vars = _sum_clones_gradients(grads_and_vars)
    return total_loss, grads_and_vars


def _sum_clones_gradients(clone_grads):
    """Each variable's gradients over the clones, added up."""
    sum_grads = []
    for grad_and_vars in zip(*clone_grads):
        grads = []
        var = grad_and_vars[0][1]
        for g, v in grad_and_vars:
            assert v == var
            if g is not None:
                grads.append(g)
        if grads:
            if len(grads) > 1:
                sum_grad = tf.add_n(grads, name=var.op.name + "/sum_grads")
            else:
                sum_grad = grads[0]
            sum_grads.append((sum_grad, var))
    return sum_grads


class _ReplicaDeviceChooser:
    """Places variables on the ps tasks in turn; every other op stays where it was asked to be."""

    def __init__(self, tasks, job):
        self._tasks = tasks
        self._job = job
        self._next = 0

    def choose(self, op):
        if op.device:
            return op.device
        node_def = op if isinstance(op, tf.NodeDef) else op.node_def
        if node_def.op.startswith("Variable") or node_def.op == "VarHandleOp":
            device = tf.DeviceSpec(job=self._job, replica=None, task=self._next, device_type="CPU", device_index=0)
            self._next = (self._next + 1) % self._tasks
            return device.to_string()
        return ""


class DeploymentConfig:
    """Where the clones, the inputs, the optimizer and the variables of one replica go."""

    def __init__(
        self,
        num_clones=1,
        clone_on_cpu=False,
        replica_id=0,
        num_replicas=1,
        num_ps_tasks=0,
        worker_job_name="worker",
        ps_job_name="ps",
    ):
        if num_replicas > 1 and num_ps_tasks < 1:
            raise ValueError("When using replicas num_ps_tasks must be positive")
        if (num_replicas > 1 or num_ps_tasks > 0) and not worker_job_name:
            raise ValueError("Must specify worker_job_name when using replicas")
        if replica_id >= num_replicas:
            raise ValueError("replica_id must be less than num_replicas")
        self._num_clones = num_clones
        self._clone_on_cpu = clone_on_cpu
        self._replica_id = replica_id
        self._num_replicas = num_replicas
        self._num_ps_tasks = num_ps_tasks
        self._ps_device = "/job:" + ps_job_name if num_ps_tasks > 0 else ""
        self._worker_device = "/job:" + worker_job_name if num_ps_tasks > 0 else ""

    @property
    def num_clones(self):
        return self._num_clones

    @property
    def clone_on_cpu(self):
        return self._clone_on_cpu

    @property
    def replica_id(self):
        return self._replica_id

    @property
    def num_replicas(self):
        return self._num_replicas

    @property
    def num_ps_tasks(self):
        return self._num_ps_tasks

    @property
    def ps_device(self):
        return self._ps_device

    @property
    def worker_device(self):
        return self._worker_device

    def caching_device(self):
        """Variables are read once per step on the worker when they live on a ps."""
        if self._num_ps_tasks > 0:
            return lambda op: op.device
        return None

    def clone_device(self, clone_index):
        if clone_index >= self._num_clones:
            raise ValueError("clone_index must be less than num_clones")
        device = ""
        if self._num_ps_tasks > 0:
            device += self._worker_device
        if self._clone_on_cpu:
            device += "/device:CPU:0"
        else:
            device += f"/device:GPU:{clone_index}"
        return device

    def clone_scope(self, clone_index):
        if clone_index >= self._num_clones:
            raise ValueError("clone_index must be less than num_clones")
        return f"clone_{clone_index}" if self._num_clones > 1 else ""

    def optimizer_device(self):
        if self._num_ps_tasks > 0 or self._num_clones > 0:
            return self._worker_device + "/device:CPU:0"
        return ""

    def inputs_device(self):
        device = ""
        if self._num_ps_tasks > 0:
            device += self._worker_device
        device += "/device:CPU:0"
        return device

    def variables_device(self):
        device = ""
        if self._num_ps_tasks > 0:
            device += self._ps_device
        device += "/device:CPU:0"
        if not self._num_ps_tasks:
            return device
        chooser = _ReplicaDeviceChooser(self._num_ps_tasks, self._ps_device[len("/job:") :])
        return chooser.choose
