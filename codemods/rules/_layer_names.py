"""What a Keras layer made for a TF1 layer call takes from where the call was, for native-layers: the dtype of its
input (dtype_source) and a name no other op or scope of the file holds (named_alike)."""

from __future__ import annotations

import libcst as cst

from codemods.rules._layer_scopes import SCOPES
from codemods.rules._native_syntax import collect


def dtype_source(value: cst.BaseExpression, layer_calls: set[int]) -> cst.BaseExpression | None:
    """The name (or attribute) whose dtype a layer's input has: the input itself, or, through layer calls (TF1's
    layers compute in their input's dtype), their input's; None for anything else.

    TF1's layers had no dtype of their own: a layer made its variables in the dtype of its first input (float64
    from a numpy array an input_fn did not cast), where a Keras 2 layer makes float32 ones and casts its input. So
    the rule writes `dtype=<name>.dtype` (or `<name>[<name or int>].dtype`), read once where the call was.
    """
    while isinstance(value, cst.Call) and id(value) in layer_calls and value.args:
        first = next((a for a in value.args if a.keyword is not None and a.keyword.value == "inputs"), value.args[0])
        if first.keyword is not None and first.keyword.value != "inputs":
            return None
        value = first.value
    if isinstance(value, cst.Name) or (isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name)):
        return value
    if isinstance(value, cst.Subscript) and isinstance(value.value, cst.Name) and len(value.slice) == 1:
        index = value.slice[0].slice
        if isinstance(index, cst.Index) and isinstance(index.value, (cst.Name, cst.Integer)):
            return value  # (a tower's shard: images[i])
    return None


def default_name(keras: str) -> str:
    """The name Keras gives an unnamed layer of the class `keras` (numbered past it: conv2d, conv2d_1)."""
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in keras).lstrip("_").replace("2_d", "2d")


def named_alike(name: cst.Arg | None, keras: str, module: cst.Module, layers: set[int]) -> str | None:
    """The name of an op or scope of `module` (a literal `name=` of another call, or a scope's literal name) that
    the layer's name scope would meet, making Keras number it: its literal name, the literal start of a computed
    one, or (unnamed) Keras's default name and its numbered forms."""
    if name is None:
        base = default_name(keras)
        exact, start = base, base + "_"
    elif isinstance(name.value, cst.SimpleString):
        exact, start = str(name.value.evaluated_value), None
    else:
        head = collect(name.value, cst.SimpleString)
        exact, start = None, str(head[0].evaluated_value).split("%")[0].split("{")[0] if head else ""
    for call in collect(module, cst.Call):
        if id(call) in layers:
            continue
        func = call.func
        scope = (func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")) in SCOPES
        for index, arg in enumerate(call.args):
            named = arg.keyword is not None and arg.keyword.value in ("name", "name_or_scope", "default_name")
            if (named or scope and index == 0 and arg.keyword is None) and isinstance(arg.value, cst.SimpleString):
                value = str(arg.value.evaluated_value)
                if value == exact or (start is not None and value.startswith(start)):
                    return value
    return None
