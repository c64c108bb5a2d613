"""native-session's entries are placed in the top-level statement holding the node they name: a refusal naming a
function the graph calls (an input function's nested def) is that function's, not the graph block's. Before, the
engine could not place it and uai-migrate skipped the whole file ('failed on it (KeyError: FunctionDef(...')."""

from codemods.rules.native_session import NativeSessionRule
from tests.support.rule_test import RuleTest

# an input function whose mapped function is defined inside it: native-session refuses it (naming the def), from the
# graph block of another function
NESTED_MAP = """
    import tensorflow as tf


    def load_batch():
        def parse(x):
            return x * 2.0

        dataset = tf.data.Dataset.from_tensor_slices([1.0, 2.0]).map(parse).repeat().batch(2)
        return dataset.make_one_shot_iterator().get_next()


    def train():
        with tf.Graph().as_default():
            x = load_batch()
            w = tf.Variable(1.0)
            loss = tf.reduce_sum(x * w)
            train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                print(sess.run([train_op, loss])[1])
"""


class TestEntryPositions(RuleTest):
    TRANSFORM = NativeSessionRule

    def test_a_refusal_naming_a_function_the_graph_calls_is_placed_in_that_function(self):
        applied = self.applied(NESTED_MAP, level="native")
        (entry,) = [e for e in applied.entries if e.rule == NativeSessionRule.ID]
        assert "a statement of load_batch() other than an assignment or an if" in entry.message, entry.message
        assert (entry.line, entry.col) == (5, 5)  # (the nested def parse)
