"""tf-flags-internals: TF <= 1.4's FLAGS._parse_flags() and FLAGS.__flags -> absl's FLAGS(argv, known_only=True)
and FLAGS.flag_values_dict()."""

from codemods.rules.flags import FlagsRule
from codemods.rules.flags_internals import FlagsInternalsRule
from tests.support.rule_test import RuleTest, apply


class TestFlagsInternalsRule(RuleTest):
    TRANSFORM = FlagsInternalsRule

    def test_parse_flags_and_the_flags_dict_at_module_level(self):
        before = """
            import tensorflow as tf

            tf.flags.DEFINE_integer("batch_size", 64, "batch")
            FLAGS = tf.flags.FLAGS
            FLAGS._parse_flags()
            for attr, value in sorted(FLAGS.__flags.items()):
                print("{}={}".format(attr.upper(), value))
        """
        after = """
            import tensorflow as tf
            import sys

            tf.flags.DEFINE_integer("batch_size", 64, "batch")
            FLAGS = tf.flags.FLAGS
            FLAGS(sys.argv, known_only=True)
            for attr, value in sorted(FLAGS.flag_values_dict().items()):
                print("{}={}".format(attr.upper(), value))
        """
        self.assertCodemod(before, after)

    def test_the_returned_arguments_and_given_arguments_keep_tf_1_4s_meaning(self):
        before = """
            import sys
            import tensorflow as tf
            unparsed = tf.app.flags.FLAGS._parse_flags()
            def main():
                rest = tf.app.flags.FLAGS._parse_flags(args=sys.argv[2:])
                return dict(tf.app.flags.FLAGS.__flags)
        """
        after = """
            import sys
            import tensorflow as tf
            unparsed = tf.app.flags.FLAGS(sys.argv, known_only=True)[1:]
            def main():
                rest = tf.app.flags.FLAGS([sys.argv[0], *sys.argv[2:]], known_only=True)[1:]
                return dict(tf.app.flags.FLAGS.flag_values_dict())
        """
        self.assertCodemod(before, after)

    def test_with_tf_flags_the_port_is_compat_flags(self):
        source = self.make_fixture_data(
            """
            import tensorflow as tf
            FLAGS = tf.app.flags.FLAGS
            FLAGS._parse_flags()
            settings = FLAGS.__flags
            """
        )
        code = apply(source, FlagsInternalsRule, FlagsRule).module.code
        assert code == (
            "import tensorflow as tf\nimport compat.flags as flags\nimport sys\n\n"
            "FLAGS = flags.FLAGS\nFLAGS(sys.argv, known_only=True)\nsettings = FLAGS.flag_values_dict()\n"
        )

    def test_a_write_through_the_dict_is_an_error_entry_and_stays(self):
        source = self.make_fixture_data(
            """
            import tensorflow as tf
            FLAGS = tf.flags.FLAGS
            FLAGS._parse_flags()
            FLAGS.__flags["batch_size"] = 8
            FLAGS.__flags.update(lr=0.1)
            """
        )
        applied = apply(source, FlagsInternalsRule)
        writes = source.splitlines(keepends=True)[3:]
        assert applied.module.code.endswith("".join(writes))  # left as they are
        assert [(e.line, e.severity, e.manual) for e in applied.entries if e.severity != "info"] == [
            (line, "error", "set the flag itself: FLAGS.<name> = value") for line in (4, 5)
        ]

    def test_without_parse_flags_the_dict_is_absls_and_stays_with_a_warning(self):
        # TF >= 1.5 programs read absl's {name: Flag}: `FLAGS.__flags[name].value`
        source = self.make_fixture_data(
            """
            import tensorflow as tf
            FLAGS = tf.flags.FLAGS
            sizes = {name: flag.value for name, flag in FLAGS.__flags.items()}
            """
        )
        applied = apply(source, FlagsInternalsRule)
        assert applied.module.code == source
        assert [(e.line, e.severity) for e in applied.entries] == [(3, "warning")]

    def test_must_not_fire(self):
        # in a class body Python mangles the name (FLAGS._Config__flags), which TF 1 did not have either
        in_class = self.make_fixture_data(
            """
            import tensorflow as tf
            FLAGS = tf.flags.FLAGS
            FLAGS._parse_flags()
            class Config:
                values = FLAGS.__flags
            """
        )
        applied = apply(in_class, FlagsInternalsRule)
        assert "values = FLAGS.__flags" in applied.module.code
        assert [e.severity for e in applied.entries] == ["info", "warning"]
        unchanged = """
            import argparse
            import tensorflow as tf
            FLAGS = argparse.Namespace()
            FLAGS._parse_flags()  # another object's method of that name: not TensorFlow's FLAGS
            other = parser.__flags
            text = "FLAGS._parse_flags()"
            def f(FLAGS):
                return FLAGS.__flags
        """
        shadowed = """
            import tensorflow as tf
            FLAGS = tf.flags.FLAGS
            def f(FLAGS):
                return FLAGS.__flags, FLAGS._parse_flags()
        """
        for source in (unchanged, shadowed):
            self.assertCodemod(source, source)
            assert apply(self.make_fixture_data(source), FlagsInternalsRule).entries == []
