"""native-session's model_deploy conversion (codemods/rules/_native_model_deploy.py): clone_fn, the function
create_clones calls once per clone, as a function of the input element returning the losses it added (TF1's LOSSES
collection), its tf-slim layers Keras layers made once under TF1's scope names (_native_slim's reading and classes).

What it reads (else Refused, with the reason): assignments of tf-slim's conv2d / fully_connected (a literal scope each:
TF1's default names are numbered per clone under the reused scope, not one layer), flatten, max_pool2d / avg_pool2d
(tf.nn's pools: the ops tf-slim's pooling layers ran), one_hot_encoding (tf.one_hot), TensorFlow ops that make no
variable, draw no random number and touch no graph state, a tensor's methods and a few builtins; softmax
cross-entropy losses (tf-slim's, logits first, and tf.losses', labels first; of those two arguments alone) as
statements, each the batch mean of tf.nn.softmax_cross_entropy_with_logits with no gradient into the labels; a last
return of names (the outputs, which the script does not read, are not returned).
"""

from __future__ import annotations

from typing import Any, cast

import libcst as cst

from codemods.rules import _native_tables as tables
from codemods.rules import _tf
from codemods.rules._native_classifier_loss import SLIM_XENT, TF_XENT, one_hot_call, softmax_xent_call
from codemods.rules._native_names import STATEFUL, slim_names
from codemods.rules._native_pipeline import RESIZE, resize
from codemods.rules._native_slim import SLIM_LAYERS, SlimNames, SlimReader
from codemods.rules._native_syntax import (
    Refused,
    arguments,
    bound_names,
    collect,
    names_in,
    single,
    source_of,
    target_names,
)
from codemods.rules._native_v1_module import same_in_tf2
from codemods.rules._shared import graph_names

# tf-slim's functions without variables the port writes as TensorFlow's ops: name -> parameters in positional order
POOLS = {"max_pool2d": "max_pool2d", "avg_pool2d": "avg_pool2d"}
POOL_PARAMS = ("inputs", "kernel_size", "stride", "padding", "data_format", "outputs_collections", "scope")
# what a TensorFlow call of clone_fn may not be (besides STATEFUL's): graph state the converted code would not keep
GRAPH_STATE = ("losses.", "summary", "collection", "assign", "py_func", "numpy_function", "print", "Print")
# floating dtypes besides float32 (a tf-slim layer of such an input made variables of that dtype)
OTHER_FLOATS = frozenset({"float64", "double", "float16", "half", "bfloat16"})
BUILTINS = frozenset({"len", "int", "float", "range", "list", "tuple", "min", "max", "abs", "round"})


class CloneFunction(SlimReader):
    """clone_fn's conversion; the block's (_native_model_deploy.Deploy) state it reads and writes."""

    rule: Any
    inputs: tuple[str, list[str], cst.FunctionDef] | None  # (the input call's code, the element's names, its function)
    step: str | None  # the global step's name
    layers: list[tuple[str, str, str]]  # (variable, code, class written for it or "")
    losses: list[str]  # the losses clone_fn adds, by name
    scopes: list[str]  # the scopes of the layers made
    taken: set[str]  # the names the module and the conversion use

    @property
    def slim_names(self) -> SlimNames:
        return cast(SlimNames, self.rule)

    def free(self, name: str) -> str:
        """`name`, or `name_<n>`, whichever the module does not use yet (then taken)."""
        chosen, number = name, 0
        while chosen in self.taken:
            number += 1
            chosen = f"{name}_{number}"
        self.taken.add(chosen)
        return chosen

    def up(self, node: cst.CSTNode) -> Any:
        """A statement as the safe pass left it."""
        return self.rule._updated.get(id(node), node)  # noqa: SLF001 - the rule's record, shared with its helpers

    def clone_function(self, fn: cst.FunctionDef) -> cst.FunctionDef:
        """clone_fn as a function of the input element returning the losses it added (its layers made once)."""
        targets = cast(tuple, self.inputs)[1]
        body = cast(cst.IndentedBlock, fn.body).body
        local = set().union(*(bound_names(s) for s in body))
        graph = {*targets, *(n for n in (self.step,) if n)}
        read = set(names_in(fn).names) - local
        if read & (graph - set(targets)):
            raise Refused(fn, f"{fn.name.value}() reads `{min(read & (graph - set(targets)))}`, a graph name")
        if local & set(targets):
            raise Refused(fn, f"{fn.name.value}() binds `{min(local & set(targets))}`, the input's name")
        dtypes = [n.value for n in collect(fn, cst.Name) if n.value in OTHER_FLOATS]
        dtypes += [str(n.evaluated_value) for n in collect(fn, cst.SimpleString) if n.evaluated_value in OTHER_FLOATS]
        if dtypes:
            raise Refused(
                fn,
                f"{dtypes[0]} in {fn.name.value}(): TF1's layers made variables of their input's dtype, Keras's are float32",
            )
        self.taken |= local
        lines: list[str] = []
        for index, stmt in enumerate(body):
            small = single(stmt)
            if isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString) and index == 0:
                continue
            if isinstance(small, cst.Return) and index == len(body) - 1:
                value = small.value
                elements = value.elements if isinstance(value, cst.Tuple) else [cst.Element(value)] if value else []
                if not all(isinstance(e.value, cst.Name) for e in elements):
                    raise Refused(stmt, f"{fn.name.value}() returns a computed value (its outputs are not read)")
                continue
            lines.append(self.clone_statement(fn, stmt))
        if not self.losses:
            raise Refused(fn, f"{fn.name.value}() adds no loss the conversion reads")
        params = ", ".join(targets)
        code = f"def {fn.name.value}({params}):\n"
        code += (
            f'    """{fn.name.value} of one clone: its losses (TF1\'s LOSSES collection), its layers made once."""\n'
        )
        code += "".join(f"    {line}\n" for line in lines)
        code += f"    return [{', '.join(self.losses)}]\n"
        return cast(cst.FunctionDef, cst.parse_statement(code))

    def clone_statement(self, fn: cst.FunctionDef, stmt: cst.BaseStatement) -> str:
        small = single(stmt)
        targets = target_names(small) if small is not None else None
        value = small.value if isinstance(small, (cst.Assign, cst.Expr)) else None
        if value is None or (isinstance(small, cst.Assign) and (targets is None or len(small.targets) != 1)):
            raise Refused(stmt, f"a statement of {fn.name.value}() other than an assignment to names or a loss")
        loss = self.loss_kind(value)
        if isinstance(small, cst.Expr) and loss is None:
            raise Refused(stmt, f"an expression statement of {fn.name.value}() that is no loss")
        checked = set()  # (a tf-slim layer's initializer and regularizer calls: its reading checks them)
        for call in names_in(value).calls:
            if self.slim_kind(call):
                kind = cast(str, self.slim_kind(call))
                given = arguments(call, SLIM_LAYERS[kind].params, stmt, kind)
                checked |= {id(a.value) for p, a in given.items() if p != "inputs" and isinstance(a.value, cst.Call)}
        for call in names_in(value).calls:
            if (loss is not None and call is value) or id(call) in checked:
                continue
            self.clone_call(stmt, call, fn)
        updated = cast(cst.BaseSmallStatement, single(self.up(stmt)))
        new_value = cast(cst.BaseExpression, updated.value if isinstance(updated, (cst.Assign, cst.Expr)) else None)
        known = self.rule.updated_calls
        inverse = {id(known[id(c)]): c for c in names_in(value).calls if id(c) in known}
        new_value = cast(cst.BaseExpression, new_value.visit(_Calls(self, stmt, inverse)))
        if loss is not None:
            new_value = cst.parse_expression(
                softmax_xent_call(self.alias, stmt, value, cast(cst.Call, new_value), loss)
            )
        code = source_of(self.tf2_names(new_value, stmt))
        if loss is not None:
            name = targets[0] if targets and len(targets) == 1 else self.free("loss")
            if targets is not None and len(targets) != 1:
                raise Refused(stmt, "a loss bound to more than one name")
            self.losses.append(name)
            return f"{name} = {code}"
        return f"{source_of(cast(cst.Assign, small).targets[0].target)} = {code}"

    def clone_call(self, stmt: cst.BaseStatement, call: cst.Call, fn: cst.FunctionDef) -> None:
        """A call of clone_fn other than its loss: a tf-slim layer or function the conversion writes, or a TensorFlow
        op that makes no variable and draws no random number."""
        if self.slim_kind(call) or self.slim_op(call):
            return
        what = _tf.full_name(call.func)
        if self.rule.variable_library(call):
            raise Refused(stmt, f"{what} in {fn.name.value}(), which the conversion does not know")
        names = self.rule.tf_names(call)
        if self.rule.is_call(call, STATEFUL) or names & graph_names() or self.loss_kind(call):
            raise Refused(stmt, f"{what} in {fn.name.value}(): graph state or a loss inside an expression")
        if any("random" in n or "dropout" in n for n in names):
            raise Refused(stmt, f"{what} in {fn.name.value}(): graph and eager op seeds differ")
        if any(word in n for n in names for word in GRAPH_STATE):
            raise Refused(stmt, f"{what} in {fn.name.value}(): a loss, summary, collection or side effect of the graph")
        if names:
            return
        head = call.func
        while isinstance(head, cst.Attribute):
            head = head.value
        local = set().union(*(bound_names(s) for s in cast(cst.IndentedBlock, fn.body).body))
        method = isinstance(call.func, cst.Attribute) and isinstance(head, cst.Name)
        if method and cast(cst.Name, head).value in local | set(cast(tuple, self.inputs)[1]):
            return  # (a tensor's method: net.get_shape())
        if not (isinstance(call.func, cst.Name) and call.func.value in BUILTINS):
            raise Refused(stmt, f"{what}() in {fn.name.value}(), which the conversion does not read")

    def slim_op(self, call: cst.CSTNode) -> str | None:
        """pool / one_hot_encoding of tf-slim's functions without variables, else None."""
        for name in self.rule.library_names(call):
            last = name.rpartition(".")[2]
            if name in slim_names(last) and (last in POOLS or last == "one_hot_encoding"):
                return last
        return None

    def loss_kind(self, value: cst.BaseExpression) -> str | None:
        """ "slim" or "tf" for a softmax cross-entropy loss call, else None."""
        if not isinstance(value, cst.Call):
            return None
        if self.rule.library_names(value) & SLIM_XENT:
            return "slim"
        if self.rule.is_call(value, TF_XENT):
            return "tf"
        return None

    def layer(self, stmt: cst.BaseStatement, original: cst.Call, kind: str) -> str:
        """A Keras layer made once for a tf-slim layer call: its variable."""
        originals, values = self.slim_arguments(stmt, original, kind, {})
        row = SLIM_LAYERS[kind]
        scope = originals.get("scope")
        if kind == "flatten":
            name = "Flatten"
        elif not isinstance(scope, cst.SimpleString):
            raise Refused(stmt, f"{kind} without a literal scope in a clone (TF1 named each clone's layer otherwise)")
        else:
            name = str(scope.evaluated_value)
        if row.cls and row.cls in self.rule.module_names():
            raise Refused(stmt, f"no free name for the class {row.cls} (the module uses it)")
        if name in self.scopes and kind != "flatten":
            raise Refused(stmt, f"two layers of the scope {name}")
        var = self.free(name if name.isidentifier() else "layer")
        keywords = [*self.keras_keywords(stmt, kind, originals, values), f'name="{name}"']
        made = f"{row.cls or self.alias + '.keras.layers.' + row.keras}({', '.join(keywords)})"
        self.layers.append((var, made, row.cls))
        self.scopes.append(name)
        return var

    def pool_code(self, stmt: cst.BaseStatement, original: cst.Call, updated: cst.Call, kind: str) -> str:
        given = arguments(original, POOL_PARAMS, stmt, kind)
        new = {p: source_of(a.value) for p, a in arguments(updated, POOL_PARAMS, stmt, kind).items()}
        padding = given.get("padding")
        if padding is not None and not (
            isinstance(padding.value, cst.SimpleString)
            and str(padding.value.evaluated_value).upper() in ("SAME", "VALID")
        ):
            raise Refused(stmt, f"{kind}(padding=...) other than a literal SAME or VALID")
        data_format = given.get("data_format")
        if data_format is not None and not (
            isinstance(data_format.value, cst.SimpleString) and data_format.value.evaluated_value == "NHWC"
        ):
            raise Refused(stmt, f"{kind}(data_format=...) other than NHWC")
        if "outputs_collections" in given and source_of(given["outputs_collections"].value) != "None":
            raise Refused(stmt, f"{kind}(outputs_collections=...), a graph collection")
        if "kernel_size" not in given:
            raise Refused(stmt, f"{kind} without its kernel_size")
        mode = (
            str(padding.value.evaluated_value).upper()
            if padding and isinstance(padding.value, cst.SimpleString)
            else "VALID"
        )
        stride = new.get("stride", "2")
        return f'{self.alias}.nn.{POOLS[kind]}({new["inputs"]}, ksize={new["kernel_size"]}, strides={stride}, padding="{mode}")'

    def tf2_names(self, node: cst.CSTNode, where: cst.CSTNode) -> cst.CSTNode:
        """`node` in TF 2's names (tf.compat.v1.data's datasets as tf.data's, a tf.compat.v1 name that is the same
        object in TF 2); Refused where a tf.compat.v1 name is left."""
        alias, datasets = self.alias, {f"data.{name}" for name in tables.DATASETS}
        inner = {id(a.value) for a in collect(node, cst.Attribute)}  # (read whole: `tf.compat.v1.image` is a part)
        prefix = f"{alias}.compat.v1."

        class Names(cst.CSTTransformer):
            def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
                name = _tf.full_name(updated_node)
                if id(original_node) in inner or not name.startswith(prefix) or "(" in name or name == prefix + RESIZE:
                    return updated_node
                path = name[len(prefix) :]
                if path in datasets or same_in_tf2(path, None):
                    return _tf.dotted(f"{alias}.{path}")
                return updated_node

            def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
                if _tf.full_name(updated_node.func) != prefix + RESIZE:
                    return updated_node
                return resize(updated_node, alias, where)  # (the op it ran: _native_pipeline)

        result = cast(cst.CSTNode, node.visit(Names()))
        left = [n for n in collect(result, cst.Attribute) if _tf.full_name(n).startswith(prefix)]
        if left:
            raise Refused(where, f"{_tf.full_name(left[0])}, a tf.compat.v1 name TF 2 has not as is")
        return result


class _Calls(cst.CSTTransformer):
    """A clone_fn statement (as the safe pass left it) with tf-slim's calls written as the conversion's code."""

    def __init__(self, deploy: CloneFunction, stmt: cst.BaseStatement, inverse: dict[int, cst.Call]) -> None:
        self.deploy, self.stmt, self.inverse = deploy, stmt, inverse

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        original = self.inverse.get(id(original_node))
        if original is None:
            return updated_node
        deploy = self.deploy
        kind = deploy.slim_kind(original)
        if kind is not None:
            var = deploy.layer(self.stmt, original, kind)
            inputs = arguments(updated_node, SLIM_LAYERS[kind].params, self.stmt, kind)["inputs"].value
            return cst.Call(func=cst.Name(var), args=[cst.Arg(inputs)])
        op = deploy.slim_op(original)
        if op in POOLS:
            return cst.parse_expression(deploy.pool_code(self.stmt, original, updated_node, op))
        if op == "one_hot_encoding":
            return cst.parse_expression(one_hot_call(deploy.alias, self.stmt, original, updated_node))
        return updated_node
