"""native-session's run region: the statements from the session on, each sess.run as a train step or an
evaluation call, initializer runs and the session deleted."""

from __future__ import annotations

from typing import cast

import libcst as cst

from codemods.rules import _tf
from codemods.rules._native_model import Model
from codemods.rules._native_names import FILE_WRITER, INITIALIZER, INITIALIZERS, TRAINABLE_VARIABLES
from codemods.rules._native_syntax import (
    Refused,
    arguments,
    assigned,
    collect,
    descendants,
    lines_of,
    names_in,
    single,
    source_of,
)


class RunRegion(Model):
    """The statements from the session on."""

    def run_statement(self, stmt: cst.BaseStatement) -> list[cst.BaseStatement]:
        watched = self.watched()
        if isinstance(stmt, cst.SimpleStatementLine):
            return self.run_line(stmt)
        if set(names_in(stmt, into_lines=False).names) & watched:
            raise Refused(stmt, "the graph or the session is used outside a sess.run statement")
        for attempt in collect(stmt, cst.Try):
            restores = [line for line in lines_of(attempt.body) if any(map(self.is_restore, names_in(line).calls))]
            if restores and attempt.handlers:
                raise Refused(
                    restores[0],
                    f"{self.saver}.restore inside a try with a handler: TF1's restore raised NotFoundError there for a "
                    "variable the checkpoint lacks, the port's raises nothing there",
                )
        loops = [*collect(stmt, cst.For), *collect(stmt, cst.While)]
        self.looped |= {id(line) for loop in loops for line in lines_of(loop)}
        lines = {id(self.up(line)): self.run_line(line) for line in lines_of(stmt)}
        changed = {key: new for key, new in lines.items() if not (len(new) == 1 and id(new[0]) == key)}

        class Replace(cst.CSTTransformer):
            def leave_SimpleStatementLine(
                self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
            ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement] | cst.RemovalSentinel:
                if id(original_node) not in changed:
                    return updated_node
                new = changed[id(original_node)]
                return cst.FlattenSentinel(new) if new else cst.RemoveFromParent()

        updated = cast(cst.BaseStatement, self.up(stmt))
        return [cast(cst.BaseStatement, updated.visit(Replace()))]

    def run_line(self, line: cst.SimpleStatementLine) -> list[cst.BaseStatement]:
        if self.rule.shadowed_tf(line):
            raise Refused(line, "a name bound to TensorFlow is something else here")
        queued = self.queue_line(line)  # (the queue runners' lines: _native_queues)
        if queued is not None:
            return queued
        updated = self.trainable_variables(line, cast(cst.SimpleStatementLine, self.up(line)))
        writer = self.writer_line(line)
        if writer is not None:
            return writer
        self.check_graph_ops(line)
        if id(line) in self.feed_lines:
            return [self.string_keys(line, updated)]
        small = single(line)
        value = small.value if isinstance(small, (cst.Expr, cst.Assign)) else None
        if isinstance(small, cst.Expr) and isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute):
            if value.func.attr.value == "run" and self.rule.is_call(value.func.value, INITIALIZERS):
                return self.initializer(line)  # tf.global_variables_initializer().run()
            if self.session_method(value) == "close" and not value.args:
                return []
            if self.writer_method(value) in ("close", "flush") and not value.args:
                return [updated]  # (TF 2's summary writer has both)
            if self.writer_method(value) == "add_summary":
                return [self.add_summary(line, value, cast(cst.Call, cast(cst.Expr, single(updated)).value))]
        reads = names_in(line)
        if not set(reads.names) & self.watched():
            return [updated]
        runs = [c for c in reads.calls if self.session_method(c) == "run"]
        saving = [c for c in reads.calls if self.saver_method(c)]
        inside = {id(n) for call in (*runs, *saving) for n in descendants(call)}
        outside = [n for n in reads.nodes if id(n) not in inside and n.value in self.watched()]
        devices = [
            a for a in collect(line, cst.Attribute) if a.attr.value == "device" and any(a.value is n for n in outside)
        ]
        if devices:
            updated, read = self.recorded_devices(line, updated, devices)
            outside = [n for n in outside if id(n) not in read]
        if outside:
            raise Refused(line, f"`{outside[0].value}` is used outside a sess.run call the rule reads")
        updated_runs = [c for c in names_in(updated).calls if self.session_method(c) == "run"]
        updated_saving = [c for c in names_in(updated).calls if self.saver_method(c)]
        if len(updated_runs) != len(runs) or len(updated_saving) != len(saving):
            raise Refused(line, "the sess.run calls changed in the safe pass")
        if saving:
            return self.checkpoint_line(line, small, saving, updated, updated_saving, bool(runs))
        parsed = [self.fetches(line, run) for run in runs]
        if len(runs) == 1 and runs[0] is value:
            fetches, listed = parsed[0]
            if set(fetches) <= self.inits and isinstance(small, cst.Expr):
                return self.initializer(line)
            if set(fetches) <= self.state() and isinstance(small, cst.Expr):
                self.state_run(line, runs[0], fetches)
                return [cst.parse_statement(self.assigns[f][1] + "\n") for f in fetches if f in self.assigns]
            if self.train_op in fetches:
                call_args = self.feed(line, runs[0], updated_runs[0])
                return [cst.parse_statement(self.training_call(line, small, runs[0], fetches, listed, call_args))]
        replaced: dict[int, cst.BaseExpression] = {}
        for run, new, (fetches, listed) in zip(runs, updated_runs, parsed):
            if set(fetches) & {*self.metrics, *self.metric_updates}:
                replaced[id(new)] = cst.parse_expression(self.metric_run(line, small, run, new, fetches, listed))
                continue
            if self.train_op in fetches and listed and fetches.index(self.train_op) == 0 and len(runs) == 1:
                # sess.run([train_op, loss, ...]) in an expression: the list it returned, None first
                self.train_fetches(line, fetches)
                self.record_summaries(line, small, run, fetches, listed)  # (a fetched merge_all: Refused)
                step = f"{self.names['train_step']}({self.feed(line, run, new)})"
                self.steps_seen = True
                rest = f"{step}.numpy()" if len(fetches) == 2 else f"*(value.numpy() for value in {step})"
                replaced[id(new)] = cst.parse_expression(f"[None, {rest}]" if len(fetches) > 1 else "[None]")
                continue
            if self.train_op in fetches or set(fetches) & self.inits:
                raise Refused(line, "a sess.run of the train op or the initializer inside an expression")
            replaced[id(new)] = cst.parse_expression(self.evaluation(line, small, run, new, fetches, listed))

        class Evaluations(cst.CSTTransformer):
            def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
                return replaced.get(id(original_node), updated_node)

        return [cast(cst.SimpleStatementLine, updated.visit(Evaluations()))]

    def recorded_devices(
        self, line: cst.SimpleStatementLine, updated: cst.SimpleStatementLine, devices: list[cst.Attribute]
    ) -> tuple[cst.SimpleStatementLine, set[int]]:
        """`w.device` of a variable made under tf.device -> the string TF1 recorded for it, as a literal (eager TF 2's
        names the device the variable is on, in full: /job:localhost/replica:0/task:0/device:CPU:0); Refused where
        the rule does not know it. Returns the line and the ids of the variables' names read so."""
        literals: dict[str, str] = {}
        for attribute in devices:
            variable = attribute.value.value if isinstance(attribute.value, cst.Name) else ""
            literal = self.variable_devices.get(variable)
            if literal is None:
                raise Refused(
                    line,
                    f"`{source_of(attribute)}`: eager TF 2 names the device in full (/job:localhost/...), TF1 as it "
                    "was asked, which the rule knows only for a variable made under tf.device of one device",
                )
            literals[variable] = literal

        class Devices(cst.CSTTransformer):
            def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
                value = updated_node.value
                if updated_node.attr.value == "device" and isinstance(value, cst.Name) and value.value in literals:
                    return cst.SimpleString(literals[value.value])
                return updated_node

        self.device_reads |= set(literals)
        return cast(cst.SimpleStatementLine, updated.visit(Devices())), {id(a.value) for a in devices}

    def writer_line(self, line: cst.SimpleStatementLine) -> list[cst.BaseStatement] | None:
        """`writer = tf.summary.FileWriter(logdir)` made in the session block: as one made before it (it builds no
        op); None for another line."""
        name, value = assigned(single(line))
        if name is None or not (isinstance(value, cst.Call) and self.rule.is_call(value, FILE_WRITER)):
            return None
        if id(line) in self.looped:
            raise Refused(line, "a tf.summary.FileWriter made in a loop (the rule converts one writer made once)")
        self.file_writer_arguments(line, value)  # (one given the graph: Refused, saying so)
        if set(names_in(value).names) & self.watched():
            raise Refused(line, "a tf.summary.FileWriter given the session, the graph or its tensors")
        self.file_writer(line, name)
        return self.replacements.pop(id(line))

    def check_graph_ops(self, line: cst.SimpleStatementLine) -> None:
        """No TensorFlow op built in the run region outside a sess.run: TF1 added it to the graph (a Tensor, computed
        by no run), eager TF 2 would compute it. (Files, logging, flags and the initializers build none.)"""
        runs = [c for c in names_in(line).calls if self.session_method(c) == "run"]
        inside = {id(n) for run in runs for n in descendants(run)}
        for call in self.rule.tf_calls(line):
            names = self.rule.tf_names(call)
            if id(call) in inside or names & {*INITIALIZERS, *TRAINABLE_VARIABLES} or _no_op(names):
                continue
            if names & FILE_WRITER:  # (it builds no op: its graph, or else its form, is what the rule refuses)
                self.file_writer_arguments(line, call)
                raise Refused(line, "a tf.summary.FileWriter other than `writer = tf.summary.FileWriter(logdir)`")
            raise Refused(
                line,
                f"{_tf.full_name(call.func)} outside a sess.run: TF1 added an op to the graph there, eager TF 2 "
                "would compute it",
            )

    def initializer(self, line: cst.CSTNode) -> list[cst.BaseStatement]:
        """An initializer run: nothing in eager mode, where variables start initialised (in the first session)."""
        if self.session_number > 1:
            raise Refused(line, "a later session initialises the variables again (eager variables keep their values)")
        if id(line) in self.looped:
            raise Refused(
                line,
                "an initializer run inside a loop (TF1 initialises again on each pass; eager variables keep their values)",
            )
        if self.metric_updated:
            raise Refused(line, "an initializer run after a metric's update (it resets the metric in TF1)")
        return []

    def fetches(self, line: cst.CSTNode, run: cst.Call) -> tuple[list[str], bool]:
        """(the fetched graph names, fetched as a list?) of a sess.run call."""
        args = arguments(run, ("fetches", "feed_dict"), line, f"{self.sess}.run")
        fetched = args["fetches"].value if "fetches" in args else None
        if isinstance(fetched, cst.Call) and self.rule.is_call(fetched, INITIALIZERS) and not fetched.args:
            self.inits.add(INITIALIZER)  # (a name no Python variable has)
            return [INITIALIZER], False
        if (
            isinstance(fetched, (cst.List, cst.Tuple))
            and fetched.elements
            and all(
                isinstance(e.value, cst.Call) and self.rule.is_call(e.value, INITIALIZERS) and not e.value.args
                for e in fetched.elements
            )
        ):  # sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
            self.inits.add(INITIALIZER)
            return [INITIALIZER], True
        if isinstance(fetched, cst.Name):
            fetches, listed = [fetched.value], False
        elif isinstance(fetched, (cst.List, cst.Tuple)) and all(
            isinstance(e.value, cst.Name) for e in fetched.elements
        ):
            fetches, listed = [cast(cst.Name, e.value).value for e in fetched.elements], True
        else:
            raise Refused(line, f"{self.sess}.run of something other than graph names")
        for name in fetches:
            known = name in self.graph and name not in self.placeholders
            if name != self.train_op and name not in self.inits and not known:
                raise Refused(line, f"{self.sess}.run fetches `{name}`, which is not a tensor the graph computes")
        return fetches, listed

    def evaluation(
        self,
        line: cst.CSTNode,
        small: cst.BaseSmallStatement | None,
        run: cst.Call,
        new: cst.Call,
        fetches: list[str],
        listed: bool,
    ) -> str:
        """An evaluation sess.run as code: the graph's tensors from one `evaluate(...)` call, a variable's value,
        an assign op run where the sess.run ran it (its new value, as TF1 fetched it)."""
        self.record_summaries(line, small, run, fetches, listed)
        state = self.state()
        evaluated = [name for name in fetches if name not in state]
        if not evaluated:
            self.state_run(line, run, fetches)
            codes = [self.state_code(name) for name in fetches]
            return f"[{', '.join(codes)}]" if listed else codes[0]
        self.check_state(line, fetches)
        if self.inputs is not None and not (self.queue_batch is not None and self.draws_input(evaluated)):
            raise Refused(line, "an evaluation sess.run with a tf.data input (TF1 draws only when a fetch needs it)")
        for name in evaluated:
            if name not in self.eval_outputs:
                self.eval_outputs.append(name)
        call = f"{self.names['evaluate']}({self.feed(line, run, new)})"
        self.steps_seen = True
        if not listed:
            return f'{call}["{fetches[0]}"]' + ("" if fetches[0] in self.merged else ".numpy()")
        if len(evaluated) == len(fetches) and not set(fetches) & set(self.merged):
            # sess.run([a, b]) returns a list: one evaluation, its values in the fetches' order
            keys = ", ".join(f'"{name}"' for name in fetches) + ("," if len(fetches) == 1 else "")
            return f"[outputs[name].numpy() for outputs in [{call}] for name in ({keys})]"
        codes = [
            self.state_code(name)
            if name in state
            else f'outputs["{name}"]' + ("" if name in self.merged else ".numpy()")
            for name in fetches
        ]
        return f"[value for outputs in [{call}] for value in ({', '.join(codes)})]"

    def train_fetches(self, line: cst.CSTNode, fetches: list[str]) -> None:
        """What the train step returns: the training runs' fetches besides the train op, the same in every run."""
        outputs = [f for f in fetches if f != self.train_op]
        if set(outputs) & {*self.state(), *self.metrics, *self.metric_updates}:
            raise Refused(line, "a training sess.run that also fetches variables, assign ops or metrics")
        if self.train_outputs is None:
            self.train_outputs = outputs
        elif self.train_outputs != outputs:
            raise Refused(line, "training sess.run calls that fetch different tensors")

    def training_call(
        self,
        line: cst.CSTNode,
        small: cst.BaseSmallStatement | None,
        run: cst.Call,
        fetches: list[str],
        listed: bool,
        args: str,
    ) -> str:
        self.train_fetches(line, fetches)
        self.record_summaries(line, small, run, fetches, listed)
        call = f"{self.names['train_step']}({args})"
        self.steps_seen = True
        if isinstance(small, cst.Expr):
            return call + "\n"
        assign = cast(cst.Assign, small)
        target = assign.targets[0].target if len(assign.targets) == 1 else None
        elements = target.elements if listed and isinstance(target, (cst.Tuple, cst.List)) else None
        if elements is None or len(elements) != len(fetches):
            raise Refused(line, "a training sess.run whose result is not unpacked into one name per fetch")
        index = fetches.index(cast(str, self.train_op))
        dropped = elements[index].value
        if not (isinstance(dropped, cst.Name) and dropped.value == "_"):
            raise Refused(line, "the train op's value (None) is kept in a name")
        names = [source_of(e.value) for i, e in enumerate(elements) if i != index]
        if not names:
            return call + "\n"
        outputs = [f for f in fetches if f != self.train_op]
        if set(outputs) & set(self.merged):  # (a merge_all's value: the summaries' tensors, for add_summary)
            values = [f"outputs[{i}]" + ("" if o in self.merged else ".numpy()") for i, o in enumerate(outputs)]
            if len(names) == 1:
                return f"{names[0]} = {call}\n"
            return f"{', '.join(names)} = [value for outputs in [{call}] for value in ({', '.join(values)})]\n"
        if len(names) == 1:
            return f"{names[0]} = {call}.numpy()\n"
        return f"{', '.join(names)} = (value.numpy() for value in {call})\n"


def _no_op(names: frozenset[str]) -> bool:
    """A TensorFlow function that builds no op: files (gfile, tf.io.gfile, the checkpoint files) and the logger."""
    homes = ("gfile.", "io.gfile.", "get_logger", "train.latest_checkpoint", "train.get_checkpoint_state")
    return any(n.startswith(tuple(f"tensorflow.{p}{h}" for h in homes for p in ("", "compat.v1."))) for n in names)
