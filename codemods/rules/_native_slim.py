"""native-session's tf-slim layers: `slim.fully_connected` and `slim.conv2d` (tf.contrib.layers' and tf-slim's, also
under `arg_scope`) as a Keras Dense and Conv2D made once, `slim.flatten` as a Keras Flatten, `xavier_initializer()`
as Keras's GlorotUniform, `l2_regularizer(scale)` as Keras's l2.

tf-slim's fully_connected and conv2d are TF1's Dense and Conv2D layers under a variable scope (`fully_connected`,
`fully_connected_1` ...; `Conv`, `Conv_1` ...) whose variables they rename `weights` and `biases`; the code written
for each is a subclass of the Keras layer naming them so (LAYER_CODE below), so that a TF1 checkpoint's values load
into it by name. What it does not take as is (a normalizer, reuse, collections, another initializer or regularizer,
channels-first data) leaves the script at the safe level. SLIM_LAYERS is the one table of them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Protocol, cast

import libcst as cst
from libcst.codemod.visitors import AddImportsVisitor

from codemods.engine.rule import Rule
from codemods.rules import _tf
from codemods.rules._native_checkpoint import Checkpoints
from codemods.rules._native_names import ARG_SCOPE, L2_REGULARIZER, XAVIER
from codemods.rules._native_names import SLIM_LAYERS as SLIM_NAMES
from codemods.rules._native_slim_nets import ZooNet, is_net_call, net_block, zoo_scope
from codemods.rules._native_state import Layer
from codemods.rules._native_syntax import Refused, arguments, assigned, single, source_of

# the parameters tf-slim's layers share after their own (tf_slim.layers, tf.contrib.layers' alike)
_COMMON = (
    "activation_fn",
    "normalizer_fn",
    "normalizer_params",
    "weights_initializer",
    "weights_regularizer",
    "biases_initializer",
    "biases_regularizer",
    "reuse",
    "variables_collections",
    "outputs_collections",
    "trainable",
    "scope",
)


@dataclasses.dataclass(frozen=True)
class SlimLayer:
    params: tuple[str, ...]  # in positional order
    keras: str  # the Keras layer
    cls: str  # the subclass written for it (its variables named as TF1's), "" for a layer without variables
    scope: str  # TF1's default scope name (its variables' prefix)


SLIM_LAYERS = {
    "fully_connected": SlimLayer(("inputs", "num_outputs", *_COMMON), "Dense", "FullyConnected", "fully_connected"),
    "conv2d": SlimLayer(
        ("inputs", "num_outputs", "kernel_size", "stride", "padding", "data_format", "rate", *_COMMON),
        "Conv2D",
        "Convolution2D",
        "Conv",
    ),
    "flatten": SlimLayer(("inputs", "outputs_collections", "scope"), "Flatten", "", "Flatten"),
}
# an arg_scope's defaults: parameter -> (its value as written, as the safe pass left it)
Defaults = dict[str, tuple[cst.BaseExpression, cst.BaseExpression]]
# what a Keras layer has no equal for (a normalizer replaces the bias; reuse and collections are graph state)
_REFUSED = ("normalizer_fn", "normalizer_params", "reuse", "variables_collections", "outputs_collections")
# the parameters whose default is None, where None written out is the default (not activation_fn: relu by default;
# nor biases_initializer or weights_initializer: None there is no bias, get_variable's initializer)
_NONE_DEFAULTS = (*_REFUSED, "weights_regularizer", "biases_regularizer", "data_format", "scope")


def is_none(node: cst.BaseExpression) -> bool:
    """`None` written out."""
    return isinstance(node, cst.Name) and node.value == "None"


# written once per converted block for each kind used: TF1 named the Keras layer's kernel `weights`, its bias `biases`
LAYER_CODE = (
    "\nclass {cls}({tf}.keras.layers.{keras}):\n"
    '    """tf-slim\'s {function}: a {keras} whose variables keep TF1\'s names (scope/weights, scope/biases)."""\n'
    "\n"
    "    def add_weight(self, name=None, *args, **kwargs):\n"
    '        return super().add_weight({{"kernel": "weights", "bias": "biases"}}.get(name, name), *args, **kwargs)\n'
)


def layer_code(cls: str, tf: str) -> str:
    """The class written for the tf-slim layer whose subclass is `cls`."""
    function, row = next((f, r) for f, r in SLIM_LAYERS.items() if r.cls == cls)
    return LAYER_CODE.format(cls=cls, tf=tf, keras=row.keras, function=function)


def written_classes(module: cst.Module, tf: str) -> frozenset[str]:
    """The classes of LAYER_CODE `module` defines as written (native-layers writes them before a model_fn), once:
    Keras layers that name their variables as TF1's."""
    defined = [s.name.value for s in module.body if isinstance(s, (cst.ClassDef, cst.FunctionDef))]
    return frozenset(
        stmt.name.value
        for stmt in module.body
        if isinstance(stmt, cst.ClassDef)
        and defined.count(stmt.name.value) == 1
        and any(row.cls == stmt.name.value for row in SLIM_LAYERS.values())
        and source_of(stmt.with_changes(leading_lines=[])) == layer_code(stmt.name.value, tf).lstrip("\n")
    )


SLIM_MODULES = ("compat.slim", "tf_slim", "tensorflow.contrib")  # (the modules whose imports may go)


def drop_slim_imports(rule: Rule, module: cst.Module) -> None:
    """The tf-slim imports (the safe pass's compat.slim, tf_slim, tf.contrib) the converted code no longer
    reads: dropped by the engine where nothing uses them."""
    for stmt in module.body:
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Import):
                for alias in small.names:
                    name = _tf.full_name(alias.name)
                    if name.startswith(SLIM_MODULES):
                        asname = alias.asname.name if alias.asname else None
                        rule.remove_unused_import(name, None, asname.value if isinstance(asname, cst.Name) else None)
            elif isinstance(small, cst.ImportFrom) and small.module is not None and small.relative == ():
                name = _tf.full_name(small.module)
                if name.startswith(SLIM_MODULES) and not isinstance(small.names, cst.ImportStar):
                    for alias in small.names:
                        asname = alias.asname.name if alias.asname else None
                        bound = asname.value if isinstance(asname, cst.Name) else None
                        rule.remove_unused_import(name, _tf.full_name(alias.name), bound)
    for item in rule.state.context.scratch.get(AddImportsVisitor.CONTEXT_KEY, []):  # (the safe pass's, to come)
        if item.module.startswith(SLIM_MODULES) and not item.relative:
            rule.remove_unused_import(item.module, item.obj_name, item.alias)


class SlimNames(Protocol):
    """What reading tf-slim's calls asks of the rule that recorded them in its pass (native-session, native-layers)."""

    updated_calls: dict[int, cst.Call]  # id(a library call) -> as the pass left it

    def library_names(self, call: cst.CSTNode) -> frozenset[str]: ...
    def attribute_names(self, node: cst.CSTNode) -> frozenset[str]: ...
    def is_call(self, node: cst.CSTNode, names: Iterable[str]) -> str | None: ...


class SlimReader:
    """tf-slim's layer calls and arg_scope read as a Keras layer's arguments (Refused for what a Keras layer has no
    equal for): native-session makes the layers of a Session script once, native-layers a model_fn's at the call."""

    alias: str  # the module's name for tensorflow
    slim_initializers: set[str]  # names bound to xavier_initializer() (native-session's host statements)

    @property
    def slim_names(self) -> SlimNames:
        """The rule that recorded the calls."""
        raise NotImplementedError

    def slim_function(self, call: cst.CSTNode, names: frozenset[str]) -> bool:
        return isinstance(call, cst.Call) and bool(self.slim_names.library_names(call) & names)

    def glorot(self, call: cst.Call, node: cst.CSTNode) -> str:
        """xavier_initializer(uniform=True, seed=None): TF1's variance scaling, fan_avg, uniform = GlorotUniform."""
        args = arguments(call, ("uniform", "seed"), node, "xavier_initializer")
        uniform = args.get("uniform")
        if uniform is not None and not (isinstance(uniform.value, cst.Name) and uniform.value.value == "True"):
            raise Refused(node, "xavier_initializer(uniform=...): its truncated normal is not Keras's GlorotNormal")
        updated = self.updated_arguments(call, ("uniform", "seed"), node)
        seed = f"seed={source_of(updated['seed'])}" if "seed" in updated else ""
        return f"{self.alias}.keras.initializers.GlorotUniform({seed})"

    def updated_arguments(
        self, call: cst.Call, params: tuple[str, ...], node: cst.CSTNode
    ) -> dict[str, cst.BaseExpression]:
        """The call's arguments as the safe pass left them (the calls the rule reads are the original ones)."""
        found = self.slim_names.updated_calls.get(id(call))
        if found is None:
            raise Refused(node, "a tf-slim call the safe pass rewrote out of shape")
        return {p: a.value for p, a in arguments(found, params, node, "tf-slim").items()}

    def slim_kind(self, call: cst.CSTNode) -> str | None:
        """The SLIM_LAYERS row of a tf-slim layer call (fully_connected, conv2d, flatten), else None."""
        if not isinstance(call, cst.Call):
            return None
        found = {SLIM_NAMES[n] for n in self.slim_names.library_names(call) if n in SLIM_NAMES}
        return min(found) if found else None

    def arg_scope_call(self, stmt: cst.BaseStatement) -> cst.Call | None:
        """The call of `with arg_scope([fully_connected, ...], **defaults):` around graph statements, else None."""
        if not isinstance(stmt, cst.With) or len(stmt.items) != 1 or stmt.items[0].asname is not None:
            return None
        call = stmt.items[0].item
        if (
            isinstance(call, cst.Call)
            and self.slim_function(call, ARG_SCOPE)
            and isinstance(stmt.body, cst.IndentedBlock)
        ):
            return call
        return None

    def arg_scope_defaults(self, stmt: cst.With, call: cst.Call) -> tuple[Defaults, set[str]]:
        """What `with arg_scope([fully_connected, conv2d], weights_initializer=..., ...):` sets: (its defaults,
        parameter -> (as written, as the safe pass left it); the SLIM_LAYERS rows it sets them for)."""
        if not call.args or call.args[0].keyword is not None or not isinstance(call.args[0].value, cst.List):
            raise Refused(stmt, "arg_scope without a list of the functions it sets")
        functions = cast(cst.List, call.args[0].value).elements
        kinds = {SLIM_NAMES[n] for e in functions for n in self.slim_names.attribute_names(e.value) if n in SLIM_NAMES}
        kinds.discard("flatten")
        if not functions or len(kinds) != len(functions):
            raise Refused(stmt, "arg_scope over functions besides fully_connected and conv2d, which the rule converts")
        defaults: Defaults = {}
        updated = self.slim_names.updated_calls.get(id(call))
        if updated is None or len(updated.args) != len(call.args):
            raise Refused(stmt, "an arg_scope the safe pass rewrote out of shape")
        for arg, new in zip(call.args[1:], updated.args[1:]):
            taken = [SLIM_LAYERS[kind].params[2:] for kind in kinds]
            if arg.keyword is None or arg.star or not all(arg.keyword.value in params for params in taken):
                raise Refused(stmt, f"arg_scope with an argument {' or '.join(sorted(kinds))} does not take by keyword")
            defaults[arg.keyword.value] = (arg.value, new.value)
        return defaults, kinds

    def slim_arguments(
        self,
        stmt: cst.CSTNode,
        call: cst.Call,
        kind: str,
        defaults: Mapping[str, tuple[cst.BaseExpression, cst.BaseExpression]],
    ) -> tuple[dict[str, cst.BaseExpression], dict[str, cst.BaseExpression]]:
        """A tf-slim layer's arguments (its arg_scope's defaults under its own): (as written, as the safe pass left
        them)."""
        row = SLIM_LAYERS[kind]
        given = {p: a.value for p, a in arguments(call, row.params, stmt, kind).items()}
        originals = {**{p: v for p, (v, _) in defaults.items()}, **given}
        # (a None tf-slim takes by default is no argument: scope=None numbers the layer, normalizer_fn=None is none)
        originals = {p: v for p, v in originals.items() if not (p in _NONE_DEFAULTS and is_none(v))}
        refused = sorted(set(originals) & set(_REFUSED))
        if refused:
            raise Refused(stmt, f"{kind}({refused[0]}=...), which a Keras {row.keras} has no equal for")
        trainable = originals.get("trainable")
        if trainable is not None and not (isinstance(trainable, cst.Name) and trainable.value == "True"):
            raise Refused(
                stmt,
                f"{kind}(trainable={source_of(trainable)}): a Keras {row.keras} made untrainable keeps trainable "
                "variables, which the train step's GradientTape would watch and train",
            )
        required = row.params[:3] if kind == "conv2d" else row.params[: 1 + bool(row.cls)]
        if not set(required) <= set(originals):
            raise Refused(stmt, f"{kind} without its {', '.join(required)}")
        updated = self.updated_arguments(call, row.params, stmt)
        values = {
            p: v for p, v in {**{p: new for p, (_, new) in defaults.items()}, **updated}.items() if p in originals
        }
        for param in ("weights_initializer", "biases_initializer", "weights_regularizer", "biases_regularizer"):
            if param in originals:
                self.slim_value(stmt, kind, param, originals[param], values[param])
        return originals, values

    def slim_value(
        self, node: cst.CSTNode, kind: str, param: str, original: cst.BaseExpression, value: cst.BaseExpression
    ) -> str:
        """An initializer or regularizer argument as Keras's, as code; Refused for one the rule does not know."""
        if isinstance(original, cst.Name) and original.value == "None":
            return "None"
        if param.endswith("_regularizer"):
            if not self.slim_function(original, L2_REGULARIZER):
                raise Refused(node, f"{kind}({param}=...), a regularizer the rule does not know")
            scale = self.updated_arguments(cast(cst.Call, original), ("scale", "scope"), node)
            if set(scale) != {"scale"}:
                raise Refused(node, "l2_regularizer without its scale, or with a scope")
            code = source_of(scale["scale"])
            if not isinstance(scale["scale"], (cst.Name, cst.Attribute, cst.Float, cst.Integer)):
                code = f"({code})"
            # l2_regularizer(scale) is scale * tf.nn.l2_loss(w) = scale * sum(w**2) / 2; Keras's l2(l) is l * sum(w**2)
            return f"{self.alias}.keras.regularizers.l2(0.5 * {code})"
        if isinstance(original, cst.Name) and original.value in self.slim_initializers:
            return source_of(value)
        if self.slim_function(original, XAVIER):
            return self.glorot(cast(cst.Call, original), node)
        if param == "biases_initializer" and self.slim_names.is_call(original, ZEROS):
            return "zeros"
        raise Refused(node, f"{kind}({param}=...), an initializer the rule does not know")

    def keras_keywords(
        self,
        line: cst.CSTNode,
        kind: str,
        originals: Mapping[str, cst.BaseExpression],
        values: Mapping[str, cst.BaseExpression],
    ) -> list[str]:
        """The Keras layer's keyword arguments, as code, for a tf-slim layer's."""
        if kind == "flatten":
            return []
        if kind == "fully_connected":
            keywords = [f"units={source_of(values['num_outputs'])}"]
        else:
            keywords = [
                f"filters={source_of(values['num_outputs'])}",
                f"kernel_size={source_of(values['kernel_size'])}",
            ]
            keywords += [f"strides={source_of(values['stride'])}"] if "stride" in values else []
            keywords += [f"dilation_rate={source_of(values['rate'])}"] if "rate" in values else []
            padding = originals.get("padding")
            if padding is None:
                keywords.append('padding="same"')  # (tf-slim's default; Keras's is "valid")
            elif isinstance(padding, cst.SimpleString) and str(padding.evaluated_value).upper() in ("SAME", "VALID"):
                keywords.append(f'padding="{str(padding.evaluated_value).lower()}"')
            else:
                raise Refused(line, "conv2d(padding=...) other than a literal SAME or VALID")
            data_format = originals.get("data_format")
            if data_format is not None and not (
                (isinstance(data_format, cst.Name) and data_format.value == "None")
                or (isinstance(data_format, cst.SimpleString) and data_format.evaluated_value == "NHWC")
            ):
                raise Refused(line, "conv2d(data_format=...) other than NHWC, the Keras layer's channels_last")
        activation = source_of(values["activation_fn"]) if "activation_fn" in values else f"{self.alias}.nn.relu"
        keywords.append(f"activation={activation}")
        for param, keras in KERAS_NAMES.items():
            if param in originals:
                code = self.slim_value(line, kind, param, originals[param], values[param])
                if code == "None" and param == "biases_initializer":
                    keywords.append("use_bias=False")
                elif code not in ("None", "zeros"):
                    keywords.append(f"{keras}={code}")
        return keywords  # (trainable: True, the Keras layer's default, or refused by slim_arguments)


class SlimLayers(Checkpoints, SlimReader):
    """fully_connected, its initializer and regularizer, and arg_scope around them, in a Session script; a zoo net
    under its arg_scope (_native_slim_nets)."""

    zoo_net: ZooNet | None = None  # the zoo net of the block (_native_slim_nets)
    updates_run: bool  # (_native_model's: the train op runs UPDATE_OPS)

    @property
    def slim_names(self) -> SlimNames:
        return self.rule

    def xavier_object(self, stmt: cst.BaseStatement) -> bool:
        """`init = xavier_initializer()`: a host statement, the same initializer as Keras's GlorotUniform."""
        name, value = assigned(single(stmt))
        if name is None or value is None or not self.slim_function(value, XAVIER):
            return False
        if name in self.graph or self.computes:
            raise Refused(stmt, "xavier_initializer() bound after the graph's tensors, or to one of its names")
        self.slim_initializers.add(name)
        code = f"{name} = {self.glorot(cast(cst.Call, value), stmt)}\n"
        self.replacements[id(stmt)] = [cst.parse_statement(code)]
        return True

    def arg_scope_block(self, stmt: cst.With, call: cst.Call) -> bool:
        """arg_scope([fully_connected, conv2d], weights_initializer=..., ...): its defaults go to each call of those
        functions in its block (written out on the Keras layer); the block's statements stay, without the scope."""
        if self.scope_defaults is not None:
            raise Refused(stmt, "arg_scope inside arg_scope")
        zoo = zoo_scope(self.slim_names, call)
        if zoo is not None:  # (a zoo net's arg_scope, resnet_v1.resnet_arg_scope(): _native_slim_nets)
            return net_block(self, stmt, zoo)
        self.scope_defaults, self.scope_kinds = self.arg_scope_defaults(stmt, call)
        made: list[cst.BaseStatement] = []
        try:
            for inner in cast(cst.IndentedBlock, stmt.body).body:
                if not isinstance(inner, cst.SimpleStatementLine) or not self.graph_statement(inner):
                    raise Refused(inner, "an arg_scope block holding a statement that is no tensor of the graph")
                made += self.replacements.pop(id(inner), [])
        finally:
            self.scope_defaults, self.scope_kinds = None, set()
        self.replacements[id(stmt)] = made
        return True

    def graph_statement(self, stmt: cst.BaseStatement) -> bool:  # (the Converter's)
        raise NotImplementedError

    def slim_calls(self, stmt: cst.BaseStatement, calls: list[cst.Call]) -> set[int]:
        """The library calls of a graph statement this module converts: the tf-slim layers and the initializer and
        regularizer calls in their arguments (checked here, written by slim_layer())."""
        found = {id(call) for call in calls if is_net_call(self, stmt, call)}  # (a zoo net's: _native_slim_nets)
        for call in calls:
            kind = self.slim_kind(call)
            if kind is not None:
                self.slim_arguments(stmt, call, kind, self.defaults_of(kind))
                found.add(id(call))
                given = arguments(call, SLIM_LAYERS[kind].params, stmt, kind)
                found |= {id(a.value) for a in given.values() if isinstance(a.value, cst.Call)}
        if found and self.scope_defaults is not None:
            self.statement_defaults[id(stmt)] = {kind: self.scope_defaults for kind in self.scope_kinds}
        return found

    def defaults_of(self, kind: str) -> Mapping[str, tuple[cst.BaseExpression, cst.BaseExpression]]:
        """The arguments the arg_scope being read gives `kind`'s calls."""
        return (self.scope_defaults or {}) if kind in self.scope_kinds else {}

    def slim_layer(
        self, line: cst.CSTNode, original: cst.Call, updated: cst.Call, layers: list[Layer]
    ) -> cst.BaseExpression:
        """`fully_connected(x, n, ...)` -> `fully_connected(x)`, a Keras layer made once under TF1's scope name (of
        the subclass naming its variables as TF1's); `flatten(x)` -> a Keras Flatten's call. `updated`: the call as
        the transformer left it (its inputs converted: `fully_connected(flatten(x), n)`)."""
        kind = cast(str, self.slim_kind(original))
        row = SLIM_LAYERS[kind]
        if row.cls and row.cls in self.rule.module_names():
            raise Refused(line, f"no free name for the class {row.cls} (the module uses it)")
        self.float32_inputs(line, kind)
        self.host_input(
            line, kind, arguments(original, row.params, line, kind).get("inputs", cst.Arg(cst.Name("None"))).value
        )
        originals, values = self.slim_arguments(
            line, original, kind, self.statement_defaults.get(id(line), {}).get(kind, {})
        )
        scope = originals.get("scope")
        if scope is not None:
            if not isinstance(scope, cst.SimpleString):
                raise Refused(line, f"{kind} with a computed scope")
            name = str(scope.evaluated_value)
            self.take_name(name, line)
        else:
            name = self.tf1_name(row.scope)
        var = self.layer_var(name, layers, line)
        keywords = self.keras_keywords(line, kind, originals, values)
        layers.append(Layer(var, row.keras, [*keywords, f'name="{name}"'], name, row.cls))
        self.rule.slim_converted = True
        inputs = arguments(updated, row.params, line, kind)["inputs"].value
        return cst.Call(func=cst.Name(var), args=[cst.Arg(inputs)])

    def layer_var(self, name: str, layers: list[Layer], line: cst.CSTNode) -> str:
        raise NotImplementedError  # (_native_model's Model)


ZEROS = frozenset({"tensorflow.zeros_initializer", "tensorflow.compat.v1.zeros_initializer"})
KERAS_NAMES = {
    "weights_initializer": "kernel_initializer",
    "weights_regularizer": "kernel_regularizer",
    "biases_initializer": "bias_initializer",
    "biases_regularizer": "bias_regularizer",
}
