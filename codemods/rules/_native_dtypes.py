"""The dtypes of a tf.data pipeline's element, where native-session can read them from the code.

TF1's layers (tf.layers, tf-slim's) made their variables in their input's dtype: a pipeline of numpy arrays
(float64, numpy's default) trained a float64 model. The Keras layers native-session makes once, before any input,
are float32, so the rule converts layers reading an element only where it reads that element as float32 (or not a
float) from: `.astype(D)`, numpy constructors with a dtype, `tf.cast`, `tf.constant` (its value's: Python floats are
float32), a generator's `output_types`, a parse spec's `FixedLenFeature(shape, D)`, and the shape ops and dataset
methods that keep a dtype. Anything else is not known (None). The graph's constants a layer reads
(`tf.constant(np.random.rand(...))`, float64) are proven so too."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

import libcst as cst

from codemods.rules import _tf
from codemods.rules._native_names import LITERAL_DTYPES
from codemods.rules._native_syntax import Refused, arguments, single, target_names

FLOAT32 = "float32"
OTHER_FLOATS = frozenset({"float64", "double", "float16", "half", "bfloat16"})
_ALIASES = {"double": "float64", "half": "float16", "single": "float32", "float": "float64", "int": "int64"}
_NOT_FLOATS = ("int", "uint", "bool", "string", "str", "complex")
# dataset methods whose element has the dtypes of the one they read
_KEEP = frozenset(
    {"batch", "repeat", "shuffle", "prefetch", "take", "skip", "cache", "padded_batch", "filter", "shard", "unbatch"}
)
# the dataset methods returning a dataset (a chain of them on a pipeline is the pipeline, not a tensor)
DATASET_METHODS = _KEEP | {"map", "flat_map", "interleave", "apply", "concatenate", "with_options"}
_APPLIED = frozenset({"batch_and_drop_remainder", "shuffle_and_repeat", "unbatch"})
_FILES = frozenset({"TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset", "list_files"})
# calls whose result has their first argument's dtype
_SHAPES = frozenset({"reshape", "squeeze", "expand_dims", "identity", "transpose", "stop_gradient"})
_NUMPY = frozenset({"array", "asarray", "zeros", "ones", "full", "empty", "arange", "linspace"})
CONSTANTS = ("constant", "convert_to_tensor")  # TensorFlow's functions making a tensor of a (numpy) value
_PARSE = frozenset({"parse_single_example", "parse_example"})
_FEATURES = frozenset({"FixedLenFeature", "VarLenFeature", "FixedLenSequenceFeature"})

Dtypes = list[str | None]  # an element's components, flattened as tf.nest does (None: not known)


def dtype_name(node: cst.BaseExpression | None) -> str | None:
    """`tf.float32`, `np.float64`, `"float32"`, `float` -> their dtype's name; None where it is not a dtype."""
    if isinstance(node, cst.SimpleString):
        name = str(node.evaluated_value)
    elif isinstance(node, (cst.Name, cst.Attribute)):
        name = _tf.full_name(node).rsplit(".", 1)[-1]
    else:
        return None
    name = _ALIASES.get(name, name)
    return name if name == FLOAT32 or name in OTHER_FLOATS or name.startswith(_NOT_FLOATS) else None


def _last(node: cst.BaseExpression) -> str:
    return _tf.full_name(node).rsplit(".", 1)[-1] if isinstance(node, (cst.Name, cst.Attribute)) else ""


def unshaped(node: cst.BaseExpression | None) -> cst.BaseExpression | None:
    """`x` of `tf.reshape(x, ...)` (and the other shape ops keeping a dtype), else `node`."""
    while isinstance(node, cst.Call) and node.args and node.args[0].keyword is None and _last(node.func) in _SHAPES:
        node = node.args[0].value
    return node


def _literal(node: cst.BaseExpression) -> str | None:
    """A Python number or (nested) list/tuple of them as tf.constant converts it: float32 where one is a float."""
    if isinstance(node, (cst.Float, cst.Integer)) or (isinstance(node, cst.Name) and node.value in ("True", "False")):
        return LITERAL_DTYPES[type(node)]  # (tf.constant(False) as a layer's is_training: bool)
    if isinstance(node, cst.UnaryOperation):
        return _literal(node.expression)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Multiply):
        return _literal(node.left)  # ([[0.5, 1.0]] * 8)
    if isinstance(node, (cst.List, cst.Tuple)) and node.elements:
        found = {_literal(e.value) for e in node.elements}
        return None if None in found else (FLOAT32 if FLOAT32 in found else found.pop() if len(found) == 1 else "int32")
    return None


class Element:
    """Reads dtypes in a scope: its single bindings (name -> value) and the parameters bound to dtypes."""

    def __init__(self, bindings: dict[str, cst.BaseExpression | None], params: dict[str, str | None]) -> None:
        self.bindings, self.params = bindings, params

    def structure(self, node: cst.BaseExpression) -> Dtypes:
        """A dataset constructor's argument: a tuple or dict is a structure (tf.nest), anything else one tensor."""
        if isinstance(node, cst.Tuple):
            return [d for e in node.elements for d in self.structure(e.value)]
        if isinstance(node, cst.Dict):
            return [d for e in node.elements if isinstance(e, cst.DictElement) for d in self.structure(e.value)]
        return [self.tensor(node)]

    def tensor(self, node: cst.BaseExpression, depth: int = 0) -> str | None:
        if depth > 20:
            return None
        found = _literal(node)
        if found is not None:
            return found
        if isinstance(node, cst.Name):
            if node.value in self.params:
                return self.params[node.value]
            bound = self.bindings.get(node.value)
            return self.tensor(bound, depth + 1) if bound is not None else None
        if isinstance(node, cst.Subscript):
            return self.feature(node)
        if not isinstance(node, cst.Call):
            return None
        function = _last(node.func)
        if isinstance(node.func, cst.Attribute) and function == "astype" and node.args:
            return dtype_name(node.args[0].value)
        keyword = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        positional = [a.value for a in node.args if a.keyword is None]
        if function == "cast":
            given = keyword.get("dtype", positional[1] if len(positional) > 1 else None)
            return dtype_name(given)
        if function in CONSTANTS or function in _NUMPY:
            if "dtype" in keyword:
                return dtype_name(keyword["dtype"])
            # (a constant has its value's dtype: a numpy array's, float32 of Python floats; numpy's own default is
            # float64 or int64, not proven here)
            return self.tensor(positional[0], depth + 1) if function in CONSTANTS and positional else None
        if function in ("float32", "float64", "float16"):  # np.float32(...)
            return function
        if function in _SHAPES and positional:
            return self.tensor(positional[0], depth + 1)
        return None

    def feature(self, node: cst.Subscript) -> str | None:
        """`parsed["x"]` of `parsed = tf.parse_single_example(record, {"x": tf.FixedLenFeature(shape, D), ...})`."""
        parsed = self.bindings.get(node.value.value) if isinstance(node.value, cst.Name) else None
        index = node.slice[0].slice if len(node.slice) == 1 else None
        key = index.value if isinstance(index, cst.Index) else None
        if not (isinstance(parsed, cst.Call) and _last(parsed.func) in _PARSE and isinstance(key, cst.SimpleString)):
            return None
        spec = next((a.value for a in parsed.args if a.keyword is not None and a.keyword.value == "features"), None)
        if spec is None and len(parsed.args) > 1 and parsed.args[1].keyword is None:
            spec = parsed.args[1].value
        spec = self.bindings.get(spec.value) if isinstance(spec, cst.Name) else spec
        if not isinstance(spec, cst.Dict):
            return None
        for element in spec.elements:
            if not (isinstance(element, cst.DictElement) and isinstance(element.key, cst.SimpleString)):
                return None
            value = element.value
            if element.key.evaluated_value == key.evaluated_value and isinstance(value, cst.Call):
                if _last(value.func) not in _FEATURES:
                    return None
                given = next((a.value for a in value.args if a.keyword and a.keyword.value == "dtype"), None)
                plain = [a.value for a in value.args if a.keyword is None]
                position = 0 if _last(value.func) == "VarLenFeature" else 1
                return dtype_name(given if given is not None else (plain[position] if len(plain) > position else None))
        return None


def bindings(statements: Sequence[cst.BaseStatement]) -> dict[str, cst.BaseExpression | None]:
    """name -> its value where `statements` (and their ifs' bodies) bind it once, else None."""
    found: dict[str, cst.BaseExpression | None] = {}

    def bind(name: str, value: cst.BaseExpression | None) -> None:
        found[name] = value if name not in found else None

    for stmt in statements:
        if isinstance(stmt, cst.If):
            for name in bindings([*cast(cst.IndentedBlock, stmt.body).body]):
                bind(name, None)
            continue
        small = single(stmt)
        names = target_names(small) if small is not None else None
        if not isinstance(small, cst.Assign) or names is None:
            continue
        values = small.value.elements if isinstance(small.value, cst.Tuple) else None
        if len(names) > 1 and values is not None and len(values) == len(names):
            for name, element in zip(names, values):
                bind(name, element.value)
        else:
            for name in names:
                bind(name, small.value if len(names) == 1 else None)
    return found


def pipeline_dtypes(
    values: Sequence[cst.BaseExpression],
    name: str,
    scope: Element,
    defined: Callable[[str], cst.FunctionDef | None],
) -> Dtypes | None:
    """The element of the pipeline `name` built by `values` (its bindings in order), else None (not known).
    `defined`: the module's function of a name (a map's), else None."""
    element: Dtypes | None = None
    for value in values:
        calls: list[cst.Call] = []
        node: cst.BaseExpression = value
        while isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute):
            calls.insert(0, node)
            node = node.func.value
        if isinstance(node, cst.Name) and node.value == name:
            pass  # (dataset = dataset.map(...): the element so far)
        elif calls:
            element = _head(calls.pop(0), scope)
        else:
            return None
        for call in calls:
            element = _method(call, element, scope, defined)
    return element


def _head(call: cst.Call, scope: Element) -> Dtypes | None:
    function = cast(cst.Attribute, call.func).attr.value
    if function in ("from_tensor_slices", "from_tensors") and call.args:
        return scope.structure(call.args[0].value)
    if function == "range":
        return ["int64"]
    if function in _FILES:
        return ["string"]
    if function == "from_generator":
        try:
            args = arguments(call, ("generator", "output_types", "output_shapes"), call, "from_generator")
        except Refused:  # (output_signature and others: not known)
            return None
        types = args.get("output_types")
        if types is None:
            return None
        nested = types.value
        if isinstance(nested, (cst.Tuple, cst.List, cst.Dict)):
            return [dtype_name(e.value) for e in nested.elements if isinstance(e, (cst.Element, cst.DictElement))]
        return [dtype_name(nested)]
    return None


def _method(
    call: cst.Call, element: Dtypes | None, scope: Element, defined: Callable[[str], cst.FunctionDef | None]
) -> Dtypes | None:
    method = cast(cst.Attribute, call.func).attr.value
    if method in _KEEP:
        return element
    if method == "apply" and call.args and isinstance(call.args[0].value, cst.Call):
        return element if _last(call.args[0].value.func) in _APPLIED else None
    if method != "map" or element is None or not call.args:
        return None
    mapped = call.args[0].value
    if isinstance(mapped, cst.Lambda):
        params = [p.name.value for p in mapped.params.params]
        if len(params) != len(element):
            return None
        return Element(scope.bindings, dict(zip(params, element))).structure(mapped.body)
    fn = defined(mapped.value) if isinstance(mapped, cst.Name) else None
    if fn is None or not isinstance(fn.body, cst.IndentedBlock) or not fn.body.body:
        return None
    returned = single(fn.body.body[-1])
    params = [p.name.value for p in fn.params.params]
    if not isinstance(returned, cst.Return) or returned.value is None or len(params) != len(element):
        return None
    inner = Element(bindings(list(fn.body.body[:-1])), dict(zip(params, element)))
    return inner.structure(returned.value)
