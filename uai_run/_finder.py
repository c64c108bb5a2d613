"""Serve the TF1 face at import time: a meta-path finder/loader for the faces, and the choice of who gets them.

The faces are modules named `uai_run.tf1.<TF1 path>`, made by `FaceLoader` when first imported.
Who sees them is decided in `builtins.__import__`, because Python answers `import tensorflow` from
`sys.modules` before asking any finder: once TensorFlow is loaded (by anyone) a finder alone could
only hand everybody the same module. The wrapper looks at the importing module's file: the user's
code (see `_code_owner`) gets the face, every library the real TensorFlow, unless `everywhere` is set.
"""

import builtins
import importlib
import importlib.abc
import importlib.machinery
import logging
import sys
import types
from collections.abc import Mapping, Sequence
from typing import Any, cast

from compat import tf1_names as names
from uai_run import _code_owner, _explain, _libraries, _tf1_modules

ROOT = _tf1_modules.PREFIX.rstrip(".")
_state: dict[str, Any] = {"everywhere": False, "activated": False, "original": None}


def activate_tf1() -> None:
    """TF1 behaviour for the whole process, once, before the user's first op: compat's fixes, then v1."""
    if _state["activated"]:
        return
    _state["activated"] = True
    # TensorFlow's own modules never get the face, and loading them runs some 36,000 import
    # statements: with the hook out of the way they take the interpreter's own path (measured on
    # TF 2.21: through the hook, a tiny TF1 script made 7% more Python calls than its port).
    hook, builtins.__import__ = builtins.__import__, _state["original"] or builtins.__import__
    try:
        import compat
        import compat.keras_models

        compat.install()
        compat.keras_models.serve_removed_methods()  # Keras 2's Sequential as TF 1.x's had it
        import tensorflow as tf
    finally:
        builtins.__import__ = hook

    # disable_v2_behavior logs a deprecation notice per switch: not the user's business.
    logger = logging.getLogger("tensorflow")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        tf.compat.v1.disable_v2_behavior()
    finally:
        logger.setLevel(level)


class FaceLoader(importlib.abc.Loader):
    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        if spec.name == ROOT:
            return None  # a plain package holding the faces
        return _tf1_modules.Face(spec.name[len(_tf1_modules.PREFIX) :])

    def exec_module(self, module: types.ModuleType) -> None:
        if module.__name__ == ROOT:
            module.__path__ = []
            return
        path = module._tf1_path
        if path == names.TF:
            activate_tf1()  # before any target is loaded: compat's fixes go first
        if names.is_removed_module(path) or not (module._targets() or names.has_entries_below(path)):
            raise _tf1_modules.MissingTF1Module(path)
        if path in names.SYMBOLS or (names.move_package(path) and not names.has_entries_below(path)):
            # `import tensorflow.python.platform.flags as f`, `import tensorflow.contrib.slim.nets.resnet_v1`:
            # the module is the new one itself (the import system returns what sys.modules holds after exec)
            target = cast(str, names.SYMBOLS.get(path) or names.move_package(path))  # (one of them: the test above)
            sys.modules[module.__name__] = names.resolve(target)
            _explain.note(names.rule_for(path), f"{_tf1_modules.short(path)} -> {_tf1_modules.target_name(target)}")
        elif path in names.MODULES and path != names.TF and _tf1_modules.targets_of(path):
            targets = ", ".join(_tf1_modules.target_name(t) for t in _tf1_modules.targets_of(path))
            _explain.note(names.rule_for(path), f"{_tf1_modules.short(path)} -> {targets}")


class FaceFinder(importlib.abc.MetaPathFinder):
    """Finds `uai_run.tf1[.<TF1 path>]` only; every other name goes to the normal finders."""

    loader = FaceLoader()

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != ROOT and not fullname.startswith(_tf1_modules.PREFIX):
            return None
        return importlib.machinery.ModuleSpec(fullname, self.loader, is_package=True)


def _wants_face(globals_: Mapping[str, Any] | None) -> bool:
    globals_ = globals_ or {}
    if globals_.get("__name__", "").partition(".")[0] in _code_owner.INTERNAL_PACKAGES:
        return False  # TensorFlow's own imports, by the thousand: decided without touching the file system
    filename = globals_.get("__file__")
    if _state["everywhere"]:
        return not (filename and _code_owner.is_internal(filename))
    return _code_owner.is_user(filename)


def face_import(name: str, fromlist: Sequence[str] | None = ()) -> types.ModuleType:
    """What `import <name>` / `from <name> import <fromlist>` give the user's code."""
    for parent in _parents(name):
        if names.is_removed_module(parent):
            raise _tf1_modules.MissingTF1Module(
                # (one item: `fromlist` is not None)
                f"{name}.{cast('Sequence[str]', fromlist)[0]}" if len(fromlist or ()) == 1 else name
            )
    if not _tf1_modules.targets_of(
        name
    ):  # tf.contrib: a name the table lacks is gone, known before importing TensorFlow
        for item in fromlist or ():
            if names.is_removed_module(f"{name}.{item}") and f"{name}.{item}" not in names.SYMBOLS:
                raise _tf1_modules.MissingTF1Module(f"{name}.{item}")
    module = importlib.import_module(_tf1_modules.PREFIX + name)
    if not fromlist:
        return sys.modules[_tf1_modules.PREFIX + names.TF]
    # What the interpreter's fromlist handling does, but our one-line errors are not turned
    # into "cannot import name": a name the module lacks is imported as its submodule.
    for item in fromlist:
        if item == "*" or hasattr(module, item):
            continue
        submodule = f"{module.__name__}.{item}"
        try:
            importlib.import_module(submodule)
        except ModuleNotFoundError as error:
            if error.name != submodule:
                raise
        getattr(module, item)
    return module


def _parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[: i + 1]) for i in range(1, len(parts))]


def _import(
    name: str,
    globals: Mapping[str, Any] | None = None,
    locals: Mapping[str, Any] | None = None,
    fromlist: Sequence[str] | None = (),
    level: int = 0,
) -> types.ModuleType:
    if (
        level == 0
        and name.startswith(names.TF)
        and (name == names.TF or name.startswith(names.TF + "."))
        and _wants_face(globals)
        and (_tf1_modules.needs_face(name) or any(_tf1_modules.needs_face(f"{name}.{item}") for item in fromlist or ()))
    ):
        return face_import(name, fromlist)
    module = _state["original"](name, globals, locals, fromlist, level)
    if level == 0 and module.__name__ in _libraries.PACKAGES and _wants_face(globals):
        return _libraries.face(module)  # `import numpy as np`, `from numpy import array`: calls as they were
    return module


def install(everywhere: bool = False) -> None:
    """Give the user's code (every module's, with `everywhere`) the TF1 face of `tensorflow`; idempotent."""
    _state["everywhere"] = everywhere
    if not any(isinstance(f, FaceFinder) for f in sys.meta_path):
        # last: no other finder knows `uai_run.tf1...`, and every module anybody imports asks
        # the finders in turn (first, it was asked about each of TensorFlow's 2,500 modules)
        sys.meta_path.append(FaceFinder())
    if _state["original"] is None:
        _state["original"] = builtins.__import__
        builtins.__import__ = _import
