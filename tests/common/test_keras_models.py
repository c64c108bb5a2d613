"""compat.keras_models: TF 1.x's Sequential.predict_classes / predict_proba as functions of the model. Their values as
TF 1.15's: tests/common/test_tf1_keras.py; here, that a receiver with a method of its own gets it called (uai-migrate
writes the functions for any such method call of a module importing TensorFlow, scikit-learn's predict_proba too),
and that uai-run's face gives Keras 2's Sequential the methods back, once."""

import numpy as np

import compat  # noqa: F401 - first: Keras 2 on TF >= 2.16
from compat import keras_models


class ProbabilisticClassifier:
    """An estimator of scikit-learn's interface (predict_proba(X) -> probabilities), which is not installed here."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def predict_proba(self, x, *args, **kwargs):
        self.calls.append((args, kwargs))
        return np.full((len(x), 2), 0.5)


def test_a_receiver_with_the_method_gets_its_own():
    estimator = ProbabilisticClassifier()
    assert keras_models.predict_proba(estimator, np.zeros((3, 1)), check_input=False).shape == (3, 2)
    assert estimator.calls == [((), {"check_input": False})]


def test_a_keras_model_gets_tf1s_computation_and_the_face_gives_the_methods_back():
    import tensorflow as tf

    softmax = tf.keras.Sequential([tf.keras.layers.Dense(3, activation="softmax", input_shape=(2,))])
    sigmoid = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid", input_shape=(2,))])
    x = np.linspace(-2.0, 2.0, 10).reshape(5, 2).astype(np.float32)
    expected_softmax = softmax.predict(x, verbose=0).argmax(axis=-1)
    expected_sigmoid = (sigmoid.predict(x, verbose=0) > 0.5).astype("int32")
    assert not hasattr(softmax, "predict_classes")  # TF >= 2.6
    np.testing.assert_array_equal(keras_models.predict_classes(softmax, x), expected_softmax)
    np.testing.assert_array_equal(keras_models.predict_classes(sigmoid, x, 2), expected_sigmoid)
    np.testing.assert_array_equal(keras_models.predict_proba(softmax, x), softmax.predict(x, verbose=0))
    keras_models.serve_removed_methods()
    keras_models.serve_removed_methods()  # (idempotent)
    try:
        np.testing.assert_array_equal(softmax.predict_classes(x), expected_softmax)
        np.testing.assert_array_equal(keras_models.predict_classes(sigmoid, x), expected_sigmoid)
    finally:
        for name in ("predict_classes", "predict_proba"):
            delattr(type(softmax), name)


def test_a_receivers_own_method_gets_its_keywords_whatever_their_names():
    # scikit-learn names its argument X: estimator.predict_proba(X=x) is ported to predict_proba(estimator, X=x)
    estimator = ProbabilisticClassifier()
    estimator.predict_proba = lambda X, model=None: (X, model)  # type: ignore[method-assign]
    assert keras_models.predict_proba(estimator, X="x", model="m") == ("x", "m")
    assert keras_models.predict_classes(estimator_with_classes(), X="x") == "x"


def estimator_with_classes():
    class WithClasses:
        def predict_classes(self, X):  # noqa: N803 - scikit-learn's spelling
            return X

    return WithClasses()
