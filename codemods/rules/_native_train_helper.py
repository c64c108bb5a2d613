"""native-session's train helper: a function of the module that the graph calls once to make its train op
(TensorFlow's MNIST tutorial's `training(loss, learning_rate)`):

    def training(loss, learning_rate):
        optimizer = tf.train.GradientDescentOptimizer(learning_rate)
        global_step = tf.Variable(0, name="global_step", trainable=False)
        train_op = optimizer.minimize(loss, global_step=global_step)
        return train_op

    train_op = training(loss_op, 0.1)

The call is read as the graph's minimize of the tensor it passes (`loss_op`): the Keras optimizer made of the
tf.train optimizer's arguments with the helper's parameters replaced by what the call passes (host values), the
global step (a tf.Variable(..., trainable=False) or get_or_create_global_step()) made where the call was, under
the helper's name for it, and incremented by the train step after the update. The helper is deleted: it may be
used nowhere else, and hold nothing but those statements (a docstring, the optimizer, the global step, the
minimize, the return of the train op); anything else stays at the safe level, with the reason."""

from __future__ import annotations

from typing import Any, cast

import libcst as cst

from codemods.rules._native_names import GLOBAL_STEP, OPTIMIZERS, VARIABLE, VARIABLE_PARAMS
from codemods.rules._native_syntax import Refused, arguments, assigned, names_in, single, source_of

# expressions written as they are where a parameter stood (anything else is parenthesized)
_ATOMS = (cst.Name, cst.Attribute, cst.Integer, cst.Float, cst.SimpleString, cst.Call, cst.Subscript)


def minimize_call(fn: cst.FunctionDef) -> cst.Call | None:
    """The `<optimizer>.minimize(...)` call of a function (a train helper), else None."""
    return next(
        (c for c in names_in(fn).calls if isinstance(c.func, cst.Attribute) and c.func.attr.value == "minimize"), None
    )


def train_helper_call(converter: Any, stmt: cst.BaseStatement, name: str, call: cst.Call, fn: cst.FunctionDef) -> bool:
    """`train_op = training(loss, ...)`: the block's train op (Refused saying why where it is not proven)."""
    helper = fn.name.value
    if converter.rule.module_names().get(helper) != 2:
        raise Refused(stmt, f"{helper}(), which makes the train op, is used besides by this call")
    params = converter.new_helper(fn, stmt)
    bound = converter.bind(call, params, stmt)
    updated_fn = cast(cst.FunctionDef, converter.up(fn))
    updated_call = converter.updated_call(stmt)
    new_bound = converter.bind(updated_call, converter.new_helper(updated_fn, stmt), stmt)
    optimizers: dict[str, tuple[cst.Call, cst.Call]] = {}
    steps: list[cst.BaseStatement] = []
    made: tuple[cst.Call, str | None] | None = None  # (the minimize call, the name it is bound to)
    returned: cst.BaseExpression | None = None
    lines = cast(cst.IndentedBlock, fn.body).body
    updated_lines = cast(cst.IndentedBlock, updated_fn.body).body
    if len(lines) != len(updated_lines):
        raise Refused(stmt, f"{helper}() changed shape in the safe pass")
    for index, (line, new_line) in enumerate(zip(lines, updated_lines)):
        small = single(line)
        target, value = assigned(small)
        if index == 0 and isinstance(small, cst.Expr) and isinstance(small.value, cst.SimpleString):
            continue  # (the docstring)
        if isinstance(small, cst.Return) and returned is None:
            returned = small.value
        elif target is not None and isinstance(value, cst.Call) and converter.rule.is_call(value, OPTIMIZERS):
            optimizers[target] = (value, cast(cst.Call, assigned(single(new_line))[1]))
        elif target is not None and isinstance(value, cst.Call) and converter.rule.is_call(value, VARIABLE):
            steps.append(global_step_variable(converter, stmt, line, target, value, fn))
        elif target is not None and isinstance(value, cst.Call) and converter.rule.is_call(value, GLOBAL_STEP):
            if value.args:
                raise Refused(stmt, f"{helper}() calls get_or_create_global_step with arguments")
            steps.append(taken(converter, stmt, line, target, fn, converter.global_step(line, target)))
        elif target is not None and isinstance(value, cst.Call) and value is minimize_call(fn) and made is None:
            made = (value, target)
        else:
            raise Refused(
                stmt, f"{helper}() holds `{source_of(line).strip()}`, which the rule does not read as its train op"
            )
    minimize = minimize_call(fn)
    if minimize is None or not (
        (made is not None and isinstance(returned, cst.Name) and returned.value == made[1])
        or (made is None and returned is minimize)
    ):
        raise Refused(stmt, f"{helper}() does not return its minimize's train op")
    optimizer = cast(cst.Attribute, minimize.func).value
    if isinstance(optimizer, cst.Name) and optimizer.value in optimizers:
        original, new = optimizers.pop(optimizer.value)
        if names_in(fn).names.count(optimizer.value) != 2:
            raise Refused(stmt, f"`{optimizer.value}`, the optimizer of {helper}(), is used besides its minimize")
    elif isinstance(optimizer, cst.Call) and converter.rule.is_call(optimizer, OPTIMIZERS):
        original = optimizer
        new = cast(cst.Call, cast(cst.Attribute, minimize_call(updated_fn).func).value)  # type: ignore[union-attr]
    else:
        raise Refused(stmt, f"{helper}()'s minimize is not of a tf.train optimizer the rule converts")
    if optimizers:
        raise Refused(stmt, f"{helper}() makes an optimizer its minimize does not use")
    loss = loss_argument(converter, stmt, minimize, bound, helper)
    for param in sorted(set(names_in(original).names) & set(bound)):
        read = set(names_in(bound[param]).names)
        if read & converter.graph:
            raise Refused(
                stmt,
                f"{helper}()'s optimizer of `{min(read & converter.graph)}`, a value of the graph (the Keras "
                "optimizer is made once, out of the graph's function)",
            )
    written = substitute(new, {p: new_bound[p] for p in new_bound if p in names_in(original).names})
    converter.minimize(stmt, name, minimize, helper=(loss, (original, written)))
    converter.replacements[id(stmt)] = steps
    converter.replacements[id(fn)] = []
    converter.train_helper = helper
    return True


def loss_argument(
    converter: Any, stmt: cst.BaseStatement, minimize: cst.Call, bound: dict[str, cst.BaseExpression], helper: str
) -> str:
    """The tensor of the graph the call passes as the loss minimize reads (a parameter of the helper)."""
    first = minimize.args[0].value if minimize.args and minimize.args[0].keyword is None else None
    value = bound.get(first.value) if isinstance(first, cst.Name) else None
    if not isinstance(value, cst.Name) or value.value not in converter.graph:
        raise Refused(stmt, f"{helper}()'s minimize of other than a parameter the call passes a tensor of the graph")
    return value.value


def global_step_variable(
    converter: Any,
    stmt: cst.BaseStatement,
    line: cst.BaseStatement,
    target: str,
    value: cst.Call,
    fn: cst.FunctionDef,
) -> cst.BaseStatement:
    """`global_step = tf.Variable(0, name="global_step", trainable=False)` in the helper: made where the call was."""
    trainable = arguments(value, VARIABLE_PARAMS, line, "tf.Variable").get("trainable")
    if not (trainable is not None and isinstance(trainable.value, cst.Name) and trainable.value.value == "False"):
        raise Refused(stmt, f"{fn.name.value}() makes a variable besides a global step (trainable=False)")
    return taken(converter, stmt, line, target, fn, converter.variable(line, target, value))


def taken(
    converter: Any, stmt: cst.BaseStatement, line: cst.BaseStatement, target: str, fn: cst.FunctionDef, _: bool
) -> cst.BaseStatement:
    """The global step's statement, moved to the call's place: its name may be used nowhere outside the helper."""
    if converter.rule.module_names().get(target, 0) != names_in(fn).names.count(target):
        raise Refused(stmt, f"`{target}`, the global step of {fn.name.value}(), is a name used outside it too")
    converter.helper_steps.add(target)
    return cast(cst.BaseStatement, converter.replacements.pop(id(line))[0])


def substitute(node: cst.Call, values: dict[str, cst.BaseExpression]) -> cst.Call:
    """`node` with each parameter name read in it replaced by the expression the call passes."""

    class Replace(cst.CSTTransformer):
        def __init__(self) -> None:
            super().__init__()
            self.skip: set[int] = set()

        def visit_Attribute(self, node: cst.Attribute) -> None:
            self.skip.add(id(node.attr))

        def visit_Arg(self, node: cst.Arg) -> None:
            if node.keyword is not None:
                self.skip.add(id(node.keyword))

        def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
            value = values.get(original_node.value)
            if value is None or id(original_node) in self.skip:
                return updated_node
            return value if isinstance(value, _ATOMS) else cst.parse_expression(f"({source_of(value)})")

    return cast(cst.Call, node.visit(Replace()))
