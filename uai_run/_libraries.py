"""Serve the names libraries removed (compat.library_names) to code that still reads them.

A module of the table gets a module-level `__getattr__` (PEP 562) when it is imported: Python calls
it only for a name the module lacks, so every name the library has keeps its own value and its
speed, and a library version that still has the old names is left as it is. A read of an old name
gives the new name's object and is noted for `--explain` at the user's line.
"""

import functools
import importlib
import sys
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
