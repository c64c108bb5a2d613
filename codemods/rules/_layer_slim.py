"""native-layers on tf-slim: `slim.conv2d`, `slim.fully_connected` and `slim.flatten` in an Estimator's model_fn,
also under `arg_scope` -> the Keras layer made at the call: for conv2d and fully_connected the subclass naming its
variables as TF1 did (Conv/weights, fully_connected/biases; _native_slim's LAYER_CODE, written once before the
model_fn), its arguments and the arg_scope's defaults read by _native_slim's SlimReader as for a Session script's
layers (native-session), the arg_scope block's statements kept without the scope.

What `ModelFnSlim.check` proves, or every tf-slim layer call of the file stays at the safe level with an entry
saying why (TF1 numbered unnamed layers, Conv, Conv_1, per variable scope in the order they ran: all or none):

- the call is in the body of a function given to an Estimator as its model_fn (not a TPUEstimator's that may run on
  a TPU), under no loop, condition, function or with-statement there but one `with arg_scope([...], ...)`: the order
  the layers run, which names the unnamed ones, is the source's;
- that arg_scope sets conv2d and fully_connected only, by keyword, and its block calls nothing but the layers it
  converts and TensorFlow's ops (a function of the file or a library's, slim.repeat, may call them under it);
- SlimReader's refusals (a normalizer, reuse, collections, trainable other than True, an initializer or padding it
  does not know, channels-first data), and no regularizer: TF1 adds its loss to REGULARIZATION_LOSSES, which a
  Keras layer does not fill;
- the names: a literal scope or none, no two layers of one name (TF1's second would have failed on the first's
  variables), none another call of the file names literally, nor the Estimator's global_step, nor flatten,
  flatten_1 ... where a flatten converts (the name Keras gives its Flatten), nor Keras's default name of an unnamed
  tf.layers call of the file: Keras would number its name scope, in a graph that compares names ignoring case (so
  no two layers' names differ by case alone);
- the input is a name or a layer of one: TF1's layer made its variables in its input's dtype, written
  `dtype=<name>.dtype`.
"""

from __future__ import annotations

import functools
import re
from typing import cast

import libcst as cst

from codemods.rules._layer_names import dtype_source, named_alike
from codemods.rules._layer_scopes import scope_of
from codemods.rules._native_names import L2_REGULARIZER, XAVIER
from codemods.rules._native_slim import SLIM_LAYERS, Defaults, SlimNames, SlimReader, is_none, layer_code
from codemods.rules._native_syntax import Refused, all_names, arguments, descendants, source_of

GRAPH_ENTRY = "graph code: "  # (native_layers' prefix: bench/native.py runs no probe for such an entry)
ALL_OR_NONE = (
    "another tf-slim layer call of the file stays at the safe level: TF1 numbered unnamed layers (Conv, Conv_1) per "
    "variable scope in the order they ran, so they convert all or none"
)
# the statements and expressions between a layer call and its model_fn that may run it otherwise than once, in order
_NOT_ONCE = (
    cst.If,
    cst.For,
    cst.While,
    cst.Try,
    cst.FunctionDef,
    cst.ClassDef,
    cst.Lambda,
    cst.ListComp,
    cst.SetComp,
    cst.DictComp,
    cst.GeneratorExp,
    cst.IfExp,
    cst.BooleanOperation,
)
_REGULARIZERS = ("weights_regularizer", "biases_regularizer")


class _PostOrder(cst.CSTVisitor):
    """The calls of a node in the order they run (a call's function and arguments before it)."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[cst.Call] = []

    def leave_Call(self, original_node: cst.Call) -> None:
        self.calls.append(original_node)


class ModelFnSlim(SlimReader):
    """The tf-slim layer calls of one file, read for native-layers (original nodes; `rule` recorded their names and
    the calls as its pass left them)."""

    def __init__(
        self,
        rule: SlimNames,
        alias: str,
        module: cst.Module,
        parent: dict[int, cst.CSTNode],
        model_fns: set[str],
        on_tpu: set[str],
        calls: list[tuple[cst.Call, str]],
        tf_calls: set[int],
    ) -> None:
        self.rule, self.alias, self.slim_initializers = rule, alias, set()  # (SlimReader's)
        self.module, self.parent, self.model_fns, self.tf_calls = module, parent, model_fns, tf_calls
        self.on_tpu = on_tpu  # (the model_fns of TPUEstimators that may run on a TPU)
        self.kinds = {id(call): kind for call, kind in calls}  # id(call) -> its SLIM_LAYERS row
        self.calls = [call for call, _ in calls]
        self.keywords: dict[int, list[str]] = {}  # id(call) -> the Keras layer's keywords, as code
        self.names: dict[int, str] = {}  # id(call) -> its variables' scope (TF1's name)
        self.scopes: dict[int, cst.With] = {}  # id(arg_scope With) -> it, for the blocks converted
        self.functions: list[str] = []  # the model_fns holding the calls, in the source's order

    @property
    def slim_names(self) -> SlimNames:
        return self.rule

    @functools.cached_property
    def _module_names(self) -> set[str]:
        return {n.value for n in all_names(self.module)}

    def check(self, layer_calls: set[int], unnamed: frozenset[str] = frozenset()) -> dict[int, str | None]:
        """id(call) -> why it stays at the safe level (None: it converts); `layer_calls`: the ids of the file's layer
        calls (tf.layers' too), through which an input's dtype is read; `unnamed`: Keras's default names of the
        file's tf.layers calls given no name (dense), which TF1 numbered past a tf-slim scope of that name."""
        why: dict[int, str | None] = {}
        for call in self.calls:
            try:
                self._check(call, layer_calls)
                why[id(call)] = None
            except Refused as refused:
                why[id(call)] = refused.why
        if all(w is None for w in why.values()):
            try:
                self._name_all(unnamed)
            except Refused as refused:
                return dict.fromkeys(why, refused.why)
        return {key: ALL_OR_NONE if w is None and any(why.values()) else w for key, w in why.items()}

    def _check(self, call: cst.Call, layer_calls: set[int]) -> None:
        kind = self.kinds[id(call)]
        row = SLIM_LAYERS[kind]
        function, scope = self._where(call)
        defaults: Defaults = {}
        if scope is not None:
            scoped, kinds = self.arg_scope_defaults(scope, self._scope_call(scope))
            self._block_calls(scope)
            defaults = scoped if kind in kinds else {}
            self.scopes[id(scope)] = scope
        originals, values = self.slim_arguments(call, call, kind, defaults)
        for param in _REGULARIZERS:
            given = originals.get(param)
            if given is not None and not (isinstance(given, cst.Name) and given.value == "None"):
                raise Refused(
                    call,
                    f"{kind}({param}=...): TF1 adds its loss to REGULARIZATION_LOSSES, which a Keras layer does not "
                    "fill",
                )
        named = originals.get("scope")
        if named is not None and not isinstance(named, cst.SimpleString) and row.cls:
            raise Refused(call, f"{kind} with a computed scope")
        if row.cls and row.cls in self._module_names:
            raise Refused(call, f"no free name for the class {row.cls} (the module uses it)")
        inputs = arguments(call, row.params, call, kind).get("inputs")
        if inputs is None or dtype_source(inputs.value, layer_calls) is None:
            raise Refused(
                call,
                f"{kind} of an input that is not a name (nor a layer of one): TF1's layer made its variables in its "
                "input's dtype, which the rule writes as that name's .dtype",
            )
        self.keywords[id(call)] = self.keras_keywords(call, kind, originals, values)
        if function not in self.functions:
            self.functions.append(function)

    def _where(self, call: cst.Call) -> tuple[str, cst.With | None]:
        """(the model_fn whose body holds `call`, the arg_scope around it or None), or Refused."""
        scope: cst.With | None = None
        node = self.parent.get(id(call))
        while node is not None and not (
            isinstance(node, cst.FunctionDef) and isinstance(self.parent.get(id(node)), cst.Module)
        ):
            if isinstance(node, _NOT_ONCE):
                raise Refused(
                    call,
                    f"under {type(node).__name__} in its function: TF1 named tf-slim's unnamed layers (Conv, Conv_1) "
                    "in the order they ran, which the rule reads in a model_fn's straight-line code only",
                )
            if isinstance(node, cst.With):
                named = scope_of(node)
                if named is not None:
                    raise Refused(call, named)
                if scope is not None or self._scope_call(node, call) is None:
                    raise Refused(call, "under a with-statement other than one arg_scope of the model_fn's body")
                scope = node
            node = self.parent.get(id(node))
        if node is None or node.name.value not in self.model_fns:
            raise Refused(
                call,
                "not in the body of an Estimator's model_fn (the function given to the Estimator): TF1 named tf-slim's "
                "unnamed layers (Conv, Conv_1) in the order they ran, which the rule reads there only",
            )
        if node.name.value in self.on_tpu:
            raise Refused(
                call,
                "in the model_fn of a TPUEstimator whose use_tpu is not False: on a TPU it runs inside the TPU loop, "
                "where nothing here runs the Keras layers to prove them equal",
            )
        return node.name.value, scope

    def _scope_call(self, stmt: cst.With, call: cst.CSTNode | None = None) -> cst.Call:
        found = self.arg_scope_call(stmt)
        if found is None:
            raise Refused(call or stmt, "under a with-statement other than one arg_scope of the model_fn's body")
        return found

    def _block_calls(self, scope: cst.With) -> None:
        """Refused unless the arg_scope's block calls only the layers the rule converts and TensorFlow's ops."""
        for inner in _run_order(scope.body):
            library = self.rule.library_names(inner)
            if id(inner) in self.kinds or (id(inner) in self.tf_calls and not library):
                continue
            if library and library <= XAVIER | L2_REGULARIZER:
                continue  # (an initializer's or regularizer's factory, which SlimReader reads where a layer takes it)
            raise Refused(
                scope,
                f"an arg_scope block calling {source_of(inner.func)}, which may call the layers it sets under its "
                "defaults (a function of the file, or a library's, as slim.repeat): they would be lost",
            )

    def _name_all(self, unnamed: frozenset[str]) -> None:
        """TF1's names of the layers with variables, in the order each model_fn runs them (a default name numbered
        past those its variable scope opened: Conv, Conv_1), or Refused where TF1 would not have made them, or where
        the graph an Estimator builds would number the Keras layer's name scope, which it makes unique ignoring case
        (TF1's variable scopes Conv and conv: Keras's conv_1/weights)."""
        flattened = any(kind == "flatten" for kind in self.kinds.values())
        for function in self.functions:
            body = next(s for s in self.module.body if isinstance(s, cst.FunctionDef) and s.name.value == function)
            opened: dict[str, int] = {}
            folded: dict[str, str] = {}  # the names given, by their lower case
            for call in _run_order(body):
                kind = self.kinds.get(id(call))
                if kind is None or not SLIM_LAYERS[kind].cls:
                    continue
                row = SLIM_LAYERS[kind]
                named = arguments(call, row.params, call, kind).get("scope")
                if named is not None and not is_none(named.value):
                    name = str(cast(cst.SimpleString, named.value).evaluated_value)  # (_check: a literal)
                    if opened.get(name):
                        raise Refused(
                            call,
                            f"two tf-slim layers of the scope {name!r}: TF1's second would have failed on the first's "
                            "variables (it does not reuse them)",
                        )
                else:
                    name, index = row.scope, 0
                    while opened.get(name):
                        index += 1
                        name = f"{row.scope}_{index}"
                opened[name] = opened.get(name, 0) + 1
                if folded.setdefault(name.lower(), name) != name:
                    raise Refused(
                        call,
                        f"tf-slim layers of the scopes {folded[name.lower()]!r} and {name!r}: in the graph an Estimator "
                        "builds, which compares names ignoring case, Keras would number the second's name scope "
                        f"({name}_1/weights), TF1 named its variables by the variable scope",
                    )
                if flattened and re.fullmatch(r"flatten(_\d+)?", name, re.IGNORECASE):
                    raise Refused(
                        call,
                        f"a tf-slim layer of the scope {name!r}, the name Keras gives a Flatten made at the call "
                        "(flatten, flatten_1 ...): in the graph an Estimator builds, Keras would number this layer's "
                        "name scope past it (flatten_2/weights), TF1 named its variables by the variable scope",
                    )
                base = next((b for b in unnamed if re.fullmatch(rf"{b}(_\d+)?", name, re.IGNORECASE)), None)
                if base is not None:
                    raise Refused(
                        call,
                        f"a tf-slim layer of the scope {name!r}, Keras's default name of an unnamed tf.layers call of "
                        f"the file ({base}, {base}_1 ...): TF1 numbered that layer's variable scope past this one, "
                        "Keras names it by its own count",
                    )
                clash = named_alike(cst.Arg(cst.SimpleString(f'"{name}"')), row.keras, self.module, set(self.kinds))
                if clash:
                    raise Refused(
                        call,
                        f"another op or scope of the file is named {clash!r}: Keras names a layer's variables by a "
                        "name scope made unique in the graph (it would write its_name_1/weights), TF1 by the variable "
                        "scope",
                    )
                self.names[id(call)] = name

    def convert(self, call: cst.Call, updated: cst.Call) -> tuple[cst.BaseExpression, str]:
        """The Keras layer made and called for `call` (`updated`: as the pass left it, its inner layers converted)
        and the entry saying so."""
        kind = self.kinds[id(call)]
        row = SLIM_LAYERS[kind]
        source = dtype_source(arguments(call, row.params, call, kind)["inputs"].value, set(self.kinds))
        dtype = f"{source_of(source)}.dtype" if source is not None else ""
        inputs = arguments(updated, row.params, call, kind)["inputs"].value
        if not row.cls:
            made = cst.parse_expression(f"{self.alias}.keras.layers.{row.keras}(dtype={dtype})")
            said = f"{GRAPH_ENTRY}tf-slim's {kind} in a model_fn -> tf.keras.layers.{row.keras}, made at the call"
            return cst.Call(func=made, args=[cst.Arg(inputs)]), said
        name = self.names[id(call)]
        keywords = [*self.keywords[id(call)], f'name="{name}"', f"dtype={dtype}"]
        made = cst.parse_expression(f"{row.cls}({', '.join(keywords)})")
        said = (
            f"{GRAPH_ENTRY}tf-slim's {kind} in a model_fn -> {row.cls}, a Keras {row.keras} naming its variables as "
            f"TF1 ({name}/weights, {name}/biases), made at the call"
            + (" (its arg_scope's defaults written out)" if self._scoped(call) else "")
        )
        return cst.Call(func=made, args=[cst.Arg(inputs)]), said

    def _scoped(self, call: cst.Call) -> bool:
        node = self.parent.get(id(call))
        while node is not None and not isinstance(node, cst.FunctionDef):
            if isinstance(node, cst.With):
                return True
            node = self.parent.get(id(node))
        return False

    def finish(self, ported: cst.Module) -> cst.Module:
        """`ported` (the calls converted) with each arg_scope block's statements in its place, and the classes
        naming the variables as TF1 written once before the first model_fn using them."""
        # (the arg_scope calls as the pass left them: rebuilding the paths to the layer calls kept them)
        items = {id(self.rule.updated_calls.get(id(self.arg_scope_call(s)), s)) for s in self.scopes.values()}
        above = {id(child): node for node in descendants(ported) for child in node.children}
        path: set[int] = set()
        for node in descendants(ported):
            if isinstance(node, cst.With) and id(node.items[0].item) in items:
                up = above.get(id(node))  # (its block and the nodes above it: the only ones rebuilt)
                while up is not None and id(up) not in path:
                    path.add(id(up))
                    up = above.get(id(up))

        class Unwrap(cst.CSTTransformer):
            """Each arg_scope block's statements in its place; only the paths down to them rebuilt (the later
            rules find their calls by identity)."""

            def on_visit(self, node: cst.CSTNode) -> bool:
                return id(node) in path

            def leave_IndentedBlock(
                self, original_node: cst.IndentedBlock, updated_node: cst.IndentedBlock
            ) -> cst.IndentedBlock:
                body: list[cst.BaseStatement] = []
                for stmt in updated_node.body:
                    if isinstance(stmt, cst.With) and id(stmt.items[0].item) in items:
                        inner = list(cast(cst.IndentedBlock, stmt.body).body)  # (arg_scope_call: an indented block)
                        lines = [*stmt.leading_lines, *cast(cst.SimpleStatementLine, inner[0]).leading_lines]
                        inner[0] = inner[0].with_changes(leading_lines=lines)
                        body += inner
                    else:
                        body.append(stmt)
                return updated_node.with_changes(body=body)

        ported = cast(cst.Module, ported.visit(Unwrap()))
        used = [self.kinds[id(c)] for c in self.calls if SLIM_LAYERS[self.kinds[id(c)]].cls]
        classes = list(dict.fromkeys(SLIM_LAYERS[kind].cls for kind in used))
        if not classes:
            return ported
        at = next(
            i for i, s in enumerate(ported.body) if isinstance(s, cst.FunctionDef) and s.name.value == self.functions[0]
        )
        first = ported.body[at]
        blank = [cst.EmptyLine(), cst.EmptyLine()]
        written = [
            cst.parse_statement(layer_code(cls, self.alias).lstrip("\n")).with_changes(
                leading_lines=first.leading_lines if index == 0 else blank
            )
            for index, cls in enumerate(classes)
        ]
        body = [*ported.body[:at], *written, first.with_changes(leading_lines=blank), *ported.body[at + 1 :]]
        return ported.with_changes(body=body)


def _run_order(node: cst.CSTNode) -> list[cst.Call]:
    found = _PostOrder()
    node.visit(found)
    return found.calls
