"""Stand-ins for TPU modules TF 2.16+ removed; only TPUEstimator's TPU paths used them.

tensorflow-estimator imports `tpu_embedding`, `tpu_embedding_gradient` and `session_support`
at module level, so they must exist for `tf.estimator` to import at all. Every name in them
is a placeholder class: `isinstance` checks against it are simply False, and creating or
calling one raises `EstimatorSupportError`; so does calling any attribute read on it (such as
`tpu_embedding.EnqueueData.from_sparse_tensor`), which is itself a placeholder. TPUEstimator with use_tpu=False never reaches them
(measured on TF 2.21: train, evaluate, predict and export_saved_model of a BERT-style model).
"""

import sys
import types
from typing import Any

from compat.errors import EstimatorSupportError

MODULES = ("tpu_embedding", "tpu_embedding_gradient", "session_support")
PACKAGE = "tensorflow.python.tpu"


def _placeholder(owner: Any, name: str, qualname: str) -> type:
    """A placeholder class for `owner.name`, kept on `owner`: it raises only when called."""
    if name.startswith("__"):
        raise AttributeError(name)
    placeholder = type(name, (_Unavailable,), {"_qualname": f"{qualname}.{name}"})
    setattr(owner, name, placeholder)
    return placeholder


class _UnavailableType(type):
    """Attributes of a placeholder class are placeholders too (the TPU paths call class methods)."""

    _qualname: str

    def __getattr__(cls, name: str) -> type:
        return _placeholder(cls, name, cls._qualname)


class _Unavailable(metaclass=_UnavailableType):
    _qualname = "?"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise EstimatorSupportError(
            f"{self._qualname} was removed in TensorFlow 2.16: TPUEstimator with use_tpu=False runs on this "
            "TensorFlow, TPU embeddings and TPU sessions do not (on TPUs use a tf.distribute.TPUStrategy)"
        )


class _StandinModule(types.ModuleType):
    def __getattr__(self, name: str) -> type:
        return _placeholder(self, name, self.__name__)


def install() -> None:
    """Register the stand-ins for the modules this TensorFlow lacks; keep real ones."""
    import importlib.util

    package = sys.modules.get(PACKAGE) or __import__(PACKAGE, fromlist=["_"])
    for short in MODULES:
        full = f"{PACKAGE}.{short}"
        if full in sys.modules or importlib.util.find_spec(full) is not None:
            continue
        module = _StandinModule(full, f"compat stand-in for {full} (removed in TF 2.16)")
        sys.modules[full] = module
        setattr(package, short, module)
