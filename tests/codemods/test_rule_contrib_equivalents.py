"""contrib-equivalents: tf.contrib.training.HParams -> compat.hparams; tf.contrib.learn.RunConfig -> tf.estimator."""

from codemods import rules
from codemods.rules.contrib_equivalents import ContribEquivalentsRule
from tests.support.rule_test import RuleTest, apply


class TestContribEquivalentsRule(RuleTest):
    TRANSFORM = ContribEquivalentsRule

    def test_hparams_in_every_import_form(self):
        before = """
            import tensorflow as tf
            from tensorflow.contrib.training import HParams

            defaults = tf.contrib.training.HParams(learning_rate=0.1)
            hparams = HParams(batch_size=32)
        """
        after = """
            import compat
            import tensorflow as tf
            from compat.hparams import HParams
            import compat.hparams as compat_hparams

            defaults = compat_hparams.HParams(learning_rate=0.1)
            hparams = HParams(batch_size=32)
        """
        self.assertCodemod(before, after)

    def test_run_config_goes_to_compat_learn_which_uai_run_gives_too_in_every_import_form(self):
        # compat.learn.RunConfig is the Estimator's with tf.contrib's uid() and constructor: a subclass
        # overriding uid() (cifar10_estimator's) and learn_runner's uid() check keep working
        before = """
            import tensorflow as t
            from tensorflow.contrib.learn import RunConfig

            config = t.contrib.learn.RunConfig(model_dir="/tmp/m", save_checkpoints_steps=10)
            other = RunConfig(model_dir="/tmp/n")

            class Config(t.contrib.learn.RunConfig):
                pass
        """
        after = """
            import compat
            import tensorflow as t
            from compat.learn import RunConfig
            import compat.learn as compat_learn

            config = compat_learn.RunConfig(model_dir="/tmp/m", save_checkpoints_steps=10)
            other = RunConfig(model_dir="/tmp/n")

            class Config(compat_learn.RunConfig):
                pass
        """
        self.assertCodemod(before, after)

    def test_run_config_arguments_only_tf_contrib_had_convert_too(self):
        before = """
            import tensorflow as tf
            config = tf.contrib.learn.RunConfig("grpc://m:2222", gpu_memory_fraction=0.5)
        """
        after = """
            import compat
            import tensorflow as tf
            import compat.learn as compat_learn

            config = compat_learn.RunConfig("grpc://m:2222", gpu_memory_fraction=0.5)
        """
        self.assertCodemod(before, after)
        assert [e.severity for e in self.applied(before).entries] == ["info"]

    def test_a_contrib_name_whose_home_python_cannot_import_by_name_is_assigned_from_it(self):
        # tf.compat.v1.estimator.tpu is an attribute compat attaches on TF 2.21, no module to import from
        before = """
            from tensorflow.contrib.tpu import TPUEstimator, CrossShardOptimizer as Shard
            from tensorflow.contrib.cluster_resolver import TPUClusterResolver

            estimator = TPUEstimator(model_fn=model_fn, use_tpu=False)
        """
        after = """
            import compat
            import tensorflow as tf

            TPUEstimator = tf.compat.v1.estimator.tpu.TPUEstimator
            Shard = tf.compat.v1.tpu.CrossShardOptimizer
            TPUClusterResolver = tf.distribute.cluster_resolver.TPUClusterResolver

            estimator = TPUEstimator(model_fn=model_fn, use_tpu=False)
        """
        self.assertCodemod(before, after)

    def test_with_every_rule_each_such_name_has_this_rules_entry_alone(self):
        # tf-upgrade's table holds them too: it gave the import an error entry ("cannot be imported by name") for
        # the line this rule rewrote, and both rules an info entry for the attribute
        source = self.make_fixture_data(
            """
            import tensorflow as tf
            from tensorflow.contrib.tpu import TPUEstimator
            from tensorflow.contrib.framework import sort
            config = tf.contrib.tpu.RunConfig()
            """
        )
        applied = apply(source, *rules.RULES)
        entries = [
            e for e in applied.entries if e.rule in ("contrib-equivalents", "tf-upgrade") or e.severity == "error"
        ]
        assert [(e.line, e.rule, e.severity) for e in entries] == [
            (2, "contrib-equivalents", "info"),
            (3, "contrib-equivalents", "info"),
            (4, "contrib-equivalents", "info"),
        ]

    def test_their_attribute_forms_go_to_the_same_homes(self):
        before = """
            import tensorflow as tf
            from tensorflow.contrib import tpu

            config = tpu.RunConfig(tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=2))
        """
        after = """
            import compat
            import tensorflow as tf

            config = tf.compat.v1.estimator.tpu.RunConfig(tpu_config=tf.compat.v1.estimator.tpu.TPUConfig(iterations_per_loop=2))
        """
        self.assertCodemod(before, after)

    def test_contrib_behind_a_tf_compat_v1_prefix_goes_to_tf_contribs_homes(self):
        before = """
            import tensorflow.compat.v1 as tf
            from tensorflow.compat.v1.contrib.rnn import GRUCell

            cell = tf.contrib.rnn.MultiRNNCell([GRUCell(2)])
            hparams = tf.contrib.training.HParams(lr=0.1)
        """
        after = """
            import compat
            import tensorflow
            import compat.hparams as compat_hparams

            GRUCell = tensorflow.compat.v1.nn.rnn_cell.GRUCell

            cell = tensorflow.compat.v1.nn.rnn_cell.MultiRNNCell([GRUCell(2)])
            hparams = compat_hparams.HParams(lr=0.1)
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_shadowed_tf_strings_or_comments(self):
        source = """
            import tensorflow as tf

            def build(tf):
                return tf.contrib.training.HParams(lr=1)  # tf.contrib.learn.RunConfig()
            text = "tf.contrib.training.HParams(lr=1)"
        """
        self.assertCodemod(source, source)

    def test_cifar10_estimator_pieces_go_to_compat_devices_and_compat_learn(self):
        before = """
            import tensorflow as tf
            from tensorflow.contrib.learn.python.learn import learn_runner

            strategy = tf.contrib.training.GreedyLoadBalancingStrategy(2, tf.contrib.training.byte_size_load_fn)
            experiment = tf.contrib.learn.Experiment(estimator, train_input_fn=train, eval_input_fn=evaluate)
            learn_runner.run(experiment_fn, run_config=config, hparams=hparams)
            tf.contrib.learn.learn_runner.run(experiment_fn, run_config=config)
        """
        after = """
            import compat
            import tensorflow as tf
            from compat.learn import learn_runner
            import compat.devices as compat_devices
            import compat.learn as compat_learn
            import compat.learn.learn_runner as compat_learn_learn_runner

            strategy = compat_devices.GreedyLoadBalancingStrategy(2, compat_devices.byte_size_load_fn)
            experiment = compat_learn.Experiment(estimator, train_input_fn=train, eval_input_fn=evaluate)
            learn_runner.run(experiment_fn, run_config=config, hparams=hparams)
            compat_learn_learn_runner.run(experiment_fn, run_config=config)
        """
        self.assertCodemod(before, after)

    def test_tutorials_mnist_input_data_comes_from_compat(self):
        before = """
            from tensorflow.examples.tutorials.mnist import input_data
            mnist = input_data.read_data_sets("/tmp/mnist", one_hot=True)
        """
        after = """
            import compat
            from compat.tutorials.mnist import input_data
            mnist = input_data.read_data_sets("/tmp/mnist", one_hot=True)
        """
        self.assertCodemod(before, after)

    def test_a_module_compat_does_not_provide_stays_and_is_reported(self):
        source = """
            from tensorflow.contrib.learn.python.learn.preprocessing import text
        """
        self.assertCodemod(source, source)
        [entry] = self.applied(source).entries
        assert entry.severity == "error" and "TextVectorization" in entry.manual

    def test_contrib_learn_mode_keys_are_the_estimators_infer_is_predict(self):
        # tf.contrib.learn.ModeKeys' values are tf.estimator.ModeKeys' (compat/tf1_names.py, uai-run's table too)
        before = """
            import tensorflow as tf
            from tensorflow.contrib.learn import ModeKeys

            if mode == tf.contrib.learn.ModeKeys.INFER or mode == ModeKeys.TRAIN:
                pass
        """
        after = """
            import compat
            import tensorflow as tf

            if mode == tf.compat.v1.estimator.ModeKeys.PREDICT or mode == tf.compat.v1.estimator.ModeKeys.TRAIN:
                pass
        """
        self.assertCodemod(before, after)
