"""keras-metric-names: compile(metrics=["accuracy"]) -> "acc" (TF 1.x's name of it) in a module importing TensorFlow,
with import compat; a file reading TF 2's names stays as written.

That the port reads its metrics as TF 1.15 did: tests/common/test_tf1_keras.py (on TF 2.15 and 2.21).
"""

from codemods.rules.keras_metric_names import KerasMetricNamesRule
from tests.support.rule_test import RuleTest


class TestKerasMetricNames(RuleTest):
    TRANSFORM = KerasMetricNamesRule

    def test_the_metrics_arguments(self):
        before = """
            import tensorflow as tf

            model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
            model.compile("adam", "mse", ('accuracy', "mae"))
            two.compile(optimizer="sgd", loss={"a": "mse"}, metrics={"a": ["accuracy"], "b": "accuracy"})
            model.compile(optimizer="sgd", loss="mse", weighted_metrics=["accuracy"])
            history = model.fit(x, y, callbacks=[tf.keras.callbacks.EarlyStopping(monitor="val_acc")])
        """
        after = """
            import compat
            import tensorflow as tf

            model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["acc"])
            model.compile("adam", "mse", ('acc', "mae"))
            two.compile(optimizer="sgd", loss={"a": "mse"}, metrics={"a": ["acc"], "b": "acc"})
            model.compile(optimizer="sgd", loss="mse", weighted_metrics=["acc"])
            history = model.fit(x, y, callbacks=[tf.keras.callbacks.EarlyStopping(monitor="val_acc")])
        """
        self.assertCodemod(before, after)
        said = [entry.message for entry in self.applied(before).entries]
        assert len(said) == 4 and said[0].startswith('compile(metrics=["accuracy"]) -> "acc": '), said

    def test_must_not_fire(self):
        for source in (
            # no TensorFlow in the module: another library's compile
            'import re\npattern = thing.compile(metrics=["accuracy"])\n',
            # the metric already named as TF 1.x named it, another metric, a variable, the loss
            'import tensorflow as tf\nm.compile(loss="mse", metrics=["acc", "mae", METRIC])\nm.compile(loss="accuracy")\n',
            # a file reading TF 2's names is TF 2 code
            'import tensorflow as tf\nm.compile(loss="mse", metrics=["accuracy"])\nprint(h.history["accuracy"])\n',
            'import tensorflow as tf\nm.compile(loss="mse", metrics=["accuracy"])\nc = Stop(monitor="val_accuracy")\n',
            'import tensorflow as tf\nm.compile(loss="mse", metrics=["accuracy"])\nc = Stop(monitor = "accuracy")\n',
            # a string, a comment, another method
            'import tensorflow as tf\ntext = "m.compile(metrics=[\'accuracy\'])"  # m.compile(metrics=["accuracy"])\n'
            'm.evaluate(x, metrics=["accuracy"])\n',
        ):
            with self.subTest(source=source):
                self.assertCodemod(source, source)
