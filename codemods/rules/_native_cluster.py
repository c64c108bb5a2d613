"""native-session's port of TF1's between-graph cluster training (the platform's uai_dist scripts) to
ParameterServerStrategy.

The shape (tests/corpus/uai_dist_local.py): a function of the module builds the graph once and returns
`tf.train.<Name>Optimizer(...).minimize(loss, global_step), t1, ...` (its statements tf.Variable,
get_or_create_global_step and tensor expressions); the function running it, `main`, first sets up the cluster (the
uai_dist parser, a ClusterSpec, a tf.train.Server, a replica_device_setter, the master and is_chief values: names read
afterwards only as the session's master and is_chief and the device the graph is built under), then calls the
builder (`train_op, t1, ... = build()`, under `with tf.device(<setup name>):` or not), then
`with tf.train.MonitoredTrainingSession(master=..., is_chief=..., hooks=[StopAtStepHook(last_step=N)]) as sess:`
around `while not sess.should_stop():` whose body fetches `sess.run([train_op, t1, ...])` once, subscripted
(`[k]`) or unpacked (`_, a = ...`), and nothing after it.

The port (the roles change, as native-session's explain says): the setup is `strategy = compat.strategy()` (ps and
worker tasks serve there, the chief, the platform's master, gets ParameterServerStrategy, no cluster one device); the
builder makes the variables (TF1's names), the global step and the Keras optimizer, called under `strategy.scope()`,
and returns a tf.function train step (the tensors computed under a GradientTape, the update applied, the global step
incremented after it, the fetched tensors returned) with the global step; the loop is
`for values in compat.train_steps.steps(strategy, train_step, global_step, N):` (compat/train_steps.py: the chief
schedules the steps on the workers, the fetched values in order), the body reading `values` where it read sess.run.

A random op is the graph's first op, drawn where a graph seed is set: its TF1 op seed (the graph's op count then: 3,
its shape, mean and stddev constants) is written out, so the port draws TF1's numbers; any other random op is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import libcst as cst

from codemods.rules import _native_tables as tables
from codemods.rules import _tf
from codemods.rules._native_monitored import GLOBAL_STEP, TRAINING, stop_hook, stop_hook_updated
from codemods.rules._native_names import OPTIMIZERS, SEED, VARIABLE, VARIABLE_LIBRARIES, tf1_names
from codemods.rules._native_syntax import Refused, arguments, bound_names, descendants, names_in, source_of
from codemods.rules._shared import SWITCH_NAMES, graph_names

# the random ops whose TF1 op seed the port writes (TF 1.15 made 3 constants before reading the seed: shape, mean,
# stddev), and the names of every other random op (refused: their draws would differ)
FIRST_RANDOM = tf1_names("random_normal", "random.normal", "truncated_normal", "random.truncated_normal")
FIRST_OP_SEED = 3
# the names the port binds in the builder and in main
_BOUND = ("strategy", "train_step", "optimizer", "values", "tape", "variables")


def is_cluster_session(rule: Any, call: cst.Call) -> bool:
    """Is `call` a MonitoredTrainingSession given a master or is_chief (a cluster's, possibly)?"""
    keywords = {a.keyword.value for a in call.args if a.keyword is not None}
    return rule.is_call(call, TRAINING) is not None and bool({"master", "is_chief"} & keywords)


def port(rule: Any, original: cst.Module, updated: cst.Module, call: cst.Call) -> cst.Module | None:
    """The converted module, its entry reported; None where `call` is no cluster's session of the shape (the caller
    reports the session's entry, which says what the port converts: _native_monitored.CLUSTER)."""
    if not is_cluster_session(rule, call):
        return None
    try:
        converted, said = _Port(rule, original, updated, call).convert()
    except Refused:
        return None
    rule.report(call, said, native=True, statement=_top(original, call))
    return converted


def _top(module: cst.Module, node: cst.CSTNode) -> int:
    return next((i for i, stmt in enumerate(module.body) if any(n is node for n in descendants(stmt))), 0)


class _Port:
    def __init__(self, rule: Any, original: cst.Module, updated: cst.Module, call: cst.Call) -> None:
        self.rule, self.original, self.updated, self.call = rule, original, updated, call
        self.functions = {
            s.name.value: s
            for s in original.body
            if isinstance(s, cst.FunctionDef) and isinstance(s.body, cst.IndentedBlock)
        }

    def up(self, node: cst.CSTNode) -> Any:
        """A statement as the safe pass left it."""
        return self.rule._updated.get(id(node), node)  # noqa: SLF001 - the rule's record, shared with its helpers

    # -- main: setup, build, session
    def convert(self) -> tuple[cst.Module, str]:
        main = next((f for f in self.functions.values() if any(n is self.call for n in descendants(f))), None)
        if main is None:
            raise Refused(self.call, "a cluster's MonitoredTrainingSession outside a function of the module")
        body = list(cast(cst.IndentedBlock, main.body).body)
        session = next(i for i, s in enumerate(body) if any(n is self.call for n in descendants(s)))
        if session != len(body) - 1:
            raise Refused(body[session + 1], "statements after a cluster's training session")
        with_ = body[session]
        if not (isinstance(with_, cst.With) and len(with_.items) == 1 and with_.items[0].item is self.call):
            raise Refused(with_, "a cluster's MonitoredTrainingSession not used as `with ... as sess:`")
        build_at = next((i for i, s in enumerate(body[:session]) if self._build_call(s) is not None), None)
        if build_at is None:
            raise Refused(main, "no `train_op, ... = build()` of a function of the module before the session")
        setup = body[:build_at]
        setup_names = set().union(set(), *(bound_names(s) for s in setup))
        self._check_setup(setup, setup_names)
        hooks = body[build_at + 1 : session]
        builder, targets, device = self._build_call(body[build_at])  # type: ignore[misc]
        if device is not None and not set(names_in(device).names) <= setup_names | {"None"}:
            raise Refused(body[build_at], "the graph built under a device that is not the cluster setup's")
        last_step, hook_names = self._hooks(hooks, with_)
        self._session_keywords(setup_names)
        for name in _BOUND:
            if name in self.rule.module_names():
                raise Refused(main, f"`{name}`, a name the port binds, is used in this module")
        if self.rule.module_names().get(builder.name.value, 0) != 2:
            raise Refused(builder, f"`{builder.name.value}`, the graph's builder, is used besides its one call")
        built, returned, said = self._builder(builder)
        if len(returned) != len(targets) - 1:
            raise Refused(body[build_at], "the builder's results unpacked into other names than it returns")
        loop = self._loop(with_, targets)
        built_at = body[build_at]
        if isinstance(built_at, cst.With):
            built_at = cast(cst.IndentedBlock, built_at.body).body[0]
        statements = list(cast(cst.IndentedBlock, loop.body).body)
        later = [built_at, *hooks, *statements]
        read = set().union(set(), *(names_in(s).names for s in later)) & setup_names
        if read:
            raise Refused(with_, f"`{min(read)}`, of the cluster setup, read besides as master, is_chief and device")
        new_main = cst.parse_statement(
            f"def {main.name.value}({source_of(main.params)}):\n"
            f"    strategy = compat.strategy()\n"
            f"    with strategy.scope():\n"
            f"        train_step, {self.step} = {builder.name.value}()\n"
            f"    for values in compat.train_steps.steps(strategy, train_step, {self.step}, {last_step}):\n"
            f"        pass\n"
        )
        new_main = _with_loop_body(cast(cst.FunctionDef, new_main), statements)
        new_main = new_main.with_changes(leading_lines=self.up(main).leading_lines)
        self.rule.add_needed_import("compat.train_steps")
        _tf.ensure_compat(self.rule)
        removed = [*setup, *hooks]
        module = self._module({builder.name.value: built, main.name.value: new_main}, removed)
        self._drop_reports(main, builder, removed)
        return module, "; ".join(said)

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

    def _check_setup(self, setup: Sequence[cst.BaseStatement], names: set[str]) -> None:
        """The statements before the build bind only the setup's names, and run only calls on them or to build them
        (the uai_dist parser, ClusterSpec, Server, replica_device_setter)."""
        for stmt in setup:
            for node in descendants(stmt):
                if isinstance(node, (cst.Return, cst.Raise, cst.For, cst.While, cst.Try, cst.FunctionDef, cst.Global)):
                    raise Refused(node, "cluster setup code that is not assignments and calls (a return, loop, def)")
                if isinstance(node, cst.Expr) and not (
                    isinstance(node.value, cst.Call)
                    and isinstance(node.value.func, cst.Attribute)
                    and isinstance(node.value.func.value, cst.Name)
                    and node.value.func.value.value in names
                ):
                    raise Refused(node, "a statement of the cluster setup that is not a call on its objects")
            for call in names_in(stmt).calls:
                if self.rule.tf_names(call) - _SETUP_CALLS and self.rule.tf_names(call):
                    raise Refused(call, f"{source_of(call.func)} in the cluster setup, which the port does not run")

    def _session_keywords(self, setup: set[str]) -> None:
        keywords = {a.keyword.value: a.value for a in self.call.args if a.keyword is not None}
        if len(keywords) != len(self.call.args) or set(keywords) - {"master", "is_chief", "hooks"}:
            others = sorted(set(keywords) - {"master", "is_chief", "hooks"}) or ["positional arguments"]
            raise Refused(self.call, f"a cluster's MonitoredTrainingSession with {', '.join(others)}")
        for key in ("master", "is_chief"):
            if key in keywords and not set(names_in(keywords[key]).names) <= setup:
                raise Refused(self.call, f"{key}= of a value that is not the cluster setup's")

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

    def _loop(self, with_: cst.With, targets: list[str]) -> cst.While:
        sess = with_.items[0].asname
        if sess is None or not isinstance(sess.name, cst.Name) or not isinstance(with_.body, cst.IndentedBlock):
            raise Refused(with_, "a cluster's MonitoredTrainingSession not used as `with ... as sess:`")
        name = sess.name.value
        body = list(with_.body.body)
        loop = body[0] if len(body) == 1 else None
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
        return converted

    # -- the builder
    def _builder(self, fn: cst.FunctionDef) -> tuple[cst.FunctionDef, list[str], list[str]]:
        if source_of(fn.params).strip() or fn.decorators:
            raise Refused(fn, f"`{fn.name.value}`, the graph's builder, with parameters or decorators")
        statements = list(cast(cst.IndentedBlock, fn.body).body)
        seeded = any(self.rule.is_call(c, SEED) for s in self.original.body for c in names_in(s).calls)
        made: list[str] = []  # the variables' code
        computed: list[str] = []  # the tensors' code
        graph: set[str] = set()
        self.step = ""
        numbered = 0
        for index, stmt in enumerate(statements[:-1]):
            small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 else None
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
            elif self.rule.is_call(value, GLOBAL_STEP) and not cast(cst.Call, value).args:
                self.step = name
                made.append(
                    f'{name} = {self.alias}.Variable(0, dtype={self.alias}.int64, trainable=False, name="global_step")'
                )
            elif any(self.rule.tf_names(c) & graph_names() for c in calls):
                raise Refused(stmt, f"{source_of(value)}: graph state the port does not make")
            else:
                why = (
                    f"  # (TF1's op seed: the graph held {FIRST_OP_SEED} ops when it drew)" if random and seeded else ""
                )
                computed.append(f"{name} = {source_of(new)}{why}")
            graph.add(name)
        returned = statements[-1]
        ret = returned.body[0] if isinstance(returned, cst.SimpleStatementLine) and len(returned.body) == 1 else None
        if not (isinstance(ret, cst.Return) and isinstance(ret.value, cst.Tuple)):
            raise Refused(returned, "a builder not ending in `return <optimizer>.minimize(loss, global_step), tensors`")
        minimize, *tensors = [e.value for e in ret.value.elements]
        fetched = [t.value for t in tensors if isinstance(t, cst.Name) and t.value in graph]
        if len(fetched) != len(tensors) or not tensors:
            raise Refused(returned, "the builder returns values that are not its tensors")
        func = minimize.func if isinstance(minimize, cst.Call) else None
        if not (
            isinstance(func, cst.Attribute)
            and func.attr.value == "minimize"
            and self.rule.is_call(func.value, OPTIMIZERS)
        ):
            raise Refused(returned, "the builder's train op is not a tf.train optimizer's minimize(loss, global_step)")
        minimized = arguments(cast(cst.Call, minimize), ("loss", "global_step"), returned, "minimize()")
        loss, step = minimized.get("loss"), minimized.get("global_step")
        if (
            not (loss and step and isinstance(loss.value, cst.Name) and isinstance(step.value, cst.Name))
            or step.value.value != self.step
        ):
            raise Refused(returned, "minimize without (loss, the global step of get_or_create_global_step())")
        kind = OPTIMIZERS[cast(str, self.rule.is_call(func.value, OPTIMIZERS))]
        new_ret = cast(cst.Return, cast(cst.SimpleStatementLine, self.up(returned)).body[0])
        optimizer = cast(cst.Attribute, cast(cst.Call, cast(cst.Tuple, new_ret.value).elements[0].value).func).value
        row = tables.OPTIMIZERS[kind]
        values = {
            p: source_of(a.value) for p, a in arguments(cast(cst.Call, optimizer), row.params, returned, kind).items()
        }
        if "use_locking" in values or tables.renamed_slots(kind, values):
            raise Refused(returned, f"tf.train.{kind}(use_locking= or name=)")
        for given_value in values.values():
            if set(names_in(cst.parse_expression(given_value)).names) & graph:
                raise Refused(returned, f"tf.train.{kind} of the graph's values (the Keras optimizer is made once)")
        code, changed = tables.keras_optimizer(self.alias, kind, values)
        indent = "            "
        lines = [
            f"def {fn.name.value}():",
            *(f"    {line}" for line in made),
            f"    optimizer = {code}",
            "",
            f"    @{self.alias}.function",
            "    def train_step():",
            f"        with {self.alias}.GradientTape() as tape:",
            *(f"{indent[:8]}    {line}" for line in computed),
            "        variables = tape.watched_variables()",
            f"        optimizer.apply_gradients(zip(tape.gradient({loss.value.value}, variables), variables))",
            f"        {self.step}.assign_add(1)",
            f"        return ({', '.join(fetched)},)",
            "",
            f"    return train_step, {self.step}",
        ]
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
        if seeded and any("random" in n for c in names_in(fn).calls for n in self.rule.tf_names(c)):
            said.append(f"the graph's first op, a random op, given TF1's op seed {FIRST_OP_SEED} (TF1's numbers)")
        return built, fetched, said

    @property
    def alias(self) -> str:
        return _tf.tf_alias(self.rule, self.call.func)

    # -- the module
    def _module(self, functions: dict[str, cst.BaseStatement], removed: list[cst.BaseStatement]) -> cst.Module:
        switches = [c for c in names_in(self.original).calls if self.rule.is_call(c, SWITCH_NAMES)]
        if switches:
            raise Refused(switches[0], "the file switches eager execution itself")
        gone = set().union(set(), *(names_in(s).names for s in removed))
        body: list[cst.BaseStatement] = []
        for stmt in self.updated.body:
            if isinstance(stmt, cst.FunctionDef) and stmt.name.value in functions:
                body.append(functions[stmt.name.value])
                continue
            code = source_of(stmt).strip()
            if code.endswith("()") and ".compat.v1.disable_" in code and "\n" not in code:
                continue  # (graph-mode's switches, written by the safe pass: the port runs eagerly)
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


def _with_loop_body(fn: cst.FunctionDef, statements: Sequence[cst.BaseStatement]) -> cst.FunctionDef:
    body = list(cast(cst.IndentedBlock, fn.body).body)
    loop = cast(cst.For, body[-1])
    body[-1] = loop.with_changes(body=loop.body.with_changes(body=list(statements)))
    return fn.with_changes(body=fn.body.with_changes(body=body))
