"""tf-flags: tf.app.flags / tf.flags / tf.app.run -> compat.flags, keeping the user's alias."""

import libcst as cst

from codemods.engine.apply import apply_rules, claims_of
from codemods.rules import RULES
from codemods.rules.flags import FlagsRule
from tests.support.rule_test import RuleTest


class TestFlagsRule(RuleTest):
    TRANSFORM = FlagsRule

    def test_app_flags_and_run(self):
        before = """
            import tensorflow as tf

            tf.app.flags.DEFINE_integer("steps", 20, "training steps")
            FLAGS = tf.app.flags.FLAGS

            if __name__ == "__main__":
                tf.app.run()
        """
        after = """
            import tensorflow as tf
            import compat.flags as flags

            flags.DEFINE_integer("steps", 20, "training steps")
            FLAGS = flags.FLAGS

            if __name__ == "__main__":
                flags.run()
        """
        self.assertCodemod(before, after)

    def test_names_compat_flags_lacks_come_from_absl_whose_registry_it_shares(self):
        before = """
            import tensorflow as tf
            from tensorflow.python.platform import flags

            flags.DEFINE("ratio", 0.5, "", flags.FloatParser())
            tf.app.flags.DEFINE_multi_integer("ids", [1], "ids")
            flags.DEFINE_integer("steps", 20, "training steps")
        """
        after = """
            import tensorflow as tf
            import compat.flags as flags
            from absl import flags as absl_flags

            absl_flags.DEFINE("ratio", 0.5, "", absl_flags.FloatParser())
            absl_flags.DEFINE_multi_integer("ids", [1], "ids")
            flags.DEFINE_integer("steps", 20, "training steps")
        """
        self.assertCodemod(before, after)

    def test_a_file_using_only_absls_names_imports_only_absl(self):
        before = """
            import tensorflow as tf
            parser = tf.compat.v1.flags.FloatParser()
        """
        after = """
            import tensorflow as tf
            from absl import flags as absl_flags

            parser = absl_flags.FloatParser()
        """
        self.assertCodemod(before, after)

    def test_alias_assignment_becomes_the_import(self):
        before = """
            import tensorflow as tf
            flags = tf.flags
            flags.DEFINE_string("data_dir", "/data", "input")
            tf.app.run(main=main)
        """
        after = """
            import tensorflow as tf
            import compat.flags as flags
            flags.DEFINE_string("data_dir", "/data", "input")
            flags.run(main=main)
        """
        self.assertCodemod(before, after)

    def test_from_imports_of_flags_and_app(self):
        before = """
            from tensorflow import flags as f
            from tensorflow.compat.v1.app import run
            from tensorflow import app
            f.DEFINE_bool("fast", False, "")
            app.flags.DEFINE_bool("slow", False, "")
            run()
        """
        after = """
            import compat.flags as f
            from compat.flags import run
            f.DEFINE_bool("fast", False, "")
            f.DEFINE_bool("slow", False, "")
            run()
        """
        self.assertCodemod(before, after)

    def test_name_flags_taken_uses_the_fallback_alias(self):
        before = """
            import tensorflow as tf
            flags = ["--fast"]
            tf.app.flags.DEFINE_bool("fast", False, "")
        """
        after = """
            import tensorflow as tf
            import compat.flags as compat_flags

            flags = ["--fast"]
            compat_flags.DEFINE_bool("fast", False, "")
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_shadowed_tf_strings_or_comments(self):
        source = """
            import tensorflow as tf

            def configure(tf):
                # tf.app.flags is a local object here, not TensorFlow
                tf.app.flags.DEFINE_integer("n", 1, "")
                return "tf.app.run()"
        """
        self.assertCodemod(source, source)

    def test_must_not_fire_without_tensorflow(self):
        source = """
            import myproject as tf
            tf.app.flags.DEFINE_integer("n", 1, "")
            tf.app.run()
        """
        self.assertCodemod(source, source)


def test_an_import_of_app_left_dead_is_dropped_when_another_rule_moved_it_first():
    # tf1-api moves `from tensorflow import app` to tf.compat.v1's spelling before this rule rewrites the
    # `app.run` below it: the import left unused is that spelling, and it must go as the original would
    source = "from tensorflow import app\n\n\ndef main(argv):\n    print(argv)\n\n\napp.run(main)\n"
    code = apply_rules(cst.parse_module(source), [rule() for rule in RULES], claims_of(RULES)).module.code
    assert "flags.run(main)" in code and "import app" not in code, code


def test_an_import_of_a_tf1_module_whose_names_move_binds_the_package_as_it_did():
    # `import tensorflow.app` binds `tensorflow`; TF 2 has no module tensorflow.app to import (ModuleNotFoundError)
    source = "import tensorflow.app\n\n\ndef main(argv):\n    print(argv)\n\n\ntensorflow.app.run(main)\n"
    code = apply_rules(cst.parse_module(source), [rule() for rule in RULES], claims_of(RULES)).module.code
    assert "import tensorflow.app" not in code and "import tensorflow\n" in code and "flags.run(main)" in code, code
