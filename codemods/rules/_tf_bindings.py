"""The names a module's imports bind to TensorFlow: each local name with the full path of the TensorFlow module or
object it stands for (`tf` -> `tensorflow`, `v1` -> `tensorflow.compat.v1`, `LoggingTensorHook` ->
`tensorflow.compat.v1.train.LoggingTensorHook`), read from the import statements of a libcst tree.

The rules that ask read a module the pass has rewritten (or a statement of one): a new tree, which the engine's name
table (built from the source before the pass, codemods/engine/names.py) does not describe and libcst's scope
providers would have to analyse anew, at several times the cost of a parse (docs/traps.md, "Measuring on this
machine"). The imports themselves say it: every import in the tree counts, a function's too, in source order. Only
imports: an assignment (`tf = tf.compat.v1`) or a parameter that binds the same name is not read here.
"""

from __future__ import annotations

import dataclasses

import libcst as cst
from libcst.helpers import get_full_name_for_node

from compat.tf1_names import TF


@dataclasses.dataclass(frozen=True)
class Binding:
    name: str  # the local name the import binds
    # the TensorFlow module or object it stands for, in full (`import tensorflow.compat.v1` binds `tensorflow`)
    path: str
    # the import as libcst's RemoveImportsVisitor names one a rule scheduled for removal: (module, object, alias)
    imported: tuple[str, str | None, str | None]


@dataclasses.dataclass(frozen=True)
class TFImports:
    bindings: tuple[Binding, ...]  # in source order: a name two imports bind is there twice
    star: tuple[str, ...]  # the TensorFlow modules imported with `*`: they bind names no import lists

    @property
    def names(self) -> dict[str, str]:
        """{local name: TensorFlow path}; a name two TensorFlow imports bind (a `try:` import and its `except
        ImportError:` fallback) stands for the later's path in source order, and `bindings` holds both. Scopes are not
        told apart (a def's import rebinds the module's name here too), nor is a later non-TensorFlow import of the
        name (`import my_shim as tf`), which this table does not list."""
        return {binding.name: binding.path for binding in self.bindings}


def is_tensorflow(path: str) -> bool:
    """Is `path` TensorFlow or a module or object below it (not `tensorflow_hub`)?"""
    return path == TF or path.startswith(TF + ".")


def tf_imports(tree: cst.CSTNode) -> TFImports:
    """What the imports in `tree` (a module, or any node holding imports) bind to TensorFlow."""
    found = _Imports()
    tree.visit(found)
    return TFImports(tuple(found.bindings), tuple(found.star))


class _Imports(cst.CSTVisitor):
    def __init__(self) -> None:
        self.bindings: list[Binding] = []
        self.star: list[str] = []

    def visit_Import(self, node: cst.Import) -> bool:
        for alias in node.names:
            module, as_name = _name(alias.name), alias.evaluated_alias
            if is_tensorflow(module):  # (`import tensorflow.compat.v1` binds only the top package)
                bound = (as_name, module) if as_name else (TF, TF)
                self.bindings.append(Binding(*bound, imported=(module, None, as_name)))
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        module = _name(node.module) if node.module is not None and not node.relative else ""
        if not is_tensorflow(module):
            return False  # (a relative import is the package's own)
        if isinstance(node.names, cst.ImportStar):
            self.star.append(module)
            return False
        for alias in node.names:
            name, as_name = _name(alias.name), alias.evaluated_alias
            self.bindings.append(Binding(as_name or name, f"{module}.{name}", imported=(module, name, as_name)))
        return False


def _name(node: cst.CSTNode) -> str:
    return get_full_name_for_node(node) or ""
