"""softmax-labels: TF 1's tf.nn.softmax_cross_entropy_with_logits(labels=L) -> labels=tf.stop_gradient(L); the _v2
function, tf.compat.v1's spelling, labels already stopped and TF 2 code are left as written.

That the port trains as TF 1.15 did: tests/common/test_softmax_labels.py (TF 2.15 and 2.21); TF 2 code:
tests/codemods/test_tf2_code.py.
"""

from codemods.rules.softmax_labels import SoftmaxLabelsRule
from tests.support.rule_test import RuleTest


class TestSoftmaxLabels(RuleTest):
    TRANSFORM = SoftmaxLabelsRule

    def test_the_labels_keyword(self):
        before = """
            import tensorflow as tf
            from tensorflow import nn

            a = tf.nn.softmax_cross_entropy_with_logits(labels=soft, logits=logits)
            b = nn.softmax_cross_entropy_with_logits(logits=logits, labels=teacher(x), dim=-1)
        """
        after = """
            import tensorflow as tf
            from tensorflow import nn

            a = tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(soft), logits=logits)
            b = nn.softmax_cross_entropy_with_logits(logits=logits, labels=tf.stop_gradient(teacher(x)), dim=-1)
        """
        self.assertCodemod(before, after)

    def test_must_not_fire(self):
        source = """
            import tensorflow as tf

            a = tf.nn.softmax_cross_entropy_with_logits_v2(labels=soft, logits=logits)
            b = tf.compat.v1.nn.softmax_cross_entropy_with_logits(labels=soft, logits=logits)
            c = tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(soft), logits=logits)
            d = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=ids, logits=logits)
            text = "tf.nn.softmax_cross_entropy_with_logits(labels=soft)"

            def loss(tf, soft, logits):
                return tf.nn.softmax_cross_entropy_with_logits(labels=soft, logits=logits)  # a parameter named tf
        """
        self.assertCodemod(source, source)
