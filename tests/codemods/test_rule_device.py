"""tf-device: tf.device(<function>) -> compat.device(...); device strings stay."""

from codemods.rules.device import DeviceRule
from tests.support.rule_test import RuleTest


class TestDeviceRule(RuleTest):
    TRANSFORM = DeviceRule

    def test_setters_and_functions(self):
        before = """
            import tensorflow as tf
            with tf.device(tf.train.replica_device_setter(cluster=cluster)):
                pass
            with tf.device(setter):
                pass
        """
        after = """
            import compat
            import tensorflow as tf
            with compat.device(tf.train.replica_device_setter(cluster=cluster)):
                pass
            with compat.device(setter):
                pass
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_strings_shadowed_names_comments(self):
        source = """
            import tensorflow as tf
            with tf.device("/cpu:0"), tf.device("/gpu:%d" % i), tf.device("/job:{}".format(j)), tf.device(f"/cpu:{k}"):
                pass

            def place(tf, fn):
                return tf.device(fn)  # tf.device(fn) on a local object
            text = "tf.device(setter)"
        """
        self.assertCodemod(source, source)
