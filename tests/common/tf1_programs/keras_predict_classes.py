"""A TF 1.x tf.keras program reading its classifiers' predictions with Sequential.predict_classes and predict_proba,
which tf.keras removed in TF 2.6: a softmax model (the largest output's index) and a sigmoid one (above 0.5).

Prints `RESULT <json>`: the classes and probabilities of both. The weights and data are constants. Its output on
real TensorFlow 1.15 is tests/common/golden/tf115_keras_predict_classes.json (written by `python3 dev.py tf115`:
tests/common/golden/make_tf115_goldens.py).
"""

import json

import numpy as np
import tensorflow as tf

FEATURES = np.linspace(-1.0, 1.0, 10 * 3).reshape(10, 3).astype(np.float32)


def model(units, activation):
    built = tf.keras.models.Sequential([tf.keras.layers.Dense(units, activation=activation, input_shape=(3,))])
    kernel = np.linspace(-1.5, 1.5, 3 * units).reshape(3, units).astype(np.float32)
    built.set_weights([kernel, np.linspace(-0.2, 0.2, units).astype(np.float32)])
    return built


def main():
    softmax, sigmoid = model(4, "softmax"), model(1, "sigmoid")
    result = {
        "softmax classes": softmax.predict_classes(FEATURES).tolist(),
        "softmax probabilities": softmax.predict_proba(FEATURES, batch_size=4).tolist(),
        "sigmoid classes": sigmoid.predict_classes(FEATURES, 5).tolist(),
        "sigmoid probabilities": sigmoid.predict_proba(FEATURES).ravel().tolist(),
        "sigmoid class dtype": str(sigmoid.predict_classes(FEATURES[:2]).dtype),
    }
    print("RESULT " + json.dumps(result))


if __name__ == "__main__":
    main()
