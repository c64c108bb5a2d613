"""compat.tf1_slots: a TF1 checkpoint's optimizer slots into the Keras optimizer continuing its training.

A tf.compat.v1 graph (as the safe port runs) trains two steps and saves with a v1 Saver, then trains two more: the
eager variable and Keras optimizer native-session writes, restored from that checkpoint and given its slots, train
those two steps to the same losses. Without the slots the first update after the restore is another.
"""

import re

import numpy as np
import pytest
import tensorflow as tf

import compat  # noqa: F401  (tf.keras is Keras 2)
from compat.errors import CheckpointError
from compat.tf1_slots import restore_slots, restore_slots_when_built

# (TF1 optimizer, Keras optimizer) of native-session's table, at a constant learning rate
OPTIMIZERS = {
    "Adam": (
        lambda: tf.compat.v1.train.AdamOptimizer(0.1),
        lambda: tf.keras.optimizers.Adam(learning_rate=0.1, epsilon=1e-08),
    ),
    "Momentum": (
        lambda: tf.compat.v1.train.MomentumOptimizer(0.05, 0.9),
        lambda: tf.keras.optimizers.SGD(learning_rate=0.05, momentum=0.9),
    ),
    "Adagrad": (
        lambda: tf.compat.v1.train.AdagradOptimizer(0.1),
        lambda: tf.keras.optimizers.Adagrad(learning_rate=0.1, epsilon=0.0),
    ),
}
BATCHES = np.random.RandomState(0).rand(4, 4, 3).astype(np.float32)


def loss_of(x, w):
    return tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))


def tf1_run(kind, path, dtype=tf.float32):
    """Two steps, a v1 Saver's checkpoint at `path`, two more: (the checkpoint's prefix, the last two losses)."""
    with tf.Graph().as_default():
        x = tf.compat.v1.placeholder(dtype, [None, 3])
        w = tf.compat.v1.get_variable("w", initializer=tf.ones([3, 1], dtype))
        loss = loss_of(x, w)
        train_op = OPTIMIZERS[kind][0]().minimize(loss)
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            losses = []
            for step, batch in enumerate(BATCHES):
                if step == 2:
                    prefix = tf.compat.v1.train.Saver().save(sess, path)
                losses.append(float(sess.run([train_op, loss], {x: batch.astype(dtype.as_numpy_dtype)})[1]))
    return prefix, losses[2:]


def eager_run(kind, path, slots, dtype=tf.float32):
    """The last two steps from the checkpoint, as native-session's port trains (a tf.function step), TF1's slots
    loaded `slots` ("now": over the variables; "when built": as the first step builds the optimizer) or not (None)."""
    w = tf.Variable(tf.zeros([3, 1], dtype), name="w")
    optimizer = OPTIMIZERS[kind][1]()
    tf.train.Checkpoint(w=w, optimizer=optimizer).restore(path)
    if slots == "now":
        restore_slots(optimizer, [w], path)
    elif slots == "when built":
        restore_slots_when_built(optimizer, path)

    @tf.function
    def train_step(x):
        with tf.GradientTape() as tape:
            loss = loss_of(x, w)
        optimizer.apply_gradients([(tape.gradient(loss, w), w)])
        return loss

    return [float(train_step(batch.astype(dtype.as_numpy_dtype))) for batch in BATCHES[2:]]


@pytest.mark.parametrize("kind", sorted(OPTIMIZERS))
def test_a_keras_optimizer_continues_a_tf1_checkpoint_as_tf1_did(kind, tmp_path):
    path, want = tf1_run(kind, str(tmp_path / "model.ckpt"))
    for slots in ("now", "when built"):
        assert eager_run(kind, path, slots) == pytest.approx(want, abs=1e-6), slots
    # (the step after the restore reads the slots: without them its update, so the next loss, is another)
    unmapped = eager_run(kind, path, None)
    assert unmapped[0] == pytest.approx(want[0], abs=1e-6) and unmapped[1] != pytest.approx(want[1], abs=1e-4)


@pytest.mark.parametrize("kind", sorted(OPTIMIZERS))
def test_a_float64_variable_continues_as_tf1_did(kind, tmp_path):
    """TF1 kept a float64 variable's slots in float64 (a float64 input made float64 layers); the Keras optimizer's
    float32 learning rate must not make Momentum's mapped slot float32 (the port of such an Estimator program failed
    at its restore, assigning a float32 value to the float64 slot)."""
    path, want = tf1_run(kind, str(tmp_path / "model.ckpt"), tf.float64)
    for slots in ("now", "when built"):
        assert eager_run(kind, path, slots, tf.float64) == pytest.approx(want, abs=1e-6), slots


def test_an_object_based_checkpoint_or_none_is_left_to_the_restore(tmp_path):
    w = tf.Variable(tf.ones([3, 1]), name="w")
    optimizer = tf.keras.optimizers.Adam(0.1)
    path = tf.train.Checkpoint(w=w, optimizer=optimizer).write(str(tmp_path / "object"))
    before = [v.name for v in optimizer.variables]
    for given in (path, None):
        restore_slots(optimizer, [w], given)
        assert [v.name for v in optimizer.variables] == before  # (not built over w: no slot made, none loaded)


def test_a_later_restore_replaces_a_pending_load(tmp_path):
    """Two restores before the first step: the later one's slots are the ones loaded (TF1's later restore overwrote
    the earlier one), an object-based later restore leaving none of the TF1 checkpoint's."""
    path, want = tf1_run("Adam", str(tmp_path / "tf1" / "model.ckpt"))
    w = tf.Variable(tf.zeros([3, 1]), name="w")
    optimizer = tf.keras.optimizers.Adam(learning_rate=0.1, epsilon=1e-08)
    restore_slots_when_built(optimizer, path)
    restore_slots_when_built(optimizer, path)
    optimizer.build([w])
    assert int(optimizer.iterations) == 2 and "build" not in vars(optimizer)
    fresh = tf.keras.optimizers.Adam(learning_rate=0.1, epsilon=1e-08)
    restore_slots_when_built(fresh, path)
    restore_slots_when_built(fresh, tf.train.Checkpoint(w=w).write(str(tmp_path / "object" / "ckpt")))
    fresh.build([w])
    assert int(fresh.iterations) == 0 and "build" not in vars(fresh)


def test_a_tf1_checkpoint_lacking_a_variable_stops_before_the_first_update(tmp_path):
    """TF1's Saver.restore raised NotFoundError for a variable its checkpoint lacked; a name-based restore leaves it at
    its initial value, so the check runs as the first step builds the optimizer (the layers' variables made by then)."""
    path, _ = tf1_run("Adam", str(tmp_path / "model.ckpt"))
    w = tf.Variable(tf.zeros([3, 1]), name="w")
    b = tf.Variable(tf.ones([1]), name="b")
    optimizer = tf.keras.optimizers.Adam(learning_rate=0.1)
    tf.train.Checkpoint(w=w, b=b, optimizer=optimizer).restore(path)
    restore_slots_when_built(optimizer, path)

    @tf.function
    def train_step(x):
        with tf.GradientTape() as tape:
            loss = loss_of(x, w) + tf.reduce_sum(b)
        optimizer.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))

    with pytest.raises(CheckpointError, match=f"^{re.escape(path)}: holds no b, "):
        train_step(BATCHES[0])
    assert float(b[0]) == 1.0 and int(optimizer.iterations) == 0  # (no update made)


def test_the_ports_own_object_based_checkpoint_restarts_without_the_check(tmp_path):
    w = tf.Variable(tf.ones([3, 1]), name="w")
    b = tf.Variable(tf.ones([1]), name="bias_the_tf1_names_never_had")
    optimizer = tf.keras.optimizers.Adam(learning_rate=0.1)
    optimizer.apply_gradients(zip([tf.ones([3, 1]), tf.ones([1])], [w, b]))
    path = tf.train.Checkpoint(w=w, b=b, optimizer=optimizer).write(str(tmp_path / "model.ckpt-1"))
    again = [tf.Variable(tf.zeros([3, 1]), name="w"), tf.Variable(tf.zeros([1]), name="bias_the_tf1_names_never_had")]
    fresh = tf.keras.optimizers.Adam(learning_rate=0.1)
    tf.train.Checkpoint(w=again[0], b=again[1], optimizer=fresh).restore(path)
    restore_slots_when_built(fresh, path)
    fresh.apply_gradients(zip([tf.ones([3, 1]), tf.ones([1])], again))
    assert int(fresh.iterations) == 2  # (the restored count, and one more update)
