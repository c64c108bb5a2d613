"""contrib-equivalents: tf.contrib.training's names -> tf-slim's training and evaluation modules, and
tf.contrib.layers.summaries -> tf-slim's layers.summaries, contrib.learn's datasets.mnist -> compat.tutorials, as uai-run
serves them.

tf_slim.training's `__init__` is empty; `import tf_slim.training.training as t` fails (tf_slim's `__init__` rebinds
its attribute `training` to that submodule), so the submodules are imported from their package.
"""

import textwrap

from codemods import rules
from codemods.rules.contrib_equivalents import ContribEquivalentsRule
from tests.support.rule_test import RuleTest, apply


class TestContribTrainingNames(RuleTest):
    TRANSFORM = ContribEquivalentsRule

    def test_each_import_form_goes_to_the_tf_slim_module_holding_the_name(self):
        before = """
            import tensorflow as tf
            from tensorflow.contrib.training import create_train_op, evaluate_once as once
            import tensorflow.contrib.training as contrib_training

            train_op = tf.contrib.training.create_train_op(loss, optimizer)
            tf.contrib.training.train(train_op, "/tmp/train")
            contrib_training.evaluate_repeatedly("/tmp/train", hooks=[contrib_training.StopAfterNEvalsHook(1)])
        """
        after = """
            import compat
            import tensorflow as tf
            from tf_slim.training.training import create_train_op
            from tf_slim.training.evaluation import evaluate_once as once
            from tf_slim.training import evaluation, training

            train_op = training.create_train_op(loss, optimizer)
            training.train(train_op, "/tmp/train")
            evaluation.evaluate_repeatedly("/tmp/train", hooks=[evaluation.StopAfterNEvalsHook(1)])
        """
        self.assertCodemod(before, after)

    def test_checkpoints_iterator_is_tf_slims_and_tf_upgrade_leaves_it(self):
        # TF 1.15's (tf-slim's copy) asks timeout_fn after a timeout only; tf.train's on TF 2.21 after every checkpoint
        before = """
            import tensorflow as tf

            for path in tf.contrib.training.checkpoints_iterator(model_dir, timeout=60, timeout_fn=done):
                evaluate(path)
        """
        after = """
            import compat
            import tensorflow as tf
            from tf_slim.training import evaluation

            for path in evaluation.checkpoints_iterator(model_dir, timeout=60, timeout_fn=done):
                evaluate(path)
        """
        self.assertCodemod(before, after)
        applied = apply(textwrap.dedent(before), *rules.RULES)
        assert applied.module.code.strip() == textwrap.dedent(after).strip()
        assert [(e.rule, e.message) for e in applied.entries] == [
            ("contrib-equivalents", "tf.contrib.training.checkpoints_iterator -> evaluation.checkpoints_iterator")
        ]

    def test_an_alias_taken_by_the_program_is_not_reused(self):
        before = """
            import tensorflow as tf

            def build(loss, training=True):
                return tf.contrib.training.create_train_op(loss, optimizer)
        """
        after = """
            import compat
            import tensorflow as tf
            from tf_slim.training import training as tf_slim_training_training

            def build(loss, training=True):
                return tf_slim_training_training.create_train_op(loss, optimizer)
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_other_training_modules_or_tf_slims_own(self):
        before = """
            import training
            from tf_slim.training import training as slim_training
            import tensorflow as tf

            op = training.create_train_op(loss, optimizer)
            slim_training.train(op, "/tmp/train")
            tf.compat.v1.train.checkpoints_iterator("/tmp/train")
            name = "tf.contrib.training.create_train_op"  # tf.contrib.training.train
        """
        self.assertCodemod(before, before)


class TestContribLayersSummaries(RuleTest):
    """tf.contrib.layers.summaries (summarize_tensor ...) is tf-slim's layers.summaries, not compat.slim's summaries."""

    TRANSFORM = ContribEquivalentsRule

    def test_every_form_binds_tf_slims_layers_summaries(self):
        before = """
            import tensorflow as tf
            from tensorflow.contrib.layers import summaries
            import tensorflow.contrib.layers.summaries as layer_summaries

            histograms = tf.contrib.layers.summaries
            tf.contrib.layers.summaries.summarize_activations()
        """
        after = """
            import compat
            import tensorflow as tf
            from tf_slim.layers import summaries
            from tf_slim.layers import summaries as layer_summaries

            from tf_slim.layers import summaries as histograms
            summaries.summarize_activations()
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_slims_own_summaries_or_the_layers_functions(self):
        before = """
            import tensorflow as tf
            import summaries

            summaries.summarize_tensor(x)
            tf.summary.histogram("x", x)
        """
        self.assertCodemod(before, before)


class TestContribLearnMnist(RuleTest):
    """contrib.learn's datasets.mnist (TF 1.15's tutorials input_data read_data_sets from it) -> compat.tutorials'."""

    TRANSFORM = ContribEquivalentsRule

    def test_its_public_and_internal_paths_go_to_compat_tutorials(self):
        before = """
            import tensorflow as tf
            from tensorflow.contrib.learn.python.learn.datasets import mnist
            from tensorflow.contrib.learn.python.learn.datasets.mnist import read_data_sets

            data = tf.contrib.learn.datasets.mnist.read_data_sets("/tmp/mnist")
        """
        after = """
            import compat
            import tensorflow as tf
            import compat.tutorials.mnist.input_data as mnist
            from compat.tutorials.mnist.input_data import read_data_sets

            data = mnist.read_data_sets("/tmp/mnist")
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_another_mnist_module(self):
        before = """
            import tensorflow as tf
            from datasets import mnist

            data = mnist.read_data_sets("/tmp/mnist")
            train = tf.keras.datasets.mnist.load_data()
        """
        self.assertCodemod(before, before)
