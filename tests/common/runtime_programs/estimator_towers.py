"""A TF1-style Estimator program with device-setter towers; prints one JSON line of results.

Run as: estimator_towers.py MODEL_DIR. Same code on tf1 (real Estimator) and tf2 (compat).
"""

import json
import os
import sys

import numpy as np

import compat

compat.install()
import tensorflow.compat.v1 as tf  # noqa: E402

from compat import devices  # noqa: E402

tf.disable_v2_behavior()
BATCH, STEPS, SEED = 8, 3, 7


def input_fn():
    rng = np.random.RandomState(SEED)
    images = rng.rand(BATCH * 4, 8, 8, 1).astype("float32")
    labels = (images.mean(axis=(1, 2, 3)) > 0.5).astype("int32")
    return tf.data.Dataset.from_tensor_slices((images, labels)).repeat().batch(BATCH, drop_remainder=True)


def logits_of(images):
    init = tf.glorot_uniform_initializer(seed=SEED)
    net = tf.layers.conv2d(images, 4, 3, activation=tf.nn.relu, kernel_initializer=init, name="conv")
    return tf.layers.dense(tf.layers.flatten(net), 2, kernel_initializer=init, name="logits")


def model_fn(features, labels, mode, params):
    num_towers = params["towers"]
    if mode == tf.estimator.ModeKeys.PREDICT:
        with tf.variable_scope("model"):
            logits = logits_of(features)
        return tf.estimator.EstimatorSpec(mode, predictions={"class": tf.argmax(logits, 1)})
    losses, grads = [], []
    for i, (images, tower_labels) in enumerate(zip(tf.split(features, num_towers), tf.split(labels, num_towers))):
        with tf.variable_scope("model", reuse=i > 0), compat.device(devices.tower_setter(f"/cpu:{i}")):
            loss = tf.losses.sparse_softmax_cross_entropy(tower_labels, logits_of(images))
            losses.append(loss)
            grads.append(tf.gradients(loss, tf.trainable_variables()))
    with tf.device("/cpu:0"):
        averaged = [(tf.add_n(list(g)) / num_towers, v) for g, v in zip(zip(*grads), tf.trainable_variables())]
        loss = tf.reduce_mean(losses)
        # TF1 ref variables alias their buffer: without this barrier an update could land
        # while another tower's backprop still reads the weight, and the loss would vary.
        with tf.control_dependencies([g for g, _ in averaged]):
            train_op = tf.train.GradientDescentOptimizer(0.5).apply_gradients(
                averaged, tf.train.get_or_create_global_step()
            )
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def run(model_dir, towers):
    config = tf.estimator.RunConfig(model_dir=model_dir, session_config=devices.session_config(2), tf_random_seed=SEED)
    estimator = tf.estimator.Estimator(model_fn, config=config, params={"towers": towers})
    estimator.train(input_fn, max_steps=STEPS)
    return estimator


def main(root):
    towered = run(os.path.join(root, "towers"), 2)
    single = run(os.path.join(root, "single"), 1)
    evaluated = towered.evaluate(input_fn, steps=1)
    predictions = list(towered.predict(lambda: input_fn().map(lambda x, y: x).take(1)))
    export_dir = towered.export_saved_model(os.path.join(root, "export"), serving_input_fn)
    placed = _tower_graph_devices()
    print(
        "RESULT "
        + json.dumps(
            {
                "tower_loss": float(evaluated["loss"]),
                "single_loss": float(single.evaluate(input_fn, steps=1)["loss"]),
                "global_step": int(evaluated["global_step"]),
                "weights_equal": bool(
                    np.allclose(
                        towered.get_variable_value("model/conv/kernel"),
                        single.get_variable_value("model/conv/kernel"),
                        atol=1e-5,
                    )
                ),
                "predictions": len(predictions),
                "export": os.path.isfile(
                    os.path.join(export_dir.decode() if isinstance(export_dir, bytes) else export_dir, "saved_model.pb")
                ),
                "placed": placed,
                "estimator_module": type(towered).__module__,
            }
        )
    )


def serving_input_fn():
    images = tf.placeholder(tf.float32, [None, 8, 8, 1])
    return tf.estimator.export.TensorServingInputReceiver(images, {"images": images})


def _tower_graph_devices():
    """{variables: their devices, convolutions: theirs} of the 2-tower training graph."""
    with tf.Graph().as_default() as graph:
        images, labels = tf.data.make_one_shot_iterator(input_fn()).get_next()
        model_fn(images, labels, tf.estimator.ModeKeys.TRAIN, {"towers": 2})
        return {
            "variables": sorted({v.device for v in tf.trainable_variables()}),
            "convolutions": sorted(op.device for op in graph.get_operations() if op.type == "Conv2D"),
        }


if __name__ == "__main__":
    main(sys.argv[1])
