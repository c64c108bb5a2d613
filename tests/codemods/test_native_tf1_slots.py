"""native-session restoring a TF1 checkpoint: the weights load by name, TF1's optimizer slots do not (Keras names its
own otherwise), so the converted restore is followed by compat.tf1_slots.restore_slots_when_built, which loads them
into the Keras optimizer's as it makes them. Measured before it: a port restoring the safe port's checkpoint of two
Adam steps trained its second step after the restore to 1.685111 where the safe port trained 1.844166."""

import os
import subprocess
import sys

import numpy as np
import tensorflow as tf

from bench import native
from codemods.rules.native_session import NativeSessionRule
from tests.support.native_ports import migrated
from tests.support.processes import python_env, run_file
from tests.support.rule_test import RuleTest

# trains two Adam steps and saves ("first"), or restores that checkpoint and trains the next two ("restore")
RESTORE = """
    import sys

    import numpy as np
    import tensorflow as tf


    def main(_):
        x = tf.placeholder(tf.float32, [None, 3])
        y = tf.placeholder(tf.int64, [None])
        logits = tf.layers.dense(x, 4)
        loss = tf.losses.sparse_softmax_cross_entropy(y, logits)
        train_op = tf.train.AdamOptimizer(0.1).minimize(loss)
        saver = tf.train.Saver()
        rng = np.random.RandomState(0)
        batches = [(rng.rand(4, 3), rng.randint(0, 4, 4)) for _ in range(4)]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            if sys.argv[2] == "restore":
                saver.restore(sess, sys.argv[1])
            for a, b in batches[2:] if sys.argv[2] == "restore" else batches[:2]:
                _, value = sess.run([train_op, loss], {x: a, y: b})
                print("loss %.6f" % value)
            if sys.argv[2] == "first":
                saver.save(sess, sys.argv[1])


    if __name__ == "__main__":
        tf.app.run()
"""


def test_a_native_port_restoring_a_tf1_checkpoint_trains_on_with_its_optimizers_slots(tmp_path):
    found = migrated(tmp_path, "restore.py", RESTORE)
    ports = {level: path for level, (path, _) in found.items()}
    assert [os.path.basename(p) for p in native.converted(found["native"][1])] == ["restore.py"]
    checkpoint = str(tmp_path / "ckpt" / "model.ckpt")

    def losses(level, mode):
        out = run_file(ports[level], checkpoint, mode).stdout
        return [float(line.split()[1]) for line in out.splitlines() if line.startswith("loss ")]

    assert len(losses("safe", "first")) == 2  # (TF1's checkpoint: Adam's slots and beta powers after two steps)
    safe, ported = losses("safe", "restore"), losses("native", "restore")
    assert len(safe) == len(ported) == 2
    assert all(abs(a - b) <= native.TOLERANCE for a, b in zip(safe, ported)), (safe, ported)


def test_a_native_port_restoring_a_tf1_checkpoint_that_lacks_a_variable_fails_as_tf1_did(tmp_path):
    """TF1's Saver.restore raised NotFoundError for a variable the checkpoint lacks; the port's name-based restore left
    it at its initial value, and the port trained from there."""
    found = migrated(tmp_path, "restore.py", RESTORE)
    assert [os.path.basename(p) for p in native.converted(found["native"][1])] == ["restore.py"]
    prefix = str(tmp_path / "partial" / "model.ckpt")
    kernel = np.random.RandomState(1).rand(3, 4).astype(np.float32)
    with tf.Graph().as_default(), tf.compat.v1.Session() as sess:  # (whether or not an earlier test left eager on)
        sess.run(
            tf.raw_ops.SaveV2(prefix=prefix, tensor_names=["dense/kernel"], shape_and_slices=[""], tensors=[kernel])
        )
    done = {
        level: subprocess.run(
            [sys.executable, path, prefix, "restore"], env=python_env(), capture_output=True, text=True, timeout=300
        )
        for level, (path, _) in found.items()
    }
    assert done["safe"].returncode != 0 and "NotFoundError" in done["safe"].stderr, done["safe"].stderr[-2000:]
    assert done["native"].returncode == 2 and "loss " not in done["native"].stdout, done["native"].stdout
    line = done["native"].stderr.splitlines()[-1]  # (one line: compat's error, raised in the first step's trace)
    assert line.startswith(f"restore.py: error: {prefix}: holds no dense/bias, "), done["native"].stderr[-2000:]


class TestRestoreSlots(RuleTest):
    TRANSFORM = NativeSessionRule
    # a training script restoring a checkpoint (the tests write its restore line otherwise)
    TRAINING = """
        import tensorflow as tf
        x = tf.placeholder(tf.float32, [None, 2])
        w = tf.Variable(tf.ones([2, 1]))
        loss = tf.reduce_sum(tf.matmul(x, w))
        train_op = tf.train.AdamOptimizer(0.1).minimize(loss)
        saver = tf.train.Saver()
        with tf.Session() as sess:
            saver.restore(sess, paths.pop())
            sess.run(train_op, {x: [[1.0, 2.0]]})
    """

    def test_must_not_fire_on_a_restore_path_from_a_call_it_would_make_twice(self):
        source = self.TRAINING
        why = (
            "saver.restore of a path computed by paths.pop(), which the port would call twice: to restore, and to "
            "load TF1's optimizer slots (compat.tf1_slots)"
        )
        self.assertEqual(self.refused(source), [why])

    def test_must_not_fire_on_a_restore_a_try_catches(self):
        """TF1's restore raised NotFoundError at the restore, inside the try; the port's restore raises nothing (where
        it trains, compat.tf1_slots.check_names stops it at its first step, outside the try), so a handler TF1 ran
        would not run."""
        attempt = 'try:\n        saver.restore(sess, "/tmp/model.ckpt")\n    except tf.errors.NotFoundError:\n        print("from scratch")'
        source = self.TRAINING.replace("saver.restore(sess, paths.pop())", attempt.replace("\n", "\n        "))
        why = (
            "saver.restore inside a try with a handler: TF1's restore raised NotFoundError there for a variable the "
            "checkpoint lacks, the port's raises nothing there"
        )
        self.assertEqual(self.refused(source), [why])
        finally_only = source.replace("except tf.errors.NotFoundError:", "finally:")  # (no handler: it stops there too)
        code = self.applied(finally_only, level="native").module.code
        self.assertIn("compat.tf1_slots.restore_slots_when_built(optimizer, ", code)
