"""native-session leaves a script driven by tf-slim's training or evaluation loop at the safe level, with an entry
saying why (codemods/rules/_native_slim_loops.py: what learning.train's Supervisor does, checked on TF 1.15)."""

from codemods.rules._native_slim_loops import REASONS
from codemods.rules.native_session import NativeSessionRule
from tests.support.rule_test import RuleTest

TRAIN = """
    import numpy as np
    import tensorflow as tf
    {import_slim}

    def main(train_dir):
        with tf.Graph().as_default():
            images = tf.constant(np.random.RandomState(0).rand(8, 16, 16, 3).astype(np.float32))
            labels = tf.constant(np.arange(8) % 4)
            logits = slim.fully_connected(slim.flatten(slim.conv2d(images, 4, [3, 3])), 4, activation_fn=None)
            tf.losses.sparse_softmax_cross_entropy(labels, logits)
            train_op = slim.learning.create_train_op(tf.losses.get_total_loss(), tf.train.AdamOptimizer(0.01))
            print("final loss", slim.{loop})
"""


class TestSlimLoops(RuleTest):
    TRANSFORM = NativeSessionRule

    def test_must_not_fire_on_a_script_driven_by_a_slim_loop(self):
        loops = {
            "learning.train(train_op, train_dir, number_of_steps=3)": REASONS["learning.train"],
            "evaluation.evaluate_once('', train_dir, train_dir)": REASONS["evaluation.evaluate_once"],
        }
        imports = (
            "from tensorflow.contrib import slim",
            "import tensorflow.contrib.slim as slim",
            "import tf_slim as slim",
        )
        for loop, why in loops.items():
            for import_slim in imports:
                with self.subTest(loop=loop, import_slim=import_slim):
                    source = TRAIN.format(import_slim=import_slim, loop=loop)
                    self.assertEqual(self.refused(source), [why])

    def test_a_session_script_calling_no_slim_loop_gets_no_such_entry(self):
        source = TRAIN.format(import_slim="from tensorflow.contrib import slim", loop="learning.create_train_op")
        self.assertEqual([m for m in self.refused(source) if "tf-slim's" in m], [])
