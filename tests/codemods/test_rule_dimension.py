"""tf-dimension-value: TF1 `Dimension.value` reads -> tf.compat.dimension_value."""

from codemods.rules.dimension import DimensionRule
from tests.support.rule_test import RuleTest


class TestDimensionRule(RuleTest):
    TRANSFORM = DimensionRule

    def test_the_three_spellings_of_a_dimension_value(self):
        before = """
            import tensorflow as tf
            width = x.shape[1].value
            depth = input_tensor.get_shape()[-1].value
            batch = x.shape.dims[0].value or tf.shape(x)[0]
        """
        after = """
            import tensorflow as tf
            width = tf.compat.dimension_value(x.shape[1])
            depth = tf.compat.dimension_value(input_tensor.get_shape()[-1])
            batch = tf.compat.dimension_value(x.shape.dims[0]) or tf.shape(x)[0]
        """
        self.assertCodemod(before, after)

    def test_other_values_slices_strings_and_comments_are_left(self):
        source = """
            import tensorflow as tf
            v = variable.value
            n = shape[1].value
            s = x.shape[1:].value
            text = "x.shape[1].value"  # x.shape[1].value
        """
        self.assertCodemod(source, source)
