"""native-io: TF1's gfile functions, logging verbosity, parse_(single_)example and set_random_seed -> TF 2's,
or the safe level with an info entry saying why. Both ports' runs: test_native_equivalence.py's dataset fixture."""

from codemods.rules.native_io import NativeIoRule
from codemods.rules.private import PrivateRule
from codemods.rules.tf1_api import Tf1ApiRule
from tests.support.rule_test import RuleTest, apply


class TestNativeIoRule(RuleTest):
    TRANSFORM = NativeIoRule

    def test_gfile_verbosity_and_parsers_in_a_graph_mode_function(self):
        before = """
            import tensorflow as tf

            def input_fn(pattern, record):
                tf.logging.set_verbosity(tf.logging.WARN)
                tf.set_random_seed(seed=1)
                level = tf.logging.get_verbosity()
                tf.compat.v1.gfile.MakeDirs(dirname="/tmp/out")
                for top, dirs, names in tf.gfile.Walk("/tmp/out", in_order=False):
                    tf.gfile.Copy(names[0], newpath="/tmp/copy", overwrite=True)
                with tf.gfile.Open(tf.gfile.Glob(pattern)[0]) as handle:
                    handle.read()
                spec = {"x": tf.FixedLenFeature([], tf.int64)}
                return tf.parse_single_example(record, spec, "parse", ["a"]), tf.parse_example(record, spec, name="b")
        """
        after = """
            import tensorflow as tf

            def input_fn(pattern, record):
                tf.get_logger().setLevel("WARN")
                tf.random.set_seed(seed=1)
                level = tf.get_logger().getEffectiveLevel()
                tf.io.gfile.makedirs(path="/tmp/out")
                for top, dirs, names in tf.io.gfile.walk("/tmp/out", topdown=False):
                    tf.io.gfile.copy(names[0], dst="/tmp/copy", overwrite=True)
                with tf.io.gfile.GFile(tf.io.gfile.glob(pattern)[0]) as handle:
                    handle.read()
                spec = {"x": tf.FixedLenFeature([], tf.int64)}
                return tf.io.parse_single_example(record, spec, name="parse", example_names=["a"]), tf.io.parse_example(record, spec, name="b")
        """
        self.assertCodemod(before, after, level="native")

    def test_after_the_safe_pass_its_tf_compat_v1_names_and_private_modules(self):
        source = (
            "import tensorflow as tf\nfrom tensorflow.python.platform import gfile\n"
            "from tensorflow.python.platform import tf_logging as logging\n\n"
            "logging.set_verbosity(logging.INFO)\nprint(gfile.Exists('/tmp'), tf.gfile.ListDirectory('/tmp'))\n"
        )
        applied = apply(source, Tf1ApiRule, PrivateRule, NativeIoRule, level="native")
        assert applied.module.code == (
            "import tensorflow as tf\n\n"
            "tf.get_logger().setLevel(\"INFO\")\nprint(tf.io.gfile.exists('/tmp'), tf.io.gfile.listdir('/tmp'))\n"
        )
        # (the safe rules' entries for the names rewritten again are superseded)
        assert [e.rule for e in applied.entries] == ["native-io"] * 3, applied.entries

    def test_must_not_fire_on_message_functions_star_arguments_or_the_safe_level(self):
        source = """
            import tensorflow as tf

            tf.logging.info("step %d", 1)
            tf.gfile.Exists(*paths)
            tf.gfile.MakeDirs(**where)
            tf.parse_single_example(record, spec, unknown=1)
            print(tf.logging.INFO)
        """
        self.assertCodemod(source, source, level="native")
        self.assertCodemod(source, source, level="safe")
        said = [e.message for e in self.applied(source, level="native").entries]
        assert said == [
            "tf.gfile.Exists left at the safe level: *args or **kwargs (they may hold a renamed parameter)",
            "tf.gfile.MakeDirs left at the safe level: *args or **kwargs (they may hold a renamed parameter)",
            "tf.parse_single_example left at the safe level: a keyword the TF1 function does not take",
        ], said
