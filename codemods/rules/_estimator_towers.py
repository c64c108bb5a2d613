"""native-estimator-loop's reading of a model_fn of towers that average their own gradients (cifar10_estimator's
shape, as native-layers leaves it): `for i in range(n):` under `variable_scope(name, reuse=bool(i != 0))`, each tower
calling module functions whose layers are `compat.scoped_layers.layer(...)` and whose `tf.gradients(loss,
tf.trainable_variables())` are its gradients, the first tower's batch normalization updates read under `if i == 0:`,
the gradients averaged and applied by one `tf.train` optimizer's `apply_gradients(averaged, global_step=...)` under
`control_dependencies` of those updates. Or (the corpus's estimator_towers) towers of Keras layers made in the first tower
(`if i == 0:`, as native-layers makes them) and called by every tower, and one `tf.train` optimizer's
`minimize(loss, global_step)` of their mean loss after the loop: one gradient of that loss over the towers' shared
variables (compat.eager_towers.compute_gradients), each layer the one of its variable scope's path, named as Keras named
it in TF1's graph.

The port keeps the model_fn's statements as model(features, labels, training), returning (loss, averaged), and the
functions its towers call, with compat.eager_towers standing for what eager TF 2 lacks: the variable scopes and the
layers of their paths (TF1's names), the trainable variables' collection, each tower's tf.gradients (the train step's
tape) and the first tower's updates alone (the later towers' put back). A device function of the file given to
`compat.device` is not run (eager TF 2 takes none): the towers' ops go where TF 2 places them. Anything else is
Refused with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import cast

import libcst as cst

from codemods.rules._estimator_model_fn import RANDOM_LAYERS, keras_optimizer, minimized
from codemods.rules._layer_names import default_name, named_alike
from codemods.rules._native_syntax import Refused, arguments, assigned, collect, names_in, single, source_of

RUNTIME = "compat.eager_towers"
_BUILTINS = frozenset({"max", "min", "int", "bool", "len", "list", "zip", "range", "float", "tuple", "enumerate"})
# graph code left after the rewrite: the port cannot run it eagerly
_GRAPH = re.compile(
    r"compat\.v1|compat\.scoped_layers|compat\.device|\.estimator\.|get_collection|random|dropout|Variable\(|"
    r"tf\.gradients|" + "|".join(rf"\b{kind}\b" for kind in sorted(RANDOM_LAYERS))
)


class Towers:
    """A model_fn of towers averaging their gradients, read and rewritten (see the module's doc)."""

    def __init__(self, tf: str, is_: Callable[..., bool], module: cst.Module, node: cst.FunctionDef) -> None:
        self.tf, self.is_, self.module, self.node = tf, is_, module, node
        self.optimizer: str | None = None
        self.said = ""
        self.global_step: str | None = None
        self.setters: dict[str, str] = {}  # a device function's value -> the module function making it
        self.updates: str | None = None  # the first tower's updates read
        self.applied: tuple[str, str, str | None] | None = None  # (train_op, the averaged gradients, the device)
        self.summaries: list[tuple[str, str]] = []  # (tag, the summarized name)
        self.device: str | None = None  # the enclosing tf.device literal
        self.loop: str | None = None  # the towers' loop variable
        self.towers = False
        self.count = ""  # how many towers (the range's argument)
        self.first_tower = False  # in the loop's `if i == 0:`
        self.optimizer_name: str | None = None
        self.minimized: str | None = None  # the loss a minimize differentiates
        self.blocks: list[str] = []  # the blocks around the statement read: for, tower (its variable scope), if, with
        self.tower: cst.With | None = None  # the towers' variable scope
        self.layers: set[str] = set()  # the names bound to Keras layers made in the first tower
        self.unnamed: dict[str, int] = {}  # Keras's default name -> how many of its layers so far

    @staticmethod
    def applies(node: cst.FunctionDef) -> bool:
        """Is this the shape (the rule reads every other model_fn as straight-line code of Keras layers)?"""
        text = source_of(node.body)
        return ".apply_gradients(" in text or re.search(r"\bvariable_scope\([^()]*\breuse=", text) is not None

    def read(self) -> tuple[list[str], str, str, str | None, list[str], str, dict[int, cst.FunctionDef | None]]:
        """(model()'s statements, the loss, the Keras optimizer, the device of the update or None, the tags the
        summary hook wrote besides loss, what the entry says, {id of a module function: its port, or None where
        it goes}."""
        node = self.node
        params = [p.name.value for p in node.params.params]
        if params[:3] != ["features", "labels", "mode"] or len(params) > 4:
            raise Refused(node, "a model_fn whose parameters are not (features, labels, mode[, params])")
        if len(params) == 4 and re.search(rf"\b{params[3]}\b", source_of(node.body)):
            raise Refused(node, f"a model_fn reading `{params[3]}`")
        statements = list(cast(cst.IndentedBlock, node.body).body)
        body = self._block(statements[:-1], 0)
        loss = self._spec(statements[-1])
        if self.applied is None or self.optimizer is None or not self.towers:
            raise Refused(
                node, "towers without one optimizer's apply_gradients of their averaged gradients, or minimize"
            )
        _, averaged, device = self.applied
        if any(name != loss for _, name in self.summaries):
            raise Refused(node, "a summary of another value than the loss (the port writes the loss it returns)")
        body.append(f"return {loss}, {averaged}")
        helpers = self._helpers()
        said = (
            f"the model_fn's {self.count} towers as model(), each tower's layers those of its variable scope's path "
            f"(compat.eager_towers), their gradients from the train step's tape, the first tower's batch "
            f"normalization updates alone, {self.said}"
        )
        if self.minimized is not None:
            ported = [source_of(function) for function in helpers.values() if function is not None]
            if any("BatchNormalization" in text for text in (*body, *ported)):
                raise Refused(
                    node,
                    "a batch normalization whose updates the train op does not run (a minimize under no "
                    "control_dependencies of them): TF1's moving statistics stayed, a Keras layer in eager TF 2 "
                    "updates them at each call",
                )
            said = (
                f"the model_fn's {self.count} towers as model(), each tower's layers those of its variable scope's "
                f"path (compat.eager_towers), the minimize of `{self.minimized}` one gradient of `{self.minimized}` "
                f"over the towers' shared variables from the train step's tape (TF1's summed each tower's part "
                f"into it alike), {self.said}"
            )
        if self.setters:
            said += "; the towers' device function (compat.device) not run: eager TF 2 takes none"
        return body, loss, self.optimizer, device, [tag for tag, _ in self.summaries], said, helpers

    # -- the model_fn's statements
    def _block(self, statements: list[cst.BaseStatement], depth: int) -> list[str]:
        lines: list[str] = []
        for stmt in statements:
            if isinstance(stmt, cst.SimpleStatementLine):
                lines += self._line(stmt)
            elif isinstance(stmt, cst.With):
                lines += self._with(stmt, depth)
            elif isinstance(stmt, cst.For):
                lines += self._for(stmt, depth)
            elif isinstance(stmt, cst.If):
                lines += self._if(stmt, depth)
            else:
                raise Refused(stmt, "a block in a towers model_fn other than the towers' loop, scopes and devices")
        return lines

    def _line(self, stmt: cst.SimpleStatementLine) -> list[str]:
        small = single(stmt)
        if small is None:
            raise Refused(stmt, f"`{source_of(stmt).strip()}`, a statement the rule does not read")
        if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
            call = small.value
            if self.is_(call.func, "summary.scalar"):
                args = arguments(call, ("name", "tensor"), call, "summary.scalar")
                tag, summarized = args.get("name"), args.get("tensor")
                if set(args) != {"name", "tensor"} or not isinstance(
                    summarized.value if summarized else None, cst.Name
                ):
                    raise Refused(call, "a summary other than tf.summary.scalar(tag, name)")
                if not isinstance(cast(cst.Arg, tag).value, cst.SimpleString):
                    raise Refused(call, "a summary whose tag is not written out")
                literal = cast(cst.SimpleString, cast(cst.Arg, tag).value).evaluated_value
                self.summaries.append((str(literal), cast(cst.Name, cast(cst.Arg, summarized).value).value))
                return []
            if isinstance(call.func, cst.Attribute) and call.func.attr.value == "append":
                return [self._expression(source_of(call))]
            raise Refused(stmt, f"`{source_of(stmt).strip()}`, a statement the rule does not read")
        if not isinstance(small, cst.Assign) or len(small.targets) != 1:
            raise Refused(stmt, f"`{source_of(stmt).strip()}`, a statement the rule does not read")
        target, value = small.targets[0].target, small.value
        name = target.value if isinstance(target, cst.Name) else None
        if self.minimized is not None and self.minimized in {n.value for n in collect(target, cst.Name)}:
            raise Refused(
                stmt, f"`{self.minimized}` bound again after its minimize (the port differentiates it at the end)"
            )
        if isinstance(value, cst.Call) and self.is_(
            value.func, "train.get_or_create_global_step", "train.get_global_step"
        ):
            if name is None or value.args:
                raise Refused(stmt, "a global step other than `name = tf.train.get_or_create_global_step()`")
            self.global_step = name
            return []
        if isinstance(value, cst.Call) and self._optimizer(value, name, stmt):
            return []
        if (
            isinstance(value, cst.Call)
            and isinstance(value.func, cst.Attribute)
            and value.func.attr.value == "minimize"
        ):
            self._minimize(value, name, stmt)
            return []
        if (
            name is not None
            and isinstance(value, cst.Call)
            and source_of(value.func).startswith(f"{self.tf}.keras.layers.")
        ):
            return [self._first_tower_layer(name, value, stmt)]
        if source_of(value).startswith("[") and "compat.scoped_layers.made()" in source_of(value):
            if not source_of(value).endswith(".updates]") or name is None:
                raise Refused(stmt, "a read of the towers' layers other than their batch normalization updates")
            if self.loop is None or not self.first_tower:
                raise Refused(stmt, "batch normalization updates read other than in the first tower (`if i == 0:`)")
            self.updates = name
            return [f"{name} = {RUNTIME}.updates_so_far()"]
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and name is not None:
            uses = names_in(self.node.body).names.count(name)
            devices = [c for c in collect(self.node, cst.Call) if source_of(c) == f"compat.device({name})"]
            if len(devices) == 1 and uses == 2 and self._module_function(value.func.value) is not None:
                self.setters[name] = value.func.value
                return []
        return [self._expression(source_of(stmt).strip())]

    def _optimizer(self, value: cst.Call, name: str | None, stmt: cst.BaseStatement, inline: bool = False) -> bool:
        kind = source_of(value.func).rpartition(".")[2]
        if not kind.endswith("Optimizer") or not self.is_(value.func, f"train.{kind}"):
            return False
        if (name is None and not inline) or self.optimizer is not None:
            raise Refused(stmt, "two optimizers, or one not bound to a name")
        bound = {t.value for s in collect(self.node, cst.AssignTarget) for t in [s.target] if isinstance(t, cst.Name)}
        self.optimizer, self.said = keras_optimizer(self.tf, self.is_, value, bound | {"features", "labels", "mode"})
        self.optimizer_name = name
        return True

    def _minimize(self, value: cst.Call, name: str | None, stmt: cst.BaseStatement) -> None:
        """`train_op = tf.train.<Optimizer>(...).minimize(loss, global_step)` (or the optimizer's name) after the
        towers' loop: TF1's one gradient of the loss over the trainable variables, applied by the train step."""
        owner = cast(cst.Attribute, value.func).value
        if self.loop is not None or not self.towers:
            raise Refused(stmt, "a minimize in the towers' loop (an update per tower), or before it")
        if name is None or self.applied is not None:
            raise Refused(stmt, "a minimize not bound to a name, or a second update")
        inline = isinstance(owner, cst.Call) and self._optimizer(owner, None, stmt, inline=True)
        if not inline and not (isinstance(owner, cst.Name) and owner.value == self.optimizer_name):
            raise Refused(stmt, "a minimize of another optimizer than the model_fn's tf.train one")
        self.minimized = minimized(self.is_, value, self.global_step)
        self.applied = (name, f"{RUNTIME}.compute_gradients({self.minimized})", self.device)

    def _first_tower_layer(self, name: str, value: cst.Call, stmt: cst.BaseStatement) -> str:
        """`name = tf.keras.layers.K(...)` under the first tower's `if i == 0:` right in the towers' variable scope
        (native-layers' towers): TF1's reuse shared the variables the first tower made, so the layer of the scope's
        path (compat.eager_towers.layer), named as Keras named it in TF1's graph (the model_fn's, anew at each
        call)."""
        kind = source_of(value.func).rpartition(".")[2]
        tower = self.tower
        if self.blocks[-3:] != ["for", "tower", "if"] or tower is None:
            raise Refused(
                stmt,
                f"`{name}`, a Keras layer made other than in the first tower (`if i == 0:`) right in "
                "the towers' variable scope",
            )
        if kind in RANDOM_LAYERS:
            raise Refused(stmt, f"a Keras {kind}, which draws other values than TF1's graph seed gave")
        given = next((a for a in value.args if a.keyword is not None and a.keyword.value == "name"), None)
        if given is not None and not isinstance(given.value, cst.SimpleString):
            raise Refused(stmt, f"`{name}`, a Keras layer of a computed name")
        scope = next(
            i.item for i in tower.items if isinstance(i.item, cst.Call) and self.is_(i.item.func, "variable_scope")
        )
        scope = cast(cst.Call, scope)
        if not isinstance(scope.args[0].value, cst.SimpleString):
            raise Refused(stmt, "a Keras layer made in towers whose variable_scope has no literal name")
        for named, keras, made in ((given, kind, value), (scope.args[0], "", scope)):
            clash = named_alike(named, keras, self.module, {id(made)})
            if clash:
                raise Refused(
                    stmt,
                    f"another op or scope of the file is named {clash!r}: the first tower's layer would meet its "
                    "name scope in TF1's graph, numbered there, not here",
                )
        uses = [n for n in names_in(self.node.body).nodes if n.value == name]
        inside = [n for n in names_in(tower.body).nodes if n.value == name]
        called = [c for c in collect(tower.body, cst.Call) if isinstance(c.func, cst.Name) and c.func.value == name]
        if len(uses) != len(inside) or len(called) != len(inside) - 1 or name in self.layers:
            raise Refused(
                stmt, f"`{name}`, a Keras layer made in the first tower, bound or read other than called in the tower"
            )
        scoped = [
            w
            for w in collect(tower.body, cst.With)
            if not all(isinstance(i.item, cst.Call) and source_of(i.item.func).endswith("device") for i in w.items)
        ]
        if any(n.value == name for w in scoped for n in names_in(w).nodes):
            raise Refused(
                stmt,
                f"`{name}`, a Keras layer made in the first tower, called under a scope inside the tower's: TF1's "
                "graph named its variables by the name scope it was built under",
            )
        self.layers.add(name)
        if given is None:
            base = default_name(kind)
            count = self.unnamed.get(base, 0)
            self.unnamed[base] = count + 1
            default = cst.SimpleString(f'"{base}_{count}"' if count else f'"{base}"')
            value = value.with_changes(args=[*value.args, cst.Arg(default, keyword=cst.Name("name"), equal=_EQUAL)])
        made = cst.Call(cst.parse_expression(f"{RUNTIME}.layer"), args=[cst.Arg(value.func), *value.args])
        return f"{name} = {source_of(made)}"

    def _with(self, stmt: cst.With, depth: int) -> list[str]:
        items: list[str] = []
        device = self.device
        kind = "device"
        for item in stmt.items:
            call = item.item
            text = source_of(call)
            asname = f" as {source_of(item.asname.name)}" if item.asname is not None else ""
            setter = call.args[0].value if isinstance(call, cst.Call) and len(call.args) == 1 else None
            if isinstance(call, cst.Call) and self.is_(call.func, "variable_scope"):
                items.append(self._scope(call) + asname)
                reused = any(a.keyword is not None and a.keyword.value == "reuse" for a in call.args)
                # (the towers' scope: right in their loop, entering no other scope beside it)
                kind = "tower" if reused and self.blocks[-1:] == ["for"] and kind == "device" else "with"
            elif isinstance(call, cst.Call) and self.is_(call.func, "name_scope"):
                items.append(f"{self.tf}.name_scope({_args(call)}){asname}")
                kind = "with"
            elif text.startswith("compat.device(") and text[len("compat.device(") : -1] in self.setters:
                continue
            elif (  # (`compat.device(tower_setter("/cpu:0"))`: a module function making the device function)
                text.startswith("compat.device(")
                and isinstance(setter, cst.Call)
                and isinstance(setter.func, cst.Name)
                and self._module_function(setter.func.value) is not None
                and not collect(setter, cst.Call)[1:]
                and asname == ""
            ):
                self.setters[source_of(setter)] = setter.func.value
                continue
            elif isinstance(call, cst.Call) and source_of(call.func) == f"{self.tf}.device" and asname == "":
                if len(call.args) != 1 or not isinstance(call.args[0].value, cst.SimpleString):
                    raise Refused(stmt, "a tf.device other than of a device written out")
                device = source_of(call.args[0].value)
                items.append(text)
            elif isinstance(call, cst.Call) and self.is_(call.func, "control_dependencies"):
                return self._update(stmt, device)
            else:
                raise Refused(stmt, f"`with {text}`, a block the rule does not read in a towers model_fn")
        outer, self.device = self.device, device
        self.blocks.append(kind)
        if kind == "tower":
            self.tower = stmt
        inner = self._block(list(cast(cst.IndentedBlock, stmt.body).body), depth + (1 if items else 0))
        self.blocks.pop()
        self.device = outer
        if not items:
            return inner
        return [f"with {', '.join(items)}:", *(f"    {line}" for line in inner)]

    def _scope(self, call: cst.Call) -> str:
        positional = [a for a in call.args if a.keyword is None]
        if (
            len(positional) != 1
            or positional[0].star
            or any(a.keyword.value != "reuse" for a in call.args if a.keyword)
        ):
            raise Refused(call, "a variable_scope of more than a name and reuse=")
        if _GRAPH.search(_args(call)) or "AUTO_REUSE" in _args(call):
            raise Refused(call, "a variable_scope whose reuse is not True or False (AUTO_REUSE, graph code)")
        return f"{RUNTIME}.variable_scope({_args(call)})"

    def _update(self, stmt: cst.With, device: str | None) -> list[str]:
        """`with control_dependencies(updates): train_op = optimizer.apply_gradients(averaged, global_step=step)`."""
        item = cast(cst.Call, stmt.items[0].item)
        inner = list(cast(cst.IndentedBlock, stmt.body).body)
        read = item.args[0].value if len(item.args) == 1 else None
        if len(stmt.items) != 1 or not isinstance(read, cst.Name) or read.value != self.updates or len(inner) != 1:
            raise Refused(stmt, "control_dependencies other than of the first tower's updates around the update")
        name, value = assigned(single(inner[0]))
        apply = value if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) else None
        if apply is None or cast(cst.Attribute, apply.func).attr.value != "apply_gradients" or name is None:
            raise Refused(stmt, "control_dependencies around more than the optimizer's apply_gradients")
        owner = cast(cst.Attribute, apply.func).value
        args = arguments(apply, ("grads_and_vars", "global_step", "name"), apply, "apply_gradients")
        step = args.get("global_step")
        averaged = args["grads_and_vars"].value if "grads_and_vars" in args else None
        if (
            not isinstance(owner, cst.Name)
            or owner.value != self.optimizer_name
            or set(args) != {"grads_and_vars", "global_step"}
            or not isinstance(step.value if step else None, cst.Name)
            or cast(cst.Name, cast(cst.Arg, step).value).value != self.global_step
            or not isinstance(averaged, cst.Name)
        ):
            raise Refused(stmt, "an apply_gradients other than the optimizer's (averaged, global_step=global step)")
        self.applied = (name, averaged.value, device)
        return [f"{RUNTIME}.keep_updates({self.updates})"]

    def _for(self, stmt: cst.For, depth: int) -> list[str]:
        call = stmt.iter
        if (
            self.loop is not None
            or stmt.orelse is not None
            or not isinstance(stmt.target, cst.Name)
            or not (isinstance(call, cst.Call) and source_of(call.func) == "range" and len(call.args) == 1)
        ):
            raise Refused(stmt, "a loop in the model_fn other than one `for i in range(n):` of towers, not nested")
        self.loop, self.towers, self.count = stmt.target.value, True, source_of(call.args[0].value)
        self.blocks.append("for")
        inner = self._block(list(cast(cst.IndentedBlock, stmt.body).body), depth + 1)
        self.blocks.pop()
        self.loop = None
        return [f"for {stmt.target.value} in {source_of(call)}:", *(f"    {line}" for line in inner)]

    def _if(self, stmt: cst.If, depth: int) -> list[str]:
        if self.loop is None or stmt.orelse is not None or source_of(stmt.test) != f"{self.loop} == 0":
            raise Refused(stmt, "a block in a towers model_fn other than the first tower's `if i == 0:`")
        self.first_tower = True
        self.blocks.append("if")
        inner = self._block(list(cast(cst.IndentedBlock, stmt.body).body), depth + 1)
        self.blocks.pop()
        self.first_tower = False
        return [f"if {source_of(stmt.test)}:", *(f"    {line}" for line in inner)]

    def _expression(self, text: str) -> str:
        """A statement of the model_fn as model() runs it (Refused where graph code is left)."""
        new = self._port(text)
        if re.search(rf"\b{re.escape(self.tf)}\.keras\.layers\.\w+\(", new):
            raise Refused(self.node, f"`{text}`: a Keras layer made at each call of the towers model_fn")
        new = re.sub(rf"\bmode == {re.escape(self.tf)}\.estimator\.ModeKeys\.TRAIN\b", "training", new)
        if re.search(r"\bmode\b", new) or _GRAPH.search(new) or re.search(r"\blayers?\.updates\b", new):
            raise Refused(self.node, f"`{text}`: graph code, a variable or a random op in a towers model_fn")
        for call in collect(cst.parse_statement(new), cst.Call):
            func = source_of(call.func)
            if not (
                func in _BUILTINS
                or func.startswith((f"{self.tf}.", f"{RUNTIME}."))
                or func.endswith(".append")
                or func in self.layers
                or self._module_function(func) is not None
                or isinstance(call.func, cst.Call)
            ):
                raise Refused(self.node, f"a call of {func} in a towers model_fn, which the rule does not read")
        return new

    def _port(self, text: str) -> str:
        for old, new in (
            (f"{self.tf}.compat.v1.trainable_variables()", f"{RUNTIME}.trainable_variables()"),
            ("compat.scoped_layers.layer(", f"{RUNTIME}.layer("),
            (f"{self.tf}.gradients(", f"{RUNTIME}.gradients("),
        ):
            text = text.replace(old, new)
        return text

    def _spec(self, stmt: cst.BaseStatement) -> str:
        small = single(stmt)
        spec = small.value if isinstance(small, cst.Return) else None
        if not (isinstance(spec, cst.Call) and self.is_(spec.func, "estimator.EstimatorSpec")):
            raise Refused(stmt, "a model_fn not ending in `return tf.estimator.EstimatorSpec(...)`")
        args = arguments(spec, ("mode", "predictions", "loss", "train_op"), spec, "EstimatorSpec")
        loss, train_op = args.get("loss"), args.get("train_op")
        if set(args) != {"mode", "loss", "train_op"} or not isinstance(loss.value if loss else None, cst.Name):
            raise Refused(spec, "an EstimatorSpec of more than mode, loss and train_op (other modes' outputs)")
        if self.applied is None or source_of(cast(cst.Arg, train_op).value) != self.applied[0]:
            raise Refused(spec, "an EstimatorSpec whose train_op is not the apply_gradients'")
        return cast(cst.Name, cast(cst.Arg, loss).value).value

    # -- the module functions the towers call
    def _module_function(self, name: str) -> cst.FunctionDef | None:
        found = [s for s in self.module.body if isinstance(s, cst.FunctionDef) and s.name.value == name]
        return found[0] if len(found) == 1 and not found[0].decorators else None

    def _helpers(self) -> dict[int, cst.FunctionDef | None]:
        """The functions the model() calls, each ported (read nowhere else), and the device functions, gone."""
        ported: dict[int, cst.FunctionDef | None] = {}
        for setter in set(self.setters.values()):
            function = cast(cst.FunctionDef, self._module_function(setter))
            if names_in(self.module).names.count(setter) != 2:
                raise Refused(function, f"the device function `{setter}` is read besides the towers' device")
            ported[id(function)] = None

        def calls(node: cst.CSTNode) -> list[str]:
            return [source_of(c.func) for c in collect(node, cst.Call) if isinstance(c.func, cst.Name)]

        functions: dict[str, cst.FunctionDef] = {}
        waiting = [n for n in calls(self.node.body) if n not in self.setters.values()]
        while waiting:
            name = waiting.pop()
            found = self._module_function(name)
            if found is not None and name not in functions:
                functions[name] = found
                waiting += calls(found)
        for name, function in functions.items():
            inside = calls(self.node.body).count(name) + sum(calls(f).count(name) for f in functions.values())
            if names_in(self.module).names.count(name) != inside + 1:
                raise Refused(function, f"`{name}`, called by the towers, is read elsewhere too")
            ported_text = self._port(source_of(function))
            ported_text = re.sub(
                rf"{re.escape(self.tf)}\.compat\.v1\.variable_scope\(", f"{RUNTIME}.variable_scope(", ported_text
            )
            if _GRAPH.search(ported_text) or re.search(r"\bmode\b", ported_text):
                raise Refused(function, f"`{name}`, called by the towers, holds graph code the port cannot run")
            if re.search(rf"\b{re.escape(self.tf)}\.keras\.layers\.\w+\(", ported_text):
                raise Refused(function, f"`{name}`, called by the towers, makes a Keras layer at each call")
            if "AUTO_REUSE" in ported_text:
                raise Refused(function, f"`{name}`: a variable_scope whose reuse is not True or False (AUTO_REUSE)")
            for scope in re.findall(rf"{re.escape(RUNTIME)}\.variable_scope\(([^)]*)\)", ported_text):
                if "," in scope and not re.search(r",\s*reuse=", scope):
                    raise Refused(function, f"`{name}`: a variable_scope of more than a name and reuse=")
            new = cast(cst.FunctionDef, cst.parse_module(ported_text).body[0])
            ported[id(function)] = new.with_changes(leading_lines=function.leading_lines)
        return ported


_EQUAL = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))


def _args(call: cst.Call) -> str:
    return ", ".join(source_of(a.with_changes(comma=cst.MaybeSentinel.DEFAULT)) for a in call.args)
