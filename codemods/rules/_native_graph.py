"""What native-session proves and writes (codemods/rules/native_session.py is the rule): `Converter` reads
the statements of a Session script's block before the session (graph, host, saver), then the run region
(_native_run), and returns the native code for each or `Refused` saying why the block stays at the safe level."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import cast

import libcst as cst

from codemods.engine.rule import Rule
from codemods.rules import _native_monitored as monitored
from codemods.rules import _native_slim_loops as slim_loops
from codemods.rules import _tf
from codemods.rules._native_devices import device_name, recorded_device, with_device
from codemods.rules._native_in_top_k import SAID as IN_TOP_K_SAID
from codemods.rules._native_in_top_k import tf2_in_top_k
from codemods.rules._native_monitored import REPLICA_SETTER
from codemods.rules._native_names import (
    BUILDERS,
    CREATE_TRAIN_OP,
    DEVICE,
    FILE_WRITER,
    GET_VARIABLE,
    GLOBAL_STEP,
    INITIALIZERS,
    LAYERS,
    LEARNING_TRAIN,
    MERGE_ALL,
    MONITORED,
    NO_VARIABLES,
    OPTIMIZERS,
    PLACEHOLDER,
    PREFIXES,
    QUEUE_INPUT,
    REGULARIZATION,
    SAVER,
    SEED,
    SIDE_EFFECTS,
    STATEFUL,
    SUMMARIES,
    TOTAL_LOSS,
    VARIABLE,
    WITH_DEFAULT,
)
from codemods.rules._native_run import RunRegion
from codemods.rules._native_scopes import evaluation_order
from codemods.rules._native_seed import seed_statement
from codemods.rules._native_slim import SLIM_LAYERS
from codemods.rules._native_syntax import (
    Refused,
    all_names,
    assigned,
    bound_names,
    names_in,
    single,
    source_of,
    target_names,
)
from codemods.rules._native_train_helper import minimize_call, train_helper_call
from codemods.rules._native_v1_module import check_equality
from codemods.rules._shared import graph_names


class Converter(RunRegion):
    """One block's conversion: Refused, or the replacement of each of its statements."""

    def convert(self, session: int) -> tuple[dict[int, list[cst.BaseStatement]], set[int], str]:
        stmts = self.block.original
        heads = {i: self.rule.session_call(s) for i, s in enumerate(stmts) if i >= session}
        sessions = {i: found for i, found in heads.items() if found is not None}
        self.sess = sessions[session][1]
        self.sessions = {name for _, name in sessions.values()}
        for call, _ in sessions.values():
            if self.rule.is_call(call, monitored.TRAINING) and monitored.training(call):
                self.training_session = call
            elif self.rule.library_names(call) & LEARNING_TRAIN:
                continue  # (tf-slim's learning.train: _native_slim_loops)
            elif call.args:
                raise Refused(call, "tf.Session(...) with arguments (a target or a config the eager runtime sets)")
        if self.rule.v1 is not None:  # (`import tensorflow.compat.v1 as tf`, which becomes TF 2's)
            self.alias = self.rule.v1.alias
        else:
            self.alias = _tf.tf_alias(cast(Rule, self.rule), sessions[session][0].func)  # the rule is a Rule
        last = -1
        for index, stmt in enumerate(stmts[:session]):
            if self.graph_statement(stmt):
                last = index
        head = stmts[session]
        area = list(stmts[session:])
        trained = self.train_op is not None or self.queue_batch is None  # (a queue's batches may only be evaluated)
        if self.inputs is not None and trained and not set(self.inputs[1]) & self.depends.get(self.loss, set()):
            raise Refused(head, "a tf.data input the loss does not read (TF1 draws only when a fetch needs it)")
        self.layers_pending = any(
            self.rule.is_call(c, LAYERS) or self.slim_kind(c) for s in self.computes for c in names_in(s).calls
        )
        self.choose_names()
        self.feed_lines = self.feed_variables(area)
        for index, stmt in enumerate(stmts[session:], start=session):
            if index in sessions:
                self.session_number += 1
                body = cast(cst.IndentedBlock, stmt.body).body if isinstance(stmt, cst.With) else ()
                if sessions[index][0] is self.training_session:
                    self.replacements[id(stmt)] = monitored.training_loop(self, stmt, sessions[index][0])
                    continue
                if self.rule.library_names(sessions[index][0]) & LEARNING_TRAIN:
                    slim_loops.read_train(self, stmt, sessions[index][0])  # (its loop: written after the model)
                    continue
                self.replacements[id(stmt)] = [new for line in body for new in self.run_statement(line)]
                if self.rule.is_call(sessions[index][0], MONITORED):
                    self.replacements[id(stmt)] = monitored.until_end_of_input(self, self.replacements[id(stmt)])
            else:
                self.replacements[id(stmt)] = self.run_statement(stmt)
        bound = set().union(*(bound_names(s) for s in area))
        captured = sorted(set(self.host_reads) & (self.rebound | bound))
        if captured:
            name = captured[0]
            raise Refused(self.host_reads[name], f"the graph reads `{name}`, which changes after the graph is built")
        if self.graph & bound:
            raise Refused(head, f"`{min(self.graph & bound)}`, a graph name, is re-bound after the session starts")
        if self.unmerged:
            raise Refused(head, f"a tf.summary.{self.unmerged[0][0]} no merge_all collects")
        self.check_summary_values(area)
        self.check_pipelines()
        if self.created_train_op and self.slim_train is None:
            raise Refused(head, "create_train_op's train op run other than by learning.train (TF1 fetched the loss)")
        if self.train_op is None and not self.eval_outputs and not self.state_runs:
            raise Refused(head, "no sess.run of the graph's tensors or of an optimizer's minimize(loss)")
        if self.rule.v1 is not None:
            check_equality(self.computes, self.graph)
        generated = self.generate()
        if self.slim_train is not None:
            self.replacements[id(self.slim_train[1])] = slim_loops.training_loop(self)
        self.replacements.setdefault(id(stmts[last]), [])
        self.replacements[id(stmts[last])] = [*self.replacements[id(stmts[last])], *generated]
        self.check_result(head)
        # the graph-mode calls this conversion removes (any other one in the file keeps it at the safe level)
        removed = [s for s in stmts[:session] if id(s) in self.replacements]
        removed += self.converted_functions()  # (the input and mapped functions: at the top level or in the block)
        covered = {id(c) for s in removed for c in names_in(s).calls} | {id(call) for call, _ in sessions.values()}
        covered |= self.queue_calls  # (start_queue_runners, deleted from the run region)
        return self.replacements, covered, self.said()

    def graph_statement(self, stmt: cst.BaseStatement) -> bool:
        """Classify a statement before the session: True when it is part of the graph (it is replaced)."""
        if isinstance(stmt, cst.SimpleStatementLine) and all(
            isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body
        ):
            return False
        if isinstance(stmt, cst.FunctionDef) and (self.scope_helper(stmt) or self.variable_helper(stmt)):
            return False  # (converted where the graph calls it)
        if (
            isinstance(stmt, cst.FunctionDef)
            and minimize_call(stmt)
            and self.rule.module_names().get(stmt.name.value) == 2
        ):
            return False  # (a train helper the module calls once: converted there, or Refused saying why)
        if isinstance(stmt, cst.FunctionDef) and self.pipeline_def(stmt):
            return False  # (converted with the pipeline that reads it: _native_pipeline)
        if self.rule.v1 is not None and any(stmt is s for s in self.rule.v1.switches):
            return False  # (deleted with the compat.v1 import: the converted code runs eagerly)
        rule = self.rule
        if rule.shadowed_tf(stmt):
            raise Refused(stmt, "a name bound to TensorFlow is something else here")
        queued = self.queue_statement(stmt)  # (queue-runner input: _native_queues)
        if queued is not None:
            return queued
        made = self.made_once(stmt)  # (a lookup table, an RNN cell and its dynamic_rnn, a static shape read)
        if made is not None:
            return made
        reads = names_in(stmt)
        tf_calls = rule.tf_calls(stmt)
        small = single(stmt)
        name, value = assigned(small)
        if name is not None and value is not None and monitored.hooks_statement(self, stmt, name, value):
            return False  # (read by the MonitoredTrainingSession's loop)
        if name is not None and isinstance(value, cst.Call):
            if rule.is_call(value, TOTAL_LOSS):
                return self.get_total_loss(stmt, name, value)
            if self.slim_function(value, CREATE_TRAIN_OP):
                return slim_loops.create_train_op(self, stmt, name, value)
            if rule.is_call(value, OPTIMIZERS) and slim_loops.named_optimizer(self, stmt, name, value):
                return True
            if rule.is_call(value, OPTIMIZERS) and self.named_optimizer(stmt, name, value):
                return True
            if self.updates_read(stmt, name, value):
                return True
            if rule.is_call(value, PLACEHOLDER):
                return self.placeholder(stmt, name, value)
            if rule.is_call(value, WITH_DEFAULT):
                return self.placeholder_with_default(stmt, name)
            if rule.is_call(value, SAVER):
                if value.args or self.saver is not None:
                    raise Refused(stmt, "a tf.train.Saver with arguments (var_list, max_to_keep ...), or two")
                self.saver = name
                self.replacements[id(stmt)] = []
                return True
            if rule.is_call(value, GET_VARIABLE):
                return self.get_variable(stmt, name, value)
            if rule.is_call(value, GLOBAL_STEP) and not value.args:
                return self.global_step(stmt, name)
            if rule.is_call(value, REPLICA_SETTER):
                updated = assigned(single(cast(cst.BaseStatement, self.up(stmt))))[1]
                code, self.setters[name] = monitored.device_setter(
                    value, cast(cst.Call, updated), name, list(self.block.original), stmt
                )
                self.replacements[id(stmt)] = [cst.parse_statement(code)]
                return False  # (a host statement: the device, or None)
            if rule.is_call(value, MERGE_ALL) and not value.args:
                return self.merge_all(stmt, name)
            if rule.is_call(value, FILE_WRITER):
                return self.file_writer(stmt, name)
            if self.assigned_variable(value) is not None:
                return self.assign(stmt, name, value)
            if rule.is_call(value, VARIABLE):
                return self.variable(stmt, name, value)
            if rule.is_call(value, INITIALIZERS) and not value.args:
                self.inits.add(name)
                self.graph.add(name)
                self.replacements[id(stmt)] = []
                return True
            helper = self.module_function(value)
            if helper is not None and minimize_call(helper) is not None:
                return train_helper_call(self, stmt, name, value, helper)
            func = value.func
            if isinstance(func, cst.Attribute) and func.attr.value == "minimize":
                named = isinstance(func.value, cst.Name) and func.value.value in self.optimizers
                if rule.is_call(func.value, OPTIMIZERS) or named:
                    return self.minimize(stmt, name, value)
        if isinstance(small, cst.Assign) and self.metric_function(small.value) is not None:
            return self.metric(stmt, small)
        if monitored.unnamed_iterator(reads.calls, self.datasets):
            raise Refused(stmt, monitored.UNNAMED_ITERATOR)
        if name is not None and value is not None and self.dataset_head(value):
            if set(reads.names) & self.graph:
                raise Refused(stmt, "a tf.data pipeline built from the graph's tensors")
            self.datasets.add(name)
            self.pipeline_calls(value, stmt, "a tf.data pipeline")
            self.mapped_functions(stmt)
            self.replacements[id(stmt)] = [self.tf2_dataset(cast(cst.BaseStatement, self.up(stmt)))]
            return False
        if isinstance(small, cst.Assign) and self.one_shot(small.value) is not None:
            return self.iterator(stmt, small)
        if isinstance(small, cst.Assign) and (function := self.input_call(small.value)) is not None:
            return self.input_iterator(stmt, small, function)
        if self.xavier_object(stmt):
            return False  # (a host statement: the initializer object, Keras's)
        device = self.device_call(stmt)
        if device is not None:
            return self.device_block(cast(cst.With, stmt), device)
        scope = self.arg_scope_call(stmt)
        if scope is not None:
            return self.arg_scope_block(cast(cst.With, stmt), scope)
        if isinstance(stmt, cst.With) and self.updates_first(stmt):
            inner = cast(cst.IndentedBlock, stmt.body).body[0]
            name, value = assigned(single(inner))
            self.minimize(inner, cast(str, name), cast(cst.Call, value), statement=stmt)
            return True
        if isinstance(small, cst.Expr) and rule.is_call(small.value, SUMMARIES):
            return self.summary(stmt, cast(cst.Call, small.value))
        if isinstance(small, cst.Expr) and rule.is_call(small.value, SEED):
            updated = cast(cst.Expr, single(cast(cst.BaseStatement, self.up(stmt)))).value
            args = ", ".join(source_of(a) for a in cast(cst.Call, updated).args).rstrip(", ")
            self.replacements[id(stmt)] = [cst.parse_statement(seed_statement(self.alias, args, self.rule._module))]
            return False
        if not tf_calls and not set(reads.names) & self.graph and not any(map(self.slim_kind, reads.calls)):
            self.check_builders(stmt)  # (a host value, unless a function of the module it calls builds the graph)
            if self.computes:
                self.rebound |= bound_names(stmt)
            return False
        for call in reads.calls:  # model() computes every graph tensor on each call: no side effects allowed
            method = call.func.attr.value if isinstance(call.func, cst.Attribute) else ""
            effect = self.rule.tf_names(call) & SIDE_EFFECTS
            if method.startswith(("assign", "scatter_")) or effect:
                what = min(effect) if effect else f".{method}()"
                raise Refused(stmt, f"{what} in the graph: run on every step in TF 2, only when fetched in TF1")
        converted = self.slim_calls(stmt, reads.calls)  # (tf-slim's layers: Keras layers made once)
        for call in reads.calls:
            library = self.rule.variable_library(call)
            if library is not None and id(call) not in converted and not self.rule.library_names(call) <= NO_VARIABLES:
                raise Refused(
                    stmt,
                    f"{library}: a library whose calls may make variables, which model() would make again on every step",
                )
        for call in tf_calls:
            names = self.rule.tf_names(call)
            if names & (VARIABLE | GET_VARIABLE):  # (a statement of its own is made once: variable, get_variable)
                raise Refused(
                    stmt,
                    f"{'tf.Variable' if names & VARIABLE else 'tf.get_variable'} inside an expression: model() would "
                    "make it at each call (TF1 made it once)",
                )
            if names & REGULARIZATION:
                raise Refused(stmt, f"{_tf.full_name(call.func)}: a graph collection, which Keras layers do not fill")
            if names & QUEUE_INPUT:
                raise Refused(
                    stmt,
                    f"{_tf.full_name(call.func)}: queue-runner input other than the rule converts (a "
                    "string_input_producer of file names, one TFRecordReader, shuffle_batch or batch of its record)",
                )
            machinery = [n for n in names if n.startswith(tuple(p + "train." for p in PREFIXES))]
            if machinery or names & graph_names():
                raise Refused(stmt, f"{_tf.full_name(call.func)}, which the rule does not convert")
        if small is None or not isinstance(stmt, cst.SimpleStatementLine):
            raise Refused(stmt, f"a {type(stmt).__name__} statement that builds the graph")
        collected = self.collected_loss(stmt, small)  # (a tf.losses loss of its own statement: TF1's collection)
        targets = [collected] if collected else target_names(small)
        if targets is None:
            raise Refused(stmt, "a graph statement that is not an assignment to names")
        fixed = set(targets) & (set(self.placeholders) | self.variables | {self.train_op})
        if fixed:
            raise Refused(stmt, f"`{min(fixed)}` (a placeholder, variable or train op) is re-bound")
        self.check_helpers(stmt, evaluation_order(stmt))
        self.note_losses(stmt, small, targets)
        value_names = set(names_in(cast(cst.Assign, small).value).names)
        for read in sorted(value_names - self.graph - self.rule._aliases):  # noqa: SLF001
            self.host_reads.setdefault(read, stmt)
        self.computes.append(stmt)
        sources: set[str] = value_names & self.graph
        for target in targets:
            self.depends[target] = sources.union(*(self.depends.get(r, {r}) for r in sources))
        self.graph.update(targets)
        self.replacements[id(stmt)] = []
        return True

    def device_call(self, stmt: cst.BaseStatement) -> cst.Call | None:
        """The `tf.device(...)` call of `with tf.device(...):` around a block of statements, else None."""
        if not isinstance(stmt, cst.With) or len(stmt.items) != 1 or stmt.items[0].asname is not None:
            return None
        call = stmt.items[0].item
        if isinstance(call, cst.Call) and self.rule.is_call(call, DEVICE) and isinstance(stmt.body, cst.IndentedBlock):
            return call
        return None

    def device_block(self, stmt: cst.With, call: cst.Call) -> bool:
        """`with tf.device(d):` around variables and tensors of the graph: the variables made under eager
        `tf.device(d)`, the tensors computed under it in model() (where TF1 placed their ops)."""
        # (every def of the module: the pass visits only the statements that name TensorFlow)
        functions = [s for s in self.rule._module.body if isinstance(s, cst.FunctionDef)]  # noqa: SLF001
        setter = call.args[0].value if len(call.args) == 1 else None
        if isinstance(setter, cst.Name) and setter.value in self.setters:
            device = setter.value  # (TF1's .device of its variables: the device, or none where ps_tasks was 0)
        else:
            device = device_name(call, functions, stmt)
        self.device_args[source_of(call.args[0].value)] = device
        before, variables = self.kinds(), set(self.variables)
        first = len(self.computes)
        made: list[cst.BaseStatement] = []
        for inner in cast(cst.IndentedBlock, stmt.body).body:
            if not isinstance(inner, cst.SimpleStatementLine) or not self.graph_statement(inner):
                raise Refused(inner, "a tf.device block holding a statement that is no variable or tensor of the graph")
            made += self.replacements.pop(id(inner), [])
        if self.kinds() != before:
            raise Refused(stmt, "a tf.device block around a train op, a saver, summaries or an input pipeline")
        for compute in self.computes[first:]:
            self.devices[id(compute)] = device
        recorded = None if device in self.setters else recorded_device(call.args[0].value, device)
        for variable in self.variables - variables:
            self.variable_devices[variable] = recorded
        self.replacements[id(stmt)] = [with_device(self.alias, device, made)] if made else []
        return True

    def kinds(self) -> tuple[object, ...]:
        """What the graph holds besides variables and tensors (a device block may add none of it)."""
        found = (self.train_op, self.saver, self.writer, self.inputs)
        return (*found, *map(len, (self.datasets, self.assigns, self.inits, self.unmerged, self.merged)))

    def check_helpers(self, stmt: cst.BaseStatement, calls: Sequence[cst.Call]) -> None:
        """A graph expression calling a function of this module: model() calls it on every step, eagerly, so it
        may not build graph state (variables, scopes, layers) nor keep code the safe pass left in tf.compat.v1."""
        functions = {fn.name.value: fn for _, fn in self.rule._functions}  # noqa: SLF001
        for call in calls:
            fn = functions.get(call.func.value) if isinstance(call.func, cst.Name) else None
            if fn is None:
                continue
            if self.scope_helper(fn):  # (variable_scope / get_variable: converted, or Refused saying why)
                self.helper_call(stmt, call, fn)
                continue
            if minimize_call(fn) is not None:
                raise Refused(
                    stmt, f"{fn.name.value}() makes a train op, called other than as `name = {fn.name.value}(...)`"
                )
            if self.variable_helper(fn):  # (tf.Variable, under name scopes: converted, or Refused saying why)
                self.variable_helper_call(stmt, call, fn)
                continue
            made = [c for c in names_in(fn).calls if self.rule.is_call(c, STATEFUL) or self.rule.variable_library(c)]
            written, count = tf2_in_top_k(self.up(fn), self.alias, stmt)  # (the one v1 spelling it rewrites there)
            left = re.search(r"\w+\.compat\.v1\.[\w.]+", source_of(self.up(fn) if made else written))
            if not made and not left and count:
                self.replacements[id(fn)] = [cast(cst.BaseStatement, written)]
                self.in_top_k = True
            if made or left:
                what = _tf.full_name(made[0].func) if made else cast(re.Match, left).group(0)
                raise Refused(
                    stmt,
                    f"the graph calls {fn.name.value}(), which builds graph state the rule does not convert ({what})",
                )

    def check_builders(self, stmt: cst.BaseStatement) -> None:
        """A statement reading no graph name calls a function of this module that builds graph state (variables,
        placeholders, an optimizer, the global step: `train_op, loss = build()`): the graph is that function's,
        which the rule does not convert. (Read as a host value, its names were no tensors of the graph, and the
        entry named a later symptom: a sess.run of no tensor, a global step no minimize increments.)"""
        if isinstance(stmt, (cst.FunctionDef, cst.ClassDef)):
            return  # (a definition calls nothing where it stands)
        functions = {fn.name.value: fn for _, fn in self.rule._functions}  # noqa: SLF001
        for call in evaluation_order(stmt):
            fn = functions.get(call.func.value) if isinstance(call.func, cst.Name) else None
            builds = [
                c
                for c in (names_in(fn).calls if fn is not None else ())
                if self.rule.is_call(c, BUILDERS) or self.rule.variable_library(c)
            ]
            if fn is not None and builds:
                raise Refused(
                    stmt,
                    f"the graph calls {fn.name.value}(), which builds graph state the rule does not convert "
                    f"({_tf.full_name(builds[0].func)})",
                )

    def module_function(self, call: cst.Call) -> cst.FunctionDef | None:
        """The top-level function of the module a call calls by name, else None."""
        return self.module_function_named(call.func.value) if isinstance(call.func, cst.Name) else None

    def module_function_named(self, name: str | None) -> cst.FunctionDef | None:
        return next((fn for _, fn in self.rule._functions if fn.name.value == name), None)  # noqa: SLF001

    def choose_names(self) -> None:
        """model / train_step / evaluate / optimizer, or with a suffix where the module uses the name."""
        removed = {cast(str, self.train_op), *self.inits, *self.optimizers}
        block_names = [n for s in self.block.original for n in names_in(s).names]
        everywhere = self.rule.module_names()
        # (a train helper is deleted: its names are free, but for the global step it made, moved into the block)
        helper = self.module_function_named(self.train_helper)
        deleted = [n for n in names_in(helper).names if n not in self.helper_steps] if helper else []
        for wanted in ("model", "train_step", "evaluate", "optimizer"):
            name = wanted
            kept = everywhere.get(name, 0) - deleted.count(name)
            if kept and not (name in removed and kept == block_names.count(name)):
                name = f"{wanted}_fn"
                if name in everywhere:
                    raise Refused(self.block.original[0], f"both {wanted} and {name} are used in this module")
            self.names[wanted] = name

    def layer_classes(self) -> set[str]:
        """The classes written for tf-slim's layers (_native_slim.SLIM_LAYERS)."""
        return {layer.cls for layer in self.layers if layer.cls}

    def check_result(self, head: cst.CSTNode) -> None:
        for statements in self.replacements.values():
            for stmt in statements:
                code = source_of(stmt)
                left = re.search(r"\w+\.compat\.v1\.[\w.]+", code)
                if left:
                    raise Refused(head, f"{left.group(0)} has no native equivalent the rule knows")
                if any(n.value in self.sessions for n in all_names(stmt)):
                    raise Refused(head, "the session is used in a way the rule does not convert")

    def said(self) -> str:
        """The report entry of a conversion: what became what."""
        made = [f"Keras layers {', '.join(layer.name for layer in self.layers)}"] if self.layers else []
        made += [f"variables {', '.join(sorted(self.variables))}"] if self.variables else []
        parts = [f"{' and '.join(made)} created once under their TF1 names"] if made else []
        slim = [f"{f} -> {r.cls}, a Keras {r.keras}" for f, r in SLIM_LAYERS.items() if r.cls in self.layer_classes()]
        if slim:
            parts += [
                f"tf-slim's {', '.join(slim)} naming its variables weights and biases as TF1 did (xavier_initializer -> "
                "GlorotUniform, l2_regularizer(s) -> tf.keras.regularizers.l2(0.5 * s), an arg_scope's arguments "
                "written on each layer)"
            ]
        if any(layer.keras == "Flatten" and layer.name.startswith("Flatten") for layer in self.layers):
            parts += ["tf-slim's flatten -> a Keras Flatten"]
        parts += self.made_once_said()
        if self.input_function is not None:
            parts += [
                f"{self.input_function}() returns its tf.data pipeline, not the one-shot iterator's element: "
                f"{self.inputs[0] if self.inputs else ''} = iter({self.input_function}(...)), an element per step"
            ]
        elif self.queue_batch is not None:
            parts += self.queue_said()
        elif self.inputs is not None:
            parts += [f"{self.inputs[0]}.make_one_shot_iterator() -> iter({self.inputs[0]}), an element per step"]
        if self.mapped:
            parts += [f"{', '.join(f'{name}()' for name in self.mapped)}, mapped by the pipeline, kept in TF 2's names"]
        placeholders = ", ".join([*(self.inputs[1] if self.inputs else []), *self.placeholders]) or "(none)"
        if self.slim_train is not None:
            parts += [self.optimizer_said]
        elif self.train_op is not None:
            step = self.names["train_step"]
            parts += [f"inputs {placeholders} -> arguments of tf.function {step}", self.optimizer_said]
            parts += [f"training sess.run -> {step}()"]
        elif self.placeholders or self.inputs is not None:
            parts += [f"inputs {placeholders} -> arguments of the graph's function"]
        if self.eval_outputs:
            parts += [f"evaluation sess.run -> {self.names['evaluate']}()"]
        if self.metric_objects:
            metrics = ", ".join(f"{function} -> tf.keras.metrics.{keras}" for _, keras, function in self.metric_objects)
            parts += [f"metrics {metrics} made once (update op -> update_state(), value -> result())"]
        if self.device_args:
            blocks = ", ".join(
                f"tf.device({a})" + ("" if a == d else f" as tf.device({d})") for a, d in self.device_args.items()
            )
            parts += [f"{blocks} kept around the variables made and model()'s tensors"]
        if self.in_top_k:
            parts += [IN_TOP_K_SAID]
        if self.train_helper is not None:
            parts += [
                f"{self.train_helper}() -> the train op it returned (its optimizer's arguments as the call passed them, "
                "its global step made in the call's place), the function deleted"
            ]
        if (
            self.step_counter
            and self.train_op is not None
            and self.training_session is None
            and not self.created_train_op
        ):
            parts += [f"minimize(loss, global_step) -> the train step increments {self.step_counter} after the update"]
        parts += monitored.said(self.setters)
        parts += monitored.training_said(self)
        parts += slim_loops.said(self)
        if self.device_reads:
            reads = ", ".join(f"{name}.device" for name in sorted(self.device_reads))
            parts += [f"{reads} -> the string TF1 recorded for the variable (eager TF 2's names its device in full)"]
        for variables, what in ((False, "tf.variable_scope/tf.get_variable"), (True, "tf.Variable")):
            helpers = {name: h for name, h in self.scope_helpers.items() if h.variables == variables}
            if helpers:
                theirs = {full for h in helpers.values() for full in h.names}
                made = [full for full in self.scope_made if full in theirs]  # (TF1's order)
                parts += [
                    f"{what} in {', '.join(f'{name}()' for name in helpers)} -> {self.names['get_variable']}(), each "
                    f"variable made once, at the first step, under its TF1 name ({', '.join(made)})"
                ]
        if self.trainable_read:
            parts += [f"tf.trainable_variables() -> the trainable variables of {self.names['scope_store']}"]
        if self.assigns:
            parts += [f"assign ops {', '.join(sorted(self.assigns))} -> eager assign calls where sess.run ran them"]
        if self.merged and self.writer:
            parts += [
                "v1 summaries and merge_all -> the summarized tensors, written by tf.summary v2 under "
                f"{self.writer}.as_default(step=...) (FileWriter -> tf.summary.create_file_writer)"
            ]
        if self.saver:
            parts += [
                "tf.train.Saver -> tf.train.Checkpoint (saver.save -> compat.tf1_saver.save: <path>[-<step>] and the "
                "'checkpoint' state file as the Saver wrote them, 5 kept, no .meta file; restore also reads TF1 "
                "checkpoints by name)"
            ]
        if self.rule.v1 is not None:
            parts += [
                f"import tensorflow.compat.v1 as {self.alias} -> import tensorflow as {self.alias}, its switches deleted"
            ]
        kind = "training script" if self.train_op is not None else "script"
        return f"Session {kind} -> eager TF 2: " + "; ".join(parts)
