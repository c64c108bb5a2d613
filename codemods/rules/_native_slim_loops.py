"""native-session on tf-slim's training loop: `slim.learning.train(train_op, logdir, number_of_steps=N, ...)` over
`train_op = slim.learning.create_train_op(total_loss, tf.train.<Name>Optimizer(...))` -> an eager loop of the train
step (`training_loop`), and the entry of a script driven by a loop it does not convert (`reason`: tf-slim's
evaluation loops, a learning.train where the rule does not read it; one it reads but cannot prove says why there).

What learning.train does that the loop keeps (TF 1.15, three runs into one train_dir:
tests/common/golden/tf115_slim_learning_train.json, which tests/codemods/test_native_slim_loops.py checks the port
against): it restores logdir's latest checkpoint (a TF1 one by its variables' names, the optimizer's slots mapped by
compat.tf1_slots: `Conv/weights/Adam` and `beta1_power` are not the Keras optimizer's names); it runs a step before it
checks the global step, so a restart with number_of_steps=3 trains step 4 and one with 5 trains step 5 alone; it
returns the total loss of its last step (create_train_op's value: the loss, checked for inf and nan, computed before
the update); it saves `model.ckpt-<global step>` in logdir as it starts, every save_interval_secs and at its end,
keeping 5 as its `Saver()` kept them (compat.tf1_saver: logdir's listed checkpoints taken over, TF1's too, the oldest
deleted one per save, the state file listing their paths). What it does not keep, said in the rule's explain: its saver thread's first save on a restart is named by
the step it read but held the next step's state (a race with the first step: TF1 rewrote model.ckpt-3 with step 4's
state); the loop does not save where it restored (that checkpoint holds the step), so model.ckpt-3 keeps step 3's. Its
checkpoints are TF 2 object-based ones, its summaries, graph.pbtxt, .meta files and log lines are not written."""

from __future__ import annotations

from typing import Any, cast

import libcst as cst

from codemods.rules._native_monitored import KEEP, PREFIX, global_steps, manager
from codemods.rules._native_names import CREATE_TRAIN_OP, LEARNING_TRAIN
from codemods.rules._native_syntax import Refused, arguments, assigned, single, source_of

SLIM_HOMES = ("tensorflow.contrib.slim.", "tf_slim.", "compat.slim.")
# why a loop keeps its script at the safe level (learning.train: where the rule does not read it, see `training`)
REASONS = {
    "learning.train": (
        "tf-slim's learning.train where the rule does not read it: it converts `[name =] learning.train(...)` as a "
        "statement of a module or function body (or of a `with tf.Graph().as_default():` there)"
    ),
    "evaluation.evaluation_loop": (
        "tf-slim's evaluation_loop: it waits for each new checkpoint of a directory and evaluates it under a "
        "Supervisor, which the rule does not convert"
    ),
    "evaluation.evaluate_once": (
        "tf-slim's evaluate_once: it restores a checkpoint and runs the update ops under a Supervisor, which the "
        "rule does not convert"
    ),
}


def reason(names: frozenset[str]) -> str | None:
    """Why a call of one of `names` (its qualified names) keeps its script at the safe level, else None."""
    for name in sorted(names):
        for home in SLIM_HOMES:
            if name.startswith(home) and name[len(home) :] in REASONS:
                return REASONS[name[len(home) :]]
    return None


# -- create_train_op
# tf_slim.learning.create_train_op's parameters in positional order (TF 1.15's tf.contrib.slim alike)
CREATE_PARAMS = (
    "total_loss",
    "optimizer",
    "global_step",
    "update_ops",
    "variables_to_train",
    "transform_grads_fn",
    "summarize_gradients",
    "gate_gradients",
    "aggregation_method",
    "colocate_gradients_with_ops",
    "check_numerics",
)


def create_train_op(converter: Any, stmt: cst.BaseStatement, name: str, call: cst.Call) -> bool:
    """`train_op = create_train_op(total_loss, tf.train.<Name>Optimizer(...))`: the optimizer's minimize of the loss
    incrementing the global step (get_or_create_global_step: made here where the graph has none), whose value is the
    loss (checked for inf and nan where check_numerics is True, its default). Read by learning.train alone."""
    if converter.train_op is not None:
        raise Refused(stmt, "a second train op")
    args = arguments(call, CREATE_PARAMS, stmt, "create_train_op")
    if not {"total_loss", "optimizer"} <= set(args):
        raise Refused(stmt, "create_train_op without its total_loss and optimizer")
    other = sorted(set(args) - {"total_loss", "optimizer", "global_step", "check_numerics"})
    if other:
        raise Refused(stmt, f"create_train_op({other[0]}=...), which the rule does not convert")
    check = args.get("check_numerics")
    if check is not None and not (isinstance(check.value, cst.Name) and check.value.value in ("True", "False")):
        raise Refused(stmt, "create_train_op(check_numerics=...) other than a literal True or False")
    loss = args["total_loss"].value
    if not isinstance(loss, cst.Name) or loss.value not in converter.graph or loss.value in converter.variables:
        raise Refused(stmt, "create_train_op of a loss the graph does not compute under a name")
    if loss.value in converter.placeholders:
        raise Refused(stmt, "create_train_op of a placeholder")
    optimizer = args["optimizer"].value
    if isinstance(optimizer, cst.Name) and optimizer.value in converter.optimizers:
        converter.keras_optimizer(stmt, *converter.optimizers[optimizer.value])
    else:
        converter.keras_optimizer(stmt, optimizer, converter.updated_arguments(call, CREATE_PARAMS, stmt)["optimizer"])
    steps = global_steps(converter)
    given = args.get("global_step")
    if given is not None:
        if not (isinstance(given.value, cst.Name) and given.value.value in steps):
            raise Refused(stmt, "create_train_op(global_step=...) of a variable other than the global step")
        converter.step_counter = given.value.value
        converter.replacements[id(stmt)] = []
    elif len(steps) == 1:
        converter.step_counter = min(steps)
        converter.replacements[id(stmt)] = []
    elif steps:
        raise Refused(stmt, "the global step bound to two names")
    else:
        if "global_step" in converter.rule.module_names():
            raise Refused(stmt, "`global_step`, the name of the global step create_train_op makes, is used here")
        converter.global_step(stmt, "global_step")  # (its replacement: the variable, where the train op was)
        converter.step_counter = "global_step"
    converter.checked_loss = check is None or cast(cst.Name, check.value).value == "True"
    converter.train_op, converter.loss = name, loss.value
    converter.graph.add(name)
    converter.created_train_op = True
    return True


def named_optimizer(converter: Any, stmt: cst.BaseStatement, name: str, call: cst.Call) -> bool:
    """`optimizer = tf.train.<Name>Optimizer(...)` whose one other use is a later create_train_op's optimizer: the
    Keras optimizer create_train_op writes (the statement goes). Another optimizer statement is not proven."""
    statements = list(converter.block.original)
    index = next((i for i, s in enumerate(statements) if s is stmt), len(statements))
    for other in statements[index + 1 :]:
        _, value = assigned(single(other))
        if isinstance(value, cst.Call) and converter.slim_function(value, CREATE_TRAIN_OP):
            args = arguments(value, CREATE_PARAMS, other, "create_train_op")
            given = args.get("optimizer")
            if given is not None and isinstance(given.value, cst.Name) and given.value.value == name:
                if converter.rule.module_names().get(name) != 2:
                    raise Refused(stmt, f"`{name}`, the optimizer, is used besides create_train_op")
                updated = assigned(single(cast(cst.BaseStatement, converter.up(stmt))))[1]
                converter.optimizers[name] = (call, updated)
                converter.replacements[id(stmt)] = []
                return True
    return False


# -- learning.train
# tf_slim.learning.train's parameters in positional order (TF 1.15's tf.contrib.slim alike)
TRAIN_PARAMS = (
    "train_op",
    "logdir",
    "train_step_fn",
    "train_step_kwargs",
    "log_every_n_steps",
    "graph",
    "master",
    "is_chief",
    "global_step",
    "number_of_steps",
    "init_op",
    "init_feed_dict",
    "local_init_op",
    "init_fn",
    "ready_op",
    "summary_op",
    "save_summaries_secs",
    "summary_writer",
    "startup_delay_steps",
    "saver",
    "save_interval_secs",
    "sync_optimizer",
    "session_config",
    "session_wrapper",
    "trace_every_n_steps",
    "ignore_live_threads",
)
# what the loop takes: the arguments it reads, and those that change only what it does not write (log lines at INFO
# level, summaries: the rule refuses a graph with any)
_TAKEN = ("train_op", "logdir", "number_of_steps", "save_interval_secs", "master", "is_chief", "global_step")
_UNWRITTEN = ("log_every_n_steps", "save_summaries_secs")
EVERY_SECS = 600  # learning.train's save_interval_secs
# the names the converted loop binds
_NAMES = ("checkpoint", "manager", "saved")


def training(rule: Any, stmt: cst.BaseStatement) -> cst.Call | None:
    """The call of `[name =] slim.learning.train(...)` as a statement of its own, else None."""
    small = single(stmt)
    value = small.value if isinstance(small, cst.Expr) else assigned(small)[1]
    if isinstance(value, cst.Call) and rule.library_names(value) & LEARNING_TRAIN:
        return value
    return None


def read_train(converter: Any, stmt: cst.BaseStatement, call: cst.Call) -> None:
    """learning.train's arguments, checked before the code is written: Refused for one the loop does not keep."""
    if converter.slim_train is not None:
        raise Refused(stmt, "a second learning.train")
    args = arguments(call, TRAIN_PARAMS, stmt, "learning.train")
    other = sorted(set(args) - set(_TAKEN) - set(_UNWRITTEN))
    if other:
        raise Refused(stmt, f"learning.train({other[0]}=...), which the rule does not convert")
    literal = {
        "master": lambda v: isinstance(v, cst.SimpleString) and v.evaluated_value == "",
        "is_chief": lambda v: isinstance(v, cst.Name) and v.value == "True",
        "global_step": lambda v: isinstance(v, cst.Name) and v.value in ("None", converter.step_counter),
        "save_interval_secs": lambda v: isinstance(v, (cst.Integer, cst.Float)) and v.evaluated_value > 0,
    }
    for param, good in literal.items():
        if param in args and not good(args[param].value):
            raise Refused(
                stmt, f"learning.train({param}={source_of(args[param].value)}), which the rule does not convert"
            )
    train_op = args.get("train_op")
    if train_op is None or not isinstance(train_op.value, cst.Name) or train_op.value.value != converter.train_op:
        raise Refused(stmt, "learning.train of a train op other than create_train_op's")
    if not converter.created_train_op:
        raise Refused(stmt, "learning.train of a train op other than create_train_op's")
    logdir = args["logdir"].value if "logdir" in args else None
    if (
        logdir is None
        or (isinstance(logdir, cst.Name) and logdir.value == "None")
        or (isinstance(logdir, cst.SimpleString) and not logdir.evaluated_value)
    ):
        raise Refused(stmt, "learning.train without a logdir (it then saves no checkpoint)")
    steps = args["number_of_steps"].value if "number_of_steps" in args else None
    if steps is None or (isinstance(steps, (cst.Name, cst.Integer)) and source_of(steps) in ("None", "0")):
        raise Refused(stmt, "learning.train without number_of_steps (it trains until it is stopped)")
    fed = [*converter.placeholders, *(converter.inputs[1] if converter.inputs else [])]
    if fed or converter.datasets or converter.queue_batch is not None:
        raise Refused(
            stmt, "learning.train over placeholders or an input pipeline (the rule converts a graph of constants)"
        )
    made_later = converter.scope_helpers or converter.recurrent_layers or converter.metric_objects
    if made_later or converter.saver or converter.merged or converter.unmerged or converter.writer:
        raise Refused(
            stmt,
            "learning.train over a graph with summaries, a Saver, metrics, or variables made by helpers or RNNs, "
            "which the rule does not convert under it",
        )
    taken = [n for n in _NAMES if n in converter.rule.module_names()]
    if taken:
        raise Refused(stmt, f"`{taken[0]}`, a name the converted loop binds, is used in this module")
    converter.slim_train = (call, stmt)
    converter.train_outputs = [converter.loss]
    converter.rule.slim_converted = True  # (the tf-slim imports go where nothing else reads them)


def training_loop(converter: Any) -> list[cst.BaseStatement]:
    """The eager loop of learning.train, where the block's code is written (the layers known): its variables made
    (model() once: TF1 made them with the graph, and the first checkpoint holds them), the optimizer built over
    them, logdir's latest checkpoint restored (a TF1 one by its names, its slots mapped by compat.tf1_slots), the
    first checkpoint written where none was restored, then a step before each check of the global step, a
    checkpoint every save_interval_secs and one at the end; the last step's total loss is its value."""
    call, stmt = converter.slim_train
    if any(layer.keras == "BatchNormalization" for layer in converter.layers):
        raise Refused(
            stmt, "learning.train over batch normalization (model()'s first call would update its statistics)"
        )
    args = converter.updated_arguments(call, TRAIN_PARAMS, stmt)
    tf, names, step = converter.alias, converter.names, converter.step_counter
    target = assigned(single(stmt))[0]
    step_call = f"{target} = {names['train_step']}().numpy()" if target else f"{names['train_step']}()"
    made = [layer.var for layer in converter.layers if layer.keras != "Flatten"]  # (the layers with variables)
    objects = made + sorted(converter.variables)
    trainable = [f"*{var}.trainable_variables" for var in made] + sorted(v for v in converter.variables if v != step)
    steps = source_of(args["number_of_steps"])
    every = source_of(args["save_interval_secs"]) if "save_interval_secs" in args else str(EVERY_SECS)
    # (a literal stops where TF1's `if number_of_steps and step >= number_of_steps` did; 0 trains without end)
    stop = (
        f"int({step}) >= {steps}"
        if isinstance(args["number_of_steps"], cst.Integer)  # (not 0: read_train)
        else f"{steps} and int({step}) >= {steps}"
    )
    for module in ("time", "compat.tf1_saver", "compat.tf1_slots"):
        converter.rule.add_needed_import(module)
    code = (
        f"{names['model']}()  # (the layers make their variables: TF1's graph held them before its first step)\n"
        f"{names['optimizer']}.build([{', '.join(trainable)}])\n"
        f"checkpoint = {tf}.train.Checkpoint({', '.join(f'{o}={o}' for o in objects)}, optimizer={names['optimizer']})\n"
        f"manager = {manager(source_of(args['logdir']))}\n"
        "checkpoint.restore(manager.latest_checkpoint)\n"
        f"compat.tf1_slots.restore_slots({names['optimizer']}, [{', '.join(trainable)}], manager.latest_checkpoint)\n"
        # (where it restored, TF1's saver thread rewrote that checkpoint racing the first step: recorded, not written)
        f"manager.save_at_start(checkpoint_number={step})\n"
        f"saved = time.time()\n"
        "while True:\n"
        f"    {step_call}\n"
        f"    if time.time() >= saved + {every}:\n"
        f"        manager.save(checkpoint_number={step})\n"
        "        saved = time.time()\n"
        f"    if {stop}:\n"
        "        break\n"
        f"manager.save(checkpoint_number={step})\n"
    )
    converter.slim_said = (steps, every)
    new: list[cst.BaseStatement] = list(cst.parse_module(code).body)
    new[0] = new[0].with_changes(leading_lines=[*cast(cst.SimpleStatementLine, stmt).leading_lines])
    return new


def said(converter: Any) -> list[str]:
    """The entry's part for learning.train converted."""
    if converter.slim_said is None:
        return []
    steps, every = converter.slim_said
    return [
        "create_train_op -> the train step (its value the total loss"
        + (", checked for inf and nan" if converter.checked_loss else "")
        + f"; the global step incremented after the update), learning.train -> an eager loop: a step, then a stop where "
        f"the global step reaches number_of_steps ({steps}); its logdir a compat.tf1_saver.CheckpointManager (the "
        f"latest checkpoint restored, a TF1 one by its names, its optimizer's slots mapped by compat.tf1_slots; {PREFIX}-"
        f"<global step> written at the start where none was restored, every {every} seconds and at the end, {KEEP} kept "
        "as TF1's Saver kept them, TF1's own taken over); the last step's total loss its value"
    ]
