"""native-session's devices: `with tf.device(...)` around graph statements is kept, in eager TF 2, around the
variables it made and around model()'s expressions. Eager tf.device takes a device name, not TF1's device
function (called for each op), so a function is read only where it is proven to name one device whatever the op."""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

import libcst as cst

from codemods.rules._native_syntax import Refused, collect, descendants, names_in, source_of

# what a device function may not hold: TF1 ran it for each op, a conversion runs it never (a nested def: its returns)
_EFFECTS = (cst.FunctionDef, cst.Lambda, cst.Yield, cst.Global, cst.Nonlocal, cst.Raise)


def device_name(call: cst.Call, functions: Sequence[cst.FunctionDef], node: cst.CSTNode) -> str:
    """The device of `tf.device(...)`, as code: a string literal, or a module function's one literal."""
    if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
        raise Refused(node, "tf.device without one device as its argument")
    value = call.args[0].value
    if isinstance(value, cst.SimpleString):
        return source_of(value)
    if isinstance(value, cst.Name):
        found = [fn for fn in functions if fn.name.value == value.value]
        literal = constant_return(found[0]) if len(found) == 1 else None
        if literal is not None:
            return literal
        raise Refused(node, f"tf.device({value.value}), a device function not proven to name one device for every op")
    raise Refused(node, "tf.device of a computed device")


def recorded_device(argument: cst.BaseExpression, device: str) -> str | None:
    """What TF1's `variable.device` gave for a variable made under `tf.device(argument)` naming `device` (code), as a
    string literal: a device function's string as it returned it, a device name in TF1's canonical form
    (`/cpu:0` -> `/device:CPU:0`); None for a name whose canonical form the rule does not write."""
    if not isinstance(argument, cst.SimpleString):
        return device  # (a device function proven to return this literal: TF1 kept its string as is)
    name = str(argument.evaluated_value)
    short = re.fullmatch(r"/(cpu|gpu):(\d+)", name, re.IGNORECASE)
    if short:
        return f'"/device:{short.group(1).upper()}:{short.group(2)}"'
    return f'"{name}"' if re.fullmatch(r"/device:(CPU|GPU):\d+", name) else None


def constant_return(fn: cst.FunctionDef) -> str | None:
    """The string literal every path of `fn` returns, when it calls nothing and binds nothing outside itself
    (TF1 called it for each op: a call could have done anything), else None."""
    if fn.decorators or not isinstance(fn.body, cst.IndentedBlock) or names_in(fn).calls:
        return None
    if any(isinstance(node, _EFFECTS) for node in descendants(fn.body)):
        return None
    returns = collect(fn, cst.Return)
    literals = {source_of(r.value) if isinstance(r.value, cst.SimpleString) else None for r in returns}
    last = fn.body.body[-1]
    ends = isinstance(last, cst.SimpleStatementLine) and any(isinstance(s, cst.Return) for s in last.body)
    if len(literals) != 1 or None in literals or not ends:
        return None  # (a path reaching the end returns None: no device for those ops)
    return literals.pop()


def under_devices(
    lines: Sequence[cst.BaseStatement], devices: Sequence[str | None], alias: str
) -> list[cst.BaseStatement]:
    """Each run of consecutive statements built under one device, inside `with tf.device(<device>):`."""
    found: list[cst.BaseStatement] = []
    for device, group in itertools.groupby(zip(lines, devices), key=lambda pair: pair[1]):
        statements = [stmt for stmt, _ in group]
        found += statements if device is None else [with_device(alias, device, statements)]
    return found


def with_device(alias: str, device: str, statements: Sequence[cst.BaseStatement]) -> cst.With:
    call = cst.parse_expression(f"{alias}.device({device})")
    return cst.With(items=[cst.WithItem(call)], body=cst.IndentedBlock(body=list(statements)))
