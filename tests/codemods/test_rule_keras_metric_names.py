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


class TestKerasMetricNamesHostile(RuleTest):
    TRANSFORM = KerasMetricNamesRule

    def test_crossentropy_was_ce(self):
        # TF 1.15 named metrics=["crossentropy"] ce (measured: history ['loss', 'ce']); TF 2 names it crossentropy
        before = 'import tensorflow as tf\nm.compile(loss="mse", metrics=["accuracy", "crossentropy"])\n'
        after = 'import compat\nimport tensorflow as tf\nm.compile(loss="mse", metrics=["acc", "ce"])\n'
        self.assertCodemod(before, after)

    def test_a_metrics_list_bound_to_a_name_once(self):
        before = """
            import tensorflow as tf

            METRICS = ["accuracy"]

            def build(model):
                model.compile(optimizer="sgd", loss="mse", metrics=METRICS)
        """
        after = """
            import compat
            import tensorflow as tf

            METRICS = ["acc"]

            def build(model):
                model.compile(optimizer="sgd", loss="mse", metrics=METRICS)
        """
        self.assertCodemod(before, after)
        said = [entry.message for entry in self.applied(before).entries]
        assert len(said) == 1 and said[0].startswith('METRICS = ["accuracy"] (compile\'s metrics) -> "acc": '), said

    def test_must_not_fire_on_names(self):
        for source in (
            # bound twice (which one compile reads is known at run time only)
            'import tensorflow as tf\nM = ["accuracy"]\nif a:\n    M = ["mae"]\nm.compile(loss="mse", metrics=M)\n',
            'import tensorflow as tf\nM = ["accuracy"]\nfor M in x:\n    pass\nm.compile(loss="mse", metrics=M)\n',
            'import tensorflow as tf\ndef f(M=["accuracy"]):\n    M = ["accuracy"]\n    m.compile(loss="mse", metrics=M)\n',
            # a list of this name no compile reads
            'import tensorflow as tf\nM = ["accuracy"]\nm.compile(loss="mse", metrics=N)\nprint(M)\n',
            # another library's compile without TensorFlow, a file reading TF 2's names
            'import re\nM = ["accuracy"]\nr.compile(metrics=M)\n',
            'import tensorflow as tf\nM = ["accuracy"]\nm.compile(loss="mse", metrics=M)\nk = "val_accuracy"\n',
            'import tensorflow as tf\nm.compile(loss="mse", metrics=["crossentropy"])\nk = "val_crossentropy"\n',
        ):
            with self.subTest(source=source):
                self.assertCodemod(source, source)
