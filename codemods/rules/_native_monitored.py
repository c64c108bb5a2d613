"""native-session's monitored sessions and device setters.

A `tf.train.MonitoredSession()` (or SingularMonitoredSession, MonitoredTrainingSession) called without arguments is
a local Session whose scaffold initialises the variables, with no hook, no checkpoint and no master: the rule reads
it as `tf.Session()` with its initializer run. Any argument (hooks, checkpoint_dir, master, is_chief, a scaffold)
keeps the script at the safe level, with an entry naming the arguments and why (`reason`), but a master or is_chief
of a cluster (TF1's between-graph training: each task a client training on the parameter servers' variables) in the
platform's uai_dist shape, which codemods/rules/_native_cluster.py ports to ParameterServerStrategy (the roles change:
its chief schedules the steps on the workers, its ps and workers only serve).

`tf.train.replica_device_setter(ps_tasks, ps_device=D, worker_device=D)` with one local device D (no job) and no
cluster places every op on D, or returns None where ps_tasks is 0 (TF1's device_setter): the setter's name is bound
to that device, or None, as code, and `with tf.device(setter):` around graph statements is kept as eager tf.device.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, cast

import libcst as cst

from codemods.rules._native_names import VARIABLE, VARIABLE_PARAMS, tf1_names
from codemods.rules._native_syntax import (
    Refused,
    arguments,
    assigned,
    bound_names,
    collect,
    lines_of,
    names_in,
    single,
    source_of,
)

# (also as the private module's, which tf-private rewrites to tf.compat.v1's)
REPLICA_SETTER = tf1_names("train.replica_device_setter") | {
    "tensorflow.python.training.device_setter.replica_device_setter"
}
CONVERTS = (
    "the rule converts one without arguments, or a MonitoredTrainingSession of a checkpoint_dir and a StopAtStepHook"
)
# replica_device_setter's parameters in positional order (TF 1.15)
SETTER_PARAMS = ("ps_tasks", "ps_device", "worker_device", "merge_devices", "cluster", "ps_ops", "ps_strategy")
# a device of this process: no job, task or replica (which name a cluster's process)
_LOCAL = re.compile(r"/(device:)?(cpu|gpu):\d+", re.IGNORECASE)
# what a monitored session's master or is_chief of a cluster does, and which of them the rule ports (to
# ParameterServerStrategy: codemods/rules/_native_cluster.py, whose docstring gives the shape). Measured: the safe port
# of tests/corpus/uai_dist_local.py, whose ps task trains too, in a cluster of a master, a worker and a ps, ran 3 steps
# in one run, 5 in the next (TF1's tasks race)
CLUSTER = (
    "may make this process a task of a cluster's between-graph training (each task a client running steps of its "
    "own, asynchronously, on the variables a device setter put on the parameter servers, shared by name; one that "
    "is not the chief waits for the chief's initialisation); the rule ports one to ParameterServerStrategy only in "
    "the shape of the platform's uai_dist scripts (the cluster setup, in the function holding the session or in the "
    "one function calling it; then `train_op, ... = build()` of a function returning an optimizer's minimize(loss, "
    "global step) and tensors; then this session of master, is_chief, one StopAtStepHook(last_step=N) and at most a "
    "checkpoint_dir and save_summaries_steps=None, around `while not sess.should_stop():` fetching the train op and "
    "those tensors once, nothing after it), which this is not"
)
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


def _local_master(master: cst.BaseExpression) -> bool:
    """Is a monitored session's master `''`, this process's own session?"""
    return isinstance(master, cst.SimpleString) and master.evaluated_value == ""


def _chief(chief: cst.BaseExpression) -> bool:
    """Is a monitored session's is_chief `True`?"""
    return isinstance(chief, cst.Name) and chief.value == "True"


def reason(name: str, call: cst.Call) -> str:
    """Why a monitored session with arguments stays at the safe level (its arguments named)."""
    keywords = [a.keyword.value if a.keyword is not None else "" for a in call.args]
    if "" in keywords:
        return f"{name} with positional arguments, which the rule does not read"
    why = []
    master = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "master"), None)
    chief = next((a.value for a in call.args if a.keyword is not None and a.keyword.value == "is_chief"), None)
    cluster = [
        *([f"master={source_of(master)}"] if master is not None and not _local_master(master) else []),
        *([f"is_chief={source_of(chief)}"] if chief is not None and not _chief(chief) else []),
    ]
    if cluster:
        why.append(f"{' and '.join(cluster)} {CLUSTER}")
    why += list(dict.fromkeys(_WHY[k] for k in keywords if k in _WHY))
    others = [k for k in keywords if k not in (*_WHY, "master", "is_chief")]
    if others:
        why.append(f"{', '.join(others)}, which a Session does not take")
    return f"{name}({', '.join(f'{k}=...' for k in keywords)}): {'; '.join(why)}; {CONVERTS}"


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


def until_end_of_input(converter: Any, statements: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
    """A monitored session's block where the graph reads a tf.data input: TF1's session ended the block quietly at
    the end of the input (its __exit__ swallowed OutOfRangeError and StopIteration, then ran its hooks' end), so
    the converted block is in a try that does the same."""
    if converter.inputs is None and not converter.datasets or not statements:
        return statements
    handler = cst.parse_statement(
        f"try:\n    pass\nexcept (StopIteration, {converter.alias}.errors.OutOfRangeError):\n    pass  # (the end of the input)\n"
    )
    return [cast(cst.Try, handler).with_changes(body=cst.IndentedBlock(body=statements))]


UNNAMED_ITERATOR = (
    "make_one_shot_iterator() of a tf.data pipeline bound to no name (the rule reads `dataset = ...` and "
    "`dataset.make_one_shot_iterator().get_next()`)"
)


def unnamed_iterator(calls: Iterable[cst.Call], datasets: set[str]) -> bool:
    """Does a graph statement make an iterator of a pipeline that is not a name the rule read as one? (TF 2's
    datasets have no make_one_shot_iterator: kept as it was, the statement would fail eagerly.)"""
    return any(
        isinstance(call.func, cst.Attribute)
        and call.func.attr.value in ("make_one_shot_iterator", "make_initializable_iterator")
        and not (isinstance(call.func.value, cst.Name) and call.func.value.value in datasets)
        for call in calls
    )


def said(setters: dict[str, str]) -> list[str]:
    """The entry's part for the device setters converted."""
    return [
        f"{name} = tf.train.replica_device_setter(...) -> {device}, the one local device it gave every op (None where "
        "ps_tasks is 0, as TF1 returned)"
        for name, device in setters.items()
    ]


# -- a MonitoredTrainingSession's training loop
TRAINING = tf1_names("train.MonitoredTrainingSession")
STOP_AT_STEP = tf1_names("train.StopAtStepHook")
GLOBAL_STEP = tf1_names("train.get_or_create_global_step", "train.create_global_step")
_TRAINING_KEYWORDS = ("checkpoint_dir", "hooks", "master", "is_chief")
# TF 1.15's MonitoredTrainingSession with a checkpoint_dir: its scaffold's Saver keeps 5 checkpoints, its
# CheckpointSaverHook saves every 600 seconds (save_checkpoint_secs' default), as model.ckpt-<global step>
KEEP, EVERY_SECS, PREFIX = 5, 600, "model.ckpt"


def manager(directory: str, checkpoint: str = "checkpoint") -> str:
    """The port's checkpoint manager over `directory` (code): the one of MonitoredTrainingSession's scaffold Saver and
    learning.train's `Saver()` (5 kept, the folder's listed checkpoints taken over, the state file listing the paths
    written: save_relative_paths=False), which compat.tf1_saver keeps as they did."""
    return (
        f"compat.tf1_saver.CheckpointManager({checkpoint}, {directory}, max_to_keep={KEEP}, "
        f'checkpoint_name="{PREFIX}", relative_paths=False)'
    )


# the names the converted loop binds
_NAMES = ("checkpoint", "manager", "last_step", "saved")


def training(call: cst.Call) -> bool:
    """A MonitoredTrainingSession of this process alone: keywords among checkpoint_dir, hooks, master='' and
    is_chief=True, hooks given (the loop's end: a StopAtStepHook, which the conversion proves)."""
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if len(keywords) != len(call.args) or not set(keywords) <= set(_TRAINING_KEYWORDS) or "hooks" not in keywords:
        return False
    master, chief = keywords.get("master"), keywords.get("is_chief")
    return (master is None or _local_master(master)) and (chief is None or _chief(chief))


def stop_hook(rule: Any, value: cst.BaseExpression) -> tuple[str, cst.BaseExpression] | None:
    """`[tf.train.StopAtStepHook(last_step=N)]` (or num_steps=N) -> ("last_step" or "num_steps", N), else None."""
    if not (isinstance(value, cst.List) and len(value.elements) == 1 and isinstance(value.elements[0], cst.Element)):
        return None
    call = value.elements[0].value
    if not (isinstance(call, cst.Call) and rule.is_call(call, STOP_AT_STEP) and len(call.args) == 1):
        return None
    arg = call.args[0]
    kind = arg.keyword.value if arg.keyword is not None else "num_steps"  # (its first parameter)
    return (kind, arg.value) if kind in ("last_step", "num_steps") and not arg.star else None


# why a MonitoredTrainingSession's hooks stay (the loop is written for one StopAtStepHook)
OTHER_HOOKS = "hooks other than one tf.train.StopAtStepHook, which the rule does not convert"


def stop_steps(
    rule: Any,
    stmt: cst.BaseStatement,
    hooks: cst.BaseExpression,
    updated: dict[str, cst.BaseExpression],
    known: dict[str, tuple[str, cst.BaseExpression]],
) -> tuple[str, cst.BaseExpression]:
    """A MonitoredTrainingSession's hooks (`hooks`; `updated` its keywords as the safe pass left them), a name of
    `known`'s (a `hooks = [StopAtStepHook(...)]` read by the loop alone) or the list itself -> ("last_step" or
    "num_steps", N); Refused for other hooks."""
    if isinstance(hooks, cst.Name) and hooks.value in known:
        if rule.module_names().get(hooks.value, 0) != 2:
            raise Refused(stmt, f"`{hooks.value}`, the hooks, is read elsewhere")
        return known[hooks.value]
    found = stop_hook(rule, hooks)
    if found is None:
        raise Refused(stmt, OTHER_HOOKS)
    return found[0], cast(cst.BaseExpression, stop_hook_updated(updated["hooks"]))


def last_step(kind: str, steps: cst.BaseExpression, step: str) -> str:
    """The global step StopAtStepHook(kind=steps) stops at (code; num_steps counts from the step restored)."""
    return source_of(steps) if kind == "last_step" else f"int({step}) + {source_of(steps)}"


def restored(
    tf: str, step: str, names: dict[str, str], objects: str, directory: str, optimizer: str, variables: str
) -> str:
    """The eager loop's start where the session had a checkpoint_dir (code): the checkpoint of `objects` and its
    manager, the latest checkpoint restored (a TF1 one's optimizer slots of `variables` too, which the restore does
    not load by name: compat/tf1_slots.py), the last step bound and the start recorded. `names` holds the names the
    code binds (checkpoint, manager, last_step, saved) and, as "last", the last step's code."""
    checkpoint, kept = names["checkpoint"], names["manager"]
    return (
        f"{checkpoint} = {tf}.train.Checkpoint({objects})\n"
        f"{kept} = {manager(directory, checkpoint)}\n"
        f"{checkpoint}.restore({kept}.latest_checkpoint)\n"
        f"compat.tf1_slots.restore_slots({optimizer}, {variables}, {kept}.latest_checkpoint)\n"
        f"{names['last_step']} = {names['last']}\n"
        # (TF1's chief saved the step it started from; the checkpoint restored already holds it, and the
        # optimizer's slots, not made before the first step, would be missing from it: recorded, not written)
        f"{kept}.save_at_start(checkpoint_number={step})\n"
        f"{names['saved']} = (int({step}), time.time())\n"
    )


def saving(step: str, names: dict[str, str]) -> tuple[str, str, str]:
    """The eager loop's end and the checkpoints it writes as TF1's chief did (code): in the loop, after each step,
    every EVERY_SECS seconds, then its end at the last step; after it, at the end (where the step moved since the
    last checkpoint)."""
    kept, saved = names["manager"], names["saved"]
    every = (
        f"if int({step}) != {saved}[0] and time.time() >= {saved}[1] + {EVERY_SECS}:\n"
        f"    {kept}.save(checkpoint_number={step})\n"
        f"    {saved} = (int({step}), time.time())\n"
    )
    stop = f"if int({step}) >= {names['last_step']}:\n    break\n"
    return every, stop, f"if int({step}) != {saved}[0]:\n    {kept}.save(checkpoint_number={step})\n"


def hooks_statement(converter: Any, stmt: cst.BaseStatement, name: str, value: cst.BaseExpression) -> bool:
    """`hooks = [tf.train.StopAtStepHook(...)]` before a MonitoredTrainingSession: read by the loop (deleted)."""
    found = stop_hook(converter.rule, value) if converter.training_session is not None else None
    if converter.training_session is not None and isinstance(value, cst.List) and len(value.elements) > 1:
        if any(converter.rule.is_call(e.value, STOP_AT_STEP) for e in value.elements):
            raise Refused(stmt, OTHER_HOOKS)  # (not the StopAtStepHook, which converts alone)
    updated = assigned(single(cast(cst.BaseStatement, converter.up(stmt))))[1]
    if found is None or updated is None or (new := stop_hook_updated(updated)) is None:
        return False
    statements = list(converter.block.original)
    index = next((i for i, s in enumerate(statements) if s is stmt), len(statements))
    later = set().union(*(bound_names(s) for s in statements[index + 1 :]))
    if set(names_in(found[1]).names) & later:  # (the loop reads the step where the session starts)
        raise Refused(
            stmt, f"StopAtStepHook's {found[0]} reads `{min(set(names_in(found[1]).names) & later)}`, re-bound after it"
        )
    converter.stop_hooks[name] = (found[0], new)
    converter.replacements[id(stmt)] = []
    return True


def stop_hook_updated(value: cst.BaseExpression) -> cst.BaseExpression | None:
    """The step argument of the StopAtStepHook list as the safe pass left it."""
    if isinstance(value, cst.List) and len(value.elements) == 1:
        call = value.elements[0].value
        if isinstance(call, cst.Call) and len(call.args) == 1:
            return call.args[0].value
    return None


def minimize_step(converter: Any, stmt: cst.BaseStatement, call: cst.Call) -> str | None:
    """The global step `optimizer.minimize(loss, global_step)` increments after the update (TF1's apply_gradients),
    where the session is a MonitoredTrainingSession whose StopAtStepHook reads it (get_or_create_global_step's), or
    a tf.Session (that one, or the tutorials' `tf.Variable(0, name="global_step", trainable=False)`); None without one."""
    args = arguments(call, ("loss", "global_step"), stmt, "minimize()")
    if "global_step" not in args:
        return None
    step = args["global_step"].value
    name = step.value if isinstance(step, cst.Name) else None
    if converter.training_session is not None:
        if name not in global_steps(converter):
            raise Refused(
                stmt, "minimize(global_step=...) outside a MonitoredTrainingSession's loop, or of another variable"
            )
        return name
    if name is None or name not in global_steps(converter) | untrained_variables(converter) | converter.helper_steps:
        raise Refused(
            stmt,
            "minimize(global_step=...) of a variable that is not the global step (trainable, or none of the graph)",
        )
    return name


def untrained_variables(converter: Any) -> set[str]:
    """The names the block binds to `tf.Variable(..., trainable=False)` (a literal False)."""
    found = set()
    for stmt in converter.block.original:
        name, value = assigned(single(stmt))
        if name is not None and isinstance(value, cst.Call) and converter.rule.is_call(value, VARIABLE):
            trainable = arguments(value, VARIABLE_PARAMS, stmt, "tf.Variable").get("trainable")
            if trainable is not None and isinstance(trainable.value, cst.Name) and trainable.value.value == "False":
                found.add(name)
    return found


def global_steps(converter: Any) -> set[str]:
    """The names the block binds to tf.train.get_or_create_global_step()."""
    found = set()
    for stmt in converter.block.original:
        name, value = assigned(single(stmt))
        if name is not None and isinstance(value, cst.Call) and not value.args:
            if converter.rule.is_call(value, GLOBAL_STEP):
                found.add(name)
    return found


def training_loop(converter: Any, stmt: cst.BaseStatement, call: cst.Call) -> list[cst.BaseStatement]:
    """`with tf.train.MonitoredTrainingSession(checkpoint_dir=D, hooks=[StopAtStepHook(last_step=N)]) as sess:`
    around `while not sess.should_stop():` -> the eager loop: the latest checkpoint of D restored (a TF1 one by its
    names), the step's checkpoint written at the start, every 600 seconds and at the end, as TF1's chief wrote them;
    the loop body run once at least, then until the global step reaches N (TF 1.15's StopAtStepHook checks after
    each run)."""
    if not isinstance(stmt, cst.With) or not isinstance(stmt.body, cst.IndentedBlock):
        raise Refused(stmt, "a MonitoredTrainingSession not used as `with ... as sess:`")
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    updated_call = cast(cst.With, converter.up(stmt)).items[0].item
    new = {a.keyword.value: a.value for a in cast(cst.Call, updated_call).args if a.keyword is not None}
    kind, steps = stop_steps(converter.rule, stmt, keywords["hooks"], new, converter.stop_hooks)
    step = converter.step_counter
    if step is None:
        raise Refused(stmt, "StopAtStepHook reads the global step, which no minimize(loss, global_step) increments")
    if converter.layers_pending or converter.scope_helpers:
        raise Refused(
            stmt,
            "Keras layers or get_variable helpers, whose variables are made at the first step, after the "
            "checkpoint TF1's chief wrote at the start",
        )
    body = list(stmt.body.body)
    loops = [s for s in body if isinstance(s, cst.While)]
    if len(loops) != 1 or not should_stop(converter, loops[0].test) or loops[0].orelse is not None:
        raise Refused(stmt, "a MonitoredTrainingSession's block without one `while not sess.should_stop():` loop")
    loop = loops[0]
    for other in body:
        if other is not loop and set(names_in(other).names) & converter.sessions:
            raise Refused(other, "the session used outside its `while not sess.should_stop():` loop")
    inner = list(cast(cst.IndentedBlock, loop.body).body)
    runs = [c for s in inner for c in names_in(s).calls if converter.session_method(c) == "run"]
    training = [s for s in inner if any(converter.session_method(c) == "run" for c in names_in(s).calls)]
    if len(runs) != 1 or len(training) != 1 or not isinstance(training[0], cst.SimpleStatementLine):
        raise Refused(loop, "a loop body without exactly one sess.run, of the train op, as a statement of its own")
    if any(collect(s, kind_) for s in inner for kind_ in (cst.Break, cst.Continue, cst.Return, cst.Yield)):
        raise Refused(loop, "a break, continue, return or yield in the loop (TF1's loop ended at should_stop alone)")
    if converter.train_op not in converter.fetches(training[0], runs[0])[0]:
        raise Refused(loop, "the loop's sess.run does not run the train op")
    names = {wanted: wanted for wanted in _NAMES}
    taken = [n for n in names if n in converter.rule.module_names()]
    if taken:
        raise Refused(stmt, f"`{taken[0]}`, a name the converted loop binds, is used in this module")
    tf, directory = converter.alias, new.get("checkpoint_dir")
    converter.looped |= {id(line) for line in lines_of(loop)}
    before = [n for s in body[: body.index(loop)] for n in converter.run_statement(s)]
    after = [n for s in body[body.index(loop) + 1 :] for n in converter.run_statement(s)]
    converted = [n for s in inner for n in converter.run_statement(s)]
    names["last"] = last_step(kind, steps, step)
    every, stop, end = saving(step, names)
    head = f"last_step = {names['last']}\n"
    if directory is not None:
        for module in ("time", "compat.tf1_saver", "compat.tf1_slots"):
            converter.rule.add_needed_import(module)
        objects = ", ".join(f"{v}={v}" for v in sorted(converter.variables))
        optimizer = converter.names["optimizer"]
        variables = f"[{', '.join(sorted(converter.variables))}]"
        head = restored(
            tf, step, names, f"{objects}, optimizer={optimizer}", source_of(directory), optimizer, variables
        )
    tail = [*(cst.parse_module(every).body if directory is not None else []), cst.parse_statement(stop)]
    eager = cast(cst.While, loop).with_changes(
        test=cst.Name("True"), body=cst.IndentedBlock(body=[*converted, *tail]), leading_lines=[]
    )
    converter.monitored_said = (kind, directory is not None)
    block = until_end_of_input(converter, [*before, eager, *after])
    return [*cst.parse_module(head).body, *block, *([cst.parse_statement(end)] if directory is not None else [])]


def should_stop(converter: Any, test: cst.BaseExpression) -> bool:
    """Is `test` `not sess.should_stop()`?"""
    if not (isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)):
        return False
    call = test.expression
    return isinstance(call, cst.Call) and not call.args and converter.session_method(call) == "should_stop"


def training_said(converter: Any) -> list[str]:
    """The entry's part for a MonitoredTrainingSession converted."""
    if converter.monitored_said is None:
        return []
    kind, saving = converter.monitored_said
    said = [
        f"MonitoredTrainingSession's `while not sess.should_stop():` -> a loop running its body once at least, then until "
        f"the global step reaches StopAtStepHook's {'last_step' if kind == 'last_step' else 'start + num_steps'}, "
        f"minimize(loss, global_step) -> the train step increments it after the update"
    ]
    if saving:
        said.append(
            f"its checkpoint_dir -> compat.tf1_saver.CheckpointManager there (its latest checkpoint restored, a TF1 one by "
            f"its names, its optimizer's slots mapped by compat.tf1_slots; {PREFIX}-<global step> written at the start, "
            f"every {EVERY_SECS} seconds and at the end, {KEEP} kept as TF1's Saver kept them, TF1's own taken over)"
        )
    return said
