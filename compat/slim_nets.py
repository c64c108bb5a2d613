"""A Keras layer running a tf-slim net function in TF 2 code: the slim zoo's nets (resnet_v1_50, vgg_16,
inception_v3 ... of `tf_slim.nets`, TF1's `tf.contrib.slim.nets`) or a program's own function of tf-slim layers.

A zoo net is a library function building a graph under variable scopes: each call made (or, reusing, took) the
variables `resnet_v1_50/conv1/weights`, `resnet_v1_50/block1/unit_1/bottleneck_v1/conv1/BatchNorm/beta` ... So

    net = compat.slim_nets.SlimNet(resnet_v1.resnet_v1_50, resnet_v1.resnet_arg_scope(), num_classes=10,
                                   is_training=True)
    logits, end_points = net(images)

is a layer made once with the function, its arg_scope (the dict a zoo's `*_arg_scope()` returns, entered around each
call as `with slim.arg_scope(...)` was) and the function's keyword arguments; called with the inputs, it returns what
the function returned. Its variables are made at the first call (or by `create_variables`) under TF1's names, TF's
own migration shim (`track_tf1_style_variables` of Keras 2's legacy_tf_layers) keeping them: later calls use them,
`.variables` / `.trainable_variables` list them, a TF1 checkpoint's values load into them by name (through
`tf.train.Checkpoint(net=layer).restore(tf1_path)`), and a TF 2 checkpoint tracking the layer holds them all, moving
statistics included (restored as they are made where the restore comes first). A batch
normalization in training mode (is_training=True) updates its moving statistics in the call, as TF1's
create_train_op ran UPDATE_OPS with each step; the regularizers' losses are the layer's `.losses`.

Each layer keeps its own variables: two layers of one net function both name theirs as its first call (TF1 named the
second graph's call `resnet_v1_50_1/...`).
"""

from __future__ import annotations

import re
import types
from collections.abc import Callable, Mapping
from typing import Any

import compat  # noqa: F401 - legacy Keras 2 (tf-keras on TF >= 2.16): the shim and tf-slim's layers are its
from compat import _slim_fix
from compat.errors import SlimNetError

_slim_fix.install()  # (tf-slim's batch_norm reads Keras 2's legacy_tf_layers under TensorFlow's old module name)

import tensorflow as tf  # noqa: E402
import tf_slim as slim  # noqa: E402

# Keras 2's shim for TF1-style variables: with compat's legacy Keras, the one of tf-keras on TF 2.21 (keras 2.15's on
# TF 2.15), the Keras whose Layer SlimNet is
_track = tf.compat.v1.keras.utils.track_tf1_style_variables


def _layer_name(net_fn: Callable[..., Any]) -> str | None:
    """The function's name, where it is one a name scope takes (Keras's own default otherwise: a lambda's is not)."""
    name = getattr(net_fn, "__name__", "").lstrip("_")
    return name if re.fullmatch(r"[A-Za-z0-9.][A-Za-z0-9_.\-]*", name) else None


class SlimNet(tf.keras.layers.Layer):
    """`net_fn(inputs, **net_kwargs)` under `slim.arg_scope(arg_scope)`, its variables made once under TF1's names
    (see the module's doc). `arg_scope`: the dict a zoo's `*_arg_scope()` returns, or None for none."""

    def __init__(
        self,
        net_fn: Callable[..., Any],
        arg_scope: Mapping[str, Any] | None = None,
        *,
        name: str | None = None,
        **net_kwargs: Any,
    ) -> None:
        if not callable(net_fn):
            raise SlimNetError(f"SlimNet takes a tf-slim net function (resnet_v1.resnet_v1_50 ...), not {net_fn!r}")
        if arg_scope is not None and not isinstance(arg_scope, dict):
            hint = " (call it: resnet_v1.resnet_arg_scope())" if callable(arg_scope) else ""
            raise SlimNetError(
                f"SlimNet's arg_scope is the dict a zoo's *_arg_scope() returns{hint}, not {type(arg_scope).__name__}"
            )
        super().__init__(name=name or _layer_name(net_fn))
        self.net_fn = net_fn
        # (read-only mappings, not dicts: Keras would wrap a dict attribute in a tracked structure of its own)
        self.scope = types.MappingProxyType(dict(arg_scope or {}))
        self.net_kwargs = types.MappingProxyType(dict(net_kwargs))

    @_track
    def call(self, inputs: Any) -> Any:
        with slim.arg_scope(dict(self.scope)):
            return self.net_fn(inputs, **self.net_kwargs)

    def create_variables(self, input_spec: tf.TensorSpec) -> None:
        """Make the variables (TF1's graph held them before its first step) without running the net: its call traced
        for `input_spec` (a batch normalization in training mode updates nothing). Does nothing once they are made."""
        if not isinstance(input_spec, tf.TensorSpec):
            raise SlimNetError(f"create_variables takes a tf.TensorSpec of the inputs, not {type(input_spec).__name__}")
        if not self.variables:
            tf.function(self.__call__).get_concrete_function(input_spec)
