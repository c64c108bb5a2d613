"""Lazy `estimator` attributes on the TensorFlow API modules, as TF <= 2.15 had them.

Importing tensorflow_estimator costs about a second; like TensorFlow's own loader in 2.15,
the attribute imports it only when a script first reads from it.
"""

import importlib
import sys
import types
from collections.abc import Callable, Iterable
from typing import Any

_V1 = "tensorflow_estimator.python.estimator.api._v1.estimator"
_V2 = "tensorflow_estimator.python.estimator.api._v2.estimator"
# (path from `tensorflow`, sys.modules names) of each API module -> the estimator API it gets.
# All are needed: TF 2.21 keeps distinct module objects for `compat.v1` under each name once
# `tensorflow.compat.v1` was imported by that name, and `tf.compat` is rebound to the latest.
_TARGETS = {
    ("", ("tensorflow",)): _V2,
    ("compat.v2", ("tensorflow._api.v2.compat.v2", "tensorflow.compat.v2")): _V2,
    ("compat.v1", ("tensorflow._api.v2.compat.v1", "tensorflow.compat.v1")): _V1,
}


class LazyEstimatorAPI(types.ModuleType):
    """Stands for an estimator API module; the first attribute read imports the real one."""

    def __init__(self, target: str, prepare: Callable[[], None]) -> None:
        super().__init__(target)
        self._target = target
        self._prepare = prepare

    def _load(self) -> types.ModuleType:
        self._prepare()
        return importlib.import_module(self._target)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") and name in ("_target", "_prepare"):
            raise AttributeError(name)
        return getattr(self._load(), name)

    def __dir__(self) -> list[str]:
        return dir(self._load())

    def __repr__(self) -> str:
        return f"<lazy estimator API {self._target!r}>"


def _api_modules(path: str, module_names: tuple[str, ...]) -> Iterable[Any]:
    """The distinct module objects one target's attribute goes on (TensorFlow's API modules: no types)."""
    module: Any = sys.modules["tensorflow"]
    for part in filter(None, path.split(".")):
        module = getattr(module, part, None)
    candidates = [module, *(sys.modules.get(name) for name in module_names)]
    return {id(m): m for m in candidates if m is not None}.values()


def install(prepare: Callable[[], None]) -> None:
    """Attach one lazy API per target to each of its modules that has none yet; safe to repeat."""
    for (path, module_names), target in _TARGETS.items():
        lazy = LazyEstimatorAPI(target, prepare)
        for module in _api_modules(path, module_names):
            if "estimator" not in vars(module):
                module.estimator = lazy
