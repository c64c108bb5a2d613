"""TF1's towers in eager TF 2: the runtime of uai-migrate's native-estimator-loop port of a model_fn whose towers
share Keras layers by variable scope and average their own gradients (cifar10_estimator's shape), or minimize their
mean loss (a Keras layer made in the first tower: `layer` too).

In TF1 the towers' `tf.layers` calls (native-layers' `compat.scoped_layers.layer`) under
`variable_scope("resnet", reuse=bool(i != 0))` made the variables `resnet/stage0_block0/conv1/kernel` in the first
tower and took them in the others; each tower's `tf.gradients(loss, tf.trainable_variables())` differentiated its
own loss, and the train op ran the first tower's batch normalization updates only. Eager TF 2 has no graph to key a
layer by, no collections and no tf.gradients. Here:

- `variable_scope(name, reuse=...)` and `layer(...)`: the Keras layer of the scope's path, made where the scope does
  not reuse (its variables named by the path, as TF1's), the same layer where it reuses; a path made twice without
  reuse, or reused unmade, raises as TF1 did. The layers live in this module, one model per process (the port's).
- `trainable_variables()`: what TF1's collection held, in the order the variables were made.
- `model_fn_call()`: one call of the model_fn (TF1 built each in a graph of its own), under the persistent tape each
  tower's `gradients(loss, variables)` reads, and `compute_gradients(loss)`, a minimize's of the towers' mean loss.
- `updates_so_far()` and `keep_updates(...)`: the moving statistics as the layers made by then left them, put back
  after the later towers (a Keras batch normalization in training mode updates them at each call).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import tensorflow as tf

from compat import scoped_layers

_LAYERS: dict[str, Any] = {}  # variable scope path/name -> the Keras layer
_SCOPES: list[tuple[str, bool]] = []  # (name, reuse) of the scopes entered
_TAPES: list[tf.GradientTape] = []
_CALL: set[str] = set()  # the paths the current model_fn call made or took


@contextlib.contextmanager
def variable_scope(name: str, reuse: bool | None = None) -> Iterator[None]:
    """TF1's variable scope for `layer`: a path; reuse (None: the enclosing scope's) holds for the scopes inside."""
    _SCOPES.append((name, bool(reuse) or bool(_SCOPES and _SCOPES[-1][1])))
    try:
        yield
    finally:
        _SCOPES.pop()


def layer(layer_class: Any, *args: Any, name: str, **kwargs: Any) -> Any:
    """The `layer_class(*args, name=name, **kwargs)` of the current variable scope (see the module's doc)."""
    path = "/".join([*(scope for scope, _ in _SCOPES), name])
    scoped_layers.check_reuse(path, path in _CALL, bool(_SCOPES and _SCOPES[-1][1]))
    _CALL.add(path)
    if path not in _LAYERS:  # (made by the first call; a later call's graph made it again in TF1: the same here)
        _LAYERS[path] = layer_class(*args, name=name, **kwargs)
    return _Scoped(_LAYERS[path], path)


class _Scoped:
    """A layer of `layer`, called under its absolute path (eager TF 2 names its variables by the name scope it builds
    under: a tower's `tf.name_scope("tower_0")` is not in TF1's names)."""

    def __init__(self, made: Any, path: str) -> None:
        self.layer, self.path = made, path
        # (in a graph, a tf.function's, Keras 2 names them by its name scope: the path too)
        made._name_scope = lambda: f"{path}/"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        parent = self.path.rpartition("/")[0]
        with tf.name_scope(f"{parent}/" if parent else ""):
            return self.layer(*args, **kwargs)


def made() -> list[Any]:
    """The layers `layer` made, in the order it made them."""
    return list(_LAYERS.values())


def _so_far() -> list[Any]:
    """The layers of the current model_fn call so far (in a call: TF1's graph held those), else all."""
    return [made_layer for path, made_layer in _LAYERS.items() if not _TAPES or path in _CALL]


def trainable_variables() -> list[tf.Variable]:
    """TF1's collection: the variables made so far in the current model_fn call (outside one, all), in order."""
    return [v for made_layer in _so_far() for v in made_layer.trainable_variables]


@contextlib.contextmanager
def model_fn_call() -> Iterator[tf.GradientTape]:
    """One call of the model_fn: TF1 built each in a graph of its own (its variable scopes start afresh: the layers an
    earlier call made are taken again) and differentiated it (the tape its towers' `gradients` read)."""
    _CALL.clear()
    with tf.GradientTape(persistent=True) as recording:
        _TAPES.append(recording)
        try:
            yield recording
        finally:
            _TAPES.pop()
            _CALL.clear()


def gradients(loss: tf.Tensor, variables: list[tf.Variable]) -> list[tf.Tensor]:
    """TF1's tf.gradients(loss, variables) of a tower, from the tape of the model_fn call."""
    with _TAPES[-1].stop_recording():
        return list(_TAPES[-1].gradient(loss, variables))


def compute_gradients(loss: tf.Tensor) -> list[tuple[tf.Tensor, tf.Variable]]:
    """TF1's optimizer.minimize(loss)'s (gradient, variable) pairs: of `loss` over the trainable variables' collection,
    from the tape of the model_fn call. Towers sharing their variables: one gradient of their mean loss, each tower's
    part summed into it, as TF1's."""
    variables = trainable_variables()
    return list(zip(gradients(loss, variables), variables))


def updates_so_far() -> list[tuple[tf.Variable, tf.Tensor]]:
    """The moving statistics of the layers made so far, as their updates left them (TF1's UPDATE_OPS read here)."""
    return [(v, tf.identity(v)) for made_layer in _so_far() for v in made_layer.non_trainable_variables]


def keep_updates(updates: list[tuple[tf.Variable, tf.Tensor]]) -> None:
    """Put back what `updates_so_far` read: the updates TF1's train op ran, not a later tower's."""
    for variable, value in updates:
        variable.assign(value)
