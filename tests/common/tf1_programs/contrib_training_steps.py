"""A TF 1 program training with tf.contrib.training (TF 1.15's; tf-slim's training and evaluation modules since):
create_train_op with multiply_gradients and clip_gradient_norms_fn as its transform_grads_fn, three steps in a
Session, then train() to global step 5 into a fresh directory, evaluate_once on its checkpoint, and
checkpoints_iterator given a timeout_fn (TF 2.21's tf.train.checkpoints_iterator asks timeout_fn after every
checkpoint, TF 1.15's only after a timeout: the checkpoint written while the first is read is yielded by 1.15's).

Prints `RESULT <json>`: the losses of the Session steps, the loss train() returned, the global step and mean
evaluate_once computed, and the checkpoints the iterator yielded. The data and the weights are constants: no seed.
Its output on real TensorFlow 1.15 is tests/common/golden/tf115_contrib_training.json (written by
`python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py).
"""

import json
import os
import shutil
import tempfile

import numpy as np
import tensorflow as tf

FEATURES = np.linspace(-1.0, 1.0, 8 * 3).reshape(8, 3).astype(np.float32)
TARGETS = (FEATURES @ np.array([[0.5], [-1.0], [2.0]], np.float32) + 0.25).astype(np.float32)


def model():
    """(total loss, the mean squared error metric's value and update op) of a linear model on the constants."""
    weights = tf.get_variable("weights", initializer=np.full([3, 1], 0.1, np.float32))
    bias = tf.get_variable("bias", initializer=np.zeros([1], np.float32))
    predictions = tf.matmul(tf.constant(FEATURES), weights) + bias
    tf.losses.mean_squared_error(tf.constant(TARGETS), predictions)
    metric = tf.metrics.mean(tf.squared_difference(predictions, TARGETS))
    return tf.losses.get_total_loss(), metric


def train_op_of(total):
    def transform(grads_and_vars):
        multiplied = tf.contrib.training.multiply_gradients(grads_and_vars, {"bias": 3.0})
        return tf.contrib.training.clip_gradient_norms_fn(0.5)(multiplied)

    return tf.contrib.training.create_train_op(
        total, tf.train.GradientDescentOptimizer(0.1), transform_grads_fn=transform, summarize_gradients=True
    )


def session_steps():
    with tf.Graph().as_default():
        tf.train.get_or_create_global_step()
        train_op = train_op_of(model()[0])
        with tf.Session() as session:
            session.run(tf.global_variables_initializer())
            return [round(float(session.run(train_op)), 6) for _ in range(3)]


def train_and_evaluate(directory):
    with tf.Graph().as_default():
        tf.train.get_or_create_global_step()
        train_op = train_op_of(model()[0])
        # (its checkpoint saver hook writes the checkpoint of the last step when the hooks end)
        final = tf.contrib.training.train(
            train_op, directory, hooks=[tf.train.StopAtStepHook(last_step=5)], save_summaries_steps=None
        )
    with tf.Graph().as_default():
        global_step = tf.train.get_or_create_global_step()
        value, update = model()[1]
        evaluated = tf.contrib.training.evaluate_once(
            tf.train.latest_checkpoint(directory),
            eval_ops=update,
            final_ops={"mean": value, "global_step": global_step},
            hooks=[tf.contrib.training.StopAfterNEvalsHook(2)],
        )
    return round(float(final), 6), {key: round(float(value), 6) for key, value in evaluated.items()}


def yielded_checkpoints(directory):
    """The checkpoints checkpoints_iterator yields when the second is written while the first is read, and
    timeout_fn says from then on that no more will come."""
    with tf.Graph().as_default():
        step = tf.Variable(0, name="step")
        saver = tf.train.Saver([step])
        with tf.Session() as session:
            session.run(step.initializer)
            saver.save(session, os.path.join(directory, "model.ckpt"), global_step=1)
            done = []
            yielded = []
            for path in tf.contrib.training.checkpoints_iterator(directory, timeout=0.2, timeout_fn=lambda: bool(done)):
                yielded.append(os.path.basename(path))
                if len(yielded) == 1:
                    saver.save(session, os.path.join(directory, "model.ckpt"), global_step=2)
                    done.append(True)
    return yielded


def main():
    root = tempfile.mkdtemp()
    try:
        final, evaluated = train_and_evaluate(os.path.join(root, "train"))
        result = {
            "session losses": session_steps(),
            "train returned": final,
            "evaluate_once": evaluated,
            "checkpoints_iterator": yielded_checkpoints(os.path.join(root, "iterated")),
        }
    finally:
        shutil.rmtree(root)
    print("RESULT " + json.dumps(result, sort_keys=True))


main()
