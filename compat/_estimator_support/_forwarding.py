"""The Estimator's forwarding modules TF <= 2.15 shipped inside TensorFlow, on TF >= 2.16.

TF 2.15 keeps stubs that re-export tensorflow-estimator's modules under TensorFlow's own package:
`tensorflow/python/estimator/**` (`from tensorflow_estimator.python.estimator.canned.dnn import *`)
and five TPU modules (`tensorflow/python/tpu/tpu_config.py`: `from
tensorflow_estimator.python.estimator.tpu.tpu_config import *`). TF 2.16 removed them with the
Estimator, and TF1-era libraries import them (mesh-tensorflow 0.1.21, which every tensor2tensor model
imports: `from tensorflow.python.tpu import tpu_config`). Importing one of those names now gives
tensorflow-estimator's module itself, so its classes are the ones `tf.estimator` serves, and a
module below a forwarded package (`tensorflow.python.estimator.canned.dnn`) is that package's module,
never tensorflow-estimator's file loaded a second time under TensorFlow's name.
"""

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
from collections.abc import Sequence

from compat import tf1_names

_ESTIMATOR = "tensorflow_estimator.python.estimator"
# TensorFlow's module (or package, with everything below it) -> tensorflow-estimator's
FORWARDED = {
    "tensorflow.python.estimator": _ESTIMATOR,
    **{
        f"tensorflow.python.tpu.{name}": f"{_ESTIMATOR}.tpu.{name}"
        for name in ("tpu_config", "tpu_estimator", "tpu_context", "util", "error_handling")
    },
}


def home_of(name: str) -> str | None:
    """tensorflow-estimator's module for TensorFlow's module `name`, if TF 2.15 forwarded it."""
    return tf1_names.move_package(name, FORWARDED)


class _Alias(importlib.abc.Loader):
    """Loads the module by putting tensorflow-estimator's in its place (the import returns what
    `sys.modules` holds once the loader ran)."""

    def __init__(self, home: str) -> None:
        self._home = home

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        sys.modules[module.__name__] = importlib.import_module(self._home)


class Finder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: types.ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        home = home_of(fullname)
        if home is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(home))


def install() -> None:
    """Serve the forwarded names from now on (only where TensorFlow lacks them: TF >= 2.16)."""
    if not any(isinstance(finder, Finder) for finder in sys.meta_path):
        # first: below a forwarded package the parent's path is tensorflow-estimator's, where the
        # path finder would load its files again under TensorFlow's names
        sys.meta_path.insert(0, Finder())
