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


ESTIMATOR_GRAPH = "global_step"  # (the Estimator's graph holds it when the model_fn runs)
# the ops TensorFlow names by their type where the call names none (tf.nn.conv2d: Conv2D), as a layer's default
# name but for case
_NAMED_BY_TYPE = {"conv2d": ("Conv2D", 6)}  # function -> (its op's name, the position of its name parameter)


def _named_by_type(call: cst.Call) -> str | None:
    """The name of the op of a `tf.nn` call given no name that TensorFlow names by its type, or None."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value not in _NAMED_BY_TYPE:
        return None
    module = func.value
    if not (isinstance(module, cst.Attribute) and module.attr.value == "nn") and not (
        isinstance(module, cst.Name) and module.value == "nn"
    ):
        return None
    name, position = _NAMED_BY_TYPE[func.attr.value]
    positional = sum(a.keyword is None and not a.star for a in call.args)
    if positional > position or any(a.keyword is not None and a.keyword.value == "name" or a.star for a in call.args):
        return None
    return name


def default_name(keras: str) -> str:
    """The name Keras gives an unnamed layer of the class `keras` (numbered past it: conv2d, conv2d_1)."""
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in keras).lstrip("_").replace("2_d", "2d")


def named_alike(name: cst.Arg | None, keras: str, module: cst.Module, layers: set[int]) -> str | None:
    """The name of an op or scope of `module` (a literal `name=` of another call, or a scope's literal name), or of
    the Estimator's graph (its global_step, made before the model_fn), that the layer's name scope would meet,
    making Keras number it, or of an op TensorFlow names by its type (tf.nn.conv2d's Conv2D): its literal name, the
    literal start of a computed one, or (unnamed) Keras's default name and its numbered forms. A graph compares names
    ignoring case (an op conv_1 numbers a scope Conv_1)."""
    if name is None:
        base = default_name(keras)
        exact, start = base, base + "_"
    elif isinstance(name.value, cst.SimpleString):
        exact, start = str(name.value.evaluated_value), None
    else:
        head = collect(name.value, cst.SimpleString)
        exact, start = None, str(head[0].evaluated_value).split("%")[0].split("{")[0] if head else ""
    exact, start = exact and exact.lower(), start and start.lower()
    if exact == ESTIMATOR_GRAPH or (start and ESTIMATOR_GRAPH.startswith(start)):
        return ESTIMATOR_GRAPH
    for call in collect(module, cst.Call):
        if id(call) in layers:
            continue
        typed = _named_by_type(call)
        if typed is not None and (typed.lower() == exact or (start is not None and typed.lower().startswith(start))):
            return typed
        func = call.func
        scope = (func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")) in SCOPES
        for index, arg in enumerate(call.args):
            named = arg.keyword is not None and arg.keyword.value in ("name", "name_or_scope", "default_name")
            if (named or scope and index == 0 and arg.keyword is None) and isinstance(arg.value, cst.SimpleString):
                value = str(arg.value.evaluated_value)
                if value.lower() == exact or (start is not None and value.lower().startswith(start)):
                    return value
    return None
