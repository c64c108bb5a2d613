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
