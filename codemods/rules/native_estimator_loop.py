"""native-estimator-loop: a single-process Estimator program of the simple shape -> TF 2's own training loop.

The shape, as the other native rules leave it (native-layers' Keras layers, native-losses' loss, native-data's
`return dataset`): `tf.estimator.Estimator(model_fn, config=tf.estimator.RunConfig(model_dir=...)).train(input_fn,
max_steps=N)` (or steps=N), where model_fn is Keras layers and a loss (straight-line code, a `for i in range(n):`
loop making layers, a `with tf.device(setter):` block of a local replica_device_setter) ending in
`tf.train.<Optimizer>(...).minimize(loss, global_step)` (the global step written there or a name bound to
`get_or_create_global_step()` and read only there; under `control_dependencies` of its batch normalizations'
updates, where it has any; `tf.get_variable("name", [integers])` at the model_fn's top level, with float32 and an
initializer of the table at most, is a `tf.Variable` of TF1's name made once, Glorot's uniform where none is given) and `return EstimatorSpec(mode, loss=loss, train_op=train_op)`, reading `mode` only as
`mode == ModeKeys.TRAIN`, and input_fn takes nothing and returns the dataset; after the train, the Estimator may be
read only as `estimator.get_variable_value("global_step")` (the port's global step). The Estimator's params= (a dict
written out, or a name bound once to one) is bound to `params` where the train was and passed to model_fn and input_fn
where they take `params` and read it only as `params["key"]` or `params.get("key"[, default])` (the Estimator gave each call a copy). After the train,
`estimator.evaluate(input_fn, steps=N)` runs model_fn's `if mode == ModeKeys.EVAL:` branch (tf.metrics.accuracy /
mean in `eval_metric_ops`, bound in it or written there; or, after an `if mode == ModeKeys.TRAIN:` branch ending in its
return, the statements ending in the EVAL spec; without a branch, the loss alone) as the port's evaluate():
Keras metrics made once, model() in inference mode over N batches or until the input ends, returning the dict the
Estimator returned (the metrics and the mean of the batches' losses in sorted order, then the global step) and writing
them to model_dir/eval. The port: the layers made once,
in TF1's order (a loop's in lists; their input's dtype, which TF1's layers took, read from the dataset's features),
model_fn as a function of the batch, a `tf.function` train step (GradientTape, the Keras optimizer of the repo's
table, the global step a variable incremented after the update), the variables built on the first batch, the latest
checkpoint of model_dir restored by TF1's names (the slots through compat.tf1_slots), the loop over the dataset until
the global step reaches the last step as the Estimator's StopAtStepHook stopped it (nothing trained from a checkpoint
at or past max_steps), `model.ckpt-<step>` saved where the Estimator saved (at the start, every
save_checkpoints_secs, at the end) and as many kept as its Saver kept (compat.tf1_saver), the loss summary where its
summary hook wrote it, and its `loss = ..., step = ...` log line.

A model_fn of towers that average their own gradients (cifar10_estimator's shape: the sample resnet_estimator), or
that minimize their mean loss (the corpus's estimator_towers), is read by _estimator_towers instead: its statements and
the functions its towers call are kept, over compat.eager_towers (the layers of TF1's variable scope paths, each
tower's tf.gradients or the minimize's one gradient from the train step's tape, the first tower's batch normalization
updates alone).

A TPUEstimator program run off the TPU (use_tpu a flag or False: BERT's run_classifier shape) is read by _native_tpu:
its model_fn's get_variable and tf.layers.dense made once under TF1's names, its CrossShardOptimizer branch dropped,
its eval_metrics' metric_fn given its tensors, each input_fn given its mode's batch_size as TPUEstimator gave it, its
batches features alone, no loss line logged; where use_tpu is true at run time the port stops with one line.

An Estimator reads TF_CONFIG when it runs: a port to one process would stop being a cluster member without a word.
The program's code cannot say whether it runs in a cluster (the platform passes a one-task `master` TF_CONFIG to a
single-node job), so the port checks at run time and stops with a one-line error where TF_CONFIG names a cluster of
more than one task.

Hooks convert as _native_hooks reads them (a model_fn's LoggingTensorHook of the loss, a train's SessionRunHook class
of the simple shape). Anything else (other hooks, other modes, train_and_evaluate, other TPUEstimators and canned estimators, other params, a RunConfig field
the port does not reproduce, other blocks in model_fn, random ops, calls that may make variables, a batch
normalization whose updates the train op does not run, a random input_fn) keeps the program at the safe level with
one entry naming why. An input_fn's Dataset.shuffle draws another order (the entry says so).
"""

from __future__ import annotations

import dataclasses
import json
import re
import textwrap
from typing import cast

import libcst as cst

from codemods.engine.rule import FileState, Rule
from codemods.rule_description import Example
from codemods.rules import _native_hooks as hook_ports
from codemods.rules import _native_monitored as monitored
from codemods.rules import _native_tpu as tpu
from codemods.rules._estimator_model_fn import PORT_NAMES, ModelFn, reads_params
from codemods.rules._estimator_towers import RUNTIME, Towers
from codemods.rules._native_eager import keras_2
from codemods.rules._native_seed import seed_statement
from codemods.rules._native_slim import written_classes
from codemods.rules._native_syntax import (
    Refused,
    arguments,
    assigned,
    bound_names,
    collect,
    descendants,
    names_in,
    single,
    source_of,
)
from codemods.rules._shared import ESTIMATOR
from codemods.rules._tf_bindings import TF, tf_imports

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
    "save_checkpoints_steps",
)
_DEFAULTS = {
    "log_step_count_steps": "100",
    # (TF 1.15's checkpoint defaults, which a MonitoredTrainingSession's port reads too)
    "save_checkpoints_secs": str(monitored.EVERY_SECS),
    "keep_checkpoint_max": str(monitored.KEEP),
    "save_summary_steps": "100",
}
# the Estimators the port reads (TPUEstimator: run off the TPU, _native_tpu)
_ESTIMATORS = ("estimator.Estimator", "estimator.tpu.TPUEstimator")
WHAT_DIFFERS = (
    "It writes object-based checkpoints (model.ckpt-<step>, which the port restores, not a TF1 Saver or the "
    "Estimator), no .meta or graph.pbtxt; its events file holds the loss at the steps the Estimator's summary hook "
    "wrote it (after the first step, then every save_summary_steps), not global_step/sec; at the "
    "start of a restart it does not write the restored checkpoint again (the Estimator rewrote it with the values it "
    "holds); its log line has no timing "
    "and no global_step/sec line follows; keep_checkpoint_every_n_hours is not kept; an input_fn's Dataset.shuffle "
    "draws another order (its seed came from the Estimator's graph); a session_config's soft placement and CPU "
    "devices are not kept (eager TF 2 places softly). Initial values: the Estimator "
    "drew them from its graph seed (RunConfig's tf_random_seed), the port from tf.keras.utils.set_random_seed (Keras "
    "draws its initializers' seeds from Python's random module; it seeds Python's and NumPy's generators too, and a "
    "module seeding one itself gets tf.random.set_seed, whose port starts elsewhere at each run), which gives "
    "other values: the port trains as the Estimator did from the same checkpoint (a run from scratch starts "
    "elsewhere). The model is called once on the first batch in inference mode to make its variables before the "
    "restore. An input_fn of no batch fails at next() where the Estimator trained nothing; a model_dir at or past "
    "max_steps trains nothing without the Estimator's 'Skipping training' line. A device setter's device holds the "
    "model's ops, the gradients and the update, not the global step variable (on a machine with a GPU it may land "
    "elsewhere). TF_CONFIG: a model_dir or task type it names is not read; where it names a cluster of more than one "
    "task the port stops with a one-line error (the Estimator would have joined it). evaluate() evaluates the variables "
    "the train left in the process, which its last checkpoint holds (the Estimator restored that checkpoint in a graph "
    "of its own), without its 'Evaluation [i/N]' lines; its model_dir/eval events hold the metrics as TF 2 scalar "
    "summaries and checkpoint_path as a tensor summary, and each evaluate() call writes an events file of its own, "
    "without the graph (the Estimator wrote one, with it). Where the optimizer is Adam, Adam scales the rounding of a "
    "gradient that is 0 in exact arithmetic (a bias before batch normalization, which cancels it in training) into "
    "steps of up to its learning rate, in a direction the rounding picks, which TF1's kernels and Keras's pick "
    "otherwise: such a variable ends elsewhere, and evaluate() sees it through the moving statistics"
)


class NativeEstimatorLoopRule(Rule):
    ID = "native-estimator-loop"
    DESCRIPTION = (
        "A single-process Estimator program of the simple shape (Keras layers, a loss, a tf.train optimizer's "
        "minimize, or towers averaging their gradients or minimizing their mean loss; train(max_steps or steps); a "
        "TPUEstimator run off the TPU too) -> an eager loop with a tf.function "
        "train step, restoring TF1 checkpoints."
    )
    LEVEL = "native"
    # after native-estimator (198): where it converts, the program holds no Estimator and that entry is withdrawn
    ORDER = 199
    EXAMPLE = Example(
        "An Estimator trains its model_fn in a graph and session of its own. Where the model_fn is Keras layers "
        "(and tf.get_variable of a literal shape at its top level: a tf.Variable of TF1's name made once, drawn by "
        "TF 2's initializer of the table, Glorot's uniform where none is given), a loss and a tf.train optimizer's "
        "minimize (of the global step, or of a name bound to it and read only there), and the program calls train(input_fn, max_steps=N) once "
        "(then perhaps evaluate(input_fn, steps=M): the model_fn's EVAL branch's tf.metrics.accuracy / mean as Keras "
        "metrics made once, returning the dict the Estimator returned), the rule "
        "writes TF 2's own loop (the Estimator's params=, a dict, bound to `params` and passed to model_fn and input_fn "
        "where they take it): the layers made once, a tf.function train step with GradientTape and the Keras "
        "optimizer (native-optimizer's table: Momentum and SGD equal for a constant learning rate, Adam's epsilon "
        "pinned to TF1's, float rounding only), the global step a variable, the latest checkpoint of model_dir "
        "restored by TF1's names (optimizer slots through compat.tf1_slots), model.ckpt-<step> saved at the start, "
        "every save_checkpoints_secs and at the end, training until the global step reaches max_steps. A model_fn of "
        "towers (for i in range(n) under variable_scope(name, reuse=i > 0), cifar10_estimator's multi-GPU shape) "
        "keeps its statements over compat.eager_towers (each layer the one of its variable scope's path, TF1's "
        "names): towers averaging their own tf.gradients as they did, the first tower's batch normalization updates "
        "alone; towers whose one tf.train optimizer minimizes their mean loss as one gradient of that loss over their "
        "shared variables, which is what TF1's minimize computed (each tower's part summed into it). For towers, what "
        "changes is where they run: their device function (a replica or round-robin setter given to tf.device) is not "
        "run, so eager TF 2 places their ops, variables and gradients itself, no longer one tower per GPU with the "
        "variables on the parameter device: on a machine with GPUs they may all run on one. A TPUEstimator whose "
        "use_tpu is a flag or False (BERT's run_classifier shape) converts as TPUEstimator ran it off the TPU "
        "(measured on TF 2.15): each input_fn given params['batch_size'] of its mode (train_batch_size, "
        "eval_batch_size), no loss line logged, TPUConfig and the cluster resolver without effect (they go); its "
        "model_fn's tf.get_variable becomes a tf.Variable and tf.layers.dense a Keras Dense, of TF1's names, made "
        "once, its `if params['use_tpu']: CrossShardOptimizer` branch goes, and eval_metrics' metric_fn runs as the "
        "EVAL branch's metrics. Nothing here runs a TPU: where use_tpu is true when the port runs, it stops with a "
        "one-line error (sys.exit) instead of training. save_checkpoints_steps saves every N steps, as the "
        "Estimator's CheckpointSaverHook did. "
        f"{hook_ports.EXPLAINED} What may change: {WHAT_DIFFERS}.",
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
        "import compat.tf1_saver\n"
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
        '    manager = compat.tf1_saver.CheckpointManager(checkpoint, "/tmp/m", max_to_keep=5, checkpoint_name="model.ckpt")\n'
        "    checkpoint.restore(manager.latest_checkpoint)\n"
        "    compat.tf1_slots.check_names([global_step, *dense.variables], manager.latest_checkpoint)\n"
        "    compat.tf1_slots.restore_slots(optimizer, dense.trainable_variables, manager.latest_checkpoint)\n"
        "    last_step = 3\n"
        "    if int(global_step) < last_step:  # (the Estimator trained nothing from a checkpoint at or past it)\n"
        "        manager.save_at_start(checkpoint_number=global_step)\n"
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
    WORDS = frozenset()  # it acts on TensorFlow's names; the program is read from the whole module
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
            port = _Port(updated_node)
            module, said = port.convert()
        except Refused as why:
            self.report(node, f"{REFUSED}: {why.why}", native=True, statement=top)
            return updated_node
        for name in ("itertools", "json", "os", "sys", "time", "compat.tf1_saver", "compat.tf1_slots"):
            self.add_needed_import(name)
        for imported, obj in port.hooks.port.imports:  # (the hooks' names, which the port no longer reads)
            self.remove_unused_import(imported, obj)
        if f"{RUNTIME}." in module.code:
            self.add_needed_import(RUNTIME)
            self.remove_unused_import("compat.devices")  # (the towers' device function it served is gone)
        # (native-estimator's entry said the program stays on the Estimator: it no longer does)
        self.state.reports[:] = [r for r in self.state.reports if r[2].rule != "native-estimator"]
        # (the entries leaving the model_fn's tf.layers (a TPU model_fn's) or its tf.train optimizer (graph code) at
        # the safe level: the port converted them)
        self.state.reports[:] = [
            r
            for r in self.state.reports
            if not (
                r[2].rule in ("native-layers", "native-optimizer")
                and r[0] == port.model_fn_at
                and "left at the safe level" in r[2].message
            )
        ]
        self.report(node, f"{MESSAGE}: {said}. {WHAT_DIFFERS}", native=True, statement=top)
        return module


class _Port:
    """One module's Estimator program, read and ported (Refused where it is not the shape)."""

    def __init__(self, module: cst.Module) -> None:
        self.module = module
        self.tf = _tf_alias(module)
        self.step_reads: set[int] = set()  # the trained Estimator's get_variable_value("global_step") calls after it
        self.evaluations: list[cst.Call] = []  # its evaluate(...) calls after it
        self.config_lines: list[cst.SimpleStatementLine] = []  # the lines binding RunConfig's session_config
        self.resolver_lines: list[cst.BaseStatement] = []  # a TPU RunConfig's cluster resolver's, which go
        self.tpu = False  # is the Estimator a TPUEstimator (run off the TPU)?
        self.model_fn_at = -1  # the model_fn's index in the module's body
        self.off_tpu_key: str | None = None
        self.hooks = hook_ports.Hooks(module, self.tf or "tensorflow", self.is_)  # (its hooks, as the port reads them)

    def is_(self, node: cst.CSTNode, *names: str) -> bool:
        """Is `node` one of TF's `names` (below tf. or tf.compat.v1.)?"""
        text = source_of(node)
        return any(text in (f"{self.tf}.{n}", f"{self.tf}.compat.v1.{n}") for n in names)

    def convert(self) -> tuple[cst.Module, str]:
        tf = self.tf
        if tf is None:
            raise Refused(self.module, "the file does not import tensorflow by a name the rule reads")
        line, call, estimator, binding = self._train_line()
        self.tpu = self.is_(estimator.func, "estimator.tpu.TPUEstimator")
        est = arguments(estimator, tpu.ESTIMATOR_PARAMS, call, "TPUEstimator") if self.tpu else None
        est = est or arguments(estimator, ("model_fn", "model_dir", "config", "params"), call, "Estimator")
        guard, batch_sizes = self._off_tpu(est, line, binding) if self.tpu else ("", {})
        train = arguments(call, ("input_fn", "hooks", "steps", "max_steps", "saving_listeners"), call, "train")
        if "saving_listeners" in train:
            raise Refused(call, "saving_listeners= of the Estimator's train(), which the port does not reproduce")
        self.hooks.train_hooks(train.get("hooks"))
        params_given, params_line = self._params(est, line, binding)
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
        self.model_fn_at = next(i for i, s in enumerate(self.module.body) if s is model_fn)
        evaluated = [
            arguments(c, ("input_fn", "steps", "hooks", "checkpoint_path", "name"), c, "evaluate")
            for c in self.evaluations
        ]
        for args, found in zip(evaluated, self.evaluations):
            not_ported = sorted(set(args) - {"input_fn", "steps"})
            if not_ported:
                raise Refused(found, f"evaluate({not_ported[0]}=...), which the port does not reproduce")
        # (an input_fn is read once by each train or evaluate call given it)
        input_fns = [source_of(a["input_fn"].value) for a in [train, *evaluated] if "input_fn" in a]
        input_fn, input_code = self._input_fn(train, call, input_fns)
        input_params = self._input(input_fn)
        towers = Towers(cast(str, tf), self.is_, self.module, model_fn) if Towers.applies(model_fn) else None
        read_fn = self.hooks.without_training_hooks(model_fn)  # (its LoggingTensorHooks read into the port's lines)
        hooked = self.hooks.port.said
        if (towers is not None or self.tpu) and hooked:
            raise Refused(call, "hooks of a towers model_fn or a TPUEstimator, which the port does not reproduce")
        model = ModelFn(cast(str, tf), self.is_, read_fn, written_classes(self.module, cast(str, tf)))
        tags: list[str] = []
        helpers: dict[int, cst.FunctionDef | None] = {}
        plain: list[str] = []  # the tf.Variables made once (a TPU model_fn's get_variable)
        if self.tpu:
            tpu_model = tpu.TpuModelFn(cast(str, tf), self.is_, self.module, model_fn, self.off_tpu_key)
            made, plain, names, body, loss, optimizer, said = tpu_model.read()
            device = None
        elif towers is None:
            made, names, body, loss, optimizer, device, said = model.read()
        else:  # (the towers' layers are made by compat.eager_towers as the model runs: none made beforehand)
            (made, names), (body, loss, optimizer, device, tags, said, helpers) = ([], []), towers.read()
        evaluate: dict[int, str] = {}  # each evaluate call -> the port's
        eval_params = False  # does an evaluate's input_fn read params?
        for args, found in zip(evaluated, self.evaluations):
            if towers is not None:
                raise Refused(found, "evaluate() of a towers model_fn, which the port does not reproduce")
            eval_fn, eval_code = self._input_fn(args, found, input_fns)
            takes = self._input(eval_fn)
            eval_params |= takes
            eval_steps = source_of(args["steps"].value) if "steps" in args else "None"
            eval_input = self._input_params(takes, batch_sizes.get("eval_batch_size"), params_given, found)
            evaluate[id(found)] = f"evaluate({eval_code}({eval_input}), {eval_steps})"
        metrics = tpu_model.evaluation if self.tpu else model.evaluation
        evaluation = (metrics or {}) if evaluate else None
        if evaluation is not None:
            keys = ", ".join(evaluation)
            said += (
                f"; evaluate(): the EVAL branch's {len(evaluation)} tf.metrics -> Keras metrics ({keys}) made once"
                if evaluation
                else "; evaluate(): the mean loss"
            ) + ", over its steps of model() in inference mode"
        if hooked:
            said += f"; hooks: {'; '.join(hooked)}. {hook_ports.WHAT_DIFFERS}"
        if params_given is not None and "params" not in [p.name.value for p in model_fn.params.params]:
            raise Refused(call, "params= given to an Estimator whose model_fn takes no params (it raised ValueError)")
        # (the dict the port binds, where model_fn or input_fn reads it: the Estimator's params, else its {})
        bound_dict = (params_given or "{}") if model.params or input_params or eval_params else None
        if self.tpu:  # (each input_fn is given its mode's batch_size, with the Estimator's params where it has any)
            bound_dict = params_given if params_given is not None and (input_params or eval_params) else None
        train_input = self._input_params(input_params, batch_sizes.get("train_batch_size"), params_given, call)
        # (the names the module binds or reads outside model_fn, and those model_fn reads from outside it)
        inside = {id(n) for n in names_in(model_fn).nodes}
        local = {p.name.value for p in model_fn.params.params}
        local |= {t.target.value for t in collect(model_fn, cst.AssignTarget) if isinstance(t.target, cst.Name)}
        local |= {f.target.value for f in collect(model_fn, cst.CompFor) if isinstance(f.target, cst.Name)}
        local |= {f.target.value for f in collect(model_fn, cst.For) if isinstance(f.target, cst.Name)}
        local |= bound_names(model_fn.body)  # (tuple targets too: `loss, grads, _ = tower_fn(...)`)
        # (a function's own locals, `dataset` in input_fn, are not the names the port binds where the train was)
        for other in self.module.body:
            if isinstance(other, cst.FunctionDef) and other is not model_fn and not collect(other, cst.Global):
                own = {p.name.value for p in collect(other.params, cst.Param)} | bound_names(other.body)
                # (a nested function's parameters: the input_fn an input_fn builder returns, which takes params)
                own |= {
                    p.name.value for f in collect(other.body, cst.FunctionDef) for p in collect(f.params, cst.Param)
                }
                inside |= {id(n) for n in names_in(other).nodes if n.value in own}
        self.taken = {n.value for n in names_in(self.module).nodes if id(n) not in inside}
        free = set(names_in(model_fn.body).names) - local
        self.taken |= free
        if params_line is not None:  # (the line binding the dict goes: its name is free where the train was)
            self.taken.discard(cast(str, assigned(single(params_line))[0]))
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
            f"{input_code}({train_input})",
            train,
            any(s is line for s in self.module.body),
            tags if towers is not None else None,
            bound_dict,
            evaluation,
            _Tpu(plain, guard) if self.tpu else None,
            tuple(model.variables),
        )
        # (blank lines without the block's indentation)
        port = [
            s.with_changes(leading_lines=[cst.EmptyLine(indent=False) for _ in s.leading_lines])
            for s in cst.parse_module(code).body
        ]
        removed = {id(model_fn)} | ({id(binding)} if binding is not None else set())
        removed |= {id(found) for found in self.config_lines}
        removed |= {id(found) for found in self.resolver_lines}
        removed |= {key for key, function in helpers.items() if function is None}
        ported: dict[int, cst.CSTNode] = {key: function for key, function in helpers.items() if function is not None}
        ported |= self.hooks.port.classes
        if config_line is not None:
            removed.add(id(config_line))
        if params_line is not None:
            removed.add(id(params_line))
        replaced = {id(line): port}
        step_reads = self.step_reads
        calls = {key: cst.parse_expression(code) for key, code in evaluate.items()}

        class Swap(cst.CSTTransformer):
            def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:  # type: ignore[override]
                if id(original) in removed:
                    return cast(cst.CSTNode, cst.RemoveFromParent())
                if id(original) in replaced:
                    return cast(cst.CSTNode, cst.FlattenSentinel(replaced[id(original)]))
                if id(original) in step_reads:  # (the NumPy int64 the Estimator returned)
                    return cst.parse_expression("global_step.numpy()")
                if id(original) in calls:
                    return calls[id(original)]
                if id(original) in ported:
                    return ported[id(original)]
                return updated

        module = cast(cst.Module, self.module.visit(Swap()))
        return module, said

    def _train_line(self) -> tuple[cst.SimpleStatementLine, cst.Call, cst.Call, cst.SimpleStatementLine | None]:
        """The one statement `tf.estimator.Estimator(...).train(...)`, or `estimator.train(...)` after `estimator =
        tf.estimator.Estimator(...)` in the same block (the name read nowhere else): (the train line, its call, the
        Estimator's call, the line binding it or None). Refused for any other Estimator use."""
        found: list[tuple[cst.SimpleStatementLine, cst.Call, cst.Call, cst.SimpleStatementLine | None]] = []
        blocks = [self.module.body, *(b.body for b in collect(self.module, cst.IndentedBlock))]
        read: dict[str, str] = {}  # trained estimators' names read elsewhere too: the first such use, said
        apart: dict[str, str] = {}  # trained estimators' names not bound in their train's block: where it trains
        for line in collect(self.module, cst.SimpleStatementLine):
            small = single(line)
            call = small.value if isinstance(small, cst.Expr) else None
            if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "train":
                inner = call.func.value
                if isinstance(inner, cst.Call) and self.is_(inner.func, *_ESTIMATORS):
                    found.append((line, call, inner, None))
                elif isinstance(inner, cst.Name):
                    block = next(list(b) for b in blocks if any(s is line for s in b))
                    at = next(i for i, s in enumerate(block) if s is line)
                    bound = [s for s in block[:at] if assigned(single(s))[0] == inner.value]
                    if not bound:
                        apart.setdefault(inner.value, self._place(line))
                        continue
                    steps = [c for s in block[at + 1 :] for c in collect(s, cst.Call) if self._reads_step(c, inner)]
                    evals = [c for s in block[at + 1 :] for c in collect(s, cst.Call) if _evaluates(c, inner)]
                    if names_in(self.module).names.count(inner.value) != 2 + len(steps) + len(evals):
                        known = [call, *steps, *evals]
                        read.setdefault(inner.value, self._other_use(inner, call, bound[-1], known))
                        continue
                    made = assigned(single(bound[0]))[1] if len(bound) == 1 else None
                    if isinstance(made, cst.Call) and self.is_(made.func, *_ESTIMATORS):
                        found.append((line, call, made, cast(cst.SimpleStatementLine, bound[0])))
                        self.step_reads = {id(c) for c in steps}
                        self.evaluations = evals
        allowed = {
            "estimator.Estimator",
            "estimator.RunConfig",
            "estimator.EstimatorSpec",
            "estimator.ModeKeys.TRAIN",
            "estimator.ModeKeys.EVAL",
            *tpu.NAMES,
        }
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
            if isinstance(made := assigned(single(s))[1], cst.Call) and self.is_(made.func, *_ESTIMATORS)
        }
        if not found and set(read) & estimators:
            name = min(set(read) & estimators)
            raise Refused(
                self.module,
                f"the Estimator `{name}` is used besides its train(): {read[name]}, which the port does not reproduce",
            )
        if not found and set(apart) & estimators:
            name = min(set(apart) & estimators)
            why = (
                "the port trains once, where the train was"
                if "loop" in apart[name]
                else "the rule ports a train in the block that makes the Estimator"
            )
            raise Refused(
                self.module,
                f"the Estimator `{name}` is trained in another block than the one binding it: {apart[name]} ({why})",
            )
        if len(found) != 1:
            raise Refused(
                self.module, "no statement `tf.estimator.Estimator(model_fn, ...).train(input_fn, ...)`, or two"
            )
        uses = sum(1 for c in collect(self.module, cst.Call) if self.is_(c.func, *_ESTIMATORS))
        if uses != 1:
            raise Refused(found[0][1], "another Estimator besides the one trained")
        return found[0]

    def _other_use(self, estimator: cst.Name, train: cst.Call, bound: cst.BaseStatement, known: list[cst.Call]) -> str:
        """The first use of the Estimator's name besides its binding, its train and the reads after the train the
        port makes its own (`known`), as the entry says it."""
        ours = {id(cast(cst.Attribute, c.func).value) for c in known}
        ours |= {id(n) for n in names_in(bound).nodes if n.value == estimator.value}
        calls = collect(self.module, cst.Call)
        order = {id(c): i for i, c in enumerate(calls)}
        for node in names_in(self.module).nodes:
            if node.value != estimator.value or id(node) in ours:
                continue
            read = next((a for a in collect(self.module, cst.Attribute) if a.value is node), None)
            if read is None:
                return f"`{estimator.value}` read as a value"
            call = next((c for c in calls if c.func is read), None)
            if call is None:
                return f"its attribute {read.attr.value}"
            method = f"its {read.attr.value}()"
            if read.attr.value == "get_variable_value" and len(call.args) == 1:
                method = f"its get_variable_value({source_of(call.args[0].value)})"
                if not self._reads_step(call, estimator):
                    return method + ' (the port reads "global_step" alone)'
            elif read.attr.value == "train":
                return "another train()"
            if read.attr.value not in ("evaluate", "get_variable_value"):
                return method
            return method + (
                " before the train" if order[id(call)] < order[id(train)] else " outside the train's block"
            )
        return f"`{estimator.value}` read besides its train"  # (not reached: the count found another read)

    def _place(self, line: cst.SimpleStatementLine) -> str:
        """Where a statement is, as the entry says it: the innermost compound statement holding it."""
        kinds: dict[type[cst.CSTNode], str] = {
            cst.If: "under an `if`",
            cst.For: "in a `for` loop",
            cst.While: "in a `while` loop",
            cst.With: "in a `with` block",
            cst.Try: "in a `try`",
            cst.FunctionDef: "in a function",
            cst.ClassDef: "in a class",
        }
        holding = [
            c
            for c in collect(self.module, cast("type[cst.BaseCompoundStatement]", cst.BaseCompoundStatement))
            if any(d is line for d in descendants(c))
        ]
        return kinds.get(type(holding[-1]), "in another block") if holding else "at the module's top level"

    def _reads_step(self, call: cst.Call, estimator: cst.Name) -> bool:
        """`estimator.get_variable_value("global_step")`: after its train, the global step the Estimator saved last in
        model_dir (at the end, or the one restored where it trained nothing), which the port saves alike."""
        return (
            _calls(call, estimator, "get_variable_value")
            and len(call.args) == 1
            and call.args[0].keyword is None
            and isinstance(call.args[0].value, cst.SimpleString)
            and call.args[0].value.evaluated_value == "global_step"
        )

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
        kinds = ("estimator.RunConfig", "estimator.tpu.RunConfig") if self.tpu else ("estimator.RunConfig",)
        if not (isinstance(value, cst.Call) and self.is_(value.func, *kinds)):
            raise Refused(line, "a config that is not a tf.estimator.RunConfig(...) call")
        if any(a.keyword is None or a.star for a in value.args):
            raise Refused(line, "RunConfig with positional arguments")
        keywords = {cast(cst.Name, a.keyword).value: a for a in value.args}
        if "session_config" in keywords:
            self._session_config(keywords.pop("session_config").value, line)
        if self.is_(value.func, "estimator.tpu.RunConfig"):  # (what configures the TPU, which the port runs off)
            self._tpu_config(keywords.pop("tpu_config", None), line)
            self._cluster(keywords.pop("cluster", None), line)
        if "save_checkpoints_steps" in keywords and "save_checkpoints_secs" in keywords:
            raise Refused(
                line, "RunConfig with save_checkpoints_steps and save_checkpoints_secs (it raised ValueError)"
            )
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
        for field in ("log_step_count_steps", "save_checkpoints_secs", "save_summary_steps", "save_checkpoints_steps"):
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

    def _params(
        self, est: dict[str, cst.Arg], line: cst.SimpleStatementLine, binding: cst.SimpleStatementLine | None
    ) -> tuple[str | None, cst.SimpleStatementLine | None]:
        """The Estimator's params=: (its dict's source, the line binding it to a name or None); None where not
        given. A dict written out, or a name bound once to one and read only here, of no call, whose names are not
        bound again before the train (the Estimator's line evaluated it, the port evaluates it where the train was;
        `binding`: the line binding the Estimator, or None where it is made on the train line)."""
        if "params" not in est:
            return None, None
        value, bound = est["params"].value, None
        if isinstance(value, cst.Name):
            found = [s for s in collect(self.module, cst.SimpleStatementLine) if assigned(single(s))[0] == value.value]
            if len(found) != 1 or names_in(self.module).names.count(value.value) != 2:
                raise Refused(line, f"the params `{value.value}` is bound or read elsewhere")
            bound, value = found[0], cast(cst.BaseExpression, assigned(single(found[0]))[1])
        if not isinstance(value, cst.Dict):
            raise Refused(line, f"params={source_of(value)}, params= other than a dict written out")
        if bool(collect(value, cst.Call)) or bool(collect(value, cst.Lambda)):
            raise Refused(line, "params= a dict whose values call (the port would call them where the train was)")
        # (where the dict was evaluated, or the train line itself)
        self._unchanged(set(names_in(value).names), line, bound or binding, "params")
        return source_of(value), bound

    def _tpu_config(self, arg: cst.Arg | None, line: cst.SimpleStatementLine) -> None:
        """`tpu_config=tf.estimator.tpu.TPUConfig(...)` of values written out: off the TPU it changed nothing
        (measured on TF 2.15: iterations_per_loop=2, num_shards=2 trained every step, of the whole batch)."""
        value = arg.value if arg is not None else None
        if value is None:
            return
        if not (isinstance(value, cst.Call) and self.is_(value.func, "estimator.tpu.TPUConfig")):
            raise Refused(line, "a tpu_config that is not a TPUConfig(...) call")
        for given in value.args:
            if given.keyword is None or not isinstance(given.value, (cst.Integer, cst.Name, cst.Attribute)):
                raise Refused(line, "TPUConfig with an argument not written out by keyword")
            if isinstance(given.value, cst.Attribute) and not self.is_(given.value, *tpu.NAMES):
                raise Refused(line, f"TPUConfig({source_of(given.value)}), a value the rule does not read")

    def _cluster(self, arg: cst.Arg | None, line: cst.SimpleStatementLine) -> None:
        """`cluster=resolver`, where `resolver` is bound only to None and, under an `if`, to a TPUClusterResolver
        (BERT's shape) and read only here: the port resolves no TPU, and those lines go (self.resolver_lines)."""
        value = arg.value if arg is not None else None
        if value is None or source_of(value) == "None":
            return
        name = value.value if isinstance(value, cst.Name) else None
        lines = [
            s
            for s in collect(self.module, cst.SimpleStatementLine)
            if name is not None and assigned(single(s))[0] == name
        ]
        branches = [
            s for s in collect(self.module, cst.If) if any(any(found is b for b in s.body.body) for found in lines)
        ]
        for found in lines:
            made = assigned(single(found))[1]
            branch = next((b for b in branches if any(found is s for s in b.body.body)), None)
            if isinstance(made, cst.Name) and made.value == "None" and branch is None:
                self.resolver_lines.append(found)
            elif (
                isinstance(made, cst.Call)
                and self.is_(
                    made.func,
                    "distribute.cluster_resolver.TPUClusterResolver",
                    "contrib.cluster_resolver.TPUClusterResolver",
                )
                and branch is not None
                and len(branch.body.body) == 1
                and branch.orelse is None
            ):
                self.resolver_lines.append(branch)
            else:
                raise Refused(line, f"cluster={source_of(value)}, other than a TPUClusterResolver made under an `if`")
        if name is None or not lines or names_in(self.module).names.count(name) != len(lines) + 1:
            raise Refused(line, f"cluster={source_of(value)}, a resolver bound or read elsewhere")

    def _session_config(self, value: cst.BaseExpression, line: cst.SimpleStatementLine) -> None:
        """`ConfigProto(allow_soft_placement=True, device_count={"CPU": n})`, inline or bound once: soft placement is
        eager TF 2's default, and CPU devices added to the session place nothing the port runs elsewhere."""
        if isinstance(value, cst.Name):
            bound = [s for s in collect(self.module, cst.SimpleStatementLine) if assigned(single(s))[0] == value.value]
            if len(bound) != 1 or names_in(self.module).names.count(value.value) != 2:
                raise Refused(line, f"the session_config `{value.value}` is bound or read elsewhere")
            self.config_lines.append(bound[0])
            value = cast(cst.BaseExpression, assigned(single(bound[0]))[1])
        fields = {cast(cst.Name, a.keyword).value: a.value for a in getattr(value, "args", ()) if a.keyword is not None}
        devices = fields.get("device_count")
        if not (
            isinstance(value, cst.Call)
            and self.is_(value.func, "ConfigProto")
            and len(fields) == len(value.args)
            and source_of(fields.get("allow_soft_placement", cst.Name("True"))) == "True"
            and set(fields) <= {"allow_soft_placement", "device_count"}
            and (devices is None or (isinstance(devices, cst.Dict) and source_of(devices).startswith('{"CPU":')))
            and (devices is None or len(cast(cst.Dict, devices).elements) == 1)
        ):
            raise Refused(
                line, "a session_config other than ConfigProto(allow_soft_placement=True, device_count={CPU})"
            )

    def _function(self, arg: cst.Arg | None, what: str, node: cst.CSTNode, reads: int = 1) -> cst.FunctionDef:
        """The module-level function `arg` names, read nowhere else (than where `reads` calls are given it)."""
        if arg is None or not isinstance(arg.value, cst.Name):
            raise Refused(node, f"the {what} is not a name")
        name = arg.value.value
        defs = [s for s in self.module.body if isinstance(s, cst.FunctionDef) and s.name.value == name]
        if len(defs) != 1 or defs[0].decorators:
            raise Refused(node, f"`{name}` is not one undecorated function of the module")
        if names_in(self.module).names.count(name) != 1 + reads:
            raise Refused(node, f"`{name}` is read or bound elsewhere")
        return defs[0]

    def _input_fn(self, args: dict[str, cst.Arg], node: cst.CSTNode, given: list[str]) -> tuple[cst.FunctionDef, str]:
        """The input_fn of a train or evaluate call's `args`, read by each call of `given` (the input_fns given), and
        the code the port calls it by: its name, or a TPU program's `builder(args)` (_native_tpu.input_builder)."""
        arg = args.get("input_fn")
        if self.tpu and arg is not None and isinstance(arg.value, cst.Call):
            builder = source_of(arg.value.func)
            calls = sum(1 for g in given if g.startswith(f"{builder}("))
            if names_in(self.module).names.count(builder) != 1 + calls:
                raise Refused(node, f"`{builder}` is read or bound elsewhere")
            return tpu.input_builder(self.module, arg.value, node), source_of(arg.value)
        function = self._function(arg, "input_fn", node, given.count(source_of(arg.value)) if arg is not None else 1)
        return function, function.name.value

    def _input_params(self, takes: bool, batch_size: cst.Arg | None, params: str | None, node: cst.CSTNode) -> str:
        """The arguments the port gives an input_fn: none, `params=params`, or for a TPUEstimator's the params with
        the mode's batch size (its train_batch_size or eval_batch_size), as TPUEstimator gave them."""
        if not takes:
            return ""
        if not self.tpu:
            return "params=params"
        if batch_size is None:
            raise Refused(node, "a TPUEstimator without the batch size of this mode (it raised ValueError)")
        size = source_of(batch_size.value)
        return (
            f'params={{**params, "batch_size": {size}}}' if params is not None else f'params={{"batch_size": {size}}}'
        )

    def _off_tpu(
        self, est: dict[str, cst.Arg], line: cst.SimpleStatementLine, binding: cst.SimpleStatementLine | None
    ) -> tuple[str, dict[str, cst.Arg]]:
        """A TPUEstimator's use_tpu and batch sizes: (the port's guard where use_tpu is not False written out, the
        batch sizes by name). Sets self.off_tpu_key, the params key holding the same use_tpu (BERT's
        `params={"use_tpu": FLAGS.use_tpu}`), whose `if params[key]:` branches are dead where the port runs."""
        other = sorted(
            set(est) - {"model_fn", "model_dir", "config", "params", "use_tpu", "train_batch_size", "eval_batch_size"}
        )
        if other:
            raise Refused(line, f"TPUEstimator({other[0]}=...), which the port does not reproduce")
        if "use_tpu" not in est:
            raise Refused(line, "a TPUEstimator without use_tpu= (True by default: it runs on a TPU)")
        given = {k: est[k] for k in ("use_tpu", "train_batch_size", "eval_batch_size") if k in est}
        for name, arg in given.items():
            value = arg.value
            if not (
                isinstance(value, (cst.Integer, cst.Name, cst.Attribute)) and re.fullmatch(r"[\w.]+", source_of(value))
            ):
                raise Refused(line, f"TPUEstimator({name}={source_of(value)}), not a number or a name written out")
            self._unchanged(set(names_in(value).names), line, binding, name)
        use_tpu = source_of(est["use_tpu"].value)
        if use_tpu == "True":
            raise Refused(line, "a TPUEstimator(use_tpu=True): it runs on a TPU")
        params = est["params"].value if "params" in est else None
        if isinstance(params, cst.Dict):  # (the key holding use_tpu itself)
            for element in params.elements:
                if isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString):
                    if source_of(element.value) == use_tpu:
                        self.off_tpu_key = str(element.key.evaluated_value)
        guard = "" if use_tpu == "False" else tpu.use_tpu_guard(use_tpu)
        return guard, {k: v for k, v in given.items() if k != "use_tpu"}

    def _unchanged(
        self, read: set[str], line: cst.SimpleStatementLine, made: cst.SimpleStatementLine | None, what: str
    ) -> None:
        """The names an Estimator's argument reads are not bound again between its line (`made`, or the train
        line itself where None) and the train line, where the port evaluates it."""
        if not read or made is None:
            return
        blocks = [self.module.body, *(b.body for b in collect(self.module, cst.IndentedBlock))]
        block = next(list(b) for b in blocks if any(s is line for s in b))
        at = next((i for i, s in enumerate(block) if s is made), None)
        between = block[at + 1 : next(i for i, s in enumerate(block) if s is line)] if at is not None else None
        if between is None:  # (made in another block: each name it reads bound once in the module)
            lines = [*collect(self.module, cst.SimpleStatementLine), *collect(self.module, cst.For)]
            again = sorted(n for n in read if sum(n in bound_names(s) for s in lines) > 1)
        else:
            again = sorted(read & set().union(*map(bound_names, between)))
        if again:
            raise Refused(line, f"`{again[0]}`, which {what}= reads, is bound again before the train, or elsewhere")

    def _input(self, input_fn: cst.FunctionDef) -> bool:
        """An input_fn the port can call eagerly to the same batches: does it read the Estimator's params?"""
        if source_of(input_fn.params).strip() not in ("", "params"):
            raise Refused(input_fn, "an input_fn taking arguments other than params (a mode, a config)")
        reads = bool(input_fn.params.params) and reads_params(input_fn, "an input_fn")
        text = source_of(input_fn)
        for word, pattern, why in (
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
        return reads

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
        input_call: str,
        train: dict[str, cst.Arg],
        top: bool,
        towers: list[str] | None = None,
        params: str | None = None,
        evaluation: dict[str, tuple[str, list[str]]] | None = None,
        off_tpu: _Tpu | None = None,
        plain_variables: tuple[str, ...] = (),  # (a plain model_fn's tf.get_variable: tf.Variables made once)
    ) -> str:
        """The port's code. `towers`: the model is compat.eager_towers' (its layers made as it runs; it returns the
        loss and the averaged gradients), with the tags the summary hook wrote besides loss. `params`: the dict the
        port binds to `params` (read by model() and, where `input_params`, passed to input_fn). `evaluation`: the
        EVAL branch's metrics (Keras metric, inputs) by key, where the program evaluates: model() returns the loss and
        the metrics' inputs, and `evaluate(dataset, steps)` runs them. `input_call`: the code making the train's
        dataset. `off_tpu`: a TPUEstimator's port (its tf.Variables made once, its use_tpu guard): its batches are
        features alone, and it logs no loss line (TPUEstimator turned log_step_count_steps off)."""
        tf = self.tf
        gap = "\n\n" if top else "\n"  # (blank lines around a def: two at the top level, one in a block)
        loops = {found for line in made_lines for found in re.findall(r"^for (\w+) in range", line)}
        bound = {*PORT_NAMES, "features", "labels", *loops, *(n.lstrip("*") for n in names)}
        bound |= {"params"} if params is not None else set()
        bound |= {"eval_metrics", "eval_step", "evaluate"} if evaluation is not None else set()
        plain = off_tpu.variables if off_tpu is not None else list(plain_variables)
        bound |= set(plain)
        hooks = self.hooks.port
        bound |= hooks.bound
        clash = sorted(self.taken & bound)
        if clash:
            raise Refused(self.module, f"`{clash[0]}`, a name the port binds, is used in this module")
        steps = train.get("max_steps") or train["steps"]
        last = source_of(steps.value) if "max_steps" in train else f"int(global_step) + {source_of(steps.value)}"
        log = config.get("log_step_count_steps", _DEFAULTS["log_step_count_steps"])
        every = config.get("save_checkpoints_secs", _DEFAULTS["save_checkpoints_secs"])
        # (the CheckpointSaverHook: every save_checkpoints_secs, or every save_checkpoints_steps where given)
        due = f"time.time() >= saved[1] + {every}"
        if "save_checkpoints_steps" in config:
            due = f"int(global_step) >= saved[0] + {config['save_checkpoints_steps']}"
        # (a TPUEstimator's input_fn gives features alone, and it logged no loss line)
        inputs = "features, labels" if off_tpu is None else "features"
        logged = (
            f"        if iteration % {log} == 0:\n"
            f'            {tf}.get_logger().info("loss = %s, step = %s", loss.numpy(), step)\n'
            if off_tpu is None
            else ""
        )
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
            + "".join(f'                {tf}.summary.scalar("{tag}", loss, step=summarized)\n' for tag in towers or [])
            if summaries
            else ""
        )
        bind_params = f"params = {params}\n" if params is not None else ""
        seed = (
            seed_statement(cast(str, tf), config["tf_random_seed"], self.module) if "tf_random_seed" in config else ""
        )
        made = "".join(f"{line}\n" for line in made_lines)
        typed = "dtype = dataset.element_spec[0].dtype  # (TF1 layers took the dtype of their input)\n"
        typed = typed if "dtype=dtype" in made else ""
        objects = ", ".join(f"{name.lstrip('*')}={name.lstrip('*')}" for name in [*plain, *names])
        weights = " + ".join(f"{name}.trainable_variables" for name in names) or "[]"
        if plain:  # (tf.Variables made once, then the layers')
            weights = f"[{', '.join([*plain, *(f'*{name}.trainable_variables' for name in names)])}]"
        if any(name.startswith("*") for name in names):  # (a loop's layers in a list)
            listed = ", ".join(names) + ("," if len(names) == 1 else "")
            weights = f"[v for layer in ({listed}) for v in layer.trainable_variables]"
            variables = f"[global_step, *(w for layer in ({listed}) for w in layer.variables)]"
        else:
            variables = f"[global_step, {', '.join([*plain, *(f'*{name}.variables' for name in names)])}]"
        # (the ops TF1's device setter placed on its one device: the model's, the gradients', the update's)
        on = f"    with {tf}.device({device}):\n" if device is not None else ""
        inner = "    " if device is not None else ""
        returned = loss
        if evaluation is not None:  # (the metrics' inputs too, as TF1's EVAL branch read them)
            outputs = ", ".join(
                f"{json.dumps(key)}: ({', '.join(inputs)}{',' if len(inputs) == 1 else ''})"
                for key, (_, inputs) in evaluation.items()
            )
            returned = f"{loss}, {{{outputs}}}"
        model = on + "".join(f"    {inner}{line}\n" for line in body) + f"    return {returned}\n"
        step = (
            f"    with {tf}.GradientTape() as tape:\n"
            f"        loss{', _' if evaluation is not None else ''} = model({inputs}, True)\n"
            "    variables = tape.watched_variables()\n"
            f"{on}"
            f"    {inner}optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))\n"
        )
        build = f"model({'*first' if off_tpu is None else 'first'}, False)  # (the layers make their variables, which the checkpoint restores)\n"
        if towers is not None:
            objects, weights = f"layers={RUNTIME}.made()", f"{RUNTIME}.trainable_variables()"
            variables = f"[global_step, *(w for layer in {RUNTIME}.made() for w in layer.variables)]"
            model = "".join(f"    {line}\n" for line in body)  # (ending in `return loss, averaged`)
            # (the model_fn's update, on the device TF1 placed it)
            update = f"    with {tf}.device({device}):\n    " if device is not None else ""
            step = (
                f"    with {RUNTIME}.model_fn_call():  # (TF1 built the model_fn in a graph, each tower's gradients)\n"
                "        loss, gradients = model(features, labels, True)\n"
                f"{update}    optimizer.apply_gradients(gradients)\n"
            )
            build = f"with {RUNTIME}.model_fn_call():\n    {build}"
        return (
            # (an Estimator joins the cluster TF_CONFIG names: one process cannot)
            'if sum(len(tasks) for tasks in (json.loads(os.environ.get("TF_CONFIG") or "{}").get("cluster") or {}).values()) > 1:\n'
            '    sys.exit("TF_CONFIG names a cluster of more than one task; this program, ported from an '
            'Estimator program by uai-migrate --level native, trains in one process")\n'
            f"{off_tpu.guard if off_tpu is not None else ''}"
            f"{seed}"
            f"{bind_params}"
            f"dataset = {input_call}\n"
            f"{typed}"
            f"{made}{gap}"
            f"def model({inputs}, training):\n"
            f"{model}{gap}"
            f"optimizer = {optimizer}\n"
            f'global_step = {tf}.Variable(0, dtype={tf}.int64, trainable=False, name="global_step")\n{gap}'
            f"@{tf}.function\n"
            f"def train_step({inputs}):\n"
            f"{step}"
            "    global_step.assign_add(1)  # (after the update, as minimize(loss, global_step) did)\n"
            f"    return loss\n{gap}"
            "batches = iter(dataset)\n"
            "first = next(batches)\n"
            f"{build}"
            f"checkpoint = {tf}.train.Checkpoint({objects}, global_step=global_step, optimizer=optimizer)\n"
            f'manager = compat.tf1_saver.CheckpointManager(checkpoint, {model_dir}, max_to_keep={keep}, checkpoint_name="{monitored.PREFIX}")\n'
            "checkpoint.restore(manager.latest_checkpoint)\n"
            # (the Estimator's Saver restored every variable from a TF1 checkpoint, or stopped: a name-based restore
            # leaves the ones it does not find as they are)
            f"compat.tf1_slots.check_names({variables}, manager.latest_checkpoint)\n"
            f"compat.tf1_slots.restore_slots(optimizer, {weights}, manager.latest_checkpoint)\n"
            f"last_step = {last}\n"
            "if int(global_step) < last_step:  # (the Estimator trained nothing from a checkpoint at or past it)\n"
            f"{_lines(hooks.start, 4)}"
            "    manager.save_at_start(checkpoint_number=global_step)\n"
            "    saved = (int(global_step), time.time())\n"
            f"{textwrap.indent(writer, '    ')}"
            f"{_lines(hooks.loop_start, 4)}"
            f"    for iteration, {inputs if off_tpu is not None else '(features, labels)'} in enumerate(itertools.chain([first], batches)):\n"
            f"{'        step = int(global_step)' + chr(10) if off_tpu is None else ''}"
            f"{_lines(hooks.before_step, 8)}"
            f"        loss = train_step({inputs})\n"
            f"{_lines(hooks.after_step, 8)}"
            f"{logged}"
            f"{_lines(hooks.after_log, 8)}"
            f"{summary}"
            f"        if int(global_step) != saved[0] and {due}:\n"
            "            manager.save(checkpoint_number=global_step)\n"
            "            saved = (int(global_step), time.time())\n"
            "        if int(global_step) >= last_step:\n"
            "            break\n"
            "    if int(global_step) != saved[0]:\n"
            "        manager.save(checkpoint_number=global_step)\n"
            f"{'    writer.flush()' + chr(10) if summaries else ''}"
            f"{_lines(hooks.end, 4)}"
            f"{self._evaluate(evaluation, model_dir, gap, inputs) if evaluation is not None else ''}"
        )

    def _evaluate(self, evaluation: dict[str, tuple[str, list[str]]], model_dir: str, gap: str, inputs: str) -> str:
        """The Estimator's evaluate() as the port's `evaluate(dataset, steps)`: the dict it returned, the line it
        logged and the summaries it wrote to model_dir/eval."""
        tf = self.tf
        made = {key: keras for key, (keras, _) in evaluation.items()} | {"loss": "Mean"}
        metrics = ", ".join(f"{json.dumps(key)}: {tf}.keras.metrics.{made[key]}()" for key in sorted(made))
        return (
            f"eval_metrics = {{{metrics}}}\n{gap}"
            f"@{tf}.function\n"
            f"def eval_step({inputs}):\n"
            f"    loss, outputs = model({inputs}, False)\n"
            '    eval_metrics["loss"].update_state(loss)\n'
            "    for name, inputs in outputs.items():\n"
            f"        eval_metrics[name].update_state(*inputs)\n{gap}"
            "def evaluate(dataset, steps):\n"
            "    # (the Estimator's evaluate: the mean loss and the EVAL branch's metrics over `steps` batches, or until "
            "the input\n"
            "    # ends, of the checkpoint its train saved last, which the port holds)\n"
            "    if steps is not None and steps <= 0:\n"
            '        raise ValueError(f"Must specify steps > 0, given: {steps}")\n'
            "    for metric in eval_metrics.values():\n"
            "        metric.reset_state()\n"
            f"    for {inputs} in itertools.islice(dataset, steps):\n"
            f"        eval_step({inputs})\n"
            "    result = {name: metric.result().numpy() for name, metric in eval_metrics.items()}\n"
            '    result["global_step"] = global_step.numpy()\n'
            # (!s: a NumPy float32's own digits, as the Estimator's "%s" wrote them; format() gives the Python float's)
            f'    {tf}.get_logger().info("Saving dict for global step %s: %s", result["global_step"], ", ".join('
            'f"{key} = {value!s}" for key, value in sorted(result.items())))\n'
            f'    eval_writer = {tf}.summary.create_file_writer(os.path.join({model_dir}, "eval"))\n'
            "    with eval_writer.as_default():\n"
            "        for name, value in result.items():\n"
            '            if name != "global_step":\n'
            f'                {tf}.summary.scalar(name, value, step=result["global_step"])\n'
            f'        {tf}.summary.write("checkpoint_path", manager.latest_checkpoint, step=result["global_step"])\n'
            "    eval_writer.flush()\n"
            "    return result\n"
        )


def _lines(lines: list[str], indent: int) -> str:
    """`lines` as code at `indent`."""
    return "".join(f"{' ' * indent}{line}\n" for line in lines)


@dataclasses.dataclass
class _Tpu:
    """What a TPUEstimator's port adds: its tf.Variables made once, and the guard stopping it where use_tpu is true."""

    variables: list[str]
    guard: str


def _calls(call: cst.Call, estimator: cst.Name, method: str) -> bool:
    """`estimator.<method>(...)`."""
    func = call.func
    return (
        isinstance(func, cst.Attribute)
        and func.attr.value == method
        and isinstance(func.value, cst.Name)
        and func.value.value == estimator.value
    )


def _evaluates(call: cst.Call, estimator: cst.Name) -> bool:
    """`estimator.evaluate(...)`."""
    return _calls(call, estimator, "evaluate")


def _tf_alias(module: cst.Module) -> str | None:
    """The name the module's first `import tensorflow [as x]` binds (the port writes TensorFlow's names on it)."""
    bindings = tf_imports(module).bindings
    return next((b.name for b in bindings if b.imported[:2] == (TF, None)), None)
