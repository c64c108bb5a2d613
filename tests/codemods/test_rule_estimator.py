"""tf-estimator: code kept, `import compat` ensured (Estimator on TF 2.21), every use reported."""

import inspect

from codemods.rules import _tf
from codemods.rules.estimator import EstimatorRule
from tests.support.rule_test import RuleTest, apply


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


class TestCannedEstimators(RuleTest):
    """TF 2's canned estimators are other classes than TF 1's (their loss averaged over the batch, Keras
    optimizers): TF1 code gets TF1's, `tf.compat.v1.estimator.<name>`."""

    TRANSFORM = EstimatorRule

    def test_attribute_chains_get_tf1s_class(self):
        before = """
            import tensorflow as tf
            est = tf.estimator.LinearClassifier(columns, model_dir=d)
            reg = tf.estimator.DNNRegressor([8], columns, config=tf.estimator.RunConfig())
            spec = tf.estimator.classifier_parse_example_spec(columns, "label")
            base = tf.estimator.Estimator(model_fn)
            kept = tf.compat.v1.estimator.LinearRegressor(columns)
        """
        after = """
            import compat
            import tensorflow as tf
            est = tf.compat.v1.estimator.LinearClassifier(columns, model_dir=d)
            reg = tf.compat.v1.estimator.DNNRegressor([8], columns, config=tf.estimator.RunConfig())
            spec = tf.compat.v1.estimator.classifier_parse_example_spec(columns, "label")
            base = tf.estimator.Estimator(model_fn)
            kept = tf.compat.v1.estimator.LinearRegressor(columns)
        """
        self.assertCodemod(before, after)

    def test_the_users_alias_stays(self):
        before = """
            import tensorflow
            est = tensorflow.estimator.BaselineClassifier(n_classes=3)
        """
        after = """
            import compat
            import tensorflow
            est = tensorflow.compat.v1.estimator.BaselineClassifier(n_classes=3)
        """
        self.assertCodemod(before, after)

    def test_imported_names_come_from_tf1s_estimator_module(self):
        before = """
            from tensorflow.estimator import LinearClassifier, RunConfig as Config
            est = LinearClassifier(columns, config=Config())
        """
        after = """
            import compat
            from tensorflow_estimator.python.estimator.api._v1.estimator import LinearClassifier, RunConfig as Config
            est = LinearClassifier(columns, config=Config())
        """
        self.assertCodemod(before, after)


def test_a_canned_estimator_is_reported_with_its_tf1_class():
    source = (
        "import tensorflow as tf\n"
        "from tensorflow.estimator import LinearRegressor, RunConfig\n"
        "est = tf.estimator.DNNClassifier([4], columns)\n"
    )
    messages = [(e.line, e.message) for e in apply(source, EstimatorRule).entries]
    v1_module = _tf.api()["estimator"]["v1_module"]
    assert [(line, message.split(" (")[0]) for line, message in messages if "->" in message] == [
        (2, f"from tensorflow.estimator import LinearRegressor -> from {v1_module} import ..."),
        (2, f"from tensorflow.estimator import RunConfig -> from {v1_module} import ..."),
        (3, "tf.estimator.DNNClassifier -> tf.compat.v1.estimator.DNNClassifier"),
    ]
    assert "loss over the batch" in messages[0][1] and messages[1][1].endswith("the same object)"), messages


def test_every_ported_differing_name_is_tf1s_object_and_its_loss_is_summed():
    """Run the port of each name of the derived table in both spellings: TF 1's object, whose default
    loss reduction is TF 1's sum (TF 2's averages over the batch: what made the ported runs' losses 16x smaller)."""
    import tensorflow as tf

    import compat  # noqa: F401 - tf.estimator on TF 2.21

    names = _tf.api()["estimator"]["differs"]
    lines = ["import tensorflow as tf"]
    for name in names:
        lines += [
            f"attribute_{name} = tf.estimator.{name}",
            f"from tensorflow.estimator import {name} as imported_{name}",
        ]
    namespace = {}
    exec(apply("\n".join(lines) + "\n", EstimatorRule).module.code, namespace)  # noqa: S102
    reductions = {}
    for name in names:
        tf1 = getattr(tf.compat.v1.estimator, name)
        assert namespace[f"attribute_{name}"] is tf1 and namespace[f"imported_{name}"] is tf1, name
        assert getattr(tf.estimator, name) is not tf1, name
        if "loss_reduction" in inspect.signature(tf1).parameters:
            reductions[name] = (_default(tf1), _default(getattr(tf.estimator, name)))
    assert "LinearClassifier" in reductions, reductions
    assert {tf1 for tf1, _ in reductions.values()} == {tf.compat.v1.losses.Reduction.SUM}, reductions
    assert {tf2 for _, tf2 in reductions.values()} == {tf.keras.losses.Reduction.SUM_OVER_BATCH_SIZE}, reductions


def _default(cls):
    return inspect.signature(cls).parameters["loss_reduction"].default
