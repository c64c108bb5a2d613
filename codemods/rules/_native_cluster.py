"""native-session's port of TF1's between-graph cluster training (the platform's uai_dist scripts) to
ParameterServerStrategy.

The shape: a function of the module, the builder, builds the graph once and returns
`tf.train.<Name>Optimizer(...).minimize(loss, global_step), t1, ...` (its statements tf.Variable,
get_or_create_global_step, tensor expressions, where the session saves none v1 summaries, and at most one
`a, b = load()` of an input function ending in `return D.make_one_shot_iterator().get_next()`, D an unshuffled
tf.data pipeline, which the port makes return D, the train step taking its elements); the trainer, the
function holding `with tf.train.MonitoredTrainingSession(master=..., is_chief=..., hooks=[StopAtStepHook(last_step=N)]
[, checkpoint_dir=D][, save_summaries_steps=None]) as sess:` as its last statement, calls the builder once
(`train_op, t1, ... = build()`, under `with tf.device(<setup name>):` or not) and runs `while not sess.should_stop():`
fetching `sess.run([train_op, t1, ...])` once, subscripted (`[k]`) or unpacked (`_, a = ...`), after plain
assignments. The cluster setup (the uai_dist parser, ClusterSpec, tf.train.Server, replica_device_setter; names read
only as the session's master and is_chief and the build's device) is either
A. the trainer's statements before the build (tests/corpus/uai_dist_local.py), or
B. the function calling the trainer, main (samples/tf1/train_slim_classifier.py): all of it setup, a ps task's
   `server.join()`, bare returns and calls of the trainer, once a run, with the master, is_chief and device; the
   trainer (in a `with tf.Graph().as_default():` or not) seeding the graph before the build.

The port (the roles change, as native-session's explain says): the setup is `compat.strategy()` (ps and worker tasks
serve there, the chief, the platform's master, gets ParameterServerStrategy, no cluster one device; B: main calls the
trainer with it); the builder makes the variables (TF1's names), the global step and the Keras optimizer, called under
`strategy.scope()`, and returns a tf.function train step (the tensors computed under a GradientTape, the update
applied, the global step incremented after it, the fetched tensors returned) with the global step (and, with a
checkpoint_dir, a tf.train.Checkpoint of the variables and the optimizer, which compat.tf1_saver's CheckpointManager
restores and writes there, as TF1's chief did); the loop is
`for values in compat.train_steps.steps(strategy, train_step, global_step, N[, manager]):` (compat/train_steps.py:
the chief schedules the steps on the workers, the fetched values in order), the body reading `values` where it read
sess.run.

A random op that is the graph's first op, drawn where a graph seed is set, gets its TF1 op seed written out (the
graph's op count then: 3, its shape, mean and stddev constants), so the port draws TF1's numbers; any other random op
is refused.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, cast

import libcst as cst
from libcst.codemod.visitors import AddImportsVisitor

from codemods.rules import _native_tables as tables
from codemods.rules import _tf
from codemods.rules._native_classifier_loss import one_hot, softmax_xent
from codemods.rules._native_monitored import (
    EVERY_SECS,
    GLOBAL_STEP,
    KEEP,
    PREFIX,
    TRAINING,
    manager,
    reason,
    stop_hook,
    stop_hook_updated,
)
from codemods.rules._native_names import GRAPH, OPTIMIZERS, SEED, SUMMARIES, VARIABLE, VARIABLE_LIBRARIES, tf1_names
from codemods.rules._native_slim_nets import read_net, zoo_with
from codemods.rules._native_syntax import (
    Refused,
    arguments,
    bound_names,
    collect,
    descendants,
    names_in,
    single,
    source_of,
)
from codemods.rules._shared import SWITCH_NAMES, graph_names

# the random ops whose TF1 op seed the port writes (TF 1.15 made 3 constants before reading the seed: shape, mean,
# stddev), and the names of every other random op (refused: their draws would differ)
FIRST_RANDOM = tf1_names("random_normal", "random.normal", "truncated_normal", "random.truncated_normal")
FIRST_OP_SEED = 3
# the names the port binds in the builder and in main
_BOUND = ("strategy", "train_step", "values", "tape", "variables", "checkpoint", "manager")


def is_cluster_session(rule: Any, call: cst.Call) -> bool:
    """Is `call` a MonitoredTrainingSession given a master or is_chief (a cluster's, possibly)?"""
    keywords = {a.keyword.value for a in call.args if a.keyword is not None}
    return rule.is_call(call, TRAINING) is not None and bool({"master", "is_chief"} & keywords)


def port(rule: Any, original: cst.Module, updated: cst.Module, call: cst.Call) -> cst.Module | None:
    """The converted module, its entry reported; None where `call` is no cluster's session of a trainer calling a
    builder (the caller reports the session's entry, which says what the port converts: _native_monitored.CLUSTER).
    Where it is and the port refuses the rest, the module unchanged, with that entry and the cause reported."""
    if not is_cluster_session(rule, call):
        return None
    ported = _Port(rule, original, updated, call)
    scratch = rule.state.context.scratch
    imports = list(scratch.get(AddImportsVisitor.CONTEXT_KEY, []))
    try:
        converted, said = ported.convert()
    except Refused as refused:
        scratch[AddImportsVisitor.CONTEXT_KEY] = imports  # (the imports the refused conversion asked for go)
        if not ported.recognized:
            return None
        why = reason(_tf.full_name(call.func), call)
        rule.report(
            call,
            f"Session script left at the safe level: {why}; the cluster port refuses {source_of(refused.node).strip().splitlines()[0][:80]!r}: {refused.why}",
            native=True,
            statement=_top(original, call),
        )
        return updated
    rule.report(call, said, native=True, statement=_top(original, call))
    return converted


def _top(module: cst.Module, node: cst.CSTNode) -> int:
    return next((i for i, stmt in enumerate(module.body) if any(n is node for n in descendants(stmt))), 0)


class _Port:
    def __init__(self, rule: Any, original: cst.Module, updated: cst.Module, call: cst.Call) -> None:
        self.rule, self.original, self.updated, self.call = rule, original, updated, call
        self.recognized = False
        self.functions = {
            s.name.value: s
            for s in original.body
            if isinstance(s, cst.FunctionDef) and isinstance(s.body, cst.IndentedBlock)
        }

    def up(self, node: cst.CSTNode) -> Any:
        """A statement as the safe pass left it."""
        return self.rule._updated.get(id(node), node)  # noqa: SLF001 - the rule's record, shared with its helpers

    # -- the trainer (the function holding the session) and the driver (its caller, shape B)
    def convert(self) -> tuple[cst.Module, str]:
        trainer = next((f for f in self.functions.values() if any(n is self.call for n in descendants(f))), None)
        if trainer is None:
            raise Refused(self.call, "a cluster's MonitoredTrainingSession outside a function of the module")
        self.recognized = True  # (a session of a function: a refusal from here on is said with its cause)
        body = self._trainer_body(trainer)
        session = next(i for i, s in enumerate(body) if any(n is self.call for n in descendants(s)))
        if session != len(body) - 1:
            raise Refused(body[session + 1], "statements after a cluster's training session")
        with_ = body[session]
        if not (isinstance(with_, cst.With) and len(with_.items) == 1 and with_.items[0].item is self.call):
            raise Refused(with_, "a cluster's MonitoredTrainingSession not used as `with ... as sess:`")
        build_at = next((i for i, s in enumerate(body[:session]) if self._build_call(s) is not None), None)
        if build_at is None:
            raise Refused(trainer, "no `train_op, ... = build()` of a function of the module before the session")
        params = [p.name.value for p in trainer.params.params]
        if source_of(trainer.params).strip() and (len(params) != len(trainer.params.params) or not params):
            raise Refused(trainer, "a trainer with *args, **kwargs or keyword-only parameters")
        if any(p.default is not None for p in trainer.params.params):
            raise Refused(trainer, "a trainer with parameter defaults")
        driver: cst.FunctionDef | None = None
        called = any(
            isinstance(c.func, cst.Name) and c.func.value == trainer.name.value
            for f in self.functions.values()
            for c in names_in(f).calls
        )
        if called:  # (B: a function of the module calls the trainer, giving it the master, is_chief and device)
            setup_names, setup, kept = set(params), [], body[:build_at]
            for stmt in kept:
                if set(names_in(stmt).names) & setup_names or not all(
                    self.rule.is_call(c, SEED) for c in names_in(stmt).calls
                ):
                    raise Refused(stmt, "a trainer statement before the build other than tf.set_random_seed")
            driver = self._driver(trainer)
        else:  # (A: the cluster setup is the trainer's)
            setup, kept = body[:build_at], []
            setup_names = set().union(set(), *(bound_names(s) for s in setup))
            self._check_setup(setup, setup_names, None)
        hooks = body[build_at + 1 : session]
        builder, targets, device = self._build_call(body[build_at])  # type: ignore[misc]
        if device is not None and not set(names_in(device).names) <= setup_names | {"None"}:
            raise Refused(body[build_at], "the graph built under a device that is not the cluster setup's")
        last_step, hook_names = self._hooks(hooks, with_)
        directory = self._session_keywords(setup_names)
        for name in _BOUND:
            if name in self.rule.module_names():
                raise Refused(trainer, f"`{name}`, a name the port binds, is used in this module")
        if self.rule.module_names().get(builder.name.value, 0) != 2:
            raise Refused(builder, f"`{builder.name.value}`, the graph's builder, is used besides its one call")
        built, returned, said = self._builder(builder, directory is not None)
        functions: dict[str, cst.BaseStatement] = {builder.name.value: built}
        data = ""
        if self.input is not None:
            functions[self.input[0].name.value] = self.input[1]
            data = f", dataset_fn={self.input[0].name.value}"
            said.append(
                f"{self.input[0].name.value}() returns its dataset, whose elements the train step takes (each worker's "
                "own copy under ParameterServerStrategy: create_per_worker_dataset, as each TF1 task read its own)"
            )
        if len(returned) != len(targets) - 1:
            raise Refused(body[build_at], "the builder's results unpacked into other names than it returns")
        before, loop = self._loop(with_, targets)
        built_at = body[build_at]
        if isinstance(built_at, cst.With):
            built_at = cast(cst.IndentedBlock, built_at.body).body[0]
        statements = list(cast(cst.IndentedBlock, loop.body).body)
        later = [built_at, *hooks, *before, *statements]
        read = set().union(set(), *(names_in(s).names for s in later)) & setup_names
        if read:
            raise Refused(with_, f"`{min(read)}`, of the cluster setup, read besides as master, is_chief and device")
        step, head = self.step, ["    strategy = compat.strategy()"] if driver is None else []
        if step in names_in(trainer).names:  # (the trainer binds the builder's global step under its name)
            raise Refused(trainer, f"`{step}`, the builder's global step, is a name of the trainer too")
        lines = [
            f"def {trainer.name.value}({'strategy' if driver is not None else source_of(trainer.params)}):",
            *(f"    {source_of(self.up(s)).strip()}" for s in kept),
            *head,
            "    with strategy.scope():",
            f"        train_step, {step}{', checkpoint' if directory else ''} = {builder.name.value}()",
        ]
        saving = ""
        if directory is not None:
            lines += [
                "    manager = " + manager(directory).replace("(", "(\n        ", 1)[:-1] + "\n    )",
                "    checkpoint.restore(manager.latest_checkpoint)",
                f"    compat.tf1_slots.restore_slots(checkpoint.optimizer, [{', '.join([*(f'checkpoint.{v}' for v in self.trained), *(f'*checkpoint.{n}.trainable_variables' for n, _ in self.nets)])}], manager.latest_checkpoint)",
            ]
            saving = ", manager"
            for needed in ("compat.tf1_saver", "compat.tf1_slots"):
                self.rule.add_needed_import(needed)
        lines += [*(f"    {source_of(s).strip()}" for s in before)]
        lines += [
            _wrapped(
                f"    for values in compat.train_steps.steps(strategy, train_step, {step}, {last_step}{saving}{data}):"
            ),
            "        pass",
        ]
        new_trainer = _with_loop_body(cast(cst.FunctionDef, cst.parse_statement("\n".join(lines) + "\n")), statements)
        new_trainer = new_trainer.with_changes(leading_lines=self.up(trainer).leading_lines)
        functions[trainer.name.value] = new_trainer
        if driver is not None:
            new_driver = cst.parse_statement(
                f"def {driver.name.value}({source_of(driver.params)}):\n    {trainer.name.value}(compat.strategy())\n"
            )
            functions[driver.name.value] = new_driver.with_changes(leading_lines=self.up(driver).leading_lines)
        self.rule.add_needed_import("compat.train_steps")
        _tf.ensure_compat(self.rule)
        removed = [*setup, *hooks, *([driver] if driver is not None else [])]
        module = self._module(functions, removed)
        self._drop_reports(trainer, builder, removed)
        if driver is not None:
            said.insert(
                1,
                f"{driver.name.value}()'s cluster setup (its ps task's join, its local call) -> {trainer.name.value}(compat.strategy())",
            )
        if directory is not None:
            said.append(
                f"checkpoint_dir -> compat.tf1_saver.CheckpointManager there, written by the chief as TF1's chief wrote "
                f"({PREFIX}-<global step> at the start, every {EVERY_SECS} seconds between steps and at the end, "
                f"{KEEP} kept; its latest checkpoint restored, a TF1 one by its names, its slots by compat.tf1_slots)"
            )
        return module, "; ".join(said)

    def _trainer_body(self, trainer: cst.FunctionDef) -> list[cst.BaseStatement]:
        """The trainer's statements; those of its body's one `with tf.Graph().as_default():` (eager TF 2 has no
        graph to enter)."""
        body = list(cast(cst.IndentedBlock, trainer.body).body)
        if len(body) == 1 and isinstance(body[0], cst.With) and len(body[0].items) == 1 and not body[0].items[0].asname:
            call = body[0].items[0].item
            func = call.func if isinstance(call, cst.Call) and not call.args else None
            if (
                isinstance(func, cst.Attribute)
                and func.attr.value == "as_default"
                and self.rule.is_call(func.value, GRAPH) is not None
            ):
                return list(cast(cst.IndentedBlock, body[0].body).body)
        return body

    def _driver(self, trainer: cst.FunctionDef) -> cst.FunctionDef:
        """The one function calling the trainer, all of it the cluster setup and the trainer's calls (B)."""
        name = trainer.name.value
        callers = [
            f
            for f in self.functions.values()
            if any(isinstance(c.func, cst.Name) and c.func.value == name for c in names_in(f).calls)
        ]
        calls = sum(
            1
            for s in self.original.body
            for c in names_in(s).calls
            if isinstance(c.func, cst.Name) and c.func.value == name
        )
        if len(callers) != 1 or callers[0] is trainer or self.rule.module_names().get(name, 0) != calls + 1:
            raise Refused(trainer, f"`{name}`, the trainer, is not called by one other function alone")
        driver = callers[0]
        statements = list(cast(cst.IndentedBlock, driver.body).body)
        blocks = [statements] + [
            list(cast(cst.IndentedBlock, n.body).body) for n in descendants(driver) if isinstance(n, (cst.If, cst.Else))
        ]
        for block in blocks:  # (one call a run: the driver's last statement, or one a return follows)
            for index, stmt in enumerate(block):
                if not isinstance(stmt, cst.SimpleStatementLine):
                    continue  # (an if's blocks are checked as blocks; the setup refuses other compound statements)
                called = any(isinstance(c.func, cst.Name) and c.func.value == name for c in names_in(stmt).calls)
                returns = index + 1 < len(block) and source_of(block[index + 1]).strip() == "return"
                if called and not returns and not (block is statements and index == len(block) - 1):
                    raise Refused(stmt, f"`{name}`, the trainer, called otherwise than once a run")
        self._check_setup(statements, set().union(set(), *(bound_names(s) for s in statements)), name)
        return driver

    def _build_call(
        self, stmt: cst.BaseStatement
    ) -> tuple[cst.FunctionDef, list[str], cst.BaseExpression | None] | None:
        """`a, b = build()` (or under `with tf.device(d):`) -> (the builder, the names, d)."""
        device = None
        if isinstance(stmt, cst.With) and len(stmt.items) == 1 and isinstance(stmt.body, cst.IndentedBlock):
            item = stmt.items[0].item
            if not (
                isinstance(item, cst.Call) and self.rule.is_call(item, tf1_names("device")) and len(stmt.body.body) == 1
            ):
                return None
            device, stmt = item.args[0].value if item.args else None, stmt.body.body[0]
        if (
            not isinstance(stmt, cst.SimpleStatementLine)
            or len(stmt.body) != 1
            or not isinstance(stmt.body[0], cst.Assign)
        ):
            return None
        assign = stmt.body[0]
        value, target = assign.value, assign.targets[0].target if len(assign.targets) == 1 else None
        if not (isinstance(value, cst.Call) and not value.args and isinstance(value.func, cst.Name)):
            return None
        builder = self.functions.get(value.func.value)
        if builder is None or not isinstance(target, cst.Tuple):
            return None
        names = [e.value.value for e in target.elements if isinstance(e.value, cst.Name)]
        return (builder, names, device) if len(names) == len(target.elements) >= 2 else None

    def _check_setup(self, setup: Sequence[cst.BaseStatement], names: set[str], trainer: str | None) -> None:
        """The cluster setup binds only its names and runs only calls on them, uai_dist's, TF's cluster calls
        (ClusterSpec, Server, replica_device_setter) and, in a driver, the trainer's and bare returns."""
        platform = self._platform_names()
        for stmt in setup:
            for node in descendants(stmt):
                if isinstance(node, cst.Return) and trainer is not None and node.value is None:
                    continue
                if isinstance(node, (cst.Return, cst.Raise, cst.For, cst.While, cst.Try, cst.FunctionDef, cst.Global)):
                    raise Refused(node, "cluster setup code that is not assignments and calls (a return, loop, def)")
            for call in names_in(stmt).calls:
                head = _head(call.func)
                if self.rule.tf_names(call):
                    if self.rule.tf_names(call) - _SETUP_CALLS:
                        raise Refused(call, f"{source_of(call.func)} in the cluster setup, which the port does not run")
                elif not (head in names | platform or (trainer is not None and source_of(call.func) == trainer)):
                    raise Refused(call, f"{source_of(call.func)}() in the cluster setup, which the port does not run")

    def _platform_names(self) -> set[str]:
        """The names the module binds to the platform's uai_dist module (its setup's parser)."""
        found: set[str] = set()
        for stmt in self.original.body:
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            if isinstance(small, (cst.Import, cst.ImportFrom)) and "uai_dist" in source_of(small):
                if not isinstance(small.names, cst.ImportStar):
                    found |= {
                        cast(cst.Name, a.asname.name).value if a.asname else source_of(a.name).partition(".")[0]
                        for a in small.names
                        if "uai_dist" in source_of(a)
                    }
        return found

    def _session_keywords(self, setup: set[str]) -> str | None:
        """The session's checkpoint_dir, as code (None: none); Refused for keywords the port does not convert."""
        keywords = {a.keyword.value: a.value for a in self.call.args if a.keyword is not None}
        allowed = {"master", "is_chief", "hooks", "checkpoint_dir", "save_summaries_steps"}
        if len(keywords) != len(self.call.args) or set(keywords) - allowed:
            others = sorted(set(keywords) - allowed) or ["positional arguments"]
            raise Refused(self.call, f"a cluster's MonitoredTrainingSession with {', '.join(others)}")
        summaries = keywords.get("save_summaries_steps")
        if summaries is not None and not (isinstance(summaries, cst.Name) and summaries.value == "None"):
            raise Refused(self.call, "save_summaries_steps other than None (the port writes no summaries)")
        self.summaries_off = summaries is not None
        for key in ("master", "is_chief"):
            if key in keywords and not set(names_in(keywords[key]).names) <= setup:
                raise Refused(self.call, f"{key}= of a value that is not the cluster setup's")
        if "checkpoint_dir" not in keywords:
            return None
        updated = cast(cst.Call, cast(cst.With, self.up(self._session_with())).items[0].item)
        value = next(a.value for a in updated.args if a.keyword and a.keyword.value == "checkpoint_dir")
        if set(names_in(keywords["checkpoint_dir"]).names) & setup:
            raise Refused(self.call, "checkpoint_dir of the cluster setup's values")
        return source_of(value)

    def _session_with(self) -> cst.With:
        return next(
            n
            for n in descendants(self.original)
            if isinstance(n, cst.With) and any(i.item is self.call for i in n.items)
        )

    def _hooks(self, statements: Sequence[cst.BaseStatement], with_: cst.With) -> tuple[str, list[str]]:
        """The StopAtStepHook's last step, as code (num_steps refused: the port counts from the global step)."""
        keywords = {a.keyword.value: a.value for a in self.call.args if a.keyword is not None}
        hooks = keywords.get("hooks")
        if hooks is None:
            raise Refused(self.call, "a cluster's MonitoredTrainingSession without hooks (no last step)")
        names: list[str] = []
        updated_call = cast(cst.Call, cast(cst.With, self.up(with_)).items[0].item)
        value, updated = hooks, next(a.value for a in updated_call.args if a.keyword and a.keyword.value == "hooks")
        for stmt in statements:
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            if not (
                isinstance(hooks, cst.Name) and isinstance(small, cst.Assign) and bound_names(stmt) == {hooks.value}
            ):
                raise Refused(stmt, "a statement between the build and the session other than the hooks")
            names.append(hooks.value)
            value = small.value
            updated = cast(cst.Assign, cast(cst.SimpleStatementLine, self.up(stmt)).body[0]).value
        if isinstance(hooks, cst.Name) and (not names or self.rule.module_names().get(hooks.value) != 2):
            raise Refused(with_, f"`{hooks.value}`, the hooks, bound or read elsewhere")
        found = stop_hook(self.rule, value)
        step = stop_hook_updated(updated)
        if found is None or found[0] != "last_step" or step is None:
            raise Refused(with_, "hooks other than one tf.train.StopAtStepHook(last_step=N)")
        return source_of(step), names

    def _loop(self, with_: cst.With, targets: list[str]) -> tuple[list[cst.BaseStatement], cst.While]:
        """(the session block's statements before its loop, as the safe pass left them; the loop, its sess.run read
        as the step's values)."""
        sess = with_.items[0].asname
        if sess is None or not isinstance(sess.name, cst.Name) or not isinstance(with_.body, cst.IndentedBlock):
            raise Refused(with_, "a cluster's MonitoredTrainingSession not used as `with ... as sess:`")
        name = sess.name.value
        body = list(with_.body.body)
        loop = body[-1]
        before = body[:-1]
        for stmt in before:
            if name in names_in(stmt).names or not isinstance(stmt, cst.SimpleStatementLine) or names_in(stmt).calls:
                raise Refused(stmt, "a statement of the session block before its loop other than a plain assignment")
        if not (
            isinstance(loop, cst.While) and loop.orelse is None and source_of(loop.test) == f"not {name}.should_stop()"
        ):
            raise Refused(with_, "a session block other than one `while not sess.should_stop():` loop")
        loop = cast(cst.While, self.up(loop))
        runs = [c for c in names_in(loop).calls if source_of(c.func) == f"{name}.run"]
        fetches = f"[{', '.join(targets)}]"
        if (
            len(runs) != 1
            or len(runs[0].args) != 1
            or source_of(runs[0].args[0].value).replace(" ", "") != fetches.replace(" ", "")
        ):
            raise Refused(
                loop, f"a loop body without exactly one {name}.run({fetches}) of the built train op and tensors"
            )
        if any(isinstance(n, (cst.Break, cst.Continue, cst.Return, cst.Yield)) for n in descendants(loop)):
            raise Refused(
                loop, "a break, continue, return or yield in the loop (TF1's loop ended at should_stop alone)"
            )
        run = runs[0]

        class Fetched(cst.CSTTransformer):
            done = 0

            def leave_Subscript(self, original_node: cst.Subscript, updated_node: cst.Subscript) -> cst.BaseExpression:
                index = original_node.slice[0].slice if len(original_node.slice) == 1 else None
                if original_node.value is run and isinstance(index, cst.Index) and isinstance(index.value, cst.Integer):
                    k = int(index.value.value)
                    if 1 <= k < len(targets):
                        Fetched.done += 1
                        return cst.parse_expression(f"values[{k - 1}]")
                return updated_node

            def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
                target = original_node.targets[0].target
                if (
                    original_node.value is run
                    and isinstance(target, cst.Tuple)
                    and len(target.elements) == len(targets)
                ):
                    first = target.elements[0].value
                    if isinstance(first, cst.Name) and first.value == "_":
                        Fetched.done += 1
                        rest = cst.Tuple([e.with_changes(comma=cst.MaybeSentinel.DEFAULT) for e in target.elements[1:]])
                        return updated_node.with_changes(targets=[cst.AssignTarget(rest)], value=cst.Name("values"))
                return updated_node

        converted = cast(cst.While, loop.visit(Fetched()))
        if Fetched.done != 1 or "values" in self.rule.module_names():
            raise Refused(loop, f"{name}.run's values read otherwise than `run(...)[k]` or `_, a = run(...)`")
        return [self.up(stmt) for stmt in before], converted

    # -- the builder
    def _builder(self, fn: cst.FunctionDef, saving: bool) -> tuple[cst.FunctionDef, list[str], list[str]]:
        if source_of(fn.params).strip() or fn.decorators:
            raise Refused(fn, f"`{fn.name.value}`, the graph's builder, with parameters or decorators")
        statements = list(cast(cst.IndentedBlock, fn.body).body)
        seeded = any(self.rule.is_call(c, SEED) for s in self.original.body for c in names_in(s).calls)
        made: list[str] = []  # the variables' code
        computed: list[str] = []  # the tensors' code
        graph: set[str] = set()
        self.step = ""
        numbered = 0
        self.trained: list[str] = []
        self.nets: list[tuple[str, bool]] = []  # the zoo nets' layers: (name, in training mode)
        self.losses: list[str] = []  # the tf-slim losses' names, in the order TF1 added them to its collection
        self.optimizers: dict[
            str, tuple[cst.Call, cst.Call]
        ] = {}  # a named optimizer: (as written, as the pass left it)
        self.input: tuple[cst.FunctionDef, cst.FunctionDef] | None = None  # (the input function, as ported)
        inputs: list[str] = []  # the names the input's element is unpacked into: the step's parameters
        dropped = 0
        for index, stmt in enumerate(statements[:-1]):
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            element = self._input(stmt) if self.input is None else None
            if element is not None:
                inputs = element
                graph |= set(element)
                continue
            if self._slim_statement(stmt, small, graph, inputs, made, computed, fn):
                continue
            if isinstance(small, cst.Expr) and self.rule.is_call(small.value, SUMMARIES) and self.summaries_off:
                if set(names_in(small.value).names) - graph - {self.alias}:
                    raise Refused(stmt, "a summary of values the builder does not compute")
                dropped += 1  # (TF1's session wrote no summary: save_summaries_steps=None)
                continue
            if not (
                isinstance(small, cst.Assign)
                and len(small.targets) == 1
                and isinstance(small.targets[0].target, cst.Name)
            ):
                raise Refused(stmt, "a builder statement other than `name = <a variable, the global step or a tensor>`")
            name, value = small.targets[0].target.value, small.value
            new = cast(cst.Assign, cast(cst.SimpleStatementLine, self.up(stmt)).body[0]).value
            calls = names_in(value).calls
            if any(self.rule.library_names(c) for c in calls) or any(
                n.startswith(VARIABLE_LIBRARIES) for c in calls for n in self.rule.tf_names(c)
            ):
                raise Refused(stmt, "a library call in the builder, which may make variables at each step")
            other = [c for c in calls if not self.rule.tf_names(c) and _head(c.func) not in graph]
            if other:  # (a function of the module or a library's may make variables or state at each step)
                raise Refused(
                    stmt, f"{source_of(other[0].func)}() in the builder, which the port would call at each step"
                )
            random = [c for c in calls if any("random" in n for n in self.rule.tf_names(c))]
            if random:
                first = (
                    index == 0 and value is random[0] and len(random) == 1 and self.rule.is_call(value, FIRST_RANDOM)
                )
                given = cast(cst.Call, value).args if first else ()
                if not first or len(given) != 1 or given[0].keyword is not None:
                    raise Refused(
                        stmt, "a random op that is not the graph's first op of a shape alone (its TF1 op seed unproven)"
                    )
                if seeded and self._ops_before():
                    raise Refused(
                        stmt, "a random op after ops of the module's own statements (its TF1 op seed unproven)"
                    )
                if seeded:  # (TF1's op seed: the ops the graph held when it drew)
                    new = cst.parse_expression(source_of(new)[:-1] + f", seed={FIRST_OP_SEED})")
            if self.rule.is_call(value, VARIABLE):
                arguments(cast(cst.Call, value), ("initial_value",), stmt, "tf.Variable")  # (it refuses the others)
                if set(names_in(value).names) & graph:
                    raise Refused(stmt, "a variable initialised from the graph's tensors")
                initial = source_of(cast(cst.Call, new).args[0].value)
                label = "Variable" if numbered == 0 else f"Variable_{numbered}"
                numbered += 1
                made.append(f'{name} = {self.alias}.Variable({initial}, name="{label}")')
                self.trained.append(name)
            elif self.rule.is_call(value, GLOBAL_STEP) and not cast(cst.Call, value).args:
                self.step = name
                made.append(
                    f'{name} = {self.alias}.Variable(0, dtype={self.alias}.int64, trainable=False, name="global_step")'
                )
            elif any(self.rule.tf_names(c) & graph_names() or _stateful(self.rule.tf_names(c)) for c in calls):
                raise Refused(stmt, f"{source_of(value)}: graph state the port does not make")
            else:
                why = (
                    f"  # (TF1's op seed: the graph held {FIRST_OP_SEED} ops when it drew)" if random and seeded else ""
                )
                computed.append(f"{name} = {source_of(new)}{why}")
            graph.add(name)
        returned = statements[-1]
        loss_name, kind, values, created = self._train_op(returned, graph)
        fetched = self.fetched
        code, changed = tables.keras_optimizer(self.alias, kind, values)
        indent = "            "
        lines = [
            f"def {fn.name.value}():",
            *(f"    {line}" for line in made),
            f"    optimizer = {code}",
            "",
            f"    @{self.alias}.function",
            f"    def train_step({', '.join(inputs)}):",
            f"        with {self.alias}.GradientTape() as tape:",
            *(f"{indent[:8]}    {line}" for line in computed),
            "        variables = tape.watched_variables()",
            *(
                [f'        {self.alias}.debugging.check_numerics({loss_name}, "LossTensor is inf or nan")']
                if created
                else []
            ),
            f"        optimizer.apply_gradients(zip(tape.gradient({loss_name}, variables), variables))",
            f"        {self.step}.assign_add(1)",
            f"        return ({', '.join(fetched)},)",
            "",
            f"    return train_step, {self.step}",
        ]
        if saving:  # (the objects TF1's Saver wrote, under the builder's names, and the optimizer)
            objects = ", ".join(f"{v}={v}" for v in sorted([*self.trained, *(n for n, _ in self.nets), self.step]))
            lines[-1] += f", {self.alias}.train.Checkpoint({objects}, optimizer=optimizer)"
        built = cast(cst.FunctionDef, cst.parse_statement("\n".join(lines) + "\n"))
        built = built.with_changes(leading_lines=self.up(fn).leading_lines)
        said = [
            "a cluster's MonitoredTrainingSession(master=..., is_chief=...) -> ParameterServerStrategy training: "
            "compat.strategy() for the cluster setup (ps and worker tasks serve, the chief coordinates; no cluster: "
            "one device), the variables, global step and optimizer made under strategy.scope(), "
            "compat.train_steps.steps scheduling the tf.function train step on the workers until the global step "
            "reaches StopAtStepHook's last_step, the fetched values read where sess.run's were",
            changed,
        ]
        for net, training in self.nets:
            said.append(
                f"the zoo net -> {net} = compat.slim_nets.SlimNet(...), its variables (TF1's names) made under the "
                "strategy's scope by create_variables of the input's element spec"
                + (
                    ", its batch normalizations updating their moving statistics in its call, as create_train_op ran "
                    "UPDATE_OPS"
                    if training
                    else ""
                )
            )
        if self.losses:
            said.append(
                "slim.one_hot_encoding -> tf.one_hot; slim.losses.softmax_cross_entropy(logits, labels) -> the mean of "
                "tf.nn.softmax_cross_entropy_with_logits; slim.losses.get_total_loss() -> tf.add_n of those losses and "
                "the nets' regularization losses (.losses), where TF1 summed its LOSSES and REGULARIZATION_LOSSES"
            )
        if created:
            said.append(
                "slim.learning.create_train_op -> the train step: the loss check_numerics'd, the update, the global "
                "step incremented after it"
            )
        if dropped:
            said.append(
                f"{dropped} v1 summary op(s) of the builder deleted: the session wrote none (save_summaries_steps=None)"
            )
        if seeded and any("random" in n for c in names_in(fn).calls for n in self.rule.tf_names(c)):
            said.append(f"the graph's first op, a random op, given TF1's op seed {FIRST_OP_SEED} (TF1's numbers)")
        return built, fetched, said

    def _slim_statement(
        self,
        stmt: cst.BaseStatement,
        small: cst.BaseSmallStatement | None,
        graph: set[str],
        inputs: list[str],
        made: list[str],
        computed: list[str],
        fn: cst.FunctionDef,
    ) -> bool:
        """A statement of tf-slim's (a zoo net under its arg_scope, one_hot_encoding, slim.losses'
        softmax_cross_entropy and get_total_loss) or a named tf.train optimizer, written into `made` / `computed`
        (True); False for another statement."""
        tf = self.alias
        scope = zoo_with(self.rule, stmt)
        if scope is not None:
            code = read_net(self.rule, cast(cst.With, stmt), scope, graph)
            var = code.name
            if not var.isidentifier() or var in self.rule.module_names() or var in _BOUND:
                raise Refused(stmt, f"`{var}`, the zoo net's layer, is a name of the module")
            held = code.inputs.value if isinstance(code.inputs, cst.Name) else None
            if self.input is None or held not in inputs:
                raise Refused(
                    stmt, "a zoo net whose inputs are not the input function's element (its variables' shape)"
                )
            spec = f"{self.input[0].name.value}().element_spec" + (f"[{inputs.index(held)}]" if len(inputs) > 1 else "")
            made += [code.made(var), f"{var}.create_variables({spec})"]
            computed.append(source_of(code.called(var, cast(cst.SimpleStatementLine, self.up(code.inner)))).strip())
            graph |= bound_names(code.inner)
            self.nets.append((var, code.training))
            self.rule.add_needed_import("compat.slim_nets")
            return True
        call = small.value if isinstance(small, (cst.Assign, cst.Expr)) else None
        named = _slim_name(self.rule, call) if isinstance(call, cst.Call) else None
        target = small.targets[0].target if isinstance(small, cst.Assign) and len(small.targets) == 1 else None
        name = target.value if isinstance(target, cst.Name) else None
        if isinstance(call, cst.Call) and name is not None and self.rule.is_call(call, OPTIMIZERS):
            self.optimizers[name] = (call, cast(cst.Call, cast(cst.Assign, single(self.up(stmt))).value))
            return True
        if named is None:
            return False
        call = cast(cst.Call, call)
        args = cast(cst.Call, cast(cst.Assign | cst.Expr, single(self.up(stmt))).value).args
        if any(a.keyword is not None or a.star for a in call.args):
            raise Refused(stmt, f"tf-slim's {named} with keyword arguments, which the port does not read")
        values = [source_of(a.value) for a in args]
        if named == "one_hot_encoding" and name is not None and len(values) == 2:
            computed.append(f"{name} = {one_hot(tf, values[0], values[1])}")
        elif named == "softmax_cross_entropy" and isinstance(small, cst.Expr) and len(values) == 2:
            taken = set(names_in(fn).names) | set(self.losses)
            loss = next(n for n in (f"loss_{i}" if i else "loss" for i in range(len(taken) + 1)) if n not in taken)
            logits, labels = values  # (contrib's order; weights 1, no label smoothing: a mean over the batch)
            computed.append(f"{loss} = {softmax_xent(tf, labels, logits)}")
            self.losses.append(loss)
        elif named == "get_total_loss" and name is not None and not values and self.losses:
            regularization = [f"*{net}.losses" for net, _ in self.nets]
            computed.append(f"{name} = {tf}.add_n([{', '.join([*self.losses, *regularization])}])")
        else:
            raise Refused(stmt, f"tf-slim's {named} as the port does not read it")
        graph |= {name} if name is not None else set()
        return True

    def _train_op(self, returned: cst.BaseStatement, graph: set[str]) -> tuple[str, str, dict[str, str], bool]:
        """The builder's `return <train op>, tensors`: `tf.train.<Name>Optimizer(...).minimize(loss, global_step)`
        or tf-slim's `create_train_op(total_loss, optimizer, global_step=global_step)`, its optimizer a call or a
        name bound to one: (the loss's name, the optimizer's kind, its arguments as code, create_train_op?)."""
        ret = returned.body[0] if isinstance(returned, cst.SimpleStatementLine) and len(returned.body) == 1 else None
        if not (isinstance(ret, cst.Return) and isinstance(ret.value, cst.Tuple)):
            raise Refused(returned, "a builder not ending in `return <optimizer>.minimize(loss, global_step), tensors`")
        train_op, *tensors = [e.value for e in ret.value.elements]
        self.fetched = [t.value for t in tensors if isinstance(t, cst.Name) and t.value in graph]
        if len(self.fetched) != len(tensors) or not tensors:
            raise Refused(returned, "the builder returns values that are not its tensors")
        new_op = cast(cst.Tuple, cast(cst.Return, single(self.up(returned))).value).elements[0].value
        func = train_op.func if isinstance(train_op, cst.Call) else None
        created = isinstance(train_op, cst.Call) and _slim_name(self.rule, train_op) == "create_train_op"
        if created:
            args = arguments(
                cast(cst.Call, train_op), ("total_loss", "optimizer", "global_step"), returned, "create_train_op"
            )
            given = args.get("optimizer")
            optimizer = given.value if given is not None else None
            new_optimizer = arguments(
                cast(cst.Call, new_op), ("total_loss", "optimizer", "global_step"), returned, "create_train_op"
            )
        elif isinstance(func, cst.Attribute) and func.attr.value == "minimize":
            args = arguments(cast(cst.Call, train_op), ("loss", "global_step"), returned, "minimize()")
            args = {"total_loss": args["loss"], **args} if "loss" in args else args
            optimizer = func.value
            new_optimizer = {"optimizer": cst.Arg(cast(cst.Attribute, cast(cst.Call, new_op).func).value)}
        else:
            raise Refused(returned, "the builder's train op is not a tf.train optimizer's minimize or create_train_op")
        loss, step = args.get("total_loss"), args.get("global_step")
        if not (loss and step and isinstance(loss.value, cst.Name) and isinstance(step.value, cst.Name)):
            raise Refused(returned, "a train op without (the loss, the global step of get_or_create_global_step())")
        if step.value.value != self.step or loss.value.value not in graph:
            raise Refused(returned, "a train op of another global step or loss than the builder's")
        if isinstance(optimizer, cst.Name) and optimizer.value in self.optimizers:
            original, updated = self.optimizers.pop(optimizer.value)
            if self.rule.module_names().get(optimizer.value) != 2:
                raise Refused(returned, f"`{optimizer.value}`, the optimizer, is used besides its train op")
        elif isinstance(optimizer, cst.Call) and self.rule.is_call(optimizer, OPTIMIZERS):
            original, updated = optimizer, cast(cst.Call, new_optimizer["optimizer"].value)
        else:
            raise Refused(returned, "a train op whose optimizer is not a tf.train optimizer the port reads")
        if self.optimizers or "optimizer" in self.rule.module_names() and not isinstance(optimizer, cst.Name):
            raise Refused(returned, "`optimizer`, the name the port binds, or another optimizer, in the module")
        if any(training for _, training in self.nets) and not created:
            raise Refused(returned, "a zoo net in training mode under a bare minimize (TF1 ran no UPDATE_OPS)")
        kind = OPTIMIZERS[cast(str, self.rule.is_call(original, OPTIMIZERS))]
        row = tables.OPTIMIZERS[kind]
        values = {p: source_of(a.value) for p, a in arguments(updated, row.params, returned, kind).items()}
        if "use_locking" in values or tables.renamed_slots(kind, values):
            raise Refused(returned, f"tf.train.{kind}(use_locking= or name=)")
        for given_value in values.values():
            if set(names_in(cst.parse_expression(given_value)).names) & graph:
                raise Refused(returned, f"tf.train.{kind} of the graph's values (the Keras optimizer is made once)")
        return loss.value.value, kind, values, created

    def _input(self, stmt: cst.BaseStatement) -> list[str] | None:
        """`a, b = load()` of a function of the module called there alone, whose one return, its last statement,
        returns its pipeline's one-shot element (`return D.make_one_shot_iterator().get_next()`): the names (the
        function recorded, with its port returning D). None for another statement."""
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
        if not (isinstance(small, cst.Assign) and len(small.targets) == 1 and isinstance(small.value, cst.Call)):
            return None
        call, target = small.value, small.targets[0].target
        fn = self.functions.get(call.func.value) if isinstance(call.func, cst.Name) and not call.args else None
        elements = target.elements if isinstance(target, cst.Tuple) else [cst.Element(target)]
        names = [e.value.value for e in elements if isinstance(e.value, cst.Name)]
        if fn is None or len(names) != len(elements):
            return None
        body = list(cast(cst.IndentedBlock, fn.body).body)
        last = body[-1].body[0] if isinstance(body[-1], cst.SimpleStatementLine) and len(body[-1].body) == 1 else None
        dataset = _one_shot_element(self.rule, last.value) if isinstance(last, cst.Return) and last.value else None
        if dataset is None:
            return None
        where = f"`{fn.name.value}`, the input"
        if source_of(fn.params).strip() or fn.decorators or self.rule.module_names().get(fn.name.value) != 2:
            raise Refused(stmt, f"{where}, with parameters or decorators, or read besides its one call")
        own = [
            n for n in descendants(fn.body) if not any(n in descendants(d) for d in collect(fn.body, cst.FunctionDef))
        ]
        returns = [n for n in own if isinstance(n, cst.Return)]
        if len(returns) != 1 or any(isinstance(n, cst.Yield) for n in own) or dataset not in bound_names(fn.body):
            raise Refused(stmt, f"{where}, returning otherwise than its pipeline's element at its end")
        calls = names_in(fn).calls
        if not any(isinstance(c.func, cst.Attribute) and c.func.attr.value == "repeat" and not c.args for c in calls):
            # (TF's advice for ParameterServerStrategy: a worker's input ending has no ordered end of the steps)
            raise Refused(stmt, f"{where}, its pipeline not repeated without end (.repeat())")
        if any(isinstance(c.func, cst.Attribute) and c.func.attr.value == "shuffle" for c in calls) or any(
            "random" in n for c in calls for n in self.rule.tf_names(c)
        ):
            raise Refused(stmt, f"{where}, shuffled or drawing random numbers (TF1's graph seeds drew other ones)")
        ported = cast(cst.FunctionDef, self.up(fn))
        kept = list(cast(cst.IndentedBlock, ported.body).body)
        kept[-1] = kept[-1].with_changes(body=[cst.Return(cst.Name(dataset))])
        self.input = (fn, ported.with_changes(body=ported.body.with_changes(body=kept)))
        return names

    def _ops_before(self) -> bool:
        """Does a statement of the module (outside its functions) call TensorFlow otherwise than to seed it, or read
        and define flags? (Its ops would be in the graph before the builder's.)"""
        return any(
            not (self.rule.is_call(c, SEED) or any(".flags." in n or n.endswith(".run") for n in self.rule.tf_names(c)))
            for stmt in self.original.body
            if not isinstance(stmt, (cst.FunctionDef, cst.ClassDef))
            for c in names_in(stmt).calls
            if self.rule.tf_names(c)
        )

    @property
    def alias(self) -> str:
        return _tf.tf_alias(self.rule, self.call.func)

    # -- the module
    def _module(self, functions: dict[str, cst.BaseStatement], removed: list[cst.BaseStatement]) -> cst.Module:
        switches = [c for c in names_in(self.original).calls if self.rule.is_call(c, SWITCH_NAMES)]
        if switches:
            raise Refused(switches[0], "the file switches eager execution itself")
        # (the names the replaced code read: an import of one the port reads nowhere goes, as uai_dist's and slim's)
        replaced = [*removed, *(f for f in self.functions.values() if f.name.value in functions)]
        gone = set().union(set(), *(names_in(s).names for s in replaced))
        body: list[cst.BaseStatement] = []
        for stmt in self.updated.body:
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value in functions:
                body.append(functions[stmt.name.value])
                continue
            if _switch(stmt):
                continue  # (graph-mode's switches, written by the safe pass: the port runs eagerly)
            if isinstance(stmt, cst.If) and isinstance(stmt.body, cst.IndentedBlock):  # (a main guard's)
                kept = [s for s in stmt.body.body if not _switch(s)]
                if kept and len(kept) != len(stmt.body.body):
                    stmt = stmt.with_changes(body=stmt.body.with_changes(body=kept))
            body.append(stmt)

        def imported(stmt: cst.BaseStatement) -> set[str]:
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
            if not isinstance(small, (cst.Import, cst.ImportFrom)) or isinstance(small.names, cst.ImportStar):
                return set()
            return {
                cast(cst.Name, a.asname.name).value if a.asname else source_of(a.name).partition(".")[0]
                for a in small.names
            }

        used = set().union(set(), *(names_in(s).names for s in body if not imported(s)))
        unused = {name for s in body for name in imported(s) if name in gone - used}
        self.dropped = [s for s in self.original.body if imported(s) and imported(s) <= unused]
        return self.updated.with_changes(body=[s for s in body if not (imported(s) and imported(s) <= unused)])

    def _drop_reports(self, main: cst.FunctionDef, builder: cst.FunctionDef, removed: list[cst.BaseStatement]) -> None:
        inside = {id(n) for n in descendants(builder)}
        gone = {id(n) for s in [main, *removed, *self.dropped] for n in descendants(s)}
        self.rule.state.reports[:] = [
            (top, node, entry)
            for top, node, entry in self.rule.state.reports
            if entry.rule == self.rule.ID
            or not (
                entry.rule == "graph-mode" or id(node) in gone or (id(node) in inside and "compat.v1" in entry.message)
            )
        ]


# the TensorFlow calls a cluster setup makes (no op of the graph)
_SETUP_CALLS = tf1_names("train.ClusterSpec", "train.Server", "train.replica_device_setter", "distribute.Server") | {
    "tensorflow.distribute.Server",
    "tensorflow.train.ClusterSpec",
}


# parts of the TensorFlow names of calls that make or read state, or graph collections, which a tensor statement moved
# into the train step would make or read at each step (the port's builder refuses them)
_STATE = (
    "ariable",
    "layers",
    "keras",
    "placeholder",
    ".train.",
    "metrics",
    "losses",
    "Saver",
    "collection",
    "assign",
    "Session",
    "py_func",
    ".data.",
    "summary",
    "contrib",
    "Iterator",
    "iterator",
    "table",
    "Table",
    "queue",
    "Queue",
)


def _stateful(names: frozenset[str]) -> bool:
    return any(part in name for name in names for part in _STATE)


def _slim_name(rule: Any, call: cst.Call) -> str | None:
    """The tf-slim function a call is, of those the port reads (one_hot_encoding, losses.softmax_cross_entropy,
    losses.get_total_loss, learning.create_train_op), by its last name; None for another call."""
    for name in rule.library_names(call):
        for suffix in (".one_hot_encoding", ".losses.softmax_cross_entropy", ".losses.get_total_loss"):
            if name.endswith(suffix) and ".slim." in name + ".":
                return suffix.rpartition(".")[2]
        if name.endswith(".learning.create_train_op"):
            return "create_train_op"
    return None


def _wrapped(line: str, width: int = 120) -> str:
    """`    for x in f(a, b):` over `width` characters -> its arguments on a line of their own."""
    if len(line) <= width:
        return line
    head, _, rest = line.partition("(")
    return f"{head}(\n        {rest[:-2]}\n    ):"


def _one_shot_element(rule: Any, value: cst.BaseExpression) -> str | None:
    """D of `D.make_one_shot_iterator().get_next()` or `tf.compat.v1.data.make_one_shot_iterator(D).get_next()`."""
    if not (isinstance(value, cst.Call) and not value.args and isinstance(value.func, cst.Attribute)):
        return None
    if value.func.attr.value != "get_next" or not isinstance(value.func.value, cst.Call):
        return None
    iterator = value.func.value
    if isinstance(iterator.func, cst.Attribute) and iterator.func.attr.value == "make_one_shot_iterator":
        held = iterator.func.value if not iterator.args else None
    elif rule.is_call(iterator, ONE_SHOT) and len(iterator.args) == 1:
        held = iterator.args[0].value
    else:
        held = None
    return held.value if isinstance(held, cst.Name) else None


ONE_SHOT = tf1_names("data.make_one_shot_iterator")


def _switch(stmt: cst.BaseStatement) -> bool:
    """Is `stmt` one of graph-mode's switches (`tf.compat.v1.disable_eager_execution()` ...), which the safe pass
    writes? (The port refuses a file switching itself, so every one is the pass's.)"""
    code = source_of(stmt).strip()
    return isinstance(stmt, cst.SimpleStatementLine) and bool(_SWITCH.match(code))


_SWITCH = re.compile(r"^\w+(\.\w+)*\.compat\.v1\.disable_\w+\(\)$")


def _head(func: cst.BaseExpression) -> str:
    """The name an attribute chain starts at (`dist` of `dist.is_ps`)."""
    while isinstance(func, cst.Attribute):
        func = func.value
    return func.value if isinstance(func, cst.Name) else ""


def _with_loop_body(fn: cst.FunctionDef, statements: Sequence[cst.BaseStatement]) -> cst.FunctionDef:
    body = list(cast(cst.IndentedBlock, fn.body).body)
    loop = cast(cst.For, body[-1])
    body[-1] = loop.with_changes(body=loop.body.with_changes(body=list(statements)))
    return fn.with_changes(body=fn.body.with_changes(body=body))
