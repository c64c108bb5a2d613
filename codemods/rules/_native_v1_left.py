"""The tf.compat.v1 names a ported file still holds once every rule has run: what native-estimator and native-left
report as staying at the safe level."""

from __future__ import annotations

from collections.abc import Collection

import libcst as cst

from codemods.engine.syntax import head as head_of
from codemods.rules import _tf
from codemods.rules._native_syntax import collect
from codemods.rules._tf_bindings import tf_imports
from compat.tf1_names import TF, V1

# an import a rule scheduled for removal (libcst's RemoveImportsVisitor: module, object, alias)
Dropped = Collection[tuple[str, str | None, str | None]]
# the modules whose attributes a chain reads tf.compat.v1 names through (`tf.compat.v1.x`, `compat.v1.x`, `v1.x`)
_MODULES = frozenset({TF, f"{TF}.compat", V1})


def v1_names_left(module: cst.Module, dropped: Dropped = ()) -> tuple[list[str], bool]:
    """(the tf.compat.v1 names `module` reads, below `tf.compat.v1.`, in source order without repeats, `*` for a star
    import's; whether it reads tf.keras.layers, in either spelling). `dropped`: the imports the rules scheduled for
    removal, which the engine drops after the pass where nothing reads them (not names the file keeps)."""
    tf_bound = tf_imports(module)
    # {name the file binds to tensorflow, tensorflow.compat or tensorflow.compat.v1: the path below `tensorflow.` of
    # the module, where its attributes' tf.compat.v1 names are}; a name bound twice reads as the later binding in
    # source order, a def's import included (`tf_imports` does not tell scopes apart), so a name TensorFlow and
    # tf.compat.v1 both have (`tf.float32`) may be said for a `tf` the safe level read as tensorflow
    bound = {name: f"{path}.".removeprefix(f"{TF}.") for name, path in tf_bound.names.items() if path in _MODULES}
    left: dict[str, None] = {}
    keras = False
    attributes = collect(module, cst.Attribute)
    inner = {id(a.value) for a in attributes}
    for chain in attributes:
        if id(chain) in inner or not isinstance(head_of(chain), cst.Name):
            continue  # (a part of a longer chain, or a chain on a call's value)
        head, _, rest = _tf.full_name(chain).partition(".")
        if head not in bound:
            continue
        # (`tf.compat.v1.x` read through a `tf` bound to tensorflow.compat.v1 too: v1's compat.v1 is v1 itself, and
        # the name is said once, as `x`)
        path = (bound[head] + rest).replace("compat.v1.compat.v1.", "compat.v1.", 1)
        if path.startswith("compat.v1."):
            left[path.removeprefix("compat.v1.")] = None
        keras |= path.removeprefix("compat.v1.").startswith("keras.layers.")
    imports = collect(module, cst.Import) + collect(module, cst.ImportFrom)
    # (the names read: not those of the imports, nor an attribute's `x.name`)
    not_read = {id(name) for node in imports for name in collect(node, cst.Name)} | {id(a.attr) for a in attributes}
    read = {name.value for name in collect(module, cst.Name) if id(name) not in not_read}
    for binding in tf_bound.bindings:  # (a tf.compat.v1 module or object imported by name: itself a name kept)
        if binding.path.startswith(f"{V1}."):
            if binding.imported in dropped and binding.name not in read:
                continue  # (dead: the engine drops it after the pass)
            left[binding.path.removeprefix(f"{V1}.")] = None
    for star in tf_bound.star:  # (`from tensorflow.compat.v1 import *`: every name it binds is TF1's)
        if f"{star}.".startswith(f"{V1}."):
            left[f"{star}.*".removeprefix(f"{V1}.")] = None
    return list(left), keras
