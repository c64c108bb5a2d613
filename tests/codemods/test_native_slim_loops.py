"""native-session leaves a script driven by tf-slim's training or evaluation loop at the safe level, with an entry
saying why (codemods/rules/_native_slim_loops.py: what learning.train's Supervisor does, checked on TF 1.15: the
golden file tests/common/golden/tf115_slim_learning_train.json)."""

import json
import os
import textwrap

from bench import native
from codemods.rules._native_slim_loops import REASONS
from codemods.rules.native_session import NativeSessionRule
from tests.support.processes import REPO, result_json, run_file
from tests.support.rule_test import RuleTest

TRAIN = """
    import numpy as np
    import tensorflow as tf
    {import_slim}

    def main(train_dir):
        with tf.Graph().as_default():
            images = tf.constant(np.random.RandomState(0).rand(8, 16, 16, 3).astype(np.float32))
            labels = tf.constant(np.arange(8) % 4)
            logits = slim.fully_connected(slim.flatten(slim.conv2d(images, 4, [3, 3])), 4, activation_fn=None)
            tf.losses.sparse_softmax_cross_entropy(labels, logits)
            train_op = slim.learning.create_train_op(tf.losses.get_total_loss(), tf.train.AdamOptimizer(0.01))
            print("final loss", slim.{loop})
"""


class TestSlimLoops(RuleTest):
    TRANSFORM = NativeSessionRule

    def test_must_not_fire_on_a_script_driven_by_a_slim_loop(self):
        loops = {
            "learning.train(train_op, train_dir, number_of_steps=3)": REASONS["learning.train"],
            "evaluation.evaluate_once('', train_dir, train_dir)": REASONS["evaluation.evaluate_once"],
        }
        imports = (
            "from tensorflow.contrib import slim",
            "import tensorflow.contrib.slim as slim",
            "import tf_slim as slim",
        )
        for loop, why in loops.items():
            for import_slim in imports:
                with self.subTest(loop=loop, import_slim=import_slim):
                    source = TRAIN.format(import_slim=import_slim, loop=loop)
                    self.assertEqual(self.refused(source), [why])

    def test_a_session_script_calling_no_slim_loop_gets_no_such_entry(self):
        source = TRAIN.format(import_slim="from tensorflow.contrib import slim", loop="learning.create_train_op")
        self.assertEqual([m for m in self.refused(source) if "tf-slim's" in m], [])


# learning.train three times into one train_dir (number_of_steps 3, 3 again, then 5) on the corpus' net; its output
# on TF 1.15 is the golden file (python3 dev.py tf115)
RESTARTS = os.path.join(REPO, "tests", "common", "tf1_programs", "slim_learning_train_restarts.py")
GOLDEN = os.path.join(REPO, "tests", "common", "golden", "tf115_slim_learning_train.json")
# the native-session idiom (Keras layers under TF1's names, a Keras Adam, tf.train.Checkpoint) restoring a TF1
# train_dir's checkpoint: the weights load by name, Adam's slots and step count (m/Conv/weights, iteration) do not
# (TF1's are Conv/weights/Adam, beta1_power): what compat.tf1_slots maps, which the entry names
SLOTS = """
    import json
    import sys

    import compat  # (tf.keras is Keras 2)
    import numpy as np
    import tensorflow as tf


    class Named:
        def add_weight(self, name=None, *args, **kwargs):
            return super().add_weight({"kernel": "weights", "bias": "biases"}.get(name, name), *args, **kwargs)


    class Conv(Named, tf.keras.layers.Conv2D):
        pass


    class FullyConnected(Named, tf.keras.layers.Dense):
        pass


    reader = tf.train.load_checkpoint(sys.argv[1])
    conv = Conv(4, [3, 3], padding="same", activation="relu", name="Conv")
    fully_connected = FullyConnected(4, name="fully_connected")
    fully_connected(tf.reshape(conv(tf.zeros([8, 16, 16, 3])), [8, -1]))
    optimizer = tf.keras.optimizers.Adam(0.01, epsilon=1e-08)
    optimizer.build(conv.trainable_variables + fully_connected.trainable_variables)
    tf.train.Checkpoint(Conv=conv, fully_connected=fully_connected, optimizer=optimizer).restore(sys.argv[1])
    print("RESULT " + json.dumps({
        "weights": bool(np.array_equal(conv.kernel.numpy(), reader.get_tensor("Conv/weights"))),
        "slot": [v.name for v in optimizer.variables if v.shape == conv.kernel.shape][0],
        "slot_loaded": bool(np.array_equal(optimizer.variables[1].numpy(), reader.get_tensor("Conv/weights/Adam"))),
        "iteration": int(optimizer.iterations.numpy()),
        "beta1_power": float(reader.get_tensor("beta1_power")),
    }))
"""


def test_a_learning_train_script_at_the_native_level_trains_and_restarts_as_tf115_did(tmp_path):
    """--level native leaves the program at the safe level with the entry, and its port does what the entry says
    TF 1.15 did (the golden): a restart runs one step past number_of_steps, learning.train returns the last step's
    total loss, and each run saves under the global step it read as it started and at its end."""
    with open(GOLDEN, encoding="utf-8") as handle:
        golden = json.load(handle)["values"]["runs"]
    report = native.migrate([RESTARTS], str(tmp_path / "native"), "native", in_process=True)
    assert native.converted(report) == []
    entries = [e["message"] for e in native._entries(report) if e["rule"] == "native-session"]
    assert entries == [f"Session script left at the safe level: {REASONS['learning.train']}"]
    port = native.ported_file(
        str(tmp_path / "native"), "slim_learning_train_restarts.py", "slim_learning_train_restarts.py"
    )
    runs = result_json(run_file(port, str(tmp_path / "train_dir")).stdout)["runs"]
    assert [len(run["steps"]) for run in golden] == [3, 1, 1]  # (3 steps; step 4 of 3; step 5 of 5)
    for ours, tf1 in zip(runs, golden, strict=True):
        assert [s["global_step"] for s in ours["steps"]] == [s["global_step"] for s in tf1["steps"]]
        assert all(abs(a["loss"] - b["loss"]) <= native.TOLERANCE for a, b in zip(ours["steps"], tf1["steps"]))
        assert abs(ours["returned"] - tf1["returned"]) <= native.TOLERANCE
        assert tf1["returned"] == tf1["steps"][-1]["loss"]  # (the total loss of its last step)
        assert (ours["checkpoint"], ours["files"]) == (tf1["checkpoint"], tf1["files"])
        # every checkpoint holds the optimizer's slots under TF1's names; the one saved at the end, its last step
        # (what the timer thread's first save holds is a race with the first step: see the golden)
        assert {k: v["variables"] for k, v in ours["checkpoints"].items()} == {
            k: v["variables"] for k, v in tf1["checkpoints"].items()
        }
        last = ours["checkpoints"][ours["checkpoint"]]["global_step"]
        assert last == tf1["checkpoints"][tf1["checkpoint"]]["global_step"] == tf1["steps"][-1]["global_step"]
    probe_file = tmp_path / "slots.py"
    probe_file.write_text(textwrap.dedent(SLOTS))
    probe = result_json(run_file(str(probe_file), str(tmp_path / "train_dir" / "model.ckpt-5")).stdout)
    assert probe["weights"] and probe["slot"].startswith("m/Conv/weights"), probe
    assert not probe["slot_loaded"] and probe["iteration"] == 0 < probe["beta1_power"] < 1, probe
