"""contrib-equivalents: tf.contrib.training.HParams -> compat.hparams; tf.contrib.learn.RunConfig -> tf.estimator."""

from codemods.rules.contrib_equivalents import ContribEquivalentsRule
from tests.codemods.rule_test import RuleTest


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

    def test_run_config_keeps_the_users_tf_alias_and_its_keywords(self):
        before = """
            import tensorflow as t
            from tensorflow.contrib.learn import RunConfig

            config = t.contrib.learn.RunConfig(model_dir="/tmp/m", save_checkpoints_steps=10)
            other = RunConfig(model_dir="/tmp/n")
        """
        after = """
            import compat
            import tensorflow as t
            from compat.estimator import RunConfig

            config = t.estimator.RunConfig(model_dir="/tmp/m", save_checkpoints_steps=10)
            other = RunConfig(model_dir="/tmp/n")
        """
        self.assertCodemod(before, after)

    def test_run_config_arguments_tf_estimator_lost_leave_the_call_and_report_it(self):
        source = """
            import tensorflow as tf
            config = tf.contrib.learn.RunConfig("grpc://m:2222", gpu_memory_fraction=0.5)
        """
        self.assertCodemod(source, source)
        applied = self.applied(source)
        [entry] = applied.entries
        assert entry.severity == "error" and entry.line == 2
        assert "a positional argument, gpu_memory_fraction" in entry.message and "session_config" in entry.manual

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
