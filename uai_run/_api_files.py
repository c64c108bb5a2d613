"""Does `tf.<path>` resolve on the installed TensorFlow? Read from its files, without importing it.

Importing TensorFlow costs 4-5 CPU-s, and `uai-run --auto` hands TF 2 code to a fresh python, which
imports it again (the handover must stay: a TF 2 program may set environment variables before its
own `import tensorflow`). TensorFlow's public API is generated code: `tensorflow/__init__.py` and the
`__init__.py` files under `tensorflow/_api/v2/` are `from <implementation> import <name> as <alias>`
lines, plus lazy loaders TensorFlow's own `__init__` sets up (`tf.keras`, `tf.losses`, `tf.metrics`,
`tf.optimizers`, `tf.initializers` to Keras 2 / tf-keras / Keras 3 as `TF_USE_LEGACY_KERAS` chooses
when first read, `tf.estimator` to tensorflow-estimator's generated API on TF <= 2.15), the same for
tf-keras', Keras' and tensorflow-estimator's API packages. So `ast` answers whether an API module
has a name, and so whether a chain of API modules reaches it. On TF >= 2.16 compat adds
`tf.estimator` (`compat._estimator_support`), and uai-run decides after `import compat`, so the
reading adds it too.

Below an API module the files answer less: a class's attribute (`tf.data.Dataset.from_tensor_slices`)
is read from its class body and base classes, and found there it resolves; an attribute the files do
not show (set at run time, from a metaclass, a function's attribute, a name an implementation module
binds in an `if`) is unknown, as is any name not read from a generated line (a subpackage TensorFlow's
import happened to bind, an underscore name). `resolves` answers None for those, and the caller
imports TensorFlow and asks it, as before: correctness first. tests/common/test_uai_run_auto.py checks
the answers against the imported TensorFlow for every name of the fixture programs and of the tables
of compat.tf1_names.
"""

import ast
import functools
import importlib.machinery
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import metadata

from compat import _estimator_support, tf1_names

TF = "tensorflow"
_LAZY = "tensorflow.python.util.lazy_loader"
_LEGACY_ON = ("true", "True", "1")  # what TensorFlow's KerasLazyLoader reads as TF_USE_LEGACY_KERAS set
# The generated API packages: a name their __init__ files do not bind is not there.
_API_ROOTS = (
    "tensorflow._api.",
    "tf_keras.api.",
    "keras.api.",
    "keras._tf_keras.",
    "tensorflow_estimator.python.estimator.api.",
)
# Where compat adds `estimator` (compat._estimator_support._lazy_api), keyed by the API module's file name.
_ESTIMATOR_TARGETS = {
    TF: "tensorflow_estimator.python.estimator.api._v2.estimator",
    "tensorflow._api.v2.compat.v2": "tensorflow_estimator.python.estimator.api._v2.estimator",
    "tensorflow._api.v2.compat.v1": "tensorflow_estimator.python.estimator.api._v1.estimator",
}


@dataclass(frozen=True)
class _Module:
    """A module by its import name; `api`: a generated API module, whose lines are all it has."""

    name: str


@dataclass(frozen=True)
class _Object:
    """`name` as bound at the top level of the implementation module `module`."""

    module: str
    name: str


@dataclass(frozen=True)
class _Class:
    """A class an implementation module defines: its attributes are read from its body and its bases'."""

    module: str
    node: ast.ClassDef


@dataclass(frozen=True)
class _Keras:
    """TensorFlow's KerasLazyLoader: which Keras it reaches is chosen when it is first read."""

    mode: str | None
    submodule: str | None


@dataclass(frozen=True)
class _Lazy:
    """TensorFlow's (or compat's) LazyLoader of `module`: there even where `module` is not installed."""

    module: str


@dataclass(frozen=True)
class _Member:
    """An attribute found in a class body: it resolves, what it holds is not read."""


_MODULE_AND_CLASS_ATTRIBUTES = frozenset(("__name__", "__doc__", "__dict__"))
_MISSING = "missing"
_UNKNOWN = "unknown"
_Node = _Module | _Object | _Class | _Keras | _Lazy | _Member | str


@dataclass(frozen=True)
class _Bindings:
    """A module file's top-level names: what each is bound to, and the attributes it sets on its submodules."""

    names: dict[str, _Node]
    children: dict[str, dict[str, _Node]]  # `_current_module.nn.rnn_cell = ...`: {"nn": {"rnn_cell": ...}}
    classes: dict[str, ast.ClassDef]
    modules: dict[str, str]  # local name -> module, from `import a.b as c` (for base classes `c.Base`)


def resolves(parts: list[str]) -> bool | None:
    """Does `tensorflow.<parts>` resolve as an attribute chain on the imported TensorFlow (under compat's
    runtime, as uai-run imports it)? None where the files cannot tell."""
    node = _reach(parts)
    return None if node == _UNKNOWN else node != _MISSING


def same_object(parts: list[str], other: list[str]) -> bool:
    """Do two chains reach one implementation object by the files (so any attribute path below resolves on both or
    on neither: `tf.compat.v1.X.y` and `tf.X.y` where both API modules import the same X)?"""
    for cut in range(len(parts), 0, -1):
        head, tail = parts[:cut], parts[cut:]
        if len(other) >= len(tail) and other[len(other) - len(tail) :] == tail:
            one, two = _reach(head), _reach(other[: len(other) - len(tail)])
            if isinstance(one, _Object) and one == two:
                return True
    return False


def _reach(parts: list[str]) -> _Node:
    node: _Node = _Module(TF)
    for index, part in enumerate(parts):
        found = _child(node, part)
        published = tf1_names.PUBLISHED.get(".".join(parts[: index + 1]))
        if found == _MISSING and published is not None:  # compat binds it on TF 2.15 (compat._tf_internals)
            home, attribute = tf1_names.split(published)
            found = _Object(home, attribute or "")
        if found in (_MISSING, _UNKNOWN):
            return found
        node = found
    return node


def _child(node: _Node, name: str) -> _Node:
    if name in _MODULE_AND_CLASS_ATTRIBUTES and isinstance(node, _Lazy):
        return _Member()  # a LazyLoader is a module object before it loads
    if isinstance(node, _Keras):
        node = _keras_module(node)
    if isinstance(node, _Lazy):
        if _module_file(node.module) is None:
            return _MISSING
        if _keras_module(_Keras(None, None)) == _MISSING:
            return _UNKNOWN  # tensorflow-estimator imports tf.keras, which fails here: its import may fail
        node = _Module(node.module)
    if isinstance(node, _Object):
        node = _follow(node)
    if name in _MODULE_AND_CLASS_ATTRIBUTES and isinstance(node, _Module | _Class):
        return _Member()
    if isinstance(node, _Module):
        return _module_child(node.name, name)
    if isinstance(node, _Class):
        return _class_child(node, name, set())
    return node if node == _MISSING else _UNKNOWN


def _module_child(module: str, name: str) -> _Node:
    bindings = _bindings(module)
    if bindings is None:
        return _UNKNOWN
    parent, _, last = module.rpartition(".")
    parent_bindings = _bindings(parent) if parent else None
    # the parent's `_current_module.nn.rnn_cell = ...` runs after `nn` was imported: it wins
    found = parent_bindings.children.get(last, {}).get(name) if parent_bindings else None
    found = bindings.names.get(name) if found is None else found
    if found is None and module in _ESTIMATOR_TARGETS and name == "estimator" and _estimator_support.needed():
        found = _Lazy(_ESTIMATOR_TARGETS[module])
    return found if found is not None else _unbound(module, bindings, name)


def _unbound(module: str, bindings: _Bindings, name: str) -> _Node:
    """What a name `module`'s file does not bind is: not there in a generated API module, else unknown."""
    if not _is_api(module) or name.startswith("_") or _module_file(f"{module}.{name}") is not None:
        return _UNKNOWN  # a run-time binding, or a subpackage the import may bind: only TensorFlow can say
    if "__getattr__" in bindings.names:
        return _UNKNOWN  # a module that makes names when read (PEP 562): its lines are not all it has
    return _MISSING


def _is_api(module: str) -> bool:
    return module == TF or module.startswith(_API_ROOTS)


def _follow(node: _Object) -> _Node:
    """What an implementation module's name is: a module, a class (to read its body), else unknown."""
    for _ in range(20):  # re-exports chain `from a import X` through a few modules
        if _module_file(f"{node.module}.{node.name}") is not None:
            return _Module(f"{node.module}.{node.name}")
        bindings = _bindings(node.module)
        if bindings is None:
            return _UNKNOWN
        if node.name in bindings.classes:
            return _Class(node.module, bindings.classes[node.name])
        found = bindings.names.get(node.name)
        if not isinstance(found, _Object | _Module):
            return _UNKNOWN
        if isinstance(found, _Module):
            return found
        node = found
    return _UNKNOWN


def _class_child(cls: _Class, name: str, seen: set[_Class]) -> _Node:
    """`name` on the class: found in its body or a base class's body; else unknown (metaclasses, setattr)."""
    if cls in seen:
        return _UNKNOWN
    seen.add(cls)
    if name in _class_names(cls.node):
        return _Member()
    bindings = _bindings(cls.module)
    for base in cls.node.bases:
        found = _base_class(cls.module, bindings, base)
        if found is not None and _class_child(found, name, seen) != _UNKNOWN:
            return _Member()
    return _UNKNOWN


def _class_names(cls: ast.ClassDef) -> set[str]:
    found = set()
    for statement in cls.body:
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(statement.name)
        elif isinstance(statement, ast.Assign):
            found.update(t.id for t in statement.targets if isinstance(t, ast.Name))
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            if isinstance(statement.target, ast.Name):
                found.add(statement.target.id)
    return found


def _base_class(module: str, bindings: _Bindings | None, base: ast.expr) -> _Class | None:
    if bindings is None:
        return None
    found: _Node | None = None
    if isinstance(base, ast.Name):
        if base.id in bindings.classes:
            return _Class(module, bindings.classes[base.id])
        bound = bindings.names.get(base.id)
        found = _follow(bound) if isinstance(bound, _Object) else None
    elif isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id in bindings.modules:
        found = _follow(_Object(bindings.modules[base.value.id], base.attr))
    return found if isinstance(found, _Class) else None


def _keras_module(node: _Keras) -> _Node:
    """The Keras API module TensorFlow's KerasLazyLoader reaches from this process' environment."""
    if os.environ.get("TF_USE_LEGACY_KERAS") in _LEGACY_ON:
        if _module_file("tf_keras") is None:
            return _MISSING  # TensorFlow logs a warning and the loader raises ImportError
        package = "tf_keras.api._v1.keras" if node.mode == "v1" else "tf_keras.api._v2.keras"
    else:
        try:
            keras3 = metadata.version("keras").startswith("3.")
        except metadata.PackageNotFoundError:
            return _MISSING
        if keras3:
            if node.submodule and node.submodule.startswith("__internal__.legacy."):
                return _MISSING  # "`dense` is not available with Keras 3"
            package = "keras._tf_keras.keras"
        else:
            package = "keras.api._v1.keras" if node.mode == "v1" else "keras.api._v2.keras"
    full = f"{package}.{node.submodule}" if node.submodule else package
    return _Module(full) if _module_file(full) is not None else _MISSING


def _is_type_checking(test: ast.expr) -> bool:
    """`if _typing.TYPE_CHECKING:` (TensorFlow's API files, for type checkers): false when run."""
    return (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING") or (
        isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"
    )


@functools.cache
def _module_file(module: str) -> str | None:
    """The file of `module` found as Python would from sys.path, without importing any package."""
    parts = module.split(".")
    spec = importlib.machinery.PathFinder.find_spec(parts[0], sys.path)
    for index in range(1, len(parts)):
        if spec is None or not spec.submodule_search_locations:
            return None
        name = ".".join(parts[: index + 1])
        spec = importlib.machinery.PathFinder.find_spec(name, list(spec.submodule_search_locations))
    origin = getattr(spec, "origin", None)
    return origin if spec is not None and origin and origin.endswith(".py") else None


@functools.cache
def _bindings(module: str) -> _Bindings | None:
    path = _module_file(module)
    if path is None:
        return None
    try:
        with open(path, "rb") as handle:
            tree = ast.parse(handle.read(), path)
    except (OSError, SyntaxError, ValueError):
        return None
    return _read(module, tree, path.endswith("__init__.py"))


def _read(module: str, tree: ast.Module, package: bool) -> _Bindings:
    """The top-level bindings of a module's body: imports, classes, the lazy loaders of TensorFlow's API
    `__init__` files and their `setattr(_current_module, ...)`; a name bound otherwise is unknown."""
    names: dict[str, _Node] = {}
    children: dict[str, dict[str, _Node]] = {}
    classes: dict[str, ast.ClassDef] = {}
    modules: dict[str, str] = {}
    strings: dict[str, str] = {}
    base = module if package else module.rpartition(".")[0]

    def value(expr: ast.expr | None) -> _Node:
        if isinstance(expr, ast.Name):
            return names.get(expr.id, _UNKNOWN)
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name):
            loader = names.get(expr.func.id)
            keywords = {k.arg: k.value for k in expr.keywords}
            if loader == _Object(_LAZY, "KerasLazyLoader"):
                return _Keras(_text(keywords.get("mode"), strings), _text(keywords.get("submodule"), strings))
            if loader == _Object(_LAZY, "LazyLoader") and len(expr.args) >= 3:
                target = _text(expr.args[2], strings)
                return _Lazy(target) if target else _UNKNOWN
        return _UNKNOWN

    statements = list(tree.body)
    while statements:
        statement = statements.pop(0)
        if isinstance(statement, ast.Try) and _imports_found(statement, base):
            statements[:0] = statement.body  # TF <= 2.15's `tf.summary` from TensorBoard, installed here
        elif isinstance(statement, ast.ImportFrom):
            source = _absolute(statement, base)
            for alias in statement.names:
                if alias.name != "*":
                    names[alias.asname or alias.name] = _Object(source, alias.name)
        elif isinstance(statement, ast.Import):
            for alias in statement.names:
                if alias.asname:
                    names[alias.asname] = _Module(alias.name)
                    modules[alias.asname] = alias.name
                else:
                    top = alias.name.partition(".")[0]
                    names[top] = _Module(top)
                    modules[top] = top
        elif isinstance(statement, ast.ClassDef):
            classes[statement.name] = statement
            names[statement.name] = _Object(module, statement.name)
        elif isinstance(statement, ast.Assign):
            for target in statement.targets:
                path = _current_module_path(target)
                if isinstance(target, ast.Name):
                    found = value(statement.value)
                    names[target.id] = _Member() if found == _UNKNOWN else found  # bound, to what is not read
                    text = _text(statement.value, strings)
                    if text is not None:
                        strings[target.id] = text
                elif path is not None and len(path) == 1:
                    names[path[0]] = value(statement.value)
                elif path is not None and len(path) == 2:
                    children.setdefault(path[0], {})[path[1]] = value(statement.value)
                elif path is None:
                    names.update((bound, _Member()) for bound in _bound_names(target))
        elif isinstance(statement, ast.Expr) and _is_setattr(statement.value):
            call = statement.value
            assert isinstance(call, ast.Call)
            attribute = _text(call.args[1], strings)
            if attribute is not None:
                found = value(call.args[2])
                names[attribute] = _Member() if found == _UNKNOWN else found
        elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            names[statement.name] = _Member()
        elif isinstance(statement, ast.Delete):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    names.pop(target.id, None)
        elif isinstance(statement, ast.If) and _is_type_checking(statement.test):
            for bound in (name for branch in statement.orelse for name in _bound_names(branch)):
                names[bound] = _UNKNOWN
        else:
            for bound in _bound_names(statement):
                names[bound] = _UNKNOWN  # in an if, a try or a loop: bound at run time, or not
    return _Bindings(names, children, classes, modules)


def _imports_found(statement: ast.Try, base: str) -> bool:
    """A `try:` of imports and the bindings of their names, whose modules are installed (so its `except
    ImportError:` does not run): TensorFlow's API files import TensorBoard's `summary` so."""
    handlers = [h.type for h in statement.handlers]
    if statement.orelse or statement.finalbody or handlers != [h for h in handlers if _names_import_error(h)]:
        return False
    for inner in statement.body:
        if isinstance(inner, ast.ImportFrom):
            source = _absolute(inner, base)
            if not all(_module_file(f"{source}.{a.name}") or _module_file(source) for a in inner.names):
                return False
        elif not isinstance(inner, ast.Assign | ast.Expr):
            return False
    return bool(statement.handlers)


def _names_import_error(handler: ast.expr | None) -> bool:
    return isinstance(handler, ast.Name) and handler.id == "ImportError"


def _absolute(statement: ast.ImportFrom, base: str) -> str:
    if not statement.level:
        return statement.module or ""
    parts = base.split(".")
    parts = parts[: len(parts) - statement.level + 1]
    return ".".join([*parts, *([statement.module] if statement.module else [])])


def _text(expr: ast.expr | None, strings: dict[str, str]) -> str | None:
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return expr.value
    if isinstance(expr, ast.Name):
        return strings.get(expr.id)
    return None


def _current_module_path(target: ast.expr) -> list[str] | None:
    """["nn", "rnn_cell"] for `_current_module.nn.rnn_cell` (TensorFlow's API files name their module so)."""
    parts = []
    while isinstance(target, ast.Attribute):
        parts.append(target.attr)
        target = target.value
    if isinstance(target, ast.Name) and target.id == "_current_module" and parts:
        return parts[::-1]
    return None


def _is_setattr(expr: ast.expr) -> bool:
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "setattr"
        and len(expr.args) == 3
        and isinstance(expr.args[0], ast.Name)
        and expr.args[0].id == "_current_module"
    )


def _bound_names(statement: ast.AST) -> Iterator[str]:
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
        yield statement.name
        return
    for node in ast.walk(statement):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            yield node.id
        elif isinstance(node, ast.Import | ast.ImportFrom):
            yield from ((alias.asname or alias.name).partition(".")[0] for alias in node.names)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name
        elif isinstance(node, ast.Call) and _is_setattr(node):
            attribute = _text(node.args[1], {})
            yield from [attribute] if attribute else []
