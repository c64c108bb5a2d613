"""The tf.compat.v1 names a ported file still holds once every rule has run: what native-estimator and native-left
report as staying at the safe level."""

from __future__ import annotations

from collections.abc import Collection

import libcst as cst

from codemods.engine.syntax import head as head_of
from codemods.rules import _tf
from codemods.rules._native_syntax import collect

# an import a rule scheduled for removal (libcst's RemoveImportsVisitor: module, object, alias)
Dropped = Collection[tuple[str, str | None, str | None]]


def v1_names_left(module: cst.Module, dropped: Dropped = ()) -> tuple[list[str], bool]:
    """(the tf.compat.v1 names `module` reads, below `tf.compat.v1.`, in source order without repeats; whether it
    reads tf.keras.layers, in either spelling). `dropped`: the imports the rules scheduled for removal, which the
    engine drops after the pass where nothing reads them (not names the file keeps)."""
    # {name the file binds: the TensorFlow path it stands for, below `tensorflow.`}
    bound: dict[str, str] = {}
    for imported in collect(module, cst.Import):
        for alias in imported.names:
            name, as_name = _tf.full_name(alias.name), alias.evaluated_alias
            if name == "tensorflow" or (name.startswith("tensorflow.") and as_name is None):
                bound[as_name or "tensorflow"] = ""
            elif name == "tensorflow.compat.v1" and as_name:
                bound[as_name] = "compat.v1."
    left: dict[str, None] = {}
    for node in collect(module, cst.ImportFrom):
        below = _tf.full_name(node.module) if node.module is not None and not node.relative else ""
        if below not in ("tensorflow", "tensorflow.compat") or isinstance(node.names, cst.ImportStar):
            continue
        for alias in node.names:  # (`from tensorflow import compat`, `from tensorflow.compat import v1 as tf`)
            path = f"{below}.{_tf.full_name(alias.name)}".removeprefix("tensorflow.")
            if path in ("compat", "compat.v1"):
                bound[alias.evaluated_alias or path.rpartition(".")[2]] = path + "."
    keras = False
    attributes = collect(module, cst.Attribute)
    inner = {id(a.value) for a in attributes}
    for chain in attributes:
        if id(chain) in inner or not isinstance(head_of(chain), cst.Name):
            continue  # (a part of a longer chain, or a chain on a call's value)
        head, _, rest = _tf.full_name(chain).partition(".")
        if head not in bound:
            continue
        path = bound[head] + rest
        if path.startswith("compat.v1."):
            left[path.removeprefix("compat.v1.")] = None
        keras |= path.removeprefix("compat.v1.").startswith("keras.layers.")
    imports = collect(module, cst.Import) + collect(module, cst.ImportFrom)
    # (the names read: not those of the imports, nor an attribute's `x.name`)
    not_read = {id(name) for node in imports for name in collect(node, cst.Name)} | {id(a.attr) for a in attributes}
    read = {name.value for name in collect(module, cst.Name) if id(name) not in not_read}
    for node in collect(module, cst.ImportFrom):
        full = _tf.full_name(node.module) if node.module is not None and not node.relative else ""
        if (full + ".").startswith("tensorflow.compat.v1.") and not isinstance(node.names, cst.ImportStar):
            below = (full + ".").removeprefix("tensorflow.compat.v1.")
            for alias in node.names:
                name, as_name = _tf.full_name(alias.name), alias.evaluated_alias
                if (full, name, as_name) in dropped and (as_name or name) not in read:
                    continue  # (dead: the engine drops it after the pass)
                left[f"{below}{name}"] = None
    return list(left), keras
