"""tf-layers: tf.layers -> tf.compat.v1.layers with `import compat` (legacy Keras where Keras 3 is the default)."""

from codemods.rules.layers import LayersRule
from tests.support.rule_test import RuleTest, apply


class TestLayersRule(RuleTest):
    TRANSFORM = LayersRule

    def test_uses_and_the_compat_import(self):
        before = """
            import tensorflow as tf
            net = tf.layers.conv2d(images, 16, 3)
            net = tf.layers.dense(tf.layers.flatten(net), 10)
        """
        after = """
            import compat
            import tensorflow as tf
            net = tf.compat.v1.layers.conv2d(images, 16, 3)
            net = tf.compat.v1.layers.dense(tf.compat.v1.layers.flatten(net), 10)
        """
        self.assertCodemod(before, after)

    def test_from_import(self):
        before = """
            from tensorflow import layers
            net = layers.dense(x, 3)
        """
        after = """
            import compat
            from tensorflow.compat.v1 import layers
            net = layers.dense(x, 3)
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_keras_layers_shadowed_names_strings_comments(self):
        source = """
            import tensorflow as tf

            def build(tf):
                return tf.layers.dense(1)  # tf.layers.dense of a local object
            dense = tf.keras.layers.Dense(3)
            doc = "tf.layers.dense"
        """
        self.assertCodemod(source, source)


def test_an_assignment_to_tf_layers_is_the_programs_own_attribute_not_tf_compat_v1s():
    """tensorpack 0.9.8 sets `tf.layers = tf.keras.layers` when TF 2 lacks tf.layers: rewritten to
    `tf.compat.v1.layers = ...` it replaced TensorFlow's v1 layers with Keras' (whose Dense refuses
    tf.compat.v1.layers' `_reuse`: the port failed on TF 2.15). The uses are rewritten, the target stays."""
    source = "import tensorflow as tf\n\nif not hasattr(tf, 'layers'):\n    tf.layers = tf.keras.layers\ny = tf.layers.dense(x, 2)\n"
    code = apply(source, LayersRule).module.code
    assert "    tf.layers = tf.keras.layers\n" in code and "y = tf.compat.v1.layers.dense(x, 2)\n" in code
