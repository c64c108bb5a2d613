"""A TF 1 program training with tf.train.MonitoredTrainingSession(checkpoint_dir, StopAtStepHook(last_step)) five
times into one checkpoint_dir: a fresh run to last_step 3, a restart with last_step 3 (already reached), restarts
with last_step 5, 6 and 7 (the last of which deletes model.ckpt-0: its Saver keeps 5) (or the last steps its second
argument lists). Prints `RESULT <json>`: for each run, the losses of its steps, the latest checkpoint (named by the
global step the chief's last save held), the files of the checkpoint_dir after it (its event files left out) and its
`checkpoint` state file (the folder written <DIR>); then the same of a run on a tf.data input of 3 batches with
last_step 10 (TF1's session ended its block quietly at the input's end); then how many handlers Python's root logger
has (none: TensorFlow's log lines print once).

Its output on real TensorFlow 1.15 is tests/common/golden/tf115_monitored_training.json (written by
`python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py); tests/codemods/test_rule_native_monitored.py
migrates this program at --level native and runs its port against it.
"""

import json
import logging
import os
import sys
import tempfile

import numpy as np
import tensorflow as tf


def train(directory, last):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 3])
        w = tf.Variable(tf.ones([3, 1]))
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
        global_step = tf.train.get_or_create_global_step()
        train_op = tf.train.MomentumOptimizer(0.05, 0.9).minimize(loss, global_step=global_step)
        hooks = [tf.train.StopAtStepHook(last_step=last)]
        rng = np.random.RandomState(0)
        losses = []
        with tf.train.MonitoredTrainingSession(checkpoint_dir=directory, hooks=hooks) as sess:
            while not sess.should_stop():
                _, value = sess.run([train_op, loss], {x: rng.rand(4, 3)})
                losses.append(round(float(value), 6))
    return losses


def train_on_data(directory):
    """A tf.data input of 3 batches, StopAtStepHook at 10: the session ends its block quietly at the end of the input."""
    with tf.Graph().as_default():
        features = np.random.RandomState(0).rand(12, 3).astype(np.float32)
        dataset = tf.data.Dataset.from_tensor_slices(features).batch(4)
        x = dataset.make_one_shot_iterator().get_next()
        w = tf.Variable(tf.ones([3, 1]))
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
        global_step = tf.train.get_or_create_global_step()
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=global_step)
        losses = []
        with tf.train.MonitoredTrainingSession(
            checkpoint_dir=directory, hooks=[tf.train.StopAtStepHook(last_step=10)]
        ) as sess:
            while not sess.should_stop():
                losses.append(round(float(sess.run([train_op, loss])[1]), 6))
    return losses


def main():
    directory = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp()
    # (the tests run other last steps: "3" and "3,5" continue a checkpoint_dir another port wrote)
    lasts = [int(last) for last in sys.argv[2].split(",")] if len(sys.argv) > 2 else [3, 3, 5, 6, 7]
    runs = []
    for last in lasts:
        losses = train(directory, last)
        latest = tf.train.latest_checkpoint(directory)
        files = sorted(f for f in os.listdir(directory) if not f.startswith("events.out.tfevents"))
        with open(os.path.join(directory, "checkpoint")) as handle:
            state = handle.read().replace(os.path.abspath(directory), "<DIR>")
        runs.append({"losses": losses, "checkpoint": os.path.basename(latest), "files": files, "state": state})
    data = os.path.join(directory, "data")
    losses = train_on_data(data)
    files = sorted(f for f in os.listdir(data) if not f.startswith("events.out.tfevents"))
    ended = {"losses": losses, "checkpoint": os.path.basename(tf.train.latest_checkpoint(data)), "files": files}
    print("RESULT " + json.dumps({"runs": runs, "end_of_input": ended, "root_handlers": len(logging.root.handlers)}))


if __name__ == "__main__":
    main()
