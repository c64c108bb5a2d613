"""keras-predict: TF 1.x's Sequential.predict_classes and predict_proba -> compat.keras_models' functions of the model,
in a module importing TensorFlow.

That the port predicts as TF 1.15 did: tests/common/test_tf1_keras.py (keras_predict_classes.py, TF 2.15 and 2.21).
"""

from codemods.rules.keras_predict import KerasPredictRule
from tests.support.rule_test import RuleTest


class TestKerasPredict(RuleTest):
    TRANSFORM = KerasPredictRule

    def test_both_methods(self):
        before = """
            import tensorflow as tf

            labels = model.predict_classes(x_test)
            more = nets[0].predict_classes(x_test, 64, verbose=1)
            scores = model.predict_proba(x_test)
            batched = model.predict_proba(x_test, batch_size=8)
            loud = model.predict_proba(x_test, 8, 1)
            told = model.predict_proba(x_test, verbose=2)
        """
        after = """
            import compat.keras_models
            import tensorflow as tf

            labels = compat.keras_models.predict_classes(model, x_test)
            more = compat.keras_models.predict_classes(nets[0], x_test, 64, verbose=1)
            scores = compat.keras_models.predict_proba(model, x_test)
            batched = compat.keras_models.predict_proba(model, x_test, batch_size=8)
            loud = compat.keras_models.predict_proba(model, x_test, 8, 1)
            told = compat.keras_models.predict_proba(model, x_test, verbose=2)
        """
        self.assertCodemod(before, after)
        said = [entry.message for entry in self.applied(before).entries]
        assert len(said) == 6 and said[0].startswith("predict_classes(...) -> compat.keras_models.predict_classes("), (
            said
        )

    def test_must_not_fire(self):
        for source in (
            "import sklearn\nlabels = forest.predict_proba(x)\n",  # no TensorFlow: another library's method
            "import tensorflow as tf\nlabels = model.predict(x)\ntext = 'model.predict_classes(x)'  # predict_proba(x)\n",
            "import tensorflow as tf\nfunction = model.predict_classes\n",  # not called: left (and reported by nobody)
        ):
            with self.subTest(source=source):
                self.assertCodemod(source, source)
