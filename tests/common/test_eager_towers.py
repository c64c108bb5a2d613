"""compat.eager_towers: TF1's variable-scope sharing of layers in eager TF 2 (the variables named by the scopes' path, a
tower's name scope not in them; reuse as TF1 checked it; a later model_fn call taking the layers again), and the first
tower's batch normalization updates kept alone."""

import numpy as np
import pytest
import tensorflow as tf

import compat  # noqa: F401  (tf.keras is Keras 2)
from compat import eager_towers
from compat.errors import ScopeReuseError


@pytest.fixture(autouse=True)
def _fresh():
    eager_towers._LAYERS.clear()  # noqa: SLF001 - one model per process: each test its own
    yield
    eager_towers._LAYERS.clear()  # noqa: SLF001


def _tower(x, i):
    with eager_towers.variable_scope("net", reuse=bool(i != 0)), tf.name_scope(f"tower_{i}"):
        with eager_towers.variable_scope("block"):
            x = eager_towers.layer(tf.keras.layers.BatchNormalization, name="bn")(x, training=True)
        return eager_towers.layer(tf.keras.layers.Dense, 2, name="logits")(x)


def test_towers_share_the_layers_of_their_scopes_path_named_as_tf1():
    x = tf.constant(np.arange(8, dtype=np.float32).reshape(2, 4))
    with eager_towers.model_fn_call():
        _tower(x, 0)
        _tower(x, 1)
    names = [v.name for layer in eager_towers.made() for v in layer.variables]
    assert names == [
        "net/block/bn/gamma:0",
        "net/block/bn/beta:0",
        "net/block/bn/moving_mean:0",
        "net/block/bn/moving_variance:0",
        "net/logits/kernel:0",
        "net/logits/bias:0",
    ]
    with eager_towers.model_fn_call():  # (a later call: TF1's new graph made them again; the same layers here)
        _tower(x, 0)
    assert len(eager_towers.made()) == 2


def test_reuse_is_checked_as_tf1_did():
    x = tf.ones([2, 4])
    with eager_towers.model_fn_call(), pytest.raises(ScopeReuseError, match="does not exist"):
        _tower(x, 1)
    with eager_towers.model_fn_call():
        _tower(x, 0)
        with pytest.raises(ScopeReuseError, match="already exists"):
            _tower(x, 0)


def test_only_the_first_towers_updates_are_kept():
    first, second = tf.ones([2, 4]), tf.fill([2, 4], 5.0) + tf.range(4, dtype=tf.float32)
    with eager_towers.model_fn_call():
        _tower(first, 0)
        updates = eager_towers.updates_so_far()
        after_first = [v.numpy() for v, _ in updates]
        _tower(second, 1)
        assert any(abs(v.numpy() - a).max() > 0 for (v, _), a in zip(updates, after_first))
        eager_towers.keep_updates(updates)
    assert all(abs(v.numpy() - a).max() == 0 for (v, _), a in zip(updates, after_first))


def test_a_later_call_reads_the_variables_it_has_made_so_far_as_tf1s_new_graph_did():
    """TF1 built each model_fn call in a graph of its own: tf.trainable_variables() before the first layer of a later
    call was empty, and the UPDATE_OPS read held that call's layers only."""
    x = tf.ones([2, 4])
    with eager_towers.model_fn_call():
        _tower(x, 0)
    with eager_towers.model_fn_call():
        assert eager_towers.trainable_variables() == [] and eager_towers.updates_so_far() == []
        with eager_towers.variable_scope("net"), eager_towers.variable_scope("block"):
            eager_towers.layer(tf.keras.layers.BatchNormalization, name="bn")(x, training=True)
        assert [v.name for v in eager_towers.trainable_variables()] == ["net/block/bn/gamma:0", "net/block/bn/beta:0"]
        assert len(eager_towers.updates_so_far()) == 2
    assert len(eager_towers.trainable_variables()) == 4  # (outside a call: every layer's, for the restore)


def test_a_minimize_of_the_towers_mean_loss_is_the_mean_of_their_gradients():
    """TF1's minimize(mean) differentiated the towers' shared variables once: each tower's part summed into it."""
    halves = [tf.ones([2, 4]), tf.fill([2, 4], 3.0)]
    with eager_towers.model_fn_call():
        losses = [tf.reduce_sum(_tower(x, i) ** 2) for i, x in enumerate(halves)]
        towers = [eager_towers.gradients(loss, eager_towers.trainable_variables()) for loss in losses]
        pairs = eager_towers.compute_gradients(tf.add_n(losses) / 2)
    assert [v.name for _, v in pairs] == [v.name for v in eager_towers.trainable_variables()]
    for (gradient, _), parts in zip(pairs, zip(*towers)):
        assert abs(gradient.numpy() - (parts[0] + parts[1]).numpy() / 2).max() <= 1e-5
