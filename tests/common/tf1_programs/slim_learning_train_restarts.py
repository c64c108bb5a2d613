"""A TF 1 program training with tf-slim's learning.train three times into one train_dir: a fresh run to
number_of_steps 3, a restart with number_of_steps 3 (already reached), a restart with number_of_steps 5. The net is
tests/corpus/slim_learning_train.py's (slim.conv2d under arg_scope with an l2 regularizer, flatten, fully_connected,
tf.losses.sparse_softmax_cross_entropy, get_total_loss, create_train_op of an AdamOptimizer), save_summaries_secs large.

Prints `RESULT <json>`: for each run, the total loss and the global step (as train_step fetched it) of each step it
ran (learning.train's own train_step, wrapped to record them), the value learning.train returned, the latest
checkpoint, the files of train_dir after it (its event files left out), its `checkpoint` state file and, for each
checkpoint, the global step it holds and its variables' names; and the regularization loss at the first step of the first run.

Its output on real TensorFlow 1.15 is tests/common/golden/tf115_slim_learning_train.json (written by
`python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py).
"""

import json
import os
import sys
import tempfile

import numpy as np
import tensorflow as tf
from tensorflow.contrib import slim


def train(directory, steps):
    record = []
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        images = tf.constant(np.random.RandomState(0).rand(8, 16, 16, 3).astype(np.float32))
        labels = tf.constant(np.arange(8) % 4)
        with slim.arg_scope([slim.conv2d], padding="SAME", weights_regularizer=slim.l2_regularizer(1e-4)):
            net = slim.conv2d(images, 4, [3, 3])
        logits = slim.fully_connected(slim.flatten(net), 4, activation_fn=None)
        tf.losses.sparse_softmax_cross_entropy(labels, logits)
        total = tf.losses.get_total_loss()
        regularization = tf.losses.get_regularization_loss()
        train_op = slim.learning.create_train_op(total, tf.train.AdamOptimizer(0.01))

        def step(sess, op, global_step, kwargs):
            loss, stop = slim.learning.train_step(sess, op, global_step, kwargs)
            record.append({"loss": round(float(loss), 6), "global_step": int(sess.run(global_step))})
            if len(record) == 1:
                record[0]["regularization"] = round(float(sess.run(regularization)), 8)
            return loss, stop

        final = slim.learning.train(
            train_op, directory, number_of_steps=steps, save_summaries_secs=3600, train_step_fn=step
        )
    return record, round(float(final), 6)


def checkpoints(directory):
    """checkpoint prefix -> its global step and its variables' names."""
    found = {}
    for name in sorted(os.listdir(directory)):
        if name.startswith("model.ckpt-") and name.endswith(".index"):
            prefix = os.path.join(directory, name[: -len(".index")])
            reader = tf.train.load_checkpoint(prefix)
            found[os.path.basename(prefix)] = {
                "global_step": int(reader.get_tensor("global_step")),
                "variables": sorted(n for n, _ in tf.train.list_variables(prefix)),
            }
    return found


def state(directory):
    """The `checkpoint` state file, the folder written <DIR>."""
    with open(os.path.join(directory, "checkpoint")) as handle:
        return handle.read().replace(os.path.abspath(directory), "<DIR>")


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp()
    runs = []
    for steps in (3, 3, 5):
        record, final = train(directory, steps)
        runs.append(
            {
                "number_of_steps": steps,
                "steps": record,
                "returned": final,
                "checkpoint": os.path.basename(tf.train.latest_checkpoint(directory)),
                "files": sorted(f for f in os.listdir(directory) if not f.startswith("events.out.tfevents")),
                "state": state(directory),
                "checkpoints": checkpoints(directory),
            }
        )
    print("RESULT " + json.dumps({"runs": runs}))


if __name__ == "__main__":
    main()
