"""Device placement that works the same on TF 2.15 and TF 2.21, in graph mode and for Estimator.

    with compat.device(tf.train.replica_device_setter(cluster=cluster)):   # not tf.device(fn)
    with compat.device(tower_setter("/cpu:1", ps_devices=["/cpu:0"])):     # a model tower
    GreedyLoadBalancingStrategy(num_ps, byte_size_load_fn)   # tf.contrib.training's ps_strategy
    compat.logical_cpus(2)                       # TF2 code: 2 CPU devices before TF initialises
    config = session_config(2)                   # TF1 sessions / Estimator RunConfig(session_config=...)

`tf.device(function)` raises "tf.device does not support functions" on both runtimes; the
graph's own `device()` still takes a function. Estimator with MirroredStrategy over 2 CPUs
hangs unless its session has 2 CPU devices and soft placement: `session_config` gives both.
"""

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from compat.errors import DeviceError

if TYPE_CHECKING:
    import tensorflow as tf

# TensorFlow ships no types: an op is a tf.Operation, or the NodeDef a TF1 device function may receive.
Op = Any
DeviceFunction = Callable[[Op], str]
LoadFunction = Callable[[Op], int]
# A greedy balancer's devices: names, or ps task indices for replica_device_setter's ps_strategy.
_Device = TypeVar("_Device")
VARIABLE_OPS = frozenset({"Variable", "VariableV2", "VarHandleOp"})


def device(name_or_function: object) -> AbstractContextManager[Any]:
    """Context manager placing ops by a device string, `DeviceSpec` or a function of the op (graph mode).

    `uai-migrate` writes `compat.device(x)` wherever it cannot tell that `x` is a string, so strings
    go to `tf.device`, which places eager ops too; only functions need the graph's own `device`.
    """
    import tensorflow as tf

    if not callable(name_or_function):
        return tf.device(name_or_function)
    if tf.executing_eagerly():
        raise DeviceError(
            "a device function places ops of a graph; in eager mode use a device string, or build the model "
            "inside tf.Graph().as_default() / tf.compat.v1.disable_v2_behavior()"
        )
    return tf.compat.v1.get_default_graph().device(name_or_function)


def _node_def(op: Op) -> Any:
    return op if hasattr(op, "attr") and not hasattr(op, "node_def") else op.node_def


def byte_size_load_fn(op: Op) -> int:
    """Bytes an op allocates: tf.contrib.training.byte_size_load_fn, the greedy balancers' load.

    A variable op declares its `shape` and `dtype` (a resource variable's own output is only a
    handle); any other op must have one output of known shape, as tf.contrib required. An
    unknown variable shape counts 0 bytes: placement still goes on, tf.contrib refused it.
    """
    import tensorflow as tf

    node = _node_def(op)
    if "shape" in node.attr and "dtype" in node.attr:
        shape, dtype = tf.TensorShape(node.attr["shape"].shape), tf.as_dtype(node.attr["dtype"].type)
        return shape.num_elements() * dtype.size if shape.is_fully_defined() else 0
    outputs: Sequence[Any] = getattr(op, "outputs", ())
    if len(outputs) != 1 or not outputs[0].shape.is_fully_defined():
        raise DeviceError(f"op {node.name!r} must have exactly one output of known shape to be weighed in bytes")
    return outputs[0].shape.num_elements() * outputs[0].dtype.size


class RoundRobin:
    """Next device in turn for each variable."""

    def __init__(self, devices: Iterable[str]) -> None:
        self.devices = list(devices)
        self._next = 0

    def __call__(self, op: Op) -> str:
        chosen = self.devices[self._next % len(self.devices)]
        self._next += 1
        return chosen


class GreedyByBytes(Generic[_Device]):
    """The device holding the least load so far (ties: the earliest device); load is `load_fn(op)`, bytes by default."""

    def __init__(self, devices: Iterable[_Device], load_fn: LoadFunction = byte_size_load_fn) -> None:
        self.devices = list(devices)
        self.load_fn = load_fn
        self.load = [0] * len(self.devices)

    def __call__(self, op: Op) -> _Device:
        index = min(range(len(self.devices)), key=self.load.__getitem__)
        self.load[index] += self.load_fn(op)
        return self.devices[index]


class GreedyLoadBalancingStrategy(GreedyByBytes[int]):
    """tf.contrib.training.GreedyLoadBalancingStrategy: the least loaded of `num_tasks` ps tasks, as its index.

    The `ps_strategy` of `tf.compat.v1.train.replica_device_setter` (and of `tower_setter`'s `balance`).
    """

    def __init__(self, num_tasks: int, load_fn: LoadFunction = byte_size_load_fn) -> None:
        if num_tasks < 1:
            raise DeviceError(f"num_tasks must be at least 1, got {num_tasks}")
        super().__init__(range(num_tasks), load_fn)


BALANCERS: dict[str, Callable[[list[str]], DeviceFunction]] = {"round_robin": RoundRobin, "greedy": GreedyByBytes}


def _chooser(balance: str | Callable[[Op], int], ps_devices: list[str]) -> DeviceFunction:
    """A function of the op returning one of `ps_devices`, from a balancer name or a ps_strategy."""
    if callable(balance):  # replica_device_setter's ps_strategy: op -> task index
        return lambda op: ps_devices[balance(op)]
    if balance not in BALANCERS:
        raise DeviceError(f"balance must be one of {', '.join(BALANCERS)} or a ps_strategy, got {balance!r}")
    return BALANCERS[balance](ps_devices)


def tower_setter(
    worker_device: str, ps_devices: Sequence[str] = ("/cpu:0",), balance: str | Callable[[Op], int] = "round_robin"
) -> DeviceFunction:
    """A device function for one model tower: variables on the parameter devices, everything else on `worker_device`.

    `ps_devices` are balanced round-robin or greedily by byte size (`balance`), or by a ps_strategy
    such as `GreedyLoadBalancingStrategy(len(ps_devices))` that returns an index into them. A device
    set explicitly on an op (an inner `with device(...)`) wins over the tower's choice.
    """
    import tensorflow as tf

    if not ps_devices:
        raise DeviceError("a tower needs at least one parameter device")
    choose = _chooser(balance, list(ps_devices))

    def place(op: Op) -> str:
        target = choose(op) if _node_def(op).op in VARIABLE_OPS else worker_device
        explicit = tf.DeviceSpec.from_string(op.device or "")
        return tf.DeviceSpec.from_string(target).make_merged_spec(explicit).to_string()

    return place


def clone_device(clone_index: int, num_ps_tasks: int = 0, replica_id: int = 0, on_cpu: bool = False) -> str:
    """Device of a TF-slim model_deploy clone: `/job:worker/task:<replica>` first when there are ps tasks."""
    prefix = f"/job:worker/task:{replica_id}" if num_ps_tasks > 0 else ""
    return prefix + ("/device:CPU:0" if on_cpu else f"/device:GPU:{clone_index}")


def slim_variables_device(num_ps_tasks: int = 0, replica_id: int = 0) -> str | DeviceFunction:
    """model_deploy's variables device: round-robin over `/job:ps/task:t`, else the worker's CPU."""
    if num_ps_tasks <= 0:
        return "/device:CPU:0"
    return tower_setter(
        f"/job:worker/task:{replica_id}/device:CPU:0", [f"/job:ps/task:{t}/device:CPU:0" for t in range(num_ps_tasks)]
    )


def logical_cpus(count: int) -> list[str]:
    """Split the CPU into `count` logical devices for TF2 code; return their names.

    Must run before TensorFlow initialises its devices (the first op or device query);
    afterwards it succeeds only if the split is already as asked.
    """
    import tensorflow as tf

    if count < 1:
        raise DeviceError(f"need at least one CPU device, got {count}")
    cpu = tf.config.list_physical_devices("CPU")[0]
    try:
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * count)
    except RuntimeError as error:  # devices already initialised
        have = len(tf.config.list_logical_devices("CPU"))
        if have != count:
            raise DeviceError(
                f"TensorFlow already initialised {have} CPU device(s); call logical_cpus({count}) before the first op"
            ) from error
    return [f"/cpu:{i}" for i in range(count)]


def session_config(num_cpus: int = 1, **fields: Any) -> "tf.compat.v1.ConfigProto":
    """`ConfigProto` for TF1 sessions and Estimator: `num_cpus` CPU devices with soft placement."""
    import tensorflow as tf

    fields.setdefault("allow_soft_placement", True)
    return tf.compat.v1.ConfigProto(device_count={"CPU": num_cpus}, **fields)
