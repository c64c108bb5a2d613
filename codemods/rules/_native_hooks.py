"""native-estimator-loop's reading of an Estimator's hooks, and their port around the loop's steps (Refused where a
hook is not one the port reproduces).

Two kinds are ported, as TF 2.15's Estimator ran them (measured with its real Estimator, the tf1 environment):
- the model_fn's `training_hooks=[LoggingTensorHook({"tag": loss, ...}, every_n_iter=N | every_n_secs=S)]`: its
  line on TensorFlow's logger (tf.get_logger(), the logger TF1's tf_logging wrote to), the tags in sorted order as
  "tag = value" joined by ", ", at the first step and then every N steps of this train (or, decided before the step,
  once S seconds passed since the last), the later ones followed by " (x.xxx sec)", the time since the last line;
  logged after the Estimator's own loss/step line, as the hook came after it in the session's hook list;
- train(hooks=[Hook()]) of a class of the module subclassing SessionRunHook with only begin(self), before_run
  returning `SessionRunArgs(self.<attr>)` of the global step begin bound, after_run reading `run_values.results`,
  and end(session) not reading the session, all plain Python besides: the class keeps its Python, begin() is called
  where the train starts, after_run(results) after each step before the Estimator's loss/step line (the train's hooks
  came first in the session's list), end() after the last checkpoint. TF1 fetched the global step in the train op's
  session.run, where its read races the op's increment: on TF 2.15 the hook saw the step before the update (as the
  Estimator's own `step = ` in the same run did), and now and then at the last step the one after it; the port
  gives after_run the global step before the step's update (a NumPy int64, as the fetch returned).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import cast

import libcst as cst

from codemods.rules._native_syntax import Refused, arguments, collect, names_in, single, source_of
from codemods.rules._tf_bindings import tf_imports

# the modules a LoggingTensorHook, SessionRunHook or SessionRunArgs name is imported from (before and after tf-private)
_HOOK_MODULES = (
    "tensorflow.compat.v1.train",
    "tensorflow.train",
    "tensorflow.python.training.basic_session_run_hooks",
    "tensorflow.python.training.session_run_hook",
)
_METHODS = ("begin", "before_run", "after_run", "end")
EXPLAINED = (
    'Hooks: the model_fn\'s `training_hooks=[LoggingTensorHook({"tag": loss, ...}, every_n_iter=N)]` (or '
    "every_n_secs=S, decided before the step as its timer did) becomes its line on tf.get_logger(), the logger TF1 "
    "wrote to: the tags sorted, `tag = value` joined by `, `, at the first step of the train and then every N steps "
    "(or once S seconds passed), the later lines followed by ` (x.xxx sec)`, after the loop's `loss = ..., step = ...` "
    "line as TF 2.15's Estimator ordered them. A train(hooks=[Hook()]) of a SessionRunHook class of the module with "
    "only begin, a before_run returning `SessionRunArgs(self.<the global step begin bound>)`, an after_run reading "
    "`run_values.results` (not its run_context) and an end not reading its session keeps its Python as a plain class "
    "(begin(), after_run(results), end()), called where the Estimator's session called them: begin where the train "
    "starts (nothing where it trains nothing), after_run after each step before the loop's loss line, end after the "
    "last checkpoint. Its results: TF1 fetched the global step in the train op's session.run, where the read races "
    "the increment; measured on TF 2.15 it read the step before the update (as the Estimator's own `step =` in the "
    "same run did) and now and then, at the last step, the one after; the port gives after_run the step before the "
    "update, a NumPy int64 as the fetch returned. At_end=, formatter=, a tensor other than the loss, hooks in "
    "train(hooks=) of TF's own classes or other methods keep the program on the Estimator with one entry naming why."
)
WHAT_DIFFERS = (
    "Hooks: a LoggingTensorHook's `(x.xxx sec)` is the time the port's steps took; a SessionRunHook's after_run gets "
    "the global step before the step's update, which TF1's fetch in the train op's session.run usually read (it raced "
    "the increment: now and then the step after it)"
)


@dataclasses.dataclass
class HookPort:
    """The port's lines for the hooks, each list at its place in the loop (relative indentation)."""

    bound: set[str] = dataclasses.field(default_factory=set)  # the names they bind where the train was
    classes: dict[int, cst.ClassDef] = dataclasses.field(default_factory=dict)  # each hook class -> its port
    imports: list[tuple[str, str]] = dataclasses.field(default_factory=list)  # (module, name) they imported
    start: list[str] = dataclasses.field(default_factory=list)  # where the train starts, before its checkpoint
    loop_start: list[str] = dataclasses.field(default_factory=list)  # before the loop
    before_step: list[str] = dataclasses.field(default_factory=list)
    after_step: list[str] = dataclasses.field(default_factory=list)  # before the Estimator's loss/step line
    after_log: list[str] = dataclasses.field(default_factory=list)  # after it
    end: list[str] = dataclasses.field(default_factory=list)  # after the last checkpoint
    said: list[str] = dataclasses.field(default_factory=list)


def _spec_hooks(model_fn: cst.FunctionDef, is_: Callable[..., bool]) -> tuple[cst.Call | None, cst.Arg | None]:
    """The model_fn's last `return EstimatorSpec(...)` and its training_hooks= argument, if any."""
    body = model_fn.body.body if isinstance(model_fn.body, cst.IndentedBlock) else []
    last = single(cast(cst.BaseStatement, body[-1])) if body else None
    spec = last.value if isinstance(last, cst.Return) else None
    if not (isinstance(spec, cst.Call) and is_(spec.func, "estimator.EstimatorSpec")):
        return None, None
    found = [a for a in spec.args if a.keyword is not None and a.keyword.value == "training_hooks"]
    return spec, (found[0] if found else None)


class Hooks:
    """One module's Estimator hooks (the model_fn's training_hooks, the train's hooks=)."""

    def __init__(self, module: cst.Module, tf: str, is_: Callable[..., bool]) -> None:
        self.module, self.tf, self.is_ = module, tf, is_
        self.port = HookPort()
        # names imported from the hooks' modules: name -> (module, name)
        self.imported: dict[str, tuple[str, str]] = {}
        for binding in tf_imports(module).bindings:
            where, name, _ = binding.imported
            if where in _HOOK_MODULES and name is not None:
                self.imported[binding.name] = (where, name)

    def _named(self, node: cst.BaseExpression, name: str) -> bool:
        """`node` is TF's train.<name> (tf.train., tf.compat.v1.train., session_run_hook., a name imported)."""
        text = source_of(node)
        if self.is_(node, f"train.{name}") or text in (f"session_run_hook.{name}", f"training_util.{name}"):
            return True
        if isinstance(node, cst.Name) and self.imported.get(text, ("", ""))[1] == name:
            self.port.imports.append(self.imported[text])
            return True
        return False

    def without_training_hooks(self, model_fn: cst.FunctionDef) -> cst.FunctionDef:
        """The model_fn without its EstimatorSpec's training_hooks= (each a LoggingTensorHook of the spec's loss, read
        into the port's lines), as the model_fn reader takes it."""
        spec, given = _spec_hooks(model_fn, self.is_)
        if spec is None or given is None:
            return model_fn
        losses = [a.value for a in spec.args if a.keyword is not None and a.keyword.value == "loss"]
        loss = losses[0].value if losses and isinstance(losses[0], cst.Name) else None
        dropped: set[int] = set()  # the model_fn's lines binding the hooks or their list
        hooks = _bound(model_fn, given.value, dropped)
        if not isinstance(hooks, cst.List):
            raise Refused(given, "training_hooks= other than a list written out (or a name bound once to one)")
        for element in hooks.elements:
            self._logging(_bound(model_fn, element.value, dropped), loss)
        args = [a for a in spec.args if a is not given]
        args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        new_spec = spec.with_changes(args=args)

        class Strip(cst.CSTTransformer):
            def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
                return new_spec if original is spec else updated

            def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:  # type: ignore[override]
                if id(original) in dropped:
                    return cast(cst.CSTNode, cst.RemoveFromParent())
                return cast(cst.CSTNode, super().on_leave(original, updated))

        return cast(cst.FunctionDef, model_fn.visit(Strip()))

    def _logging(self, hook: cst.BaseExpression, loss: str | None) -> None:
        """A LoggingTensorHook of the loss -> the port's lines (after the Estimator's loss/step line)."""
        if not (isinstance(hook, cst.Call) and self._named(hook.func, "LoggingTensorHook")):
            raise Refused(hook, f"training_hooks={source_of(hook)}: a hook other than a LoggingTensorHook of the loss")
        args = arguments(
            hook, ("tensors", "every_n_iter", "every_n_secs", "at_end", "formatter"), hook, "LoggingTensorHook"
        )
        if "at_end" in args and source_of(args["at_end"].value) != "False":
            raise Refused(
                hook,
                "LoggingTensorHook(at_end=...): its end() ran its tensors again in the session (one more batch of "
                "the input), which the port does not",
            )
        if "formatter" in args and source_of(args["formatter"].value) != "None":
            raise Refused(hook, "LoggingTensorHook(formatter=...), a function of the values the rule does not read")
        every = [k for k in ("every_n_iter", "every_n_secs") if k in args and source_of(args[k].value) != "None"]
        if len(every) != 1:
            raise Refused(
                hook,
                "LoggingTensorHook without exactly one of every_n_iter and every_n_secs (TF1 raised ValueError, or "
                "logged only at its end)",
            )
        value = args[every[0]].value
        number = isinstance(value, cst.Integer) or (isinstance(value, cst.Float) and every[0] == "every_n_secs")
        if not (number and float(cast(cst.Integer, value).evaluated_value) > 0):
            raise Refused(hook, f"LoggingTensorHook({every[0]}={source_of(value)}), not a positive number written out")
        tensors = args["tensors"].value if "tensors" in args else None
        if not isinstance(tensors, cst.Dict):
            raise Refused(hook, "LoggingTensorHook of tensors other than a dict written out (a list: graph names)")
        tags: list[str] = []
        for element in tensors.elements:
            if not (isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString)):
                raise Refused(hook, "LoggingTensorHook of a dict whose keys are not strings written out")
            if not (isinstance(element.value, cst.Name) and element.value.value == loss):
                raise Refused(
                    hook,
                    f"LoggingTensorHook of a tensor other than the loss (`{source_of(element.value)}`), which the "
                    "port's model() does not return",
                )
            tags.append(cast(str, element.key.evaluated_value))
        if len(set(tags)) != len(tags):
            raise Refused(hook, "LoggingTensorHook of a dict with a key written twice")
        self._logging_lines(sorted(tags), every[0], source_of(value))

    def _logging_lines(self, tags: list[str], every: str, value: str) -> None:
        count = len([n for n in self.port.bound if n.startswith("logged")])
        suffix = "" if count == 0 else f"_{count + 1}"
        logged, due = f"logged{suffix}", f"due{suffix}"
        self.port.bound |= {logged, due, "now"}
        text = json.dumps(", ".join(f"{tag.replace('%', '%%')} = %s" for tag in tags))
        timed = json.dumps(json.loads(text) + " (%.3f sec)")
        values = ", ".join("loss.numpy()" for _ in tags)
        self.port.loop_start.append(f"{logged} = None  # (LoggingTensorHook's last log: (iteration, time))")
        if every == "every_n_iter":
            trigger = (
                f"if {logged} is None or iteration >= {logged}[0] + {value}:  # (LoggingTensorHook({every}={value}))"
            )
        else:  # (its timer decided in before_run, before the step)
            self.port.before_step.append(f"{due} = {logged} is None or time.time() >= {logged}[1] + {value}")
            trigger = f"if {due}:  # (LoggingTensorHook({every}={value}))"
        self.port.after_log += [
            trigger,
            "    now = time.time()",
            f"    if {logged} is None:",
            f"        {self.tf}.get_logger().info({text}, {values})",
            "    else:",
            f"        {self.tf}.get_logger().info({timed}, {values}, now - {logged}[1])",
            f"    {logged} = (iteration, now)",
        ]
        first = "the first step, then every " + (f"{value} steps" if every == "every_n_iter" else f"{value} seconds")
        self.port.said.append(
            f"LoggingTensorHook({every}={value}) of the loss -> its line on tf.get_logger() ({first})"
        )

    def train_hooks(self, given: cst.Arg | None) -> None:
        """train(hooks=[Hook(), ...]) -> the port's calls of their begin, after_run and end."""
        if given is None:
            return
        if not isinstance(given.value, cst.List):
            raise Refused(given, "train(hooks=) other than a list written out")
        calls = [element.value for element in given.value.elements]
        names = [f"hook_{i + 1}" if len(calls) > 1 else "hook" for i in range(len(calls))]
        fetched = False
        for name, call in zip(names, calls):
            if isinstance(call, cst.Call) and self._named(call.func, "LoggingTensorHook"):
                raise Refused(
                    call, "a LoggingTensorHook in train(hooks=): its tensors are named in the Estimator's graph"
                )
            found = self._hook_class(call)
            methods = {f.name.value for f in collect(found, cst.FunctionDef)}
            self.port.bound.add(name)
            self.port.start.append(
                f"{name} = {source_of(call)}  # (train(hooks=[{source_of(call)}]), its methods called where the "
                "Estimator's session called them)"
            )
            if "begin" in methods:
                self.port.start.append(f"{name}.begin()")
            if "after_run" in methods:
                fetched |= "before_run" in methods
                self.port.after_step.append(f"{name}.after_run({'seen' if 'before_run' in methods else 'None'})")
            if "end" in methods:
                self.port.end.append(f"{name}.end()")
            self.port.said.append(
                f"{source_of(call)}'s {', '.join(m for m in _METHODS if m in methods and m != 'before_run')} called "
                "around the steps as the Estimator's session called them"
            )
        if fetched:
            self.port.bound.add("seen")
            self.port.before_step.append(
                "seen = global_step.numpy()  # (the global step the hooks' SessionRunArgs fetched with the train op)"
            )

    def _hook_class(self, call: cst.BaseExpression) -> cst.ClassDef:
        """The module's SessionRunHook class `call` makes (no arguments), its port recorded."""
        classes = [s for s in self.module.body if isinstance(s, cst.ClassDef)]
        func = call.func if isinstance(call, cst.Call) else None
        found = [c for c in classes if isinstance(func, cst.Name) and c.name.value == func.value]
        why = "a hook other than a call of a SessionRunHook class of the module, without arguments"
        if not (isinstance(call, cst.Call) and not call.args and len(found) == 1):
            raise Refused(call, why)
        hook = found[0]
        if (
            len(hook.bases) != 1
            or hook.keywords
            or hook.decorators
            or not self._named(hook.bases[0].value, "SessionRunHook")
        ):
            raise Refused(call, why)
        if names_in(self.module).names.count(hook.name.value) != 2:
            raise Refused(call, f"the hook class `{hook.name.value}` is read elsewhere")
        body = list(cast(cst.IndentedBlock, hook.body).body)
        methods = [s for s in body if isinstance(s, cst.FunctionDef)]
        docstring = body[:1] if body and isinstance(single(body[0]), cst.Expr) else []
        if len(methods) + len(docstring) != len(body) or any(
            m.name.value not in _METHODS or m.decorators for m in methods
        ):
            raise Refused(hook, "a hook class with a method other than begin, before_run, after_run and end (or more)")
        by_name = {m.name.value: m for m in methods}
        step = self._begin(hook, by_name)
        ported: list[cst.BaseStatement] = list(docstring)
        for method in methods:
            new = self._method(hook, method, step)
            if new is not None:
                ported.append(new)
        new_class = hook.with_changes(
            bases=[],
            lpar=cst.MaybeSentinel.DEFAULT,
            rpar=cst.MaybeSentinel.DEFAULT,
            body=hook.body.with_changes(body=ported or [cst.SimpleStatementLine([cst.Pass()])]),
        )
        reads = [n for n in names_in(new_class).names if n == self.tf or n in ("session_run_hook", "training_util")]
        if reads or "compat.v1" in source_of(new_class):
            raise Refused(hook, f"the hook class `{hook.name.value}` has TensorFlow in its methods (graph code)")
        self.port.classes[id(hook)] = new_class
        return hook

    def _begin(self, hook: cst.ClassDef, methods: dict[str, cst.FunctionDef]) -> str | None:
        """The attribute begin() binds to the global step (`self.<attr> = get_global_step()`), if any."""
        begin = methods.get("begin")
        if begin is None:
            return None
        steps = [
            s
            for s in cast(cst.IndentedBlock, begin.body).body
            if isinstance(small := single(s), cst.Assign)
            and len(small.targets) == 1
            and isinstance(small.value, cst.Call)
            and not small.value.args
            and (
                self._named(small.value.func, "get_global_step")
                or self._named(small.value.func, "get_or_create_global_step")
            )
        ]
        if not steps:
            return None
        target = cast(cst.Assign, single(steps[0])).targets[0].target
        if len(steps) > 1 or not (isinstance(target, cst.Attribute) and source_of(target.value) == "self"):
            raise Refused(hook, "a hook's begin() binding the global step other than to one `self.<attribute>`")
        return target.attr.value

    def _method(self, hook: cst.ClassDef, method: cst.FunctionDef, step: str | None) -> cst.FunctionDef | None:
        """A hook method's port: begin without the global step's line, before_run gone (the port fetches the step),
        after_run(self, results), end(self)."""
        name, params = method.name.value, [p.name.value for p in method.params.params]
        body = list(cast(cst.IndentedBlock, method.body).body)
        reads = names_in(method.body).names
        if method.params.star_arg != cst.MaybeSentinel.DEFAULT or method.params.kwonly_params:
            raise Refused(method, f"a hook's {name}() of other parameters than SessionRunHook's")
        expected = {"begin": 1, "before_run": 2, "after_run": 3, "end": 2}[name]
        if len(params) != expected or method.params.star_kwarg is not None:
            raise Refused(method, f"a hook's {name}() of other parameters than SessionRunHook's")
        attribute = f"self.{step}" if step is not None else None
        text = source_of(method.body)
        if name == "before_run":
            returned = single(body[0]) if len(body) == 1 else None
            fetch = returned.value if isinstance(returned, cst.Return) else None
            if not (
                attribute is not None
                and isinstance(fetch, cst.Call)
                and self._named(fetch.func, "SessionRunArgs")
                and len(fetch.args) == 1
                and fetch.args[0].keyword is None
                and source_of(fetch.args[0].value) == attribute
            ):
                raise Refused(
                    method, "a hook's before_run other than `return SessionRunArgs(self.<the global step begin read>)`"
                )
            return None
        if attribute is not None and name != "begin" and attribute in text:
            raise Refused(method, f"a hook reading {attribute} (the global step tensor) besides its before_run")
        if name == "begin":
            kept = [s for s in body if not (step is not None and _binds(s, f"self.{step}"))]
            if attribute is not None and attribute in "".join(source_of(s) for s in kept):
                raise Refused(method, f"a hook reading {attribute} (the global step tensor) besides its before_run")
            return method.with_changes(
                body=method.body.with_changes(body=kept or [cst.SimpleStatementLine([cst.Pass()])])
            )
        if name == "after_run":
            context, values = params[1], params[2]
            if context in reads:
                raise Refused(method, "a hook's after_run that reads its run_context (request_stop, the session)")
            if "results" in reads or "results" in params:
                raise Refused(method, "a hook's after_run that reads `results` (the name its port takes)")
            read_as = [a for a in collect(method.body, cst.Attribute) if source_of(a.value) == values]
            if reads.count(values) != len(read_as) or any(a.attr.value != "results" for a in read_as):
                raise Refused(method, "a hook's after_run that reads its run_values other than as .results")

            class Results(cst.CSTTransformer):
                def leave_Attribute(self, original: cst.Attribute, updated: cst.Attribute) -> cst.BaseExpression:
                    return cst.Name("results") if source_of(original.value) == values else updated

            new_body = cast(cst.IndentedBlock, method.body.visit(Results()))
            new_params = method.params.with_changes(
                params=[
                    method.params.params[0].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))),
                    cst.Param(cst.Name("results")),
                ]
            )
            return method.with_changes(params=new_params, body=new_body)
        # end(self, session)
        if params[1] in reads:
            raise Refused(method, "a hook's end() that reads its session, which the port does not have")
        return method.with_changes(
            params=method.params.with_changes(
                params=[method.params.params[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)]
            )
        )


def _binds(stmt: cst.BaseStatement, target: str) -> bool:
    """`<target> = ...`."""
    small = single(stmt)
    return isinstance(small, cst.Assign) and len(small.targets) == 1 and source_of(small.targets[0].target) == target


def _bound(model_fn: cst.FunctionDef, value: cst.BaseExpression, dropped: set[int]) -> cst.BaseExpression:
    """`value`, or where it is a name the model_fn binds once at its top level and reads only here, what it binds
    (that line's id added to `dropped`)."""
    if not isinstance(value, cst.Name):
        return value
    body = model_fn.body.body if isinstance(model_fn.body, cst.IndentedBlock) else []
    lines = [s for s in body if _binds(cast(cst.BaseStatement, s), value.value)]
    if len(lines) != 1 or names_in(model_fn).names.count(value.value) != 2:
        return value
    dropped.add(id(lines[0]))
    return cast(cst.Assign, single(cast(cst.BaseStatement, lines[0]))).value
