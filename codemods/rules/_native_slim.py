"""native-session's tf-slim layers: `slim.fully_connected` (tf.contrib.layers' and tf-slim's, also under `arg_scope`)
as a Keras Dense made once, `xavier_initializer()` as Keras's GlorotUniform, `l2_regularizer(scale)` as Keras's l2.

tf-slim's fully_connected is TF1's Dense layer under a variable scope (`fully_connected`, `fully_connected_1` ...)
whose variables it renames `weights` and `biases`; the code written for it is a Dense subclass naming them so
(FULLY_CONNECTED below), so that a TF1 checkpoint's values load into it by name. What it does not take as is
(a normalizer, reuse, collections, another initializer or regularizer) leaves the script at the safe level.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

import libcst as cst

from codemods.rules._native_checkpoint import Checkpoints
from codemods.rules._native_names import ARG_SCOPE, FULLY_CONNECTED, L2_REGULARIZER, XAVIER
from codemods.rules._native_state import Layer
from codemods.rules._native_syntax import Refused, arguments, assigned, single, source_of

# fully_connected's parameters in positional order (tf_slim.layers.fully_connected, tf.contrib.layers' alike)
PARAMS = (
    "inputs",
    "num_outputs",
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
# what a Keras Dense has no equal for (a normalizer replaces the bias; reuse and collections are graph state)
_REFUSED = ("normalizer_fn", "normalizer_params", "reuse", "variables_collections", "outputs_collections")
CLASS = "FullyConnected"
# written once per converted block: TF1's fully_connected named its Dense's kernel `weights` and its bias `biases`
FULLY_CONNECTED_CODE = (
    "\nclass {cls}({tf}.keras.layers.Dense):\n"
    '    """tf-slim\'s fully_connected: a Dense whose variables keep TF1\'s names (scope/weights, scope/biases)."""\n'
    "\n"
    "    def add_weight(self, name=None, *args, **kwargs):\n"
    '        return super().add_weight({{"kernel": "weights", "bias": "biases"}}.get(name, name), *args, **kwargs)\n'
)


class SlimLayers(Checkpoints):
    """fully_connected, its initializer and regularizer, and arg_scope around them."""

    def slim_function(self, call: cst.CSTNode, names: frozenset[str]) -> bool:
        return isinstance(call, cst.Call) and bool(self.rule.library_names(call) & names)

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
        found = self.rule.updated_calls.get(id(call))
        if found is None:
            raise Refused(node, "a tf-slim call the safe pass rewrote out of shape")
        return {p: a.value for p, a in arguments(found, params, node, "tf-slim").items()}

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

    def arg_scope_block(self, stmt: cst.With, call: cst.Call) -> bool:
        """arg_scope([fully_connected], weights_initializer=..., ...): its defaults go to each fully_connected
        call of its block (written out on the Keras layer); the block's statements stay, without the scope."""
        if self.scope_defaults is not None:
            raise Refused(stmt, "arg_scope inside arg_scope")
        if not call.args or call.args[0].keyword is not None or not isinstance(call.args[0].value, cst.List):
            raise Refused(stmt, "arg_scope without a list of the functions it sets")
        functions = cast(cst.List, call.args[0].value).elements
        if not functions or not all(self.rule.qualified_in(e.value, FULLY_CONNECTED) for e in functions):
            raise Refused(stmt, "arg_scope over functions besides fully_connected, which the rule converts")
        defaults: dict[str, tuple[cst.BaseExpression, cst.BaseExpression]] = {}
        updated = self.rule.updated_calls.get(id(call))
        if updated is None or len(updated.args) != len(call.args):
            raise Refused(stmt, "an arg_scope the safe pass rewrote out of shape")
        for arg, new in zip(call.args[1:], updated.args[1:]):
            if arg.keyword is None or arg.star or arg.keyword.value not in PARAMS[2:]:
                raise Refused(stmt, "arg_scope with an argument fully_connected does not take by keyword")
            defaults[arg.keyword.value] = (arg.value, new.value)
        self.scope_defaults = defaults
        made: list[cst.BaseStatement] = []
        try:
            for inner in cast(cst.IndentedBlock, stmt.body).body:
                if not isinstance(inner, cst.SimpleStatementLine) or not self.graph_statement(inner):
                    raise Refused(inner, "an arg_scope block holding a statement that is no tensor of the graph")
                made += self.replacements.pop(id(inner), [])
        finally:
            self.scope_defaults = None
        self.replacements[id(stmt)] = made
        return True

    def graph_statement(self, stmt: cst.BaseStatement) -> bool:  # (the Converter's)
        raise NotImplementedError

    def slim_calls(self, stmt: cst.BaseStatement, calls: list[cst.Call]) -> set[int]:
        """The library calls of a graph statement this module converts: fully_connected and the initializer and
        regularizer calls in its arguments (checked here, written by fully_connected())."""
        found: set[int] = set()
        defaults = self.scope_defaults or {}
        for call in calls:
            if self.slim_function(call, FULLY_CONNECTED):
                self.slim_arguments(stmt, call, defaults)
                found.add(id(call))
                given = arguments(call, PARAMS, stmt, "fully_connected")
                found |= {id(a.value) for a in given.values() if isinstance(a.value, cst.Call)}
        if found and self.scope_defaults is not None:
            self.statement_defaults[id(stmt)] = self.scope_defaults
        return found

    def slim_arguments(
        self, stmt: cst.CSTNode, call: cst.Call, defaults: Mapping[str, tuple[cst.BaseExpression, cst.BaseExpression]]
    ) -> tuple[dict[str, cst.BaseExpression], dict[str, cst.BaseExpression]]:
        """fully_connected's arguments (its arg_scope's defaults under its own): (as written, as the safe pass left them)."""
        given = {p: a.value for p, a in arguments(call, PARAMS, stmt, "fully_connected").items()}
        originals = {**{p: v for p, (v, _) in defaults.items()}, **given}
        refused = sorted(set(originals) & set(_REFUSED))
        if refused:
            raise Refused(stmt, f"fully_connected({refused[0]}=...), which a Keras Dense has no equal for")
        if "inputs" not in originals or "num_outputs" not in originals:
            raise Refused(stmt, "fully_connected without its inputs and num_outputs")
        updated = self.updated_arguments(call, PARAMS, stmt)
        values = {**{p: new for p, (_, new) in defaults.items()}, **updated}
        for param in ("weights_initializer", "biases_initializer", "weights_regularizer", "biases_regularizer"):
            if param in originals:
                self.slim_value(stmt, param, originals[param], values[param])
        return originals, values

    def slim_value(self, node: cst.CSTNode, param: str, original: cst.BaseExpression, value: cst.BaseExpression) -> str:
        """An initializer or regularizer argument as Keras's, as code; Refused for one the rule does not know."""
        if isinstance(original, cst.Name) and original.value == "None":
            return "None"
        if param.endswith("_regularizer"):
            if not self.slim_function(original, L2_REGULARIZER):
                raise Refused(node, f"fully_connected({param}=...), a regularizer the rule does not know")
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
        if param == "biases_initializer" and self.rule.is_call(original, ZEROS):
            return "zeros"
        raise Refused(node, f"fully_connected({param}=...), an initializer the rule does not know")

    def fully_connected(self, line: cst.CSTNode, original: cst.Call, layers: list[Layer]) -> cst.BaseExpression:
        """`fully_connected(x, n, ...)` -> `fully_connected(x)`, a FullyConnected Dense made once under TF1's name."""
        if CLASS in self.rule.module_names():
            raise Refused(line, f"no free name for the class {CLASS} (the module uses it)")
        self.float32_inputs(line, "fully_connected")
        originals, values = self.slim_arguments(line, original, self.statement_defaults.get(id(line), {}))
        scope = originals.get("scope")
        if scope is not None:
            if not isinstance(scope, cst.SimpleString):
                raise Refused(line, "fully_connected with a computed scope")
            name = str(scope.evaluated_value)
            self.take_name(name, line)
        else:
            name = self.tf1_name("fully_connected")
        var = self.layer_var(name, layers, line)
        activation = source_of(values["activation_fn"]) if "activation_fn" in values else f"{self.alias}.nn.relu"
        keywords = [f"units={source_of(values['num_outputs'])}", f"activation={activation}"]
        for param, keras in KERAS_NAMES.items():
            if param in originals:
                code = self.slim_value(line, param, originals[param], values[param])
                if code == "None" and param == "biases_initializer":
                    keywords.append("use_bias=False")
                elif code not in ("None", "zeros"):
                    keywords.append(f"{keras}={code}")
        if "trainable" in values:
            keywords.append(f"trainable={source_of(values['trainable'])}")
        layers.append(Layer(var, "Dense", [*keywords, f'name="{name}"'], name, CLASS))
        self.rule.slim_converted = True
        return cst.Call(func=cst.Name(var), args=[cst.Arg(values["inputs"])])

    def layer_var(self, name: str, layers: list[Layer], line: cst.CSTNode) -> str:
        raise NotImplementedError  # (_native_model's Model)


ZEROS = frozenset({"tensorflow.zeros_initializer", "tensorflow.compat.v1.zeros_initializer"})
KERAS_NAMES = {
    "weights_initializer": "kernel_initializer",
    "weights_regularizer": "kernel_regularizer",
    "biases_initializer": "bias_initializer",
    "biases_regularizer": "bias_regularizer",
}
