"""native-eager-defaults: in eager code, TF 1.x's switches to TF 2's defaults and the initializer calls
deleted, or left at the safe level with an info entry saying why; and the ported program runs as the safe port.
"""

import textwrap

from codemods.rules.native_data import NativeDataRule
from codemods.rules.native_eager_defaults import NativeEagerDefaultsRule
from codemods.rules.native_optimizer import NativeOptimizerRule
from codemods.rules.native_variable import NativeVariableRule
from codemods.rules.tf1_api import Tf1ApiRule
from tests.support.native_ports import ports
from tests.support.rule_test import RuleTest, apply


class TestNativeEagerDefaultsRule(RuleTest):
    TRANSFORM = NativeEagerDefaultsRule

    def test_switches_and_initializers_of_an_eager_program(self):
        before = """
            import tensorflow.compat.v1 as tf1
            import tensorflow as tf

            # eager, as TF 2 is
            tf1.enable_eager_execution()
            tf.enable_resource_variables()

            def main():
                tf.set_random_seed(seed=3)  # (native-io's)
                w = tf.Variable(1.0)
                tf.global_variables_initializer()  # a no-op in eager mode
                print(w.numpy())

            if __name__ == "__main__":
                tf.enable_v2_behavior()
                main()
        """
        after = """
            import tensorflow.compat.v1 as tf1
            import tensorflow as tf

            # eager, as TF 2 is

            def main():
                tf.set_random_seed(seed=3)  # (native-io's)
                w = tf.Variable(1.0)
                print(w.numpy())

            if __name__ == "__main__":
                main()
        """
        self.assertCodemod(before, after, level="native")
        messages = [e.message for e in self.applied(before, level="native").entries]
        assert "tf.global_variables_initializer() deleted: eager code, a no-op" in messages
        assert "tf.enable_eager_execution() deleted: eager code, a switch to a TF 2 default" in messages

    def test_must_not_fire_where_eager_is_not_proven_or_the_statement_is_more(self):
        graph = "import tensorflow as tf\n\nx = tf.placeholder(tf.float32)\ntf.global_variables_initializer()\n"
        assert self.refused(graph) == [
            "the file has graph-mode code (tf.placeholder): its TensorFlow code runs in a graph"
        ]
        library = "import tensorflow as tf\n\ndef setup():\n    tf.enable_resource_variables()\n    return 1\n"
        assert self.refused(library)[0].startswith("a library module")
        cases = {
            "tf.enable_eager_execution(config=config)": "it has arguments",
            "init = tf.global_variables_initializer()": "its value is used",
            "tf.tables_initializer(); print(1)": "its value is used, or it shares its line",
            "if ready:\n    tf.local_variables_initializer()": "the only statement of its block",
        }
        for line, why in cases.items():
            messages = self.refused(f"import tensorflow as tf\n\nprint(tf.ones([1]))\n{line}\n")
            assert len(messages) == 1 and messages[0].startswith(why), (line, messages)

    def test_must_not_fire_on_a_shadowed_tf_strings_comments_or_the_safe_level(self):
        shadowed = """
            import tensorflow as tf

            def main(tf):
                tf.enable_eager_execution()  # tf.enable_eager_execution()
                print("tf.global_variables_initializer()")

            if __name__ == "__main__":
                main(None)
        """
        assert self.refused(shadowed) == []
        eager = "import tensorflow as tf\n\ntf.enable_eager_execution()\nprint(tf.ones([1]))\n"
        self.assertCodemod(eager, eager)  # (the safe level: the rule is native only)


def test_the_native_eager_rules_in_one_pass_each_find_their_calls():
    """Each rule's rewrite keeps the other rules' nodes: a TF 1.x eager walkthrough, every eager rule converting."""
    source = textwrap.dedent(
        """
        import tensorflow as tf

        tf.enable_eager_execution()
        dataset = tf.data.Dataset.range(8).batch(4)
        w = tf.Variable(1.0)
        optimizer = tf.train.GradientDescentOptimizer(0.1)
        global_step = tf.Variable(0)
        for x in dataset.make_one_shot_iterator():
            with tf.GradientTape() as tape:
                loss = w * tf.reduce_sum(tf.cast(x, tf.float32))
            optimizer.apply_gradients(zip(tape.gradient(loss, [w]), [w]), global_step)
        """
    )
    rules = (Tf1ApiRule, NativeOptimizerRule, NativeEagerDefaultsRule, NativeDataRule, NativeVariableRule)
    applied = apply(source, *sorted(rules, key=lambda rule: rule.ORDER), level="native")  # (as the engine runs them)
    assert applied.module.code == textwrap.dedent(
        """
        import tensorflow as tf

        dataset = tf.data.Dataset.range(8).batch(4)
        w = tf.Variable(1.0)
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)
        global_step = tf.Variable(0)
        for x in dataset:
            with tf.GradientTape() as tape:
                loss = w * tf.reduce_sum(tf.cast(x, tf.float32))
            optimizer.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
            global_step.assign_add(1)
        """
    )
    assert {e.rule for e in applied.entries} == {rule.ID for rule in rules[1:]}  # (tf1-api's: each superseded)


PROGRAM = """
    import numpy as np
    import tensorflow as tf

    tf.enable_eager_execution()
    tf.enable_resource_variables()
    tf.set_random_seed(7)
    w = tf.Variable(np.full([3], 0.5, np.float32) + tf.random_normal([3]))
    tf.global_variables_initializer()
    for step in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(w - step))
        w.assign_sub(0.1 * tape.gradient(loss, w))
        print("loss %.9g" % loss.numpy(), tf.executing_eagerly())
"""


def test_the_native_port_runs_as_the_safe_port(tmp_path):
    ported = ports(tmp_path, "eager_defaults.py", PROGRAM)
    assert "initializer" in ported["safe"].code and "enable_" in ported["safe"].code
    assert "initializer" not in ported["native"].code and "enable_" not in ported["native"].code
    assert "tf.random.set_seed(7)" in ported["native"].code
    assert ported["safe"].stdout.count("loss") == 3 and ported["native"].stdout == ported["safe"].stdout
