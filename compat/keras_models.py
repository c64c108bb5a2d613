"""Keras 2 model methods TF 1.x programs called and TF 2.6 removed, as functions of the model.

    classes = compat.keras_models.predict_classes(model, x)      # what uai-migrate writes for model.predict_classes(x)
    scores = compat.keras_models.predict_proba(model, x)         # ... and for model.predict_proba(x)

TF 1.x's Sequential had `predict_classes` and `predict_proba` (which was `predict`); tf.keras dropped both in TF 2.6,
so a TF 1.x program calling them stops with an AttributeError. uai-migrate's `keras-predict` rule writes these
functions for them: before run time nothing knows the receiver of a method call, and a module importing TensorFlow
may also call scikit-learn's `predict_proba`, so a model that has the method still gets its own. uai-run's TF1 face
gives Keras 2's Sequential both methods back (`serve_removed_methods`), computed by the same functions.
"""

import functools
import sys
from typing import Any

from compat import _import_hook

__all__ = ["predict_classes", "predict_proba", "serve_removed_methods"]

# where Keras 2 defines Sequential: tf-keras (TF >= 2.16), Keras 2.15 (TF 2.15)
_SEQUENTIAL_MODULES = ("tf_keras.src.engine.sequential", "keras.src.engine.sequential")


def predict_classes(model: Any, /, *args: Any, **kwargs: Any) -> Any:
    """TF 1.x's `Sequential.predict_classes(x, batch_size=32, verbose=0)`: for each sample the index of the largest of
    the model's outputs, or, for a model of one output unit (a sigmoid's), 1 where it is above 0.5, else 0 (int32). A
    model with a `predict_classes` of its own gets it called with the arguments given, whatever their names
    (positional-only `model`: scikit-learn's `X=`, a keyword `model=`, are the method's)."""
    own = getattr(model, "predict_classes", None)
    if own is not None:
        return own(*args, **kwargs)
    return _keras_predict_classes(model, *args, **kwargs)


def _keras_predict_classes(model: Any, x: Any, batch_size: int = 32, verbose: int = 0) -> Any:
    scores = model.predict(x, batch_size=batch_size, verbose=verbose)
    if scores.shape[-1] > 1:
        return scores.argmax(axis=-1)
    return (scores > 0.5).astype("int32")


def predict_proba(model: Any, /, *args: Any, **kwargs: Any) -> Any:
    """TF 1.x's `Sequential.predict_proba(x, batch_size=32, verbose=0)`: `predict` with those defaults; a model with a
    `predict_proba` of its own (a scikit-learn estimator) gets it called with the arguments given (`X=` too)."""
    own = getattr(model, "predict_proba", None)
    if own is not None:
        return own(*args, **kwargs)
    return _keras_predict_proba(model, *args, **kwargs)


def _keras_predict_proba(model: Any, x: Any, batch_size: int = 32, verbose: int = 0) -> Any:
    return model.predict(x, batch_size=batch_size, verbose=verbose)


def _add_methods(module_name: str) -> None:
    sequential = sys.modules[module_name].Sequential
    for name, function in (("predict_classes", _keras_predict_classes), ("predict_proba", _keras_predict_proba)):
        if not hasattr(sequential, name):
            setattr(sequential, name, function)


# one callback per module, the same object at every call (on_import registers a callback once)
_ADDERS = {module_name: functools.partial(_add_methods, module_name) for module_name in _SEQUENTIAL_MODULES}


def serve_removed_methods() -> None:
    """Give Keras 2's Sequential `predict_classes` and `predict_proba` again, now or when Keras loads."""
    for module_name, add in _ADDERS.items():
        if module_name in sys.modules:
            add()
        else:
            _import_hook.on_import(module_name, after=add)
