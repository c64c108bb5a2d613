"""native-session's monitored sessions and device setters.

A `tf.train.MonitoredSession()` (or SingularMonitoredSession, MonitoredTrainingSession) called without arguments is
a local Session whose scaffold initialises the variables, with no hook, no checkpoint and no master: the rule reads
it as `tf.Session()` with its initializer run. Any argument (hooks, checkpoint_dir, master, is_chief, a scaffold)
keeps the script at the safe level, with an entry naming the arguments and why (`reason`).

`tf.train.replica_device_setter(ps_tasks, ps_device=D, worker_device=D)` with one local device D (no job) and no
cluster places every op on D, or returns None where ps_tasks is 0 (TF1's device_setter): the setter's name is bound
to that device, or None, as code, and `with tf.device(setter):` around graph statements is kept as eager tf.device.
"""

from __future__ import annotations

import re

import libcst as cst

from codemods.rules._native_names import tf1_names
from codemods.rules._native_syntax import Refused, arguments, bound_names, source_of

# (also as the private module's, which tf-private rewrites to tf.compat.v1's)
REPLICA_SETTER = tf1_names("train.replica_device_setter") | {
    "tensorflow.python.training.device_setter.replica_device_setter"
}
END_OF_INPUT = (
    "a monitored session reading a tf.data input: it ends its with block quietly at the end of the input "
    "(OutOfRangeError), where an eager loop raises"
)
# replica_device_setter's parameters in positional order (TF 1.15)
SETTER_PARAMS = ("ps_tasks", "ps_device", "worker_device", "merge_devices", "cluster", "ps_ops", "ps_strategy")
# a device of this process: no job, task or replica (which name a cluster's process)
_LOCAL = re.compile(r"/(device:)?(cpu|gpu):\d+", re.IGNORECASE)
# what a monitored session's arguments do that a Session does not (the entry of a session the rule leaves)
_CLUSTER = "may be another process's (a cluster's target, where the program runs a cluster)"
_CHIEF = "may make this process a worker that is not the chief (a cluster's), whose session waits for the chief's"
_WHY = {
    "hooks": "hooks run around each run",
    "chief_only_hooks": "hooks run around each run",
    "checkpoint_dir": "checkpoint_dir: it restores the latest checkpoint and its saver and summary hooks write there",
    "scaffold": "a scaffold of its own (init ops, saver)",
    "session_creator": "a session creator of its own",
}


def plain(call: cst.Call) -> bool:
    """Is a monitored session's call one without arguments (a local Session initialising the variables)?"""
    return not call.args


def reason(name: str, call: cst.Call) -> str:
    """Why a monitored session with arguments stays at the safe level (its arguments named)."""
    keywords = [a.keyword.value if a.keyword is not None else "" for a in call.args]
    if "" in keywords:
        return f"{name} with positional arguments, which the rule does not read"
    why = []
    master = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "master"), None)
    if master is not None and not (isinstance(master, cst.SimpleString) and master.evaluated_value == ""):
        why.append(f"master={source_of(master)} {_CLUSTER}")
    chief = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "is_chief"), None)
    if chief is not None and not (isinstance(chief, cst.Name) and chief.value == "True"):
        why.append(f"is_chief={source_of(chief)} {_CHIEF}")
    why += list(dict.fromkeys(_WHY[k] for k in keywords if k in _WHY))
    others = [k for k in keywords if k not in (*_WHY, "master", "is_chief")]
    if others:
        why.append(f"{', '.join(others)}, which a Session does not take")
    return (
        f"{name}({', '.join(f'{k}=...' for k in keywords)}): {'; '.join(why)}; the rule converts one without arguments"
    )


def device_setter(
    call: cst.Call, updated: cst.Call, name: str, statements: list[cst.BaseStatement], node: cst.CSTNode
) -> tuple[str, str]:
    """`name = tf.train.replica_device_setter(...)` proven to place every op on one local device, or on none:
    (the assignment writing that device as code, the device's literal). Refused otherwise."""
    what = "tf.train.replica_device_setter"
    args = arguments(call, SETTER_PARAMS, node, what)
    new = arguments(updated, SETTER_PARAMS, node, what)
    if {"cluster", "ps_ops", "ps_strategy"} & set(args):
        which = min({"cluster", "ps_ops", "ps_strategy"} & set(args))
        raise Refused(node, f"{what}({which}=...): it places the variables on a cluster's parameter servers")
    merge = args.get("merge_devices")
    if merge is not None and not (isinstance(merge.value, cst.Name) and merge.value.value == "True"):
        raise Refused(node, f"{what}(merge_devices=...), which the rule does not read")
    devices = [args[p].value if p in args else None for p in ("ps_device", "worker_device")]
    literals = [str(d.evaluated_value) if isinstance(d, cst.SimpleString) else None for d in devices]
    local = [d for d in literals if d is not None and _LOCAL.fullmatch(d)]
    if len(local) != 2 or local[0].lower() != local[1].lower():
        raise Refused(
            node,
            f"{what} without one local device as both ps_device and worker_device (its defaults /job:ps and "
            "/job:worker are a cluster's jobs)",
        )
    if sum(name in bound_names(s) for s in statements) != 1:
        raise Refused(node, f"`{name}`, a device setter, is bound more than once")
    device = source_of(devices[1]) if devices[1] is not None else ""
    tasks = args.get("ps_tasks")
    if tasks is None or (isinstance(tasks.value, cst.Integer) and tasks.value.evaluated_value == 0):
        value = "None"  # (TF1 returned None: no device)
    elif isinstance(tasks.value, cst.Integer):
        value = device
    else:
        value = f"None if {source_of(new['ps_tasks'].value)} == 0 else {device}"
    return f"{name} = {value}\n", device


def said(setters: dict[str, str]) -> list[str]:
    """The entry's part for the device setters converted."""
    return [
        f"{name} = tf.train.replica_device_setter(...) -> {device}, the one local device it gave every op (None where "
        "ps_tasks is 0, as TF1 returned)"
        for name, device in setters.items()
    ]
