"""native-session on tf-slim's model_deploy: a Session script training `model_deploy.create_clones(config, clone_fn)`
in a MonitoredTrainingSession loop (train_image_classifier's shape, tests/corpus/slim_model_deploy.py) -> eager TF 2.

What TF1 computed (measured on the safe port of slim_model_deploy, research/slim's create_clones and the corpus's
copy alike): create_clones calls clone_fn once per clone, under the name scope `clone_<i>` (op names only), on
`config.clone_device(i)`, in the root variable scope reused after the first clone, so every clone reads the same
variables (`conv1/weights`, made once, on `config.variables_device()`) and the same input tensors (clone_fn reads the
batch of its enclosing scope). Each clone's tf.losses / tf-slim losses go to the LOSSES collection, so
`tf.losses.get_total_loss()` is the sum of every clone's losses plus the regularization losses, which the variables
made once added once: with 2 clones the first loss is twice the one of 1 clone (254.74146 against 127.37073), and
create_train_op's gradient is the sum of the clones' gradients. (model_deploy's own `deploy`/`optimize_clones` scale
each clone's loss by 1/num_clones: a script calling them is not this shape; the rule reads create_clones alone.)
`DeploymentConfig` takes num_clones below 1 as 1. A clone device the machine lacks (clone_on_cpu False without a
GPU) stopped TF1's session at its first step ("Cannot assign a device").

The port keeps the user's DeploymentConfig and reads its clones at run time (any num_clones): compat.clones'
clone_devices(config) checks each `config.clone_device(i)` exists (a missing one stops the port with one line, as
TF1's session stopped) and variables_device(config) that the variables' device is a device name of this process (a
device function, num_ps_tasks > 0, stops it with one line). clone_fn becomes a function of the input element,
its tf-slim layers Keras layers made once under TF1's scope names (_native_slim's classes), returning the losses it
added; `model(...)` calls it under each clone's device and adds the losses with the layers' regularization losses, as
get_total_loss did; create_train_op is the train step (_native_slim_loops' code: the global step incremented after
the update, the loss check_numerics'd) and the MonitoredTrainingSession loop the eager loop of _native_monitored (its
checkpoint_dir's CheckpointManager, StopAtStepHook's stop), over the input function's dataset (_native_pipeline's
reading: it returns the dataset, each step takes the next element).

Proven or Refused: each statement of the block is one of the seed, the global step (under
`tf.device(config.variables_device())` or not), the input call, clone_fn's def, create_clones, get_total_loss,
create_train_op, the hooks list and the session, nothing else; clone_fn takes no argument, reads no graph name but
the input's, and holds assignments of tf-slim's conv2d / fully_connected (a literal scope each: TF1's default names
under reused clones are not one layer's), flatten, max_pool2d / avg_pool2d, one_hot_encoding and TensorFlow ops that
make no variable and draw no random number, softmax cross-entropy losses (tf-slim's or tf.losses', of their two
first arguments) and a return of names; the config is a DeploymentConfig of num_clones and clone_on_cpu only (clone_fn's
reading: codemods/rules/_native_clone_fn.py).
"""

from __future__ import annotations

from typing import Any, cast

import libcst as cst

from codemods.rules import _native_monitored as monitored
from codemods.rules import _native_tables as tables
from codemods.rules import _tf
from codemods.rules._native_clone_fn import CloneFunction
from codemods.rules._native_names import (
    CREATE_TRAIN_OP,
    GLOBAL_STEP,
    OPTIMIZERS,
    PREFIXES,
    SEED,
    STATEFUL,
    TOTAL_LOSS,
    slim_names,
)
from codemods.rules._native_pipeline import DATA, MAPPING
from codemods.rules._native_seed import seed_statement
from codemods.rules._native_slim import layer_code
from codemods.rules._native_slim_loops import CREATE_PARAMS
from codemods.rules._native_syntax import (
    Block,
    Refused,
    arguments,
    assigned,
    bound_names,
    collect,
    names_in,
    single,
    source_of,
    target_names,
)
from codemods.rules._shared import graph_names

CLONES = "model_deploy.create_clones"
CONFIG = "model_deploy.DeploymentConfig"
# DeploymentConfig's parameters in positional order (research/slim's and the corpus's copy); the port takes the first
# two (the others place the clones and variables on a cluster's tasks)
CONFIG_PARAMS = (
    "num_clones",
    "clone_on_cpu",
    "replica_id",
    "num_replicas",
    "num_ps_tasks",
    "worker_job_name",
    "ps_job_name",
)
SLIM_STEP = slim_names("create_global_step", "get_or_create_global_step")
# the names the converted code binds (a free variant where the module uses one)
_NAMES = (
    "iterator",
    "clone_devices",
    "model",
    "optimizer",
    "train_step",
    "checkpoint",
    "manager",
    "last_step",
    "saved",
)


def _qualified(rule: Any, node: cst.CSTNode) -> frozenset[str]:
    return cast(frozenset, rule.qualified_names(node))


def clones_call(rule: Any, stmt: cst.BaseStatement) -> cst.Call | None:
    """The call of `model_deploy.create_clones(...)` as a statement of its own, else None."""
    small = single(stmt)
    value = small.value if isinstance(small, (cst.Expr, cst.Assign)) else None
    if isinstance(value, cst.Call) and any(n.endswith(CLONES) for n in _qualified(rule, value.func)):
        return value
    return None


def port(
    rule: Any, block: Block, session: int
) -> tuple[dict[int, list[cst.BaseStatement]], set[int], str, set[str]] | None:
    """The block's replacements, the graph calls they remove, the entry and the names gone, where the block calls
    create_clones; None where it does not (not this shape); Refused where it is not proven."""
    if not any(clones_call(rule, s) is not None for s in block.original):
        return None
    return Deploy(rule, block).convert(session)


class Deploy(CloneFunction):
    """One block's conversion (see the module's doc)."""

    def __init__(self, rule: Any, block: Block) -> None:
        self.rule, self.block = rule, block
        self.slim_initializers: set[str] = set()
        self.replacements: dict[int, list[cst.BaseStatement]] = {}
        self.taken = set(rule.module_names())
        self.names = {n: self.free(n) for n in _NAMES}
        self.config: str | None = None
        self.step: str | None = None  # the global step's name
        self.inputs: tuple[str, list[str], cst.FunctionDef] | None = None  # (call's updated code, targets, function)
        self.clone_fn: cst.FunctionDef | None = None
        self.layers: list[tuple[str, str, str]] = []  # (variable, code, class written for it or "")
        self.losses: list[str] = []
        self.total: str | None = None
        self.train_op: str | None = None
        self.optimizer_code = self.optimizer_said = ""
        self.check_numerics = True
        self.hooks: dict[str, tuple[str, cst.BaseExpression]] = {}
        self.removed: list[cst.CSTNode] = []  # the statements and functions whose calls the conversion removes
        self.scopes: list[str] = []  # the scopes of the layers made
        self.kind = "last_step"  # StopAtStepHook's argument

    # -- the block
    def convert(self, session: int) -> tuple[dict[int, list[cst.BaseStatement]], set[int], str, set[str]]:
        stmts = list(self.block.original)
        head = stmts[session]
        found = self.rule.session_call(head)
        call = found[0] if found else None
        if call is None or not (self.rule.is_call(call, monitored.TRAINING) and monitored.training(call)):
            raise Refused(head, "model_deploy's clones trained other than in a MonitoredTrainingSession loop")
        if session != len(stmts) - 1:
            raise Refused(stmts[session + 1], "a statement after the MonitoredTrainingSession of model_deploy's clones")
        if self.rule.v1 is not None:
            raise Refused(head, "model_deploy's clones in a file written against tensorflow.compat.v1")
        self.alias = _tf.tf_alias(self.rule, call.func)
        for stmt in stmts[:session]:
            if self.rule.shadowed_tf(stmt):
                raise Refused(stmt, "a name bound to TensorFlow is something else here")
            self.statement(stmt)
        missing = [
            what
            for what, value in (
                ("an input function's element", self.inputs),
                ("create_clones", self.clone_fn),
                ("tf.losses.get_total_loss()", self.total),
                ("create_train_op", self.train_op),
            )
            if value is None
        ]
        if missing:
            raise Refused(head, f"model_deploy's clones without {missing[0]}, which the conversion reads")
        self.replacements[id(head)] = self.loop(head, cast(cst.Call, call), cast(str, found[1] if found else ""))
        covered = {id(c) for node in [*self.removed, head] for c in names_in(node).calls}
        watched = {
            *cast(tuple, self.inputs)[1],
            cast(str, self.total),
            cast(str, self.train_op),
            found[1] if found else "",
        }
        watched |= {n for n in (self.step,) if n} | set(self.hooks)
        return self.replacements, covered, "; ".join(self.said()), watched

    def statement(self, stmt: cst.BaseStatement) -> None:
        small = single(stmt)
        name, value = assigned(small)
        self.removed.append(stmt)
        if isinstance(small, cst.Expr) and self.rule.is_call(small.value, SEED):
            seed = cast(cst.Call, cast(cst.Expr, single(self.up(stmt))).value)
            code = seed_statement(self.alias, ", ".join(source_of(a) for a in seed.args), self.rule._module)  # noqa: SLF001
            self.replacements[id(stmt)] = [cst.parse_statement(code)]
        elif self.global_step(stmt):
            pass
        elif isinstance(stmt, cst.FunctionDef):
            self.define(stmt)
        elif clones_call(self.rule, stmt) is not None:
            self.create_clones(stmt, cast(cst.Call, clones_call(self.rule, stmt)))
        elif name is not None and isinstance(value, cst.Call) and self.rule.is_call(value, TOTAL_LOSS):
            self.total_loss(stmt, name, value)
        elif name is not None and isinstance(value, cst.Call) and self.rule.library_names(value) & CREATE_TRAIN_OP:
            self.create_train_op(stmt, name, value)
        elif name is not None and value is not None and monitored.stop_hook(self.rule, value) is not None:
            kind, _ = cast(tuple, monitored.stop_hook(self.rule, value))
            updated = monitored.stop_hook_updated(cast(cst.BaseExpression, assigned(single(self.up(stmt)))[1]))
            self.hooks[name] = (kind, cast(cst.BaseExpression, updated))
            self.replacements[id(stmt)] = []
        elif isinstance(small, cst.Assign) and self.input_call(stmt, small):
            pass
        else:
            raise Refused(stmt, "a statement beside model_deploy's clones that the conversion does not read")

    def global_step(self, stmt: cst.BaseStatement) -> bool:
        """`global_step = slim.create_global_step()` (tf.train's, get_or_create_global_step), alone or as the one
        statement of `with tf.device(config.variables_device()):` -> the int64 variable TF1 made, on that device."""
        inner, device = stmt, None
        if isinstance(stmt, cst.With) and len(stmt.items) == 1 and isinstance(stmt.body, cst.IndentedBlock):
            item = stmt.items[0].item
            if not (len(stmt.body.body) == 1 and self.rule.is_call(item, frozenset(p + "device" for p in PREFIXES))):
                return False
            inner, device = stmt.body.body[0], cast(cst.Call, item)
        name, value = assigned(single(inner))
        if name is None or not isinstance(value, cst.Call) or value.args:
            return False
        if not (self.rule.is_call(value, GLOBAL_STEP) or self.rule.library_names(value) & SLIM_STEP):
            return False
        if self.step is not None:
            raise Refused(stmt, "a second global step")
        code = f'{name} = {self.alias}.Variable(0, dtype={self.alias}.int64, trainable=False, name="global_step")\n'
        if device is not None:
            code = f"with {self.alias}.device(compat.clones.variables_device({self.device_config(stmt, device)})):\n    {code}"
        self.step = name
        self.replacements[id(stmt)] = [cst.parse_statement(code)]
        return True

    def device_config(self, stmt: cst.CSTNode, device: cst.Call) -> str:
        """The config of `tf.device(config.variables_device())`."""
        arg = device.args[0].value if len(device.args) == 1 and device.args[0].keyword is None else None
        func = arg.func if isinstance(arg, cst.Call) and not arg.args else None
        if not (isinstance(func, cst.Attribute) and func.attr.value == "variables_device"):
            raise Refused(stmt, "tf.device of a device other than model_deploy's config.variables_device()")
        return self.deployment(stmt, func.value)

    def deployment(self, stmt: cst.CSTNode, node: cst.BaseExpression) -> str:
        """`config`, a name bound once, before the graph, to `model_deploy.DeploymentConfig(num_clones=...,
        clone_on_cpu=...)` (the port reads it at run time)."""
        if not isinstance(node, cst.Name):
            raise Refused(stmt, "model_deploy's config other than a name")
        if self.config is not None:
            if node.value != self.config:
                raise Refused(stmt, "two model_deploy configs")
            return self.config
        outer = self.rule._withs.get(id(self.block.original))  # noqa: SLF001 - (the with's enclosing block)
        statements = list(outer[1].original) if outer else []
        bindings = [s for s in [*statements, *self.block.original] if node.value in bound_names(s)]
        name, value = assigned(single(bindings[0])) if len(bindings) == 1 else (None, None)
        if not (
            name == node.value
            and isinstance(value, cst.Call)
            and any(n.endswith(CONFIG) for n in _qualified(self.rule, value.func))
            and any(s is bindings[0] for s in statements)
        ):
            raise Refused(
                stmt, f"`{node.value}` is not bound once, before the graph, to a model_deploy.DeploymentConfig"
            )
        given = arguments(value, CONFIG_PARAMS, stmt, "DeploymentConfig")
        other = sorted(set(given) - {"num_clones", "clone_on_cpu"})
        if other:
            raise Refused(stmt, f"DeploymentConfig({other[0]}=...): clones or variables on a cluster's tasks")
        self.config = node.value
        return self.config

    # -- the input
    def input_call(self, stmt: cst.BaseStatement, small: cst.Assign) -> bool:
        """`images, labels = batch()`, a function of the module returning `<tf.data pipeline>
        .make_one_shot_iterator().get_next()`: the function returns the pipeline, each step takes its next element."""
        call = small.value
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Name)):
            return False
        fns = [fn for _, fn in self.rule._functions if fn.name.value == call.func.value]  # noqa: SLF001
        pipeline = self.returned_pipeline(fns[0]) if len(fns) == 1 else None
        if pipeline is None:
            return False
        fn = fns[0]
        targets = target_names(small)
        if self.inputs is not None or targets is None or len(small.targets) != 1 or len(targets) < 2:
            raise Refused(stmt, "a second input, or an element not unpacked into names")
        if self.rule.module_names().get(fn.name.value) != 2:
            raise Refused(stmt, f"{fn.name.value}() is used elsewhere too (its one call builds the input pipeline)")
        if self.rule.tf_calls(call) or len(names_in(call).calls) > 1:
            raise Refused(stmt, f"{fn.name.value}() called with calls in its arguments")
        if fn.decorators or fn.asynchronous:
            raise Refused(fn, f"{fn.name.value}() has decorators or is asynchronous")
        self.stateless(fn, "it makes graph state", "graph and eager op seeds differ")
        iterators = [
            c for c in names_in(fn).calls if isinstance(c.func, cst.Attribute) and "iterator" in c.func.attr.value
        ]
        if len(iterators) != 1:
            raise Refused(fn, f"{fn.name.value}() makes an iterator besides its returned one")
        updated = cast(cst.FunctionDef, self.up(fn))
        body = cast(cst.IndentedBlock, updated.body)
        last = cast(cst.Return, single(body.body[-1]))
        returned = self.returned_pipeline(updated, updated=True)
        if returned is None:
            raise Refused(fn, f"{fn.name.value}()'s return changed in the safe pass")
        new_last = cast(cst.SimpleStatementLine, body.body[-1]).with_changes(body=[last.with_changes(value=returned)])
        new = updated.with_changes(body=body.with_changes(body=[*body.body[:-1], new_last]))
        self.replacements[id(fn)] = [cast(cst.BaseStatement, self.tf2_names(new, fn))]
        self.removed.append(fn)
        for mapped in self.mapped_functions(fn):
            self.replacements[id(mapped)] = [cast(cst.BaseStatement, self.tf2_names(self.up(mapped), mapped))]
            self.removed.append(mapped)
        update = cast(cst.Assign, single(self.up(stmt)))
        code = f"{self.names['iterator']} = iter({source_of(update.value)})\n"
        self.replacements[id(stmt)] = [cst.parse_statement(code)]
        self.inputs = (source_of(update.value), targets, fn)
        return True

    def mapped_functions(self, fn: cst.FunctionDef) -> list[cst.FunctionDef]:
        """The functions of the module the input function's pipeline maps (`.map(parse)`): each used there alone,
        making no variable and drawing no random number (tf.data traces it in TF1 and TF 2 alike); they are written
        in TF 2's names."""
        found = []
        functions = {f.name.value: f for _, f in self.rule._functions}  # noqa: SLF001
        for call in names_in(fn).calls:
            if not (isinstance(call.func, cst.Attribute) and call.func.attr.value in MAPPING):
                continue
            for arg in call.args:
                mapped = functions.get(arg.value.value) if isinstance(arg.value, cst.Name) else None
                if mapped is None:
                    continue
                if self.rule.module_names().get(mapped.name.value) != 2 or mapped.decorators:
                    raise Refused(mapped, f"{mapped.name.value}() is used besides as the function its pipeline maps")
                self.stateless(mapped, "graph state", "other op seeds")
                found.append(mapped)
        return found

    def stateless(self, fn: cst.FunctionDef, state: str, random: str) -> None:
        """Refused (`state` or `random` the reason) where a call of `fn` makes a variable or other graph state, or
        draws a random number (graph and eager op seeds differ): the input pipeline's functions."""
        for inner in names_in(fn).calls:
            names = self.rule.tf_names(inner)
            if self.rule.is_call(inner, STATEFUL) or self.rule.variable_library(inner) or names & graph_names():
                raise Refused(fn, f"{_tf.full_name(inner.func)} in {fn.name.value}(): {state}")
            if any("random" in n for n in names):
                raise Refused(fn, f"{_tf.full_name(inner.func)} in {fn.name.value}(): {random}")

    def returned_pipeline(self, fn: cst.FunctionDef, updated: bool = False) -> cst.BaseExpression | None:
        """The pipeline of a def ending in `return <tf.data call chain>.make_one_shot_iterator().get_next()`."""
        body = fn.body.body if isinstance(fn.body, cst.IndentedBlock) else ()
        last = single(body[-1]) if body else None
        value = last.value if isinstance(last, cst.Return) else None
        for method in ("get_next", "make_one_shot_iterator"):
            if not (isinstance(value, cst.Call) and not value.args and isinstance(value.func, cst.Attribute)):
                return None
            if value.func.attr.value != method:
                return None
            value = value.func.value
        chain = value
        while isinstance(chain, cst.Call) and isinstance(chain.func, cst.Attribute):
            if updated and _tf.full_name(chain.func).startswith(
                (f"{self.alias}.compat.v1.data.", f"{self.alias}.data.")
            ):
                return value
            if not updated and any(n.startswith(DATA) for n in self.rule.tf_names(chain)):
                return value
            chain = chain.func.value
        return None

    # -- the clones
    def define(self, fn: cst.FunctionDef) -> None:
        """clone_fn's def: converted where create_clones calls it."""
        if self.clone_fn is not None or source_of(fn.params).strip():
            raise Refused(fn, "a def beside model_deploy's clones other than one clone_fn without parameters")
        if fn.decorators or fn.asynchronous or self.rule.module_names().get(fn.name.value) != 2:
            raise Refused(fn, f"{fn.name.value}() decorated, asynchronous, or used besides by create_clones")
        self.clone_fn = fn
        self.replacements[id(fn)] = []

    def create_clones(self, stmt: cst.BaseStatement, call: cst.Call) -> None:
        if not isinstance(single(stmt), cst.Expr):
            raise Refused(stmt, "create_clones' clones read (the conversion computes their losses alone)")
        args = arguments(call, ("config", "model_fn", "args"), stmt, "create_clones")
        fn = args.get("model_fn")
        if fn is None or set(args) != {"config", "model_fn"} or self.clone_fn is None or self.inputs is None:
            raise Refused(stmt, "create_clones other than of the config and a clone_fn defined after the input")
        if not (isinstance(fn.value, cst.Name) and fn.value.value == self.clone_fn.name.value):
            raise Refused(stmt, "create_clones of a function other than the clone_fn defined before it")
        config = self.deployment(stmt, args["config"].value)
        clone = self.clone_function(self.clone_fn)
        tf = self.alias
        classes = [layer_code(cls, tf).lstrip("\n") for cls in dict.fromkeys(c for _, _, c in self.layers if c)]
        code = f"{self.names['clone_devices']} = compat.clones.clone_devices({config})\n"
        code += "".join(f"\n{c}" for c in classes) + ("\n" if classes else "")
        code += "".join(f"{var} = {made}\n" for var, made, _ in self.layers)
        blank = cst.EmptyLine(indent=False)
        statements = [*statements_of(code), clone.with_changes(leading_lines=[blank])]
        self.replacements[id(self.clone_fn)] = statements  # (where clone_fn was defined)
        self.replacements[id(stmt)] = []
        self.rule.add_needed_import("compat.clones")
        self.rule.slim_converted = True

    # -- the loss, the train op and the loop
    def total_loss(self, stmt: cst.BaseStatement, name: str, call: cst.Call) -> None:
        if call.args or not self.losses or self.total is not None:
            raise Refused(stmt, "tf.losses.get_total_loss with arguments, before create_clones, or twice")
        self.total = name
        tf, targets = self.alias, cast(tuple, self.inputs)[1]
        regularization = "".join(f", *{var}.losses" for var, _, cls in self.layers if cls)
        params = ", ".join(targets)
        code = (
            f"def {self.names['model']}({params}):\n"
            f'    """create_clones(config, {cast(cst.FunctionDef, self.clone_fn).name.value}) and get_total_loss(): each '
            'clone\'s losses on its device, the layers\' regularization losses once."""\n'
            "    losses = []\n"
            f"    for device in {self.names['clone_devices']}:\n"
            f"        with {tf}.device(device):\n"
            f"            losses += {cast(cst.FunctionDef, self.clone_fn).name.value}({params})\n"
            f"    return {tf}.add_n([*losses{regularization}])\n"
        )
        self.replacements[id(stmt)] = [cst.parse_statement(code)]

    def create_train_op(self, stmt: cst.BaseStatement, name: str, call: cst.Call) -> None:
        if self.total is None or self.train_op is not None:
            raise Refused(stmt, "create_train_op before get_total_loss, or twice")
        args = arguments(call, CREATE_PARAMS, stmt, "create_train_op")
        other = sorted(set(args) - {"total_loss", "optimizer", "global_step", "check_numerics"})
        if other:
            raise Refused(stmt, f"create_train_op({other[0]}=...), which the rule does not convert")
        loss = args.get("total_loss")
        if loss is None or not (isinstance(loss.value, cst.Name) and loss.value.value == self.total):
            raise Refused(stmt, "create_train_op of a loss other than get_total_loss()'s")
        step = args.get("global_step")
        if step is not None and not (isinstance(step.value, cst.Name) and step.value.value == self.step):
            raise Refused(stmt, "create_train_op(global_step=...) of a variable other than the global step")
        check = args.get("check_numerics")
        if check is not None and not (isinstance(check.value, cst.Name) and check.value.value in ("True", "False")):
            raise Refused(stmt, "create_train_op(check_numerics=...) other than a literal True or False")
        self.check_numerics = check is None or cast(cst.Name, check.value).value == "True"
        optimizer = args.get("optimizer")
        kind = self.rule.is_call(optimizer.value, OPTIMIZERS) if optimizer is not None else None
        updated = self.updated_arguments(call, CREATE_PARAMS, stmt).get("optimizer")
        if kind is None or not isinstance(updated, cst.Call):
            raise Refused(stmt, "create_train_op of an optimizer other than a tf.train optimizer the rule knows")
        row = tables.OPTIMIZERS[OPTIMIZERS[kind]]
        given = arguments(updated, row.params, stmt, f"tf.train.{OPTIMIZERS[kind]}")
        if "use_locking" in given or any(self.rule.tf_calls(a.value) for a in given.values()):
            raise Refused(stmt, f"tf.train.{OPTIMIZERS[kind]} of use_locking or of a value the graph computes")
        values = {p: source_of(a.value) for p, a in given.items()}
        renamed = tables.renamed_slots(OPTIMIZERS[kind], values)
        if renamed is not None:
            raise Refused(stmt, renamed)
        self.optimizer_code, self.optimizer_said = tables.keras_optimizer(self.alias, OPTIMIZERS[kind], values)
        code = [f"{self.names['optimizer']} = {self.optimizer_code}\n"]
        if self.step is None:
            self.step = self.free("global_step")
            code.insert(
                0,
                f'{self.step} = {self.alias}.Variable(0, dtype={self.alias}.int64, trainable=False, name="global_step")\n',
            )
        self.train_op = name
        self.replacements[id(stmt)] = [cst.parse_statement(line) for line in code]

    def loop(self, stmt: cst.BaseStatement, call: cst.Call, sess: str) -> list[cst.BaseStatement]:
        """The MonitoredTrainingSession's `while not sess.should_stop():` loop -> the train step and the eager loop of
        _native_monitored, its variables made (a traced call of clone_fn) before the checkpoint TF1 wrote at the start."""
        if not isinstance(stmt, cst.With) or not isinstance(stmt.body, cst.IndentedBlock) or not sess:
            raise Refused(stmt, "a MonitoredTrainingSession not used as `with ... as sess:`")
        keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        updated_call = cast(cst.Call, cast(cst.With, self.up(stmt)).items[0].item)
        new = {a.keyword.value: a.value for a in updated_call.args if a.keyword is not None}
        if "checkpoint_dir" not in keywords:
            raise Refused(stmt, "a MonitoredTrainingSession without a checkpoint_dir")
        kind, steps = monitored.stop_steps(self.rule, stmt, keywords["hooks"], new, self.hooks)
        body = list(stmt.body.body)
        loop = body[0] if len(body) == 1 and isinstance(body[0], cst.While) else None
        test = loop.test if loop is not None else None
        if not (
            loop is not None
            and loop.orelse is None
            and isinstance(test, cst.UnaryOperation)
            and isinstance(test.operator, cst.Not)
            and source_of(test.expression) == f"{sess}.should_stop()"
        ):
            raise Refused(stmt, "a MonitoredTrainingSession's block other than one `while not sess.should_stop():`")
        inner = list(cast(cst.IndentedBlock, loop.body).body)
        updated_inner = list(
            cast(cst.IndentedBlock, cast(cst.While, cast(cst.With, self.up(stmt)).body.body[0]).body).body
        )
        runs = [c for s in inner for c in names_in(s).calls if source_of(c.func) == f"{sess}.run"]
        if len(runs) != 1 or source_of(runs[0]) != f"{sess}.run({self.train_op})":
            raise Refused(loop, "a loop body without exactly one sess.run, of the train op alone")
        if any(collect(s, k) for s in inner for k in (cst.Break, cst.Continue, cst.Return, cst.Yield)):
            raise Refused(
                loop, "a break, continue, return or yield in the loop (TF1's loop ended at should_stop alone)"
            )
        gone = {sess, *cast(tuple, self.inputs)[1], cast(str, self.total), *(n for n in (self.step,) if n)}
        reads = [n for s in inner for n in names_in(s).names]
        if reads.count(sess) != 1 or set(reads) & (gone - {sess}) or any(self.rule.tf_calls(s) for s in inner):
            raise Refused(loop, "the loop reads the session, the graph or TensorFlow besides its sess.run")
        tf, names, step = self.alias, self.names, cast(str, self.step)
        step_call = f"{names['train_step']}().numpy()"
        converted = [cast(cst.BaseStatement, s.visit(_Run(f"{sess}.run", step_call))) for s in updated_inner]
        made = [var for var, _, cls in self.layers if cls]
        variables = f"[{', '.join(f'*{v}.trainable_variables' for v in made)}]"
        clone = cast(cst.FunctionDef, self.clone_fn).name.value
        returned = f'{tf}.debugging.check_numerics(loss, "LossTensor is inf or nan")' if self.check_numerics else "loss"
        targets = ", ".join(cast(tuple, self.inputs)[1])
        for module in ("time", "compat.tf1_saver", "compat.tf1_slots"):
            self.rule.add_needed_import(module)
        names = {**names, "last": monitored.last_step(kind, steps, step)}
        objects = ", ".join([*(f"{v}={v}" for v in made), f"{step}={step}", f"optimizer={names['optimizer']}"])
        directory = source_of(new["checkpoint_dir"])
        head = (
            f"@{tf}.function(input_signature=[])\n"
            f"def {names['train_step']}():\n"
            f"    {targets} = next({names['iterator']})\n"
            f"    with {tf}.GradientTape() as tape:\n"
            f"        loss = {names['model']}({targets})\n"
            "    variables = tape.watched_variables()\n"
            f"    {names['optimizer']}.apply_gradients(zip(tape.gradient(loss, variables), variables))\n"
            f"    {step}.assign_add(1)\n"
            f"    return {returned}\n"
            "\n"
            "# (the layers make their variables, on the variables' device: TF1's graph held them before its first step)\n"
            f"compat.clones.float32_inputs({names['iterator']}.element_spec)\n"
            f"with {tf}.device(compat.clones.variables_device({self.config})):\n"
            f"    {tf}.function({clone}).get_concrete_function(*{names['iterator']}.element_spec)\n"
            f"{names['optimizer']}.build({variables})\n"
        ) + monitored.restored(tf, step, names, objects, directory, names["optimizer"], variables)
        every, stop, end_code = monitored.saving(step, names)
        tail = cst.parse_module(every + stop).body
        eager = cst.While(test=cst.Name("True"), body=cst.IndentedBlock(body=[*converted, *tail]))
        handler = cast(
            cst.Try,
            cst.parse_statement(
                f"try:\n    pass\nexcept (StopIteration, {tf}.errors.OutOfRangeError):\n    pass  # (the end of the input)\n"
            ),
        )
        end = cst.parse_statement(end_code)
        self.kind = kind
        made_step = statements_of(head)
        made_step[0] = made_step[0].with_changes(leading_lines=[cst.EmptyLine(indent=False)])
        return [*made_step, handler.with_changes(body=cst.IndentedBlock(body=[eager])), end]

    def said(self) -> list[str]:
        clone = cast(cst.FunctionDef, self.clone_fn).name.value
        return [
            f"model_deploy.create_clones({self.config}, {clone}) -> {clone}() of the input element returning its "
            f"losses, called on each of {self.config}'s clones (compat.clones.clone_devices: config.clone_device(i) of "
            f"config.num_clones, a device this process lacks stopping the port with one line) over the same Keras "
            "layers (made once, TF1's names, on config.variables_device()), the losses summed with the layers' "
            "regularization losses as tf.losses.get_total_loss() summed the clones' (no 1/num_clones: the script "
            "calls create_clones alone)",
            f"create_train_op -> a tf.function train step ({self.optimizer_said}; the global step incremented after "
            "the update; its value the total loss before the update"
            + (", check_numerics'd)" if self.check_numerics else ")"),
            f"{cast(tuple, self.inputs)[2].name.value}() returns its tf.data pipeline, each step takes its next "
            "element",
            *monitored.training_said(_Said(self.kind)),
        ]


def statements_of(code: str) -> list[cst.BaseStatement]:
    """The statements of `code`, their blank lines without indentation (they go into an indented block)."""

    class Unindented(cst.CSTTransformer):
        def leave_EmptyLine(self, original_node: cst.EmptyLine, updated_node: cst.EmptyLine) -> cst.EmptyLine:
            return updated_node if updated_node.comment else updated_node.with_changes(indent=False)

    return list(cast(cst.Module, cst.parse_module(code).visit(Unindented())).body)


class _Said:
    """What _native_monitored.training_said reads of a converter."""

    def __init__(self, kind: str) -> None:
        self.monitored_said = (kind, True)


class _Run(cst.CSTTransformer):
    """`sess.run(train_op)` -> the train step's value."""

    def __init__(self, run: str, code: str) -> None:
        self.run, self.code = run, code

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        if source_of(updated_node.func) == self.run:
            return cst.parse_expression(self.code)
        return updated_node
