"""graph-mode: tf.compat.v1.disable_eager_execution() once, at the right place; not for TF2-style code."""

from codemods.rules.graph_mode import GraphModeRule
from tests.codemods.rule_test import RuleTest, apply


class TestGraphModeRule(RuleTest):
    TRANSFORM = GraphModeRule

    def test_first_in_the_main_block(self):
        before = """
            import tensorflow as tf

            def main(_):
                x = tf.placeholder(tf.float32)
                with tf.Session() as sess:
                    pass

            if __name__ == "__main__":
                tf.app.run()
        """
        after = """
            import tensorflow as tf

            def main(_):
                x = tf.placeholder(tf.float32)
                with tf.Session() as sess:
                    pass

            if __name__ == "__main__":
                tf.compat.v1.disable_eager_execution()
                tf.app.run()
        """
        self.assertCodemod(before, after)

    def test_module_level_script_after_the_imports(self):
        before = """
            \"\"\"A tutorial script.\"\"\"
            import tensorflow.compat.v1 as tf
            x = tf.placeholder(tf.float32)
            sess = tf.Session()
        """
        after = """
            \"\"\"A tutorial script.\"\"\"
            import tensorflow.compat.v1 as tf
            tf.disable_eager_execution()
            x = tf.placeholder(tf.float32)
            sess = tf.Session()
        """
        self.assertCodemod(before, after)

    def test_the_call_goes_after_the_import_that_binds_the_name_it_uses(self):
        # after the leading imports would be before `tf` exists: NameError when the script starts
        before = """
            from __future__ import print_function
            import sys
            sys.path.insert(0, ".")
            import tensorflow as tf
            import numpy as np
            x = tf.placeholder(tf.float32)
        """
        after = """
            from __future__ import print_function
            import sys
            sys.path.insert(0, ".")
            import tensorflow as tf
            import numpy as np
            tf.compat.v1.disable_eager_execution()
            x = tf.placeholder(tf.float32)
        """
        self.assertCodemod(before, after)
        before = """
            \"\"\"Doc.\"\"\"
            from __future__ import division
            try:
                import tensorflow.compat.v1 as tf
            except ImportError:
                import tensorflow as tf
            sess = tf.Session()
        """
        after = """
            \"\"\"Doc.\"\"\"
            from __future__ import division
            try:
                import tensorflow.compat.v1 as tf
            except ImportError:
                import tensorflow as tf
            tf.compat.v1.disable_eager_execution()
            sess = tf.Session()
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_tf2_code_switched_scripts_shadowed_names_strings(self):
        for source in (
            """
            import tensorflow as tf
            model = tf.keras.Sequential()  # tf.Session is gone
            text = "tf.placeholder"
            """,
            """
            import tensorflow as tf
            tf.compat.v1.disable_v2_behavior()
            sess = tf.compat.v1.Session()
            """,
            """
            import tensorflow as tf
            def f(tf):
                return tf.Session()
            """,
        ):
            self.assertCodemod(source, source)


def test_a_library_module_is_reported_not_changed():
    source = "import tensorflow as tf\n\ndef run(x):\n    return tf.Session().run(x)\n"
    applied = apply(source, GraphModeRule)
    assert applied.module.code == source
    [entry] = applied.entries
    assert (entry.severity, entry.line) == ("warning", 4) and "disable_eager_execution" in entry.manual
