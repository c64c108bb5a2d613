"""compat.scoped_layers: the Keras layer of a TF1 variable scope's path, made where the scope does not reuse and
called again where it does, its variables named as TF1's layer named them.

The expected names are TF's own: the same towers built with tf.compat.v1.layers (TF1's layers, whose variables the
variable scope names) in another graph. A name scope inside the tower's variable scope (cifar10's tower_0) names
TF1's variables not at all, and the Keras layers' not either.
"""

import gc
import weakref

import numpy as np
import pytest
import tensorflow as tf

import compat  # noqa: F401  (tf.keras is Keras 2)
from compat import scoped_layers
from compat.errors import ScopeReuseError


def _block(net, name, layer_of):
    with tf.compat.v1.variable_scope(name):
        net = layer_of("conv2d", 4, 3, padding="same", name="conv1")(net)
        return layer_of("batch_normalization", name="bn1")(net)


def _towers(layer_of):
    """Two towers of cifar10's shape (a variable scope reused by the second, a name scope per tower, blocks under
    their own variable scopes in a helper), in a new graph: its variables' names, and the trainable ones' count."""
    with tf.Graph().as_default() as graph:
        images = tf.constant(np.ones((2, 4, 4, 3), np.float32))
        for i in range(2):
            with tf.compat.v1.variable_scope("resnet", reuse=i > 0), tf.compat.v1.name_scope(f"tower_{i}"):
                net = layer_of("conv2d", 4, 3, name="conv0")(images)
                for stage in range(2):
                    net = _block(net, f"stage{stage}", layer_of)
        return sorted(v.op.name for v in graph.get_collection("variables")), graph


def _tf1(kind, *args, **kwargs):
    return lambda x: getattr(tf.compat.v1.layers, kind)(x, *args, **kwargs)


def _keras(kind, *args, **kwargs):
    made = scoped_layers.layer(
        {
            "conv2d": tf.keras.layers.Conv2D,
            "dense": tf.keras.layers.Dense,
            "batch_normalization": tf.keras.layers.BatchNormalization,
        }[kind],
        *args,
        **kwargs,
    )
    return lambda x: made(x, training=True) if kind == "batch_normalization" else made(x)


def test_the_layers_are_made_once_per_variable_scope_path_with_tf1s_variable_names():
    expected, _ = _towers(_tf1)
    names, graph = _towers(_keras)
    assert "resnet/stage1/conv1/kernel" in expected and not any("tower" in n for n in expected), expected
    assert names == expected
    with graph.as_default():
        made = scoped_layers.made()
    assert [m.name for m in made] == ["conv0", "conv1", "bn1", "conv1", "bn1"]
    assert scoped_layers.made() == []  # (another graph: the Estimator's next one makes its own)


def test_a_path_made_twice_without_reuse_or_reused_unmade_raises_as_tf1_did():
    for reuse, twice in ((False, True), (True, False)):
        for layer_of in (_tf1, _keras):
            with tf.Graph().as_default():
                x = tf.constant(np.ones((1, 3), np.float32))
                with pytest.raises(ValueError) as raised:
                    with tf.compat.v1.variable_scope("net", reuse=reuse):
                        for _ in range(2 if twice else 1):
                            layer_of("dense", 2, name="logits")(x)
            assert "already exists" in str(raised.value) if twice else "does not exist" in str(raised.value)
            if layer_of is _keras:
                assert raised.type is ScopeReuseError
    with tf.Graph().as_default():
        x = tf.constant(np.ones((1, 3), np.float32))
        with tf.compat.v1.variable_scope("net", reuse=tf.compat.v1.AUTO_REUSE):
            first = scoped_layers.layer(tf.keras.layers.Dense, 2, name="logits")
            assert scoped_layers.layer(tf.keras.layers.Dense, 2, name="logits") is first


def test_a_graphs_layers_go_with_it():
    """The Estimator builds a graph per train and evaluate call: their layers must not keep them alive (a mapping from
    graphs to their layers, even weak, would: the layers' variables hold their graph)."""
    graphs = []
    for _ in range(3):
        with tf.Graph().as_default() as graph:
            x = tf.constant(np.ones((1, 3), np.float32))
            with tf.compat.v1.variable_scope("net"):
                scoped_layers.layer(tf.keras.layers.Dense, 2, name="logits")(x)
        graphs.append(weakref.ref(graph))
        del graph, x
    gc.collect()
    assert [g for g in graphs if g() is not None] == []
