"""Keras layers shared by TF1's variable scopes: the runtime of uai-migrate's native ports of a model_fn's towers.

TF1's `tf.layers.conv2d(x, 8, 3, name="conv1")` under `variable_scope("resnet/stage0")` made the variables
`resnet/stage0/conv1/kernel`, or, under a scope that reuses (a later tower), took those: a layer's variables were
named and shared by the variable scope's path, whichever function made the call and under whichever name scope. A
Keras layer's variables are its own, named by the name scope it is built under. So

    compat.scoped_layers.layer(tf.keras.layers.Conv2D, 8, 3, name="conv1", dtype=x.dtype)(x)

is the Keras layer of this graph's variable scope path and name: made where the scope does not reuse, and built
under that path (its variables are named as TF1's were, `resnet/stage0/conv1/kernel`, a tower's name scope or not),
the same layer where it reuses. As TF1 did, making a path twice without reuse, or reusing a path never made, raises.
`made()` lists the layers made in this graph so far, in order: a first tower's batch normalization updates are those
of the layers made by then.
"""

from __future__ import annotations

from typing import Any, cast

import tensorflow as tf

from compat.errors import ScopeReuseError

# the attribute of a graph holding {variable scope path/layer name: the Keras layer} (the Estimator builds a graph per
# train/evaluate; on the graph, the layers go with it: a weak mapping from graphs would be held by the layers' variables)
_LAYERS = "_compat_scoped_layers"


def _layers(graph: Any) -> dict[str, Any]:
    if not hasattr(graph, _LAYERS):
        setattr(graph, _LAYERS, {})
    return cast(dict[str, Any], getattr(graph, _LAYERS))


def layer(layer_class: Any, *args: Any, name: str, **kwargs: Any) -> Any:
    """The `layer_class(*args, name=name, **kwargs)` of the current variable scope (see the module's doc)."""
    scope = tf.compat.v1.get_variable_scope()
    path = f"{scope.name}/{name}" if scope.name else name
    layers = _layers(tf.compat.v1.get_default_graph())
    check_reuse(path, path in layers, scope.reuse)
    if path in layers:
        return layers[path]
    made = layer_class(*args, name=name, **kwargs)
    # (a Keras 2 layer of a graph names its variables by the name scope of its first call, relative to the one it is
    # called under: an absolute one, ending in "/", names them by the variable scope's path instead, as TF1 did)
    made._name_scope = lambda: f"{path}/"
    layers[path] = made
    return made


def check_reuse(path: str, exists: bool, reuse: Any) -> None:
    """Raise as TF1's variable scope did for a layer at `path`: made again where the scope does not reuse (`reuse`
    False or None), or taken where it reuses (True) and none was made (AUTO_REUSE takes or makes)."""
    if exists and (reuse is False or reuse is None):
        raise ScopeReuseError(
            f"Variable {path} already exists, disallowed: a layer of that name was made in this variable scope, "
            "which does not reuse (as TF1's variable scope raised)"
        )
    if not exists and reuse is True:
        raise ScopeReuseError(
            f"Variable {path} does not exist, or was not created with a layer: the variable scope reuses, and no "
            "layer of that name was made in it (as TF1's variable scope raised)"
        )


def made() -> list[Any]:
    """The layers `layer` made in the current graph, in the order it made them."""
    return list(_layers(tf.compat.v1.get_default_graph()).values())
