"""Serve the names libraries removed, and the calls they read otherwise (compat.library_names), to old code.

A module of the table gets a module-level `__getattr__` (PEP 562) when it is imported: Python calls
it only for a name the module lacks, so every name the library has keeps its own value and its
speed, and a library version that still has the old names is left as it is. A read of an old name
gives the new name's object and is noted for `--explain` at the user's line.

A call the installed release reads otherwise (NumPy 2's `np.array(x, copy=False)`) cannot be served
that way: the name exists. The user's code (only: libraries, TensorFlow first, were written for the
release they run on) gets a face of the package instead (`face`, given by uai_run._finder's import):
a module holding the package's every name, as fast to read, whose changed calls pass the release's
spelling of the old meaning (`copy=None`). Read where NumPy 1 is installed, nothing changes.
"""

import ast
import functools
import importlib
import sys
import types
from collections.abc import Callable
from typing import Any

from compat import _import_hook
from compat import library_names as names
from uai_run import _explain

_served: set[str] = set()


def _serve(module_name: str) -> None:
    module = sys.modules.get(module_name)
    if module is None or module_name in _served:
        return
    renamed = names.RENAMED[module_name]
    original = module.__dict__.get("__getattr__")

    def __getattr__(attr: str) -> Any:
        if attr in renamed:
            home, name = names.split(renamed[attr])
            value = getattr(importlib.import_module(home), name)
            _explain.note(names.RULE, f"{module_name}.{attr} -> {names.spelled(renamed[attr])}")
            return value
        if original is not None:
            return original(attr)
        raise AttributeError(f"module {module_name!r} has no attribute {attr!r}")

    vars(module)["__getattr__"] = __getattr__
    _served.add(module_name)


def install() -> None:
    """Serve the table's old names in the modules already imported and in those imported later."""
    for module_name in names.RENAMED:
        _import_hook.on_import(module_name, after=functools.partial(_serve, module_name))
        _serve(module_name)


# the packages with a call some release reads otherwise (whether the installed one does is asked on first use)
PACKAGES = frozenset(names.split(qualified)[0] for qualified in names.CHANGED_CALLS)
_faces: dict[str, types.ModuleType] = {}


def face(module: types.ModuleType) -> types.ModuleType:
    """What the user's code gets for `module` (a package of PACKAGES): the module itself where the installed
    release reads its calls as before, else a face with its names and the changed calls' old meaning."""
    if module.__name__ not in _faces:
        changed = {
            names.split(qualified)[1]: change
            for qualified, change in names.CHANGED_CALLS.items()
            if names.split(qualified)[0] == module.__name__ and names.changed_here(change)
        }
        seen = types.ModuleType(module.__name__, module.__doc__) if changed else module
        if changed:
            vars(seen).update(vars(module))  # module-level __getattr__ too: lazily loaded names still resolve
        for name, change in changed.items():
            setattr(seen, name, _old_meaning(getattr(module, name), f"{module.__name__}.{name}", change))
        _faces[module.__name__] = seen
    return _faces[module.__name__]


def _old_meaning(call: Callable[..., Any], qualified: str, change: names.ChangedCall) -> Callable[..., Any]:
    old, new = ast.literal_eval(change.value), ast.literal_eval(change.new_value)
    message = f"{qualified}(..., {change.keyword}={change.value}) -> {change.keyword}={change.new_value}"

    @functools.wraps(call)
    def called(*args: Any, **kwargs: Any) -> Any:
        if change.keyword in kwargs and kwargs[change.keyword] is old:
            kwargs[change.keyword] = new
            _explain.note(names.RULE, message)
        return call(*args, **kwargs)

    return called
