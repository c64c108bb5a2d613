"""native-variable: in eager code, tf.compat.v1.Variable -> tf.Variable, or the safe level with an info entry
saying why; and the ported program computes what the safe port does."""

from codemods.rules.native_variable import NativeVariableRule
from codemods.rules.tf1_api import Tf1ApiRule
from tests.support.native_ports import ports
from tests.support.rule_test import RuleTest, apply


class TestNativeVariableRule(RuleTest):
    TRANSFORM = NativeVariableRule

    def test_the_safe_passs_variables_in_an_eager_program(self):
        before = """
            import tensorflow as tf

            def main():
                w = tf.compat.v1.Variable([1.0, 2.0], False, name="w", dtype=tf.float32)
                return w + tf.compat.v1.Variable(initial_value=0.5, shape=[], trainable=True)

            if __name__ == "__main__":
                print(main())
        """
        after = """
            import tensorflow as tf

            def main():
                w = tf.Variable([1.0, 2.0], False, name="w", dtype=tf.float32)
                return w + tf.Variable(initial_value=0.5, shape=[], trainable=True)

            if __name__ == "__main__":
                print(main())
        """
        self.assertCodemod(before, after, level="native")

    def test_with_the_safe_pass_tf_variable_comes_back_and_tf1_apis_entry_goes(self):
        source = "import tensorflow as tf\n\nprint(tf.Variable(1.0).numpy())\n"
        applied = apply(source, Tf1ApiRule, NativeVariableRule, level="native")
        assert applied.module.code == source
        assert [e.message for e in applied.entries] == ["tf.compat.v1.Variable -> tf.Variable"]

    def test_must_not_fire_on_tf1_only_parameters_graph_mode_or_a_library(self):
        for call, why in {
            "tf.compat.v1.Variable(1.0, True, ['c'])": "more than two positional arguments",
            "tf.compat.v1.Variable(1.0, use_resource=False)": "use_resource=, a parameter only TF1's",
            "tf.compat.v1.Variable(1.0, collections=[])": "collections=, a parameter only TF1's",
            "tf.compat.v1.Variable(*args)": "*args or **kwargs",
        }.items():
            messages = self.refused(f"import tensorflow as tf\n\nw = {call}\nprint(w)\n")
            assert messages == [why] or (len(messages) == 1 and messages[0].startswith(why)), (call, messages)
        graph = (
            "import tensorflow as tf\n\nw = tf.compat.v1.Variable(1.0)\nwith tf.compat.v1.Session() as s:\n    pass\n"
        )
        assert self.refused(graph)[0].startswith("the file has graph-mode code (tf.compat.v1.Session)")
        library = "import tensorflow as tf\n\ndef make():\n    return tf.compat.v1.Variable(1.0)\n"
        assert self.refused(library)[0].startswith("a library module")

    def test_must_not_fire_on_a_shadowed_tf_strings_comments_or_the_safe_level(self):
        other = """
            import tensorflow as tf

            def main(tf):
                return tf.compat.v1.Variable("tf.compat.v1.Variable(1.0)")  # tf.compat.v1.Variable(2.0)

            if __name__ == "__main__":
                main(None)
        """
        assert self.refused(other) == []
        eager = "import tensorflow as tf\n\nw = tf.compat.v1.Variable(1.0)\nprint(w)\n"
        self.assertCodemod(eager, eager)  # (the safe level: the rule is native only)


PROGRAM = """
    import numpy as np
    import tensorflow as tf

    tf.enable_eager_execution()
    w = tf.Variable(np.full([3], 0.5, np.float32), name="w")
    frozen = tf.Variable([1.0, 2.0, 3.0], False)
    for step in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(w * frozen - step))
        w.assign_sub(0.05 * tape.gradient(loss, w))
        print("loss %.9g" % loss.numpy(), w.name, w.trainable, frozen.trainable, type(w).__name__)
"""


def test_the_native_port_computes_what_the_safe_port_does(tmp_path):
    ported = ports(tmp_path, "eager_variables.py", PROGRAM)
    assert "compat.v1.Variable" in ported["safe"].code and "compat.v1.Variable" not in ported["native"].code
    assert ported["safe"].stdout.count("loss") == 3 and ported["native"].stdout == ported["safe"].stdout
