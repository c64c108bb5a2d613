"""tf-estimator: code kept, `import compat` ensured (Estimator on TF 2.21), every use reported."""

from codemods.rules.estimator import EstimatorRule
from tests.codemods.rule_test import RuleTest, apply


class TestEstimatorRule(RuleTest):
    TRANSFORM = EstimatorRule

    def test_tf1_only_estimator_modules_go_to_compat_v1(self):
        before = """
            import tensorflow as tf
            fn = tf.estimator.inputs.numpy_input_fn(x, y, shuffle=False)
            est = tf.estimator.Estimator(model_fn)
            inputs = "tf.estimator.inputs"
        """
        after = """
            import compat
            import tensorflow as tf
            fn = tf.compat.v1.estimator.inputs.numpy_input_fn(x, y, shuffle=False)
            est = tf.estimator.Estimator(model_fn)
            inputs = "tf.estimator.inputs"
        """
        self.assertCodemod(before, after)

    def test_adds_compat_import_keeps_code(self):
        before = """
            import tensorflow as tf
            est = tf.estimator.Estimator(model_fn=model_fn)
        """
        after = """
            import compat
            import tensorflow as tf
            est = tf.estimator.Estimator(model_fn=model_fn)
        """
        self.assertCodemod(before, after)

    def test_compat_is_imported_before_anything_that_can_import_tensorflow(self):
        # a project module imported first may import TensorFlow: compat must set up before that
        before = """
            \"\"\"Train.\"\"\"
            from __future__ import print_function
            import os
            import sys

            import my_model
            import tensorflow as tf
            est = tf.estimator.Estimator(model_fn=my_model.model_fn)
        """
        after = """
            \"\"\"Train.\"\"\"
            from __future__ import print_function
            import os
            import sys
            import compat

            import my_model
            import tensorflow as tf
            est = tf.estimator.Estimator(model_fn=my_model.model_fn)
        """
        self.assertCodemod(before, after)

    def test_compat_already_imported(self):
        source = """
            import compat
            import tensorflow as tf
            spec = tf.estimator.EstimatorSpec(mode, loss=loss)
        """
        self.assertCodemod(source, source)

    def test_names_imported_from_tensorflow_estimator_come_from_compat_estimator(self):
        before = """
            from tensorflow.estimator import RunConfig, Estimator as E
            from tensorflow.estimator.export import ServingInputReceiver
            est = E(model_fn, config=RunConfig())
        """
        after = """
            import compat
            from compat.estimator import RunConfig, Estimator as E
            from tensorflow.estimator.export import ServingInputReceiver
            est = E(model_fn, config=RunConfig())
        """
        self.assertCodemod(before, after)

    def test_must_not_fire_on_shadowed_names_strings_comments(self):
        source = """
            import tensorflow as tf

            def run(tf):
                return tf.estimator.Estimator()  # tf.estimator of a local object
            name = "tf.estimator.Estimator"
        """
        self.assertCodemod(source, source)


def test_each_use_is_reported_once_at_its_line():
    # a name bound by a from-import is reported at its import
    source = (
        "import tensorflow as tf\n"
        "from tensorflow.estimator import RunConfig\n"
        "config = RunConfig()\n"
        "est = tf.estimator.Estimator(model_fn, config=config)\n"
        "mode = tf.estimator.ModeKeys.TRAIN\n"
    )
    applied = apply(source, EstimatorRule)
    got = [(e.line, e.message.split(":")[0]) for e in applied.entries]
    assert got == [
        (
            2,
            "from tensorflow.estimator import RunConfig -> from compat.estimator import ... "
            "(on TF 2.21 tensorflow.estimator is no module to import from)",
        ),
        (4, "tensorflow.estimator.Estimator"),
        (5, "tensorflow.estimator.ModeKeys.TRAIN"),
    ]


def test_names_from_submodules_of_tensorflow_estimator_are_a_warning_with_the_manual_step():
    source = "from tensorflow.estimator.export import ServingInputReceiver\n"
    applied = apply(source, EstimatorRule)
    [entry] = applied.entries
    assert entry.severity == "warning" and "is no module on TF 2.21" in entry.message
    assert entry.manual == "import tensorflow as tf and use tf.estimator.export.ServingInputReceiver"
