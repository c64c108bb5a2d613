"""native-estimator-loop: a single-process Estimator program of the simple shape -> TF 2's own training loop.

The shape, as the other native rules leave it (native-layers' Keras layers, native-losses' loss, native-data's
`return dataset`): `tf.estimator.Estimator(model_fn, config=tf.estimator.RunConfig(model_dir=...)).train(input_fn,
max_steps=N)` (or steps=N), where model_fn is Keras layers and a loss (straight-line code, a `for i in range(n):`
loop making layers, a `with tf.device(setter):` block of a local replica_device_setter) ending in
`tf.train.<Optimizer>(...).minimize(loss, global_step)` (under `control_dependencies` of its batch normalizations'
updates, where it has any) and `return EstimatorSpec(mode, loss=loss, train_op=train_op)`, reading `mode` only as
`mode == ModeKeys.TRAIN`, and input_fn takes nothing and returns the dataset. The port: the layers made once, in
TF1's order (a loop's in lists; their input's dtype, which TF1's layers took, read from the dataset's features),
model_fn as a function of the batch, a `tf.function` train step (GradientTape, the Keras optimizer of the repo's
table, the global step a variable incremented after the update), the variables built on the first batch, the latest
checkpoint of model_dir restored by TF1's names (the slots through compat.tf1_slots), the loop over the dataset until
the global step reaches the last step as the Estimator's StopAtStepHook stopped it (nothing trained from a checkpoint
at or past max_steps), `model.ckpt-<step>` saved where the Estimator saved (at the start where nothing was restored,
every save_checkpoints_secs, at the end), the loss summary where its summary hook wrote it, and its `loss = ...,
step = ...` log line.

An Estimator reads TF_CONFIG when it runs: a port to one process would stop being a cluster member without a word.
The program's code cannot say whether it runs in a cluster (the platform passes a one-task `master` TF_CONFIG to a
single-node job), so the port checks at run time and stops with a one-line error where TF_CONFIG names a cluster of
more than one task.

Anything else (hooks, other modes, train_and_evaluate, TPUEstimator and canned estimators, params, a RunConfig field
the port does not reproduce, other blocks in model_fn, random ops, calls that may make variables, a batch
normalization whose updates the train op does not run, a shuffling or random input_fn) keeps the program at the
safe level with one entry naming why.
"""

from __future__ import annotations

import keyword
import re
import textwrap
from typing import cast

import libcst as cst

from codemods.engine.rule import FileState, Rule
from codemods.rule_description import Example
from codemods.rules import _native_monitored as monitored
from codemods.rules import _native_tables as tables
from codemods.rules._native_eager import keras_2
from codemods.rules._native_syntax import (
    Refused,
    arguments,
    assigned,
    bound_names,
    collect,
    names_in,
    single,
    source_of,
)
from codemods.rules._shared import ESTIMATOR

MESSAGE = "Estimator program -> TF 2's own training loop"
REFUSED = "Estimator program left at the safe level"
# RunConfig fields the port reproduces, and their TF 1.15 defaults where it needs them
_CONFIG = (
    "model_dir",
    "tf_random_seed",
    "log_step_count_steps",
    "save_checkpoints_secs",
    "keep_checkpoint_max",
    "save_summary_steps",
)
_DEFAULTS = {
    "log_step_count_steps": "100",
    # (TF 1.15's checkpoint defaults, which a MonitoredTrainingSession's port reads too)
    "save_checkpoints_secs": str(monitored.EVERY_SECS),
    "keep_checkpoint_max": str(monitored.KEEP),
    "save_summary_steps": "100",
}
# the names the port binds where the train call was
_BOUND = (
    "dataset",
    "dtype",
    "model",
    "optimizer",
    "global_step",
    "train_step",
    "batches",
    "first",
    "checkpoint",
    "manager",
    "last_step",
    "saved",
    "iteration",
    "step",
    "loss",
    "writer",
    "summarized",
    "saved_names",
    "unloaded",
)
# EstimatorSpec's parameters in positional order (TF 1.15)
_SPEC = (
    "mode",
    "predictions",
    "loss",
    "train_op",
    "eval_metric_ops",
    "export_outputs",
    "training_chief_hooks",
    "training_hooks",
    "scaffold",
    "evaluation_hooks",
    "prediction_hooks",
)
# TensorFlow's names below tf. that are not ops a train step may run at each call (they make state, or belong to
# TF1's graph, the Estimator or Keras's layers, models and optimizers)
_NOT_OPS = (
    "keras.",
    "compat.",
    "estimator.",
    "train.",
    "summary.",
    "random.",
    "Variable",
    "Module",
    "get_variable",
    "variable_scope",
    "Graph",
    "Session",
    "data.",
    "saved_model.",
)
# activations that keep their input's dtype (what a layer after them takes as its dtype)
_SAME_DTYPE = frozenset({"relu", "relu6", "elu", "selu", "tanh", "sigmoid", "softplus", "leaky_relu"})
# Keras layers whose call draws random values (another mask than TF1's graph seed drew)
_RANDOM_LAYERS = frozenset({"Dropout", "SpatialDropout2D", "GaussianNoise", "GaussianDropout", "AlphaDropout"})
WHAT_DIFFERS = (
    "It writes object-based checkpoints (model.ckpt-<step>, which the port restores, not a TF1 Saver or the "
    "Estimator), no .meta or graph.pbtxt; its events file holds the loss at the steps the Estimator's summary hook "
    "wrote it (after the first step, then every save_summary_steps), not global_step/sec; at the "
    "start it saves only where model_dir holds no checkpoint, as the loop's first save; its log line has no timing "
    "and no global_step/sec line follows; keep_checkpoint_every_n_hours is not kept. Initial values: the Estimator "
    "drew them from its graph seed (RunConfig's tf_random_seed), the port from tf.random.set_seed, which gives "
    "other values: the port trains as the Estimator did from the same checkpoint (a run from scratch starts "
    "elsewhere). The model is called once on the first batch in inference mode to make its variables before the "
    "restore. An input_fn of no batch fails at next() where the Estimator trained nothing; a model_dir at or past "
    "max_steps trains nothing without the Estimator's 'Skipping training' line. A device setter's device holds the "
    "model's ops, the gradients and the update, not the global step variable (on a machine with a GPU it may land "
    "elsewhere). TF_CONFIG: a model_dir or task type it names is not read; where it names a cluster of more than one "
    "task the port stops with a one-line error (the Estimator would have joined it)"
)


class NativeEstimatorLoopRule(Rule):
    ID = "native-estimator-loop"
    DESCRIPTION = (
        "A single-process Estimator program of the simple shape (Keras layers, a loss, a tf.train optimizer's "
        "minimize, train(max_steps or steps)) -> an eager loop with a tf.function train step, restoring TF1 checkpoints."
    )
    LEVEL = "native"
    # after native-estimator (198): where it converts, the program holds no Estimator and that entry is withdrawn
    ORDER = 199
    EXAMPLE = Example(
        "An Estimator trains its model_fn in a graph and session of its own. Where the model_fn is Keras layers, "
        "a loss and a tf.train optimizer's minimize, and the program calls train(input_fn, max_steps=N) once, the rule "
        "writes TF 2's own loop: the layers made once, a tf.function train step with GradientTape and the Keras "
        "optimizer (native-optimizer's table: Momentum and SGD equal for a constant learning rate, Adam's epsilon "
        "pinned to TF1's, float rounding only), the global step a variable, the latest checkpoint of model_dir "
        "restored by TF1's names (optimizer slots through compat.tf1_slots), model.ckpt-<step> saved at the start, "
        "every save_checkpoints_secs and at the end, training until the global step reaches max_steps. What may "
        f"change: {WHAT_DIFFERS}.",
        "import compat\nimport tensorflow as tf\n\n"
        "def model_fn(features, labels, mode):\n"
        "    logits = tf.keras.layers.Dense(3, dtype=features.dtype)(features)\n"
        "    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)\n"
        "    train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss, "
        "tf.compat.v1.train.get_or_create_global_step())\n"
        "    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)\n\n"
        "def input_fn():\n"
        "    return tf.data.Dataset.from_tensors(([[1.0, 2.0]], [1])).repeat()\n\n"
        'if __name__ == "__main__":\n'
        '    tf.estimator.Estimator(model_fn, "/tmp/m").train(input_fn, max_steps=3)\n',
        "import compat.tf1_slots\n"
        "import compat\n"
        "import tensorflow as tf\n"
        "import itertools\n"
        "import json\n"
        "import os\n"
        "import sys\n"
        "import time\n"
        "\n"
        "def input_fn():\n"
        "    return tf.data.Dataset.from_tensors(([[1.0, 2.0]], [1])).repeat()\n"
        "\n"
        'if __name__ == "__main__":\n'
        '    if sum(len(tasks) for tasks in (json.loads(os.environ.get("TF_CONFIG") or "{}").get("cluster") or {}).values()) > 1:\n'
        '        sys.exit("TF_CONFIG names a cluster of more than one task; this program, ported from an Estimator program by uai-migrate --level native, trains in one process")\n'
        "    dataset = input_fn()\n"
        "    dtype = dataset.element_spec[0].dtype  # (TF1 layers took the dtype of their input)\n"
        "    dense = tf.keras.layers.Dense(3, dtype=dtype)\n"
        "\n"
        "    def model(features, labels, training):\n"
        "        logits = dense(features)\n"
        "        loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)\n"
        "        return loss\n"
        "\n"
        "    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)\n"
        '    global_step = tf.Variable(0, dtype=tf.int64, trainable=False, name="global_step")\n'
        "\n"
        "    @tf.function\n"
        "    def train_step(features, labels):\n"
        "        with tf.GradientTape() as tape:\n"
        "            loss = model(features, labels, True)\n"
        "        variables = tape.watched_variables()\n"
        "        optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))\n"
        "        global_step.assign_add(1)  # (after the update, as minimize(loss, global_step) did)\n"
        "        return loss\n"
        "\n"
        "    batches = iter(dataset)\n"
        "    first = next(batches)\n"
        "    model(*first, False)  # (the layers make their variables, which the checkpoint restores)\n"
        "    checkpoint = tf.train.Checkpoint(dense=dense, global_step=global_step, optimizer=optimizer)\n"
        '    manager = tf.train.CheckpointManager(checkpoint, "/tmp/m", max_to_keep=5, checkpoint_name="model.ckpt")\n'
        "    checkpoint.restore(manager.latest_checkpoint)\n"
        "    saved_names = {name for name, _ in tf.train.list_variables(manager.latest_checkpoint)} if manager.latest_checkpoint else set()\n"
        '    unloaded = sorted({v.name.split(":")[0] for v in [global_step, *dense.variables]} - saved_names)\n'
        '    if saved_names and "_CHECKPOINTABLE_OBJECT_GRAPH" not in saved_names and unloaded:\n'
        '        sys.exit(f"{manager.latest_checkpoint} holds no {unloaded[0]}, which the Estimator would have restored from it")\n'
        "    compat.tf1_slots.restore_slots(optimizer, dense.trainable_variables, manager.latest_checkpoint)\n"
        "    last_step = 3\n"
        "    if int(global_step) < last_step:  # (the Estimator trained nothing from a checkpoint at or past it)\n"
        "        if manager.latest_checkpoint is None:\n"
        "            manager.save(checkpoint_number=global_step)\n"
        "        saved = (int(global_step), time.time())\n"
        '        writer = tf.summary.create_file_writer("/tmp/m")\n'
        "        summarized = None\n"
        "        for iteration, (features, labels) in enumerate(itertools.chain([first], batches)):\n"
        "            step = int(global_step)\n"
        "            loss = train_step(features, labels)\n"
        "            if iteration % 100 == 0:\n"
        '                tf.get_logger().info("loss = %s, step = %s", loss.numpy(), step)\n'
        "            if summarized is None or int(global_step) >= summarized + 100:\n"
        "                summarized = int(global_step)\n"
        "                with writer.as_default():\n"
        '                    tf.summary.scalar("loss", loss, step=summarized)\n'
        "            if int(global_step) != saved[0] and time.time() >= saved[1] + 600:\n"
        "                manager.save(checkpoint_number=global_step)\n"
        "                saved = (int(global_step), time.time())\n"
        "            if int(global_step) >= last_step:\n"
        "                break\n"
        "        if int(global_step) != saved[0]:\n"
        "            manager.save(checkpoint_number=global_step)\n"
        "        writer.flush()\n",
    )
    ROOTS = frozenset({"tensorflow_estimator"})

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._at: tuple[cst.CSTNode, int] | None = None  # the first Estimator name and its top-level statement

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if self._at is None and self.match_prefix(node, ESTIMATOR):
            if not any(".ModeKeys" in name for name in self.qualified_names(node)):
                self._at = (node, self.state.top)

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if self._at is None or self.level != "native":
            return updated_node
        node, top = self._at
        try:
            if not keras_2(self):
                raise Refused(
                    node,
                    "tf.keras may be Keras 3 here (TF >= 2.16 without import compat): the port's layers, names and "
                    "optimizer are Keras 2's",
                )
            module, said = _Port(updated_node).convert()
        except Refused as why:
            self.report(node, f"{REFUSED}: {why.why}", native=True, statement=top)
            return updated_node
        for name in ("itertools", "json", "os", "sys", "time", "compat.tf1_slots"):
            self.add_needed_import(name)
        # (native-estimator's entry said the program stays on the Estimator: it no longer does)
        self.state.reports[:] = [r for r in self.state.reports if r[2].rule != "native-estimator"]
        self.report(node, f"{MESSAGE}: {said}. {WHAT_DIFFERS}", native=True, statement=top)
        return module


class _Port:
    """One module's Estimator program, read and ported (Refused where it is not the shape)."""

    def __init__(self, module: cst.Module) -> None:
        self.module = module
        self.tf = _tf_alias(module)

    def is_(self, node: cst.CSTNode, *names: str) -> bool:
        """Is `node` one of TF's `names` (below tf. or tf.compat.v1.)?"""
        text = source_of(node)
        return any(text in (f"{self.tf}.{n}", f"{self.tf}.compat.v1.{n}") for n in names)

    def convert(self) -> tuple[cst.Module, str]:
        tf = self.tf
        if tf is None:
            raise Refused(self.module, "the file does not import tensorflow by a name the rule reads")
        line, call, estimator, binding = self._train_line()
        est = arguments(estimator, ("model_fn", "model_dir", "config", "params"), call, "Estimator")
        train = arguments(call, ("input_fn", "hooks", "steps", "max_steps", "saving_listeners"), call, "train")
        for unread in ("params", "hooks", "saving_listeners"):
            if unread in est or unread in train:
                raise Refused(call, f"{unread}= of the Estimator or its train(), which the port does not reproduce")
        if ("steps" in train) == ("max_steps" in train):
            raise Refused(call, "train() without one of steps= and max_steps= (it trains until the input ends)")
        for kind in ("steps", "max_steps"):
            given = train[kind].value if kind in train else None
            if isinstance(given, cst.Name) and given.value == "None":
                raise Refused(call, f"train({kind}=None): it trains until the input ends")
        config, config_line = self._config(est, line)
        model_dir = [a for a in (est.get("model_dir"), config.get("model_dir")) if a is not None]
        if len(model_dir) != 1:
            raise Refused(call, "no model_dir (the Estimator trains in a temporary folder), or two")
        model_fn = self._function(est.get("model_fn"), "model_fn", call)
        input_fn = self._function(train.get("input_fn"), "input_fn", call)
        self._input(input_fn)
        model = _ModelFn(self, model_fn)
        made, names, body, loss, optimizer, device, said = model.read()
        # (the names the module binds or reads outside model_fn, and those model_fn reads from outside it)
        inside = {id(n) for n in names_in(model_fn).nodes}
        local = {p.name.value for p in model_fn.params.params}
        local |= {t.target.value for t in collect(model_fn, cst.AssignTarget) if isinstance(t.target, cst.Name)}
        local |= {f.target.value for f in collect(model_fn, cst.CompFor) if isinstance(f.target, cst.Name)}
        local |= {f.target.value for f in collect(model_fn, cst.For) if isinstance(f.target, cst.Name)}
        self.taken = {n.value for n in names_in(self.module).nodes if id(n) not in inside}
        free = set(names_in(model_fn.body).names) - local
        self.taken |= free
        # (model() is defined where the train call was: a name bound there would shadow the module's for it)
        around = next(
            (
                f
                for f in self.module.body
                if isinstance(f, cst.FunctionDef) and any(s is line for s in collect(f, cst.SimpleStatementLine))
            ),
            None,
        )
        if around is not None:
            params = {p.name.value for p in collect(around.params, cst.Param)}
            shadowing = sorted(free & (bound_names(around) | params))
            if shadowing:
                raise Refused(
                    line, f"`{shadowing[0]}`, which the model_fn reads from the module, is bound where the loop runs"
                )
        values = {k: source_of(v.value) for k, v in config.items()}
        code = self._code(
            made,
            [f"*{name}" if name in model.looped else name for name in names],
            body,
            loss,
            optimizer,
            device,
            values,
            source_of(model_dir[0].value),
            input_fn.name.value,
            train,
            any(s is line for s in self.module.body),
        )
        # (blank lines without the block's indentation)
        port = [
            s.with_changes(leading_lines=[cst.EmptyLine(indent=False) for _ in s.leading_lines])
            for s in cst.parse_module(code).body
        ]
        removed = {id(model_fn)} | ({id(binding)} if binding is not None else set())
        if config_line is not None:
            removed.add(id(config_line))
        replaced = {id(line): port}

        class Swap(cst.CSTTransformer):
            def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:  # type: ignore[override]
                if id(original) in removed:
                    return cast(cst.CSTNode, cst.RemoveFromParent())
                if id(original) in replaced:
                    return cast(cst.CSTNode, cst.FlattenSentinel(replaced[id(original)]))
                return updated

        module = cast(cst.Module, self.module.visit(Swap()))
        return module, said

    def _train_line(self) -> tuple[cst.SimpleStatementLine, cst.Call, cst.Call, cst.SimpleStatementLine | None]:
        """The one statement `tf.estimator.Estimator(...).train(...)`, or `estimator.train(...)` after `estimator =
        tf.estimator.Estimator(...)` in the same block (the name read nowhere else): (the train line, its call, the
        Estimator's call, the line binding it or None). Refused for any other Estimator use."""
        found: list[tuple[cst.SimpleStatementLine, cst.Call, cst.Call, cst.SimpleStatementLine | None]] = []
        blocks = [self.module.body, *(b.body for b in collect(self.module, cst.IndentedBlock))]
        read: list[str] = []  # trained estimators' names read elsewhere too
        for line in collect(self.module, cst.SimpleStatementLine):
            small = single(line)
            call = small.value if isinstance(small, cst.Expr) else None
            if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "train":
                inner = call.func.value
                if isinstance(inner, cst.Call) and self.is_(inner.func, "estimator.Estimator"):
                    found.append((line, call, inner, None))
                elif isinstance(inner, cst.Name) and names_in(self.module).names.count(inner.value) != 2:
                    read.append(inner.value)
                elif isinstance(inner, cst.Name):
                    block = next(list(b) for b in blocks if any(s is line for s in b))
                    before = block[: next(i for i, s in enumerate(block) if s is line)]
                    bound = [s for s in before if assigned(single(s))[0] == inner.value]
                    made = assigned(single(bound[0]))[1] if len(bound) == 1 else None
                    if isinstance(made, cst.Call) and self.is_(made.func, "estimator.Estimator"):
                        found.append((line, call, made, cast(cst.SimpleStatementLine, bound[0])))
        allowed = {"estimator.Estimator", "estimator.RunConfig", "estimator.EstimatorSpec", "estimator.ModeKeys.TRAIN"}
        for chain in collect(self.module, cst.Attribute):
            text = source_of(chain)
            if not re.fullmatch(r"[\w.]+", text):
                continue  # (a chain on a call's value)
            for head in (f"{self.tf}.estimator.", f"{self.tf}.compat.v1.estimator."):
                if text.startswith(head) and text.removeprefix(head).count(".") <= 1:
                    rest = "estimator." + text.removeprefix(head)
                    if rest not in allowed and not any(a.startswith(rest + ".") for a in allowed):
                        raise Refused(chain, f"{text}, which the port does not reproduce")
        for imported in collect(self.module, cst.ImportFrom):
            if imported.module is not None and "estimator" in source_of(imported.module):
                raise Refused(imported, f"from {source_of(imported.module)} import ..., which the rule does not read")
        estimators = {
            assigned(single(s))[0]
            for s in collect(self.module, cst.SimpleStatementLine)
            if isinstance(made := assigned(single(s))[1], cst.Call) and self.is_(made.func, "estimator.Estimator")
        }
        if not found and set(read) & estimators:
            name = min(set(read) & estimators)
            raise Refused(
                self.module,
                f"the Estimator `{name}` is used besides its train() (get_variable_value, evaluate, another train: "
                "what the port does not reproduce)",
            )
        if len(found) != 1:
            raise Refused(
                self.module, "no statement `tf.estimator.Estimator(model_fn, ...).train(input_fn, ...)`, or two"
            )
        uses = sum(1 for c in collect(self.module, cst.Call) if self.is_(c.func, "estimator.Estimator"))
        if uses != 1:
            raise Refused(found[0][1], "another Estimator besides the one trained")
        return found[0]

    def _config(
        self, est: dict[str, cst.Arg], line: cst.SimpleStatementLine
    ) -> tuple[dict[str, cst.Arg], cst.SimpleStatementLine | None]:
        """RunConfig's keywords (inline, or a name bound once in the train call's block), and its line."""
        if "config" not in est:
            return {}, None
        value, bound = est["config"].value, None
        if isinstance(value, cst.Name):
            bound = next(
                (s for s in collect(self.module, cst.SimpleStatementLine) if assigned(single(s))[0] == value.value),
                None,
            )
            if bound is None or names_in(self.module).names.count(value.value) != 2:
                raise Refused(line, f"the RunConfig `{value.value}` is bound or read elsewhere")
            value = cast(cst.BaseExpression, assigned(single(bound))[1])
        if not (isinstance(value, cst.Call) and self.is_(value.func, "estimator.RunConfig")):
            raise Refused(line, "a config that is not a tf.estimator.RunConfig(...) call")
        if any(a.keyword is None or a.star for a in value.args):
            raise Refused(line, "RunConfig with positional arguments")
        keywords = {cast(cst.Name, a.keyword).value: a for a in value.args}
        other = sorted(set(keywords) - set(_CONFIG))
        if other:
            raise Refused(line, f"RunConfig({other[0]}=...), which the port does not reproduce")
        keep = keywords["keep_checkpoint_max"].value if "keep_checkpoint_max" in keywords else None
        # (None keeps every checkpoint in both; TF1's Saver did for 0 too, where CheckpointManager raises)
        if keep is not None and source_of(keep) != "None":
            if not (isinstance(keep, cst.Integer) and int(keep.evaluated_value) > 0):
                raise Refused(
                    line,
                    f"RunConfig(keep_checkpoint_max={source_of(keep)}), not None or a positive number written out "
                    "(TF1's Saver kept every checkpoint for 0, CheckpointManager takes no 0)",
                )
        for field in ("log_step_count_steps", "save_checkpoints_secs", "save_summary_steps"):
            given = keywords[field].value if field in keywords else None
            positive = isinstance(given, (cst.Integer, cst.Float)) and float(given.evaluated_value) > 0
            off = field == "save_summary_steps" and source_of(given) in ("0", "None") if given is not None else False
            if given is not None and not positive and not off:
                raise Refused(
                    line,
                    f"RunConfig({field}={source_of(given)}), not a positive number written out (None turns the "
                    "Estimator's hook off), which the port does not reproduce",
                )
        return keywords, bound

    def _function(self, arg: cst.Arg | None, what: str, node: cst.CSTNode) -> cst.FunctionDef:
        """The module-level function `arg` names, read nowhere else."""
        if arg is None or not isinstance(arg.value, cst.Name):
            raise Refused(node, f"the {what} is not a name")
        name = arg.value.value
        defs = [s for s in self.module.body if isinstance(s, cst.FunctionDef) and s.name.value == name]
        if len(defs) != 1 or defs[0].decorators:
            raise Refused(node, f"`{name}` is not one undecorated function of the module")
        if names_in(self.module).names.count(name) != 2:
            raise Refused(node, f"`{name}` is read or bound elsewhere")
        return defs[0]

    def _input(self, input_fn: cst.FunctionDef) -> None:
        """An input_fn the port can call eagerly to the same batches."""
        if source_of(input_fn.params).strip():
            raise Refused(input_fn, "an input_fn taking arguments (params, a mode, a config)")
        text = source_of(input_fn)
        for word, pattern, why in (
            ("shuffle", r"shuffle", "its batches come in the order the graph seed drew"),
            # (numpy's random numbers are the host's, drawn alike by both)
            ("random", r"(?<!np\.)(?<!numpy\.)\brandom", "its random ops draw from the graph seed"),
            ("compat.v1", r"compat\.v1", "graph code (tf.compat.v1), which eager TF 2 does not run"),
            ("make_one_shot_iterator", r"make_one_shot_iterator", "an iterator, not the dataset"),
        ):
            if re.search(pattern, text):
                raise Refused(input_fn, f"the input_fn holds {word}: {why}")
        last = input_fn.body.body[-1] if isinstance(input_fn.body, cst.IndentedBlock) else None
        if not (isinstance(single(cast(cst.BaseStatement, last)), cst.Return)):
            raise Refused(input_fn, "an input_fn that does not end in `return dataset`")

    def _code(
        self,
        made_lines: list[str],
        names: list[str],
        body: list[str],
        loss: str,
        optimizer: str,
        device: str | None,
        config: dict[str, str],
        model_dir: str,
        input_fn: str,
        train: dict[str, cst.Arg],
        top: bool,
    ) -> str:
        tf = self.tf
        gap = "\n\n" if top else "\n"  # (blank lines around a def: two at the top level, one in a block)
        loops = {found for line in made_lines for found in re.findall(r"^for (\w+) in range", line)}
        clash = sorted(self.taken & {*_BOUND, "features", "labels", *loops, *(n.lstrip("*") for n in names)})
        if clash:
            raise Refused(self.module, f"`{clash[0]}`, a name the port binds, is used in this module")
        steps = train.get("max_steps") or train["steps"]
        last = source_of(steps.value) if "max_steps" in train else f"int(global_step) + {source_of(steps.value)}"
        log = config.get("log_step_count_steps", _DEFAULTS["log_step_count_steps"])
        every = config.get("save_checkpoints_secs", _DEFAULTS["save_checkpoints_secs"])
        keep = config.get("keep_checkpoint_max", _DEFAULTS["keep_checkpoint_max"])
        every_summary = config.get("save_summary_steps", _DEFAULTS["save_summary_steps"])
        summaries = every_summary not in ("0", "None")
        writer = f"writer = {tf}.summary.create_file_writer({model_dir})\nsummarized = None\n" if summaries else ""
        # (the Estimator's summary hook: the first step's loss, then every save_summary_steps, at the step after it)
        summary = (
            f"        if summarized is None or int(global_step) >= summarized + {every_summary}:\n"
            "            summarized = int(global_step)\n"
            "            with writer.as_default():\n"
            f'                {tf}.summary.scalar("loss", loss, step=summarized)\n'
            if summaries
            else ""
        )
        seed = f"{tf}.random.set_seed({config['tf_random_seed']})\n" if "tf_random_seed" in config else ""
        made = "".join(f"{line}\n" for line in made_lines)
        typed = "dtype = dataset.element_spec[0].dtype  # (TF1 layers took the dtype of their input)\n"
        typed = typed if "dtype=dtype" in made else ""
        objects = ", ".join(f"{name.lstrip('*')}={name.lstrip('*')}" for name in names)
        weights = " + ".join(f"{name}.trainable_variables" for name in names) or "[]"
        if any(name.startswith("*") for name in names):  # (a loop's layers in a list)
            listed = ", ".join(names) + ("," if len(names) == 1 else "")
            weights = f"[v for layer in ({listed}) for v in layer.trainable_variables]"
            variables = f"[global_step, *(w for layer in ({listed}) for w in layer.variables)]"
        else:
            variables = f"[global_step, {', '.join(f'*{name}.variables' for name in names)}]"
        # (the ops TF1's device setter placed on its one device: the model's, the gradients', the update's)
        on = f"    with {tf}.device({device}):\n" if device is not None else ""
        inner = "    " if device is not None else ""
        model = on + "".join(f"    {inner}{line}\n" for line in body)
        return (
            # (an Estimator joins the cluster TF_CONFIG names: one process cannot)
            'if sum(len(tasks) for tasks in (json.loads(os.environ.get("TF_CONFIG") or "{}").get("cluster") or {}).values()) > 1:\n'
            '    sys.exit("TF_CONFIG names a cluster of more than one task; this program, ported from an '
            'Estimator program by uai-migrate --level native, trains in one process")\n'
            f"{seed}"
            f"dataset = {input_fn}()\n"
            f"{typed}"
            f"{made}{gap}"
            "def model(features, labels, training):\n"
            f"{model}"
            f"    return {loss}\n{gap}"
            f"optimizer = {optimizer}\n"
            f'global_step = {tf}.Variable(0, dtype={tf}.int64, trainable=False, name="global_step")\n{gap}'
            f"@{tf}.function\n"
            "def train_step(features, labels):\n"
            f"    with {tf}.GradientTape() as tape:\n"
            "        loss = model(features, labels, True)\n"
            "    variables = tape.watched_variables()\n"
            f"{on}"
            f"    {inner}optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))\n"
            "    global_step.assign_add(1)  # (after the update, as minimize(loss, global_step) did)\n"
            f"    return loss\n{gap}"
            "batches = iter(dataset)\n"
            "first = next(batches)\n"
            "model(*first, False)  # (the layers make their variables, which the checkpoint restores)\n"
            f"checkpoint = {tf}.train.Checkpoint({objects}, global_step=global_step, optimizer=optimizer)\n"
            f'manager = {tf}.train.CheckpointManager(checkpoint, {model_dir}, max_to_keep={keep}, checkpoint_name="{monitored.PREFIX}")\n'
            "checkpoint.restore(manager.latest_checkpoint)\n"
            # (the Estimator's Saver restored every variable from a TF1 checkpoint, or stopped: a name-based restore
            # leaves the ones it does not find as they are)
            f"saved_names = {{name for name, _ in {tf}.train.list_variables(manager.latest_checkpoint)}} if manager.latest_checkpoint else set()\n"
            f'unloaded = sorted({{v.name.split(":")[0] for v in {variables}}} - saved_names)\n'
            'if saved_names and "_CHECKPOINTABLE_OBJECT_GRAPH" not in saved_names and unloaded:\n'
            '    sys.exit(f"{manager.latest_checkpoint} holds no {unloaded[0]}, which the Estimator would have restored from it")\n'
            f"compat.tf1_slots.restore_slots(optimizer, {weights}, manager.latest_checkpoint)\n"
            f"last_step = {last}\n"
            "if int(global_step) < last_step:  # (the Estimator trained nothing from a checkpoint at or past it)\n"
            "    if manager.latest_checkpoint is None:\n"
            "        manager.save(checkpoint_number=global_step)\n"
            "    saved = (int(global_step), time.time())\n"
            f"{textwrap.indent(writer, '    ')}"
            "    for iteration, (features, labels) in enumerate(itertools.chain([first], batches)):\n"
            "        step = int(global_step)\n"
            "        loss = train_step(features, labels)\n"
            f"        if iteration % {log} == 0:\n"
            f'            {tf}.get_logger().info("loss = %s, step = %s", loss.numpy(), step)\n'
            f"{summary}"
            f"        if int(global_step) != saved[0] and time.time() >= saved[1] + {every}:\n"
            "            manager.save(checkpoint_number=global_step)\n"
            "            saved = (int(global_step), time.time())\n"
            "        if int(global_step) >= last_step:\n"
            "            break\n"
            "    if int(global_step) != saved[0]:\n"
            "        manager.save(checkpoint_number=global_step)\n"
            f"{'    writer.flush()' + chr(10) if summaries else ''}"
        )


class _ModelFn:
    """A model_fn read as straight-line code of Keras layers: its layers (hoisted), its statements for model(),
    its loss and the Keras optimizer."""

    def __init__(self, port: _Port, node: cst.FunctionDef) -> None:
        self.port, self.node, self.tf = port, node, cast(str, port.tf)
        self.bound: set[str] = set()  # names the body binds
        self.same: set[str] = set()  # names proven of the features' dtype
        self.lists: set[str] = set()  # native-layers' lists of batch normalizations
        self.updates: set[str] = set()  # the names of their updates
        self.said = ""  # what the optimizer's port changes
        self.layers: list[tuple[str, str, str | None]] = []  # (name, constructor, loop header)
        self.looped: set[str] = set()  # the layers made in a loop (a list of them, one per iteration)
        self.setters: dict[str, str] = {}  # local replica_device_setters -> their one device
        self.device: str | None = None
        self.on_device = self.minimized_on_device = False
        self.appended: set[str] = set()  # the layers appended to native-layers' lists of batch normalizations
        self.dependent = False  # is the minimize under control_dependencies of their updates?
        self.rebound: set[str] = set()  # the names a statement binds (for a loop's dtype invariant)
        self.top: list[cst.BaseStatement] = []
        self.optimizer: str | None = None
        self.loss: str | None = None
        self.train_op: str | None = None

    def read(self) -> tuple[list[str], list[str], list[str], str, str, str | None, str]:
        """(the code making the layers once, their names, model()'s statements, the loss, the Keras optimizer, the
        device the model_fn's ops were placed on or None, what the entry says)."""
        node = self.node
        params = [p.name.value for p in node.params.params]
        others = (node.params.star_arg, node.params.star_kwarg, *node.params.kwonly_params, *node.params.posonly_params)
        if (
            params[:3] != ["features", "labels", "mode"]
            or len(params) > 4
            or any(isinstance(o, cst.Param) for o in others)
        ):
            raise Refused(node, "a model_fn whose parameters are not (features, labels, mode[, params])")
        text = source_of(node.body)
        if len(params) == 4 and re.search(rf"\b{params[3]}\b", text):
            raise Refused(node, f"a model_fn reading `{params[3]}`")
        self.same = {"features"}
        statements = list(cast(cst.IndentedBlock, node.body).body)
        self.top = statements
        body = self._block(statements[:-1])
        spec = self._spec(statements[-1])
        if self.optimizer is None or spec != (self.loss, self.train_op):
            raise Refused(statements[-1], "an EstimatorSpec whose loss and train_op are not the minimize's")
        if self.loss not in self.bound:
            raise Refused(statements[-1], "a loss the model_fn does not compute")
        shadowed = sorted(self.layers_named() & (self.bound | set(params)))
        if shadowed:
            raise Refused(node, f"`{shadowed[0]}`, a layer's name, is a name the model_fn binds")
        for name, made, _ in self.layers:
            if ".BatchNormalization(" in made and not (name in self.appended and self.dependent):
                raise Refused(
                    node,
                    f"`{name}`, a BatchNormalization whose updates the train op does not run (TF1's moving statistics "
                    "stayed; a Keras layer in eager updates them at each call)",
                )
        if self.device is not None and not self.minimized_on_device:
            raise Refused(node, "a device block in the model_fn that does not hold its minimize")
        said = f"model_fn's {len(self.layers)} Keras layers made once, a tf.function train step, {self.said}"
        if self.device is not None:
            said += f"; its local replica_device_setter -> tf.device({self.device}), the one device it gave every op"
        names = [name for name, _, _ in self.layers]
        return self._made(), names, body, cast(str, self.loss), cast(str, self.optimizer), self.device, said

    def _made(self) -> list[str]:
        """The code making the layers in TF1's order (those of a loop in a loop of the same range)."""
        code: list[str] = []
        index = 0
        while index < len(self.layers):
            name, made, loop = self.layers[index]
            if loop is None:
                code.append(f"{name} = {made}")
                index += 1
                continue
            group = [layer for layer in self.layers[index:] if layer[2] == loop]
            group = group[: next((i for i, layer in enumerate(self.layers[index:]) if layer[2] != loop), len(group))]
            names = [g[0] for g in group]
            code.append(f"{', '.join(names)} = {', '.join('[]' for _ in names)}")
            code.append(loop)
            code += [f"    {g[0]}.append({g[1]})" for g in group]
            index += len(group)
        return code

    def _block(self, statements: list[cst.BaseStatement], loop: tuple[str, str] | None = None) -> list[str]:
        """model()'s statements for `statements` of the model_fn (in a loop: its variable and header)."""
        body: list[str] = []
        for stmt in statements:
            name, value = assigned(single(stmt))
            if isinstance(stmt, cst.With) and len(stmt.items) == 1 and self._updates_dependency(stmt.items[0].item):
                inner = list(cast(cst.IndentedBlock, stmt.body).body)
                if len(inner) != 1 or self._minimize(cast(cst.BaseExpression, assigned(single(inner[0]))[1])) is None:
                    raise Refused(stmt, "control_dependencies around more than the minimize")
                self.dependent = True
                stmt = inner[0]
                name, value = assigned(single(stmt))
            elif isinstance(stmt, cst.With):
                body += self._device_block(stmt, loop)
                continue
            if isinstance(stmt, cst.For):
                body += self._loop(stmt, loop)
                continue
            if not isinstance(stmt, cst.SimpleStatementLine):
                raise Refused(
                    stmt, "a block in the model_fn other than a loop over range(), a device and the minimize's"
                )
            small = single(stmt)
            if isinstance(small, cst.Expr) and self._append(small.value):
                self.appended.add(cast(cst.Name, cast(cst.Call, small.value).args[0].value).value)
                continue
            if name is None or value is None:
                raise Refused(stmt, f"`{source_of(stmt).strip()}`, a statement the rule does not read")
            if isinstance(value, cst.List) and not value.elements:
                self.lists.add(name)
                continue
            if self._updates_list(value):
                self.updates.add(name)
                continue
            if isinstance(value, cst.Call) and self.port.is_(value.func, "train.replica_device_setter"):
                if loop is not None or self.setters:
                    raise Refused(stmt, "a device setter in a loop, or two")
                self.setters[name] = monitored.device_setter(value, value, name, self.top, stmt)[1]
                continue
            minimized = self._minimize(value)
            if minimized is not None:
                if self.optimizer is not None or loop is not None:
                    raise Refused(stmt, "two minimize calls, or one in a loop")
                self.optimizer, self.loss, self.train_op = minimized[0], minimized[1], name
                self.minimized_on_device = self.on_device
                continue
            line = self._statement(value, name, stmt, loop)
            if line is not None:
                body.append(f"{name} = {line}")
        return body

    def _device_block(self, stmt: cst.With, loop: tuple[str, str] | None) -> list[str]:
        """`with tf.device(setter):` of a local replica_device_setter (_native_monitored proves its one device)."""
        item = stmt.items[0].item if len(stmt.items) == 1 and stmt.items[0].asname is None else None
        device = None
        if isinstance(item, cst.Call) and len(item.args) == 1 and isinstance(item.args[0].value, cst.Name):
            if source_of(item.func) in (f"{self.tf}.device", "compat.device"):
                device = self.setters.get(item.args[0].value.value)
        if device is None or loop is not None or self.device is not None:
            raise Refused(stmt, "a `with` block in the model_fn other than one device of a local replica_device_setter")
        self.device, self.on_device = device, True
        inner = self._block(list(cast(cst.IndentedBlock, stmt.body).body))
        self.on_device = False
        return inner

    def _loop(self, stmt: cst.For, loop: tuple[str, str] | None) -> list[str]:
        """`for i in range(n):` (n read from outside the model_fn): its layers made once per iteration, in a list."""
        target, call = stmt.target, stmt.iter
        if (
            loop is not None
            or stmt.orelse is not None
            or not isinstance(target, cst.Name)
            or not (isinstance(call, cst.Call) and source_of(call.func) == "range" and len(call.args) == 1)
        ):
            raise Refused(stmt, "a loop in the model_fn other than one `for i in range(n):`, not nested")
        count = call.args[0].value
        if collect(count, cst.Call) or set(names_in(count).names) & (self.bound | {"features", "labels", "mode"}):
            raise Refused(stmt, "a loop over range() of a value the model_fn computes, or calls")
        if target.value in self.bound or target.value in self.layers_named():
            raise Refused(stmt, f"`{target.value}`, the loop's variable, is bound elsewhere in the model_fn")
        header = f"for {target.value} in range({source_of(count)}):"
        before = set(self.same)
        inner = self._block(list(cast(cst.IndentedBlock, stmt.body).body), (target.value, header))
        if not before & self.rebound <= self.same:
            raise Refused(stmt, "a loop changing the dtype its layers take (not proven the features')")
        self.bound.add(target.value)
        return [header, *(f"    {line}" for line in inner)]

    def layers_named(self) -> set[str]:
        return {layer[0] for layer in self.layers}

    def _updates_dependency(self, item: cst.BaseExpression) -> bool:
        return (
            isinstance(item, cst.Call)
            and self.port.is_(item.func, "control_dependencies")
            and len(item.args) == 1
            and isinstance(item.args[0].value, cst.Name)
            and item.args[0].value.value in self.updates
        )

    def _append(self, value: cst.BaseExpression) -> bool:
        """`batch_norms.append(batch_norm)` of native-layers' list (Keras layers apply their updates in eager)."""
        return (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Attribute)
            and value.func.attr.value == "append"
            and isinstance(value.func.value, cst.Name)
            and value.func.value.value in self.lists
            and len(value.args) == 1
            and isinstance(value.args[0].value, cst.Name)
            and value.args[0].value.value in self.layers_named()
        )

    def _updates_list(self, value: cst.BaseExpression) -> bool:
        """native-layers' `[update for layer in batch_norms for update in layer.updates]`."""
        return (
            isinstance(value, cst.ListComp)
            and any(isinstance(f.iter, cst.Name) and f.iter.value in self.lists for f in collect(value, cst.CompFor))
            and source_of(value).endswith(".updates]")
        )

    def _minimize(self, value: cst.BaseExpression) -> tuple[str, str] | None:
        """`tf.train.<Optimizer>(...).minimize(loss, global_step)` -> (the Keras optimizer, the loss's name)."""
        if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)):
            return None
        if value.func.attr.value != "minimize" or not isinstance(value.func.value, cst.Call):
            return None
        made = value.func.value
        kind = source_of(made.func).rpartition(".")[2]
        if kind not in tables.OPTIMIZERS or not self.port.is_(made.func, f"train.{kind}"):
            raise Refused(made, f"{source_of(made.func)}, which the repo's optimizer table does not prove equal")
        row = tables.OPTIMIZERS[kind]
        args = arguments(made, row.params, made, kind)
        if "use_locking" in args:
            raise Refused(made, f"{kind}(use_locking=...)")
        renamed = tables.renamed_slots(kind, {p: source_of(a.value) for p, a in args.items()})
        if renamed is not None:
            raise Refused(made, renamed)
        for arg in args.values():
            if set(names_in(arg.value).names) & self.bound or isinstance(arg.value, cst.Call):
                raise Refused(made, f"{kind} of a value the model_fn computes (a learning rate schedule)")
        code, self.said = tables.keras_optimizer(self.tf, kind, {p: source_of(a.value) for p, a in args.items()})
        minimize = arguments(value, ("loss", "global_step", "var_list"), value, "minimize")
        step = minimize.get("global_step")
        if set(minimize) != {"loss", "global_step"} or step is None:
            raise Refused(value, "minimize without (loss, global_step), or with more")
        if not (
            isinstance(step.value, cst.Call)
            and not step.value.args
            and self.port.is_(step.value.func, "train.get_or_create_global_step", "train.get_global_step")
        ):
            raise Refused(value, "minimize's global_step is not tf.train.get_or_create_global_step()")
        loss = minimize["loss"].value
        if not isinstance(loss, cst.Name):
            raise Refused(value, "minimize of an expression, not the loss's name")
        return code, loss.value

    def _spec(self, stmt: cst.BaseStatement) -> tuple[str | None, str | None]:
        small = single(stmt)
        spec = small.value if isinstance(small, cst.Return) else None
        if not (isinstance(spec, cst.Call) and self.port.is_(spec.func, "estimator.EstimatorSpec")):
            raise Refused(stmt, "a model_fn not ending in `return tf.estimator.EstimatorSpec(...)`")
        args = arguments(spec, _SPEC, spec, "EstimatorSpec")
        if set(args) != {"mode", "loss", "train_op"}:
            raise Refused(spec, "an EstimatorSpec of more than mode, loss and train_op (other modes' outputs)")
        loss, train_op = args["loss"].value, args["train_op"].value
        return (
            loss.value if isinstance(loss, cst.Name) else None,
            train_op.value if isinstance(train_op, cst.Name) else None,
        )

    def _statement(
        self, value: cst.BaseExpression, name: str, stmt: cst.BaseStatement, loop: tuple[str, str] | None
    ) -> str | None:
        """`name = value` for model(): each Keras layer made in it hoisted (made once), `mode == TRAIN` -> training."""
        text = source_of(value)
        if "compat.v1" in text or re.search(r"random|dropout|shuffle|multinomial", text) or "Variable" in text:
            raise Refused(stmt, f"`{name} = {text}`: graph code, a variable or a random op in the model_fn")
        port = self

        class Hoist(cst.CSTTransformer):
            def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
                if port._is_layer(original):
                    return updated.with_changes(func=port._layer(port._hoist(original, None, stmt, loop), loop))
                func = original.func
                if isinstance(func, cst.Name) and func.value in port.looped:
                    if loop is None:
                        raise Refused(stmt, f"`{func.value}`, a layer made in a loop, called after it")
                    return updated.with_changes(func=port._layer(func.value, loop))
                return updated

            def leave_Comparison(self, original: cst.Comparison, updated: cst.Comparison) -> cst.BaseExpression:
                return cst.Name("training") if port._training(original) else updated

        if self._is_layer_class(value):  # (`batch_norm = tf.keras.layers.BatchNormalization(...)`, called later)
            self._hoist(cast(cst.Call, value), name, stmt, loop)
            return None
        new = cast(cst.BaseExpression, value.visit(Hoist()))
        if "mode" in names_in(new).names:
            raise Refused(stmt, "the model_fn reads `mode` other than as `mode == tf.estimator.ModeKeys.TRAIN`")
        unknown = [n for n in names_in(new).names if n in self.layers_named() and n not in self.called(new)]
        if unknown:
            raise Refused(stmt, f"the layer `{unknown[0]}` used other than called")
        for call in collect(new, cst.Call):
            if not self._op(call):
                raise Refused(
                    stmt,
                    f"a call of {source_of(call.func)}, which may make variables or layers at each call (the rule "
                    "reads TensorFlow's ops, Keras losses and the layers it makes once)",
                )
        self.bound.add(name)
        self.rebound.add(name)
        if self._same_dtype(new):
            self.same.add(name)
        else:
            self.same.discard(name)
        return source_of(new)

    def _op(self, call: cst.Call) -> bool:
        """Is `call` one the port may run at each step: a layer made once, a Keras loss, a TensorFlow op?"""
        func, tf = call.func, self.tf
        if isinstance(func, cst.Subscript):
            func = func.value
        if isinstance(func, cst.Name):
            return func.value in self.layers_named()
        if isinstance(func, cst.Call):  # (a Keras loss made and called)
            return source_of(func.func).startswith(f"{tf}.keras.losses.")
        text = source_of(func)
        if not re.fullmatch(rf"{re.escape(tf)}\.[\w.]+", text):
            return False
        below = text.removeprefix(f"{tf}.")
        return below.startswith("keras.losses.") or not below.startswith(_NOT_OPS)

    def called(self, expr: cst.BaseExpression) -> set[str]:
        funcs = [c.func.value if isinstance(c.func, cst.Subscript) else c.func for c in collect(expr, cst.Call)]
        return {func.value for func in funcs if isinstance(func, cst.Name)}

    def _is_layer_class(self, value: cst.BaseExpression) -> bool:
        return (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Attribute)
            and source_of(value.func).startswith(f"{self.tf}.keras.layers.")
        )

    def _is_layer(self, call: cst.Call) -> bool:
        """`tf.keras.layers.K(...)(x)`: a layer made and called."""
        return isinstance(call.func, cst.Call) and self._is_layer_class(call.func)

    def _layer(self, name: str, loop: tuple[str, str] | None) -> cst.BaseExpression:
        """A layer made once, as model() calls it: its name, or in a loop `name[i]`."""
        if loop is None or name not in self.looped:
            return cst.Name(name)
        return cst.parse_expression(f"{name}[{loop[0]}]")

    def _hoist(self, call: cst.Call, name: str | None, stmt: cst.BaseStatement, loop: tuple[str, str] | None) -> str:
        made = cast(cst.Call, call.func) if name is None else call
        kind = source_of(made.func).rpartition(".")[2]
        if kind in _RANDOM_LAYERS:
            raise Refused(stmt, f"a Keras {kind}, which draws other values than TF1's graph seed gave")
        args = []
        for arg in made.args:
            if arg.keyword is not None and arg.keyword.value == "dtype":
                dtype = arg.value
                if not (
                    isinstance(dtype, cst.Attribute)
                    and dtype.attr.value == "dtype"
                    and isinstance(dtype.value, cst.Name)
                    and dtype.value.value in self.same
                ):
                    raise Refused(stmt, f"a layer of dtype {source_of(dtype)}, not proven the features' dtype")
                args.append(arg.with_changes(value=cst.Name("dtype")))
                continue
            read = set(names_in(arg.value).names) - ({loop[0]} if loop is not None else set())
            if read & (self.bound | {"features", "labels", "mode"}):
                raise Refused(stmt, f"a {kind} made of a value the model_fn computes")
            args.append(arg)
        if name is None:
            given = next((a.value for a in made.args if a.keyword is not None and a.keyword.value == "name"), None)
            base = given.evaluated_value if isinstance(given, cst.SimpleString) else None
            base = str(base) if base is not None and str(base).isidentifier() else _snake(kind)
            name, count = base, 0
            while name in self.layers_named() or keyword.iskeyword(name):
                count += 1
                name = f"{base}_{count}"
        elif name in self.layers_named():
            raise Refused(stmt, f"`{name}`, a layer, is bound twice")
        self.layers.append((name, source_of(made.with_changes(args=args)), loop[1] if loop is not None else None))
        if loop is not None:
            self.looped.add(name)
        return name

    def _training(self, comparison: cst.Comparison) -> bool:
        """`mode == tf.estimator.ModeKeys.TRAIN` (the port trains: True in the step, False in the build call)."""
        return (
            isinstance(comparison.left, cst.Name)
            and comparison.left.value == "mode"
            and len(comparison.comparisons) == 1
            and isinstance(comparison.comparisons[0].operator, cst.Equal)
            and self.port.is_(comparison.comparisons[0].comparator, "estimator.ModeKeys.TRAIN")
        )

    def _same_dtype(self, expr: cst.BaseExpression) -> bool:
        """Is `expr` of the features' dtype: such a name, a layer's call on one, an activation of one?"""
        if isinstance(expr, cst.Name):
            return expr.value in self.same
        if isinstance(expr, cst.Call) and expr.args and expr.args[0].keyword is None:
            func = expr.func.value if isinstance(expr.func, cst.Subscript) else expr.func
            layer = isinstance(func, cst.Name) and func.value in self.layers_named()
            act = source_of(func) in {f"{self.tf}.nn.{a}" for a in _SAME_DTYPE}
            return (layer or act) and self._same_dtype(expr.args[0].value)
        return False


def _snake(kind: str) -> str:
    """Keras's default name of a layer class (Conv2D -> conv2d, BatchNormalization -> batch_normalization)."""
    snake = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", kind)).lower()
    return re.sub(r"(\d)_d\b", r"\1d", snake)


def _tf_alias(module: cst.Module) -> str | None:
    for imported in collect(module, cst.Import):
        for alias in imported.names:
            if source_of(alias.name) == "tensorflow":
                return alias.evaluated_alias or "tensorflow"
    return None
