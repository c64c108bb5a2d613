"""Run compat's fixes when the modules they repair are imported, whatever the import order.

`import compat` must stay cheap and must not import TensorFlow, yet a script that imports
compat and later TensorFlow, tf_slim or tensorflow_estimator must find them working. One
meta-path finder watches just the module names registered here; every other import is untouched.

    on_import("tf_slim", after=fix)          # fix() once tf_slim's body has run
    on_import("tensorflow_estimator", before=prepare)   # prepare() before it is looked up
"""

import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Callable, Sequence
from typing import Any


class _AfterExec(importlib.abc.Loader):
    """Wraps the real loader of a module and calls `after()` once its body has run."""

    def __init__(self, loader: importlib.abc.Loader, after: Callable[[], object]) -> None:
        self._loader = loader
        self._after = after

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        self._loader.exec_module(module)
        self._after()

    def __getattr__(self, name: str) -> Any:  # resource readers, get_source, is_package...
        return getattr(self._loader, name)


class Watcher(importlib.abc.MetaPathFinder):
    def __init__(self) -> None:
        # module name -> the callbacks to run before it is imported / once it has been
        self.before: dict[str, list[Callable[[], None]]] = {}
        self.after: dict[str, list[Callable[[], None]]] = {}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        for callback in self.before.get(fullname, ()):
            callback()
        callbacks = self.after.get(fullname)
        if not callbacks:
            return None  # the normal finders load it
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is not None and spec.loader is not None:
            spec.loader = _AfterExec(spec.loader, lambda: [callback() for callback in callbacks])
        return spec


def _watcher() -> Watcher:
    for finder in sys.meta_path:
        if isinstance(finder, Watcher):
            return finder
    finder = Watcher()
    sys.meta_path.insert(0, finder)
    return finder


def _imported(name: str) -> bool:
    """Has module `name`'s body run to its end already (imported before compat was)?"""
    module = sys.modules.get(name)
    return module is not None and not getattr(getattr(module, "__spec__", None), "_initializing", False)


def on_import(name: str, before: Callable[[], None] | None = None, after: Callable[[], None] | None = None) -> None:
    """Call `before()` when module `name` is about to be imported, `after()` once it has been (idempotently): at
    once where the program imported it before compat (`import tensorflow as tf; import compat`)."""
    watcher = _watcher()
    for table, callback in ((watcher.before, before), (watcher.after, after)):
        if callback is not None and callback not in table.setdefault(name, []):
            table[name].append(callback)
    if after is not None and _imported(name):
        after()
