"""native-session on tf-slim's training loop (codemods/rules/_native_slim_loops.py): learning.train over
create_train_op, slim.conv2d / fully_connected under arg_scope, slim.flatten, a bare tf.losses loss read back by
get_total_loss -> an eager loop of Keras layers, checked against what TF 1.15 did (the golden file
tests/common/golden/tf115_slim_learning_train.json) and against the safe port from the same checkpoint. A script driven
by an evaluation loop, or by a learning.train the rule cannot prove, stays at the safe level with an entry saying why."""

import json
import os
import shutil

from bench import native
from codemods.rules._native_slim_loops import REASONS
from codemods.rules.native_session import NativeSessionRule
from tests.support.native_ports import migrated
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
            total = tf.losses.get_total_loss()
            train_op = slim.learning.create_train_op(total, tf.train.AdamOptimizer(0.01))
            print("final loss", slim.{loop})
"""
PREFIX = "Session script left at the safe level: "


class TestSlimLoops(RuleTest):
    TRANSFORM = NativeSessionRule

    def test_learning_train_becomes_an_eager_loop_saving_where_tf1_saved(self):
        before = """
            import tensorflow as tf
            import tf_slim as slim


            def main(train_dir):
                images = tf.ones([2, 4, 4, 1])
                labels = tf.constant([0, 1])
                with slim.arg_scope([slim.conv2d, slim.fully_connected], weights_regularizer=slim.l2_regularizer(1e-4)):
                    net = slim.conv2d(images, 2, [3, 3], padding="VALID")
                    logits = slim.fully_connected(slim.flatten(net), 2, activation_fn=None)
                tf.losses.sparse_softmax_cross_entropy(labels, logits)
                total = tf.losses.get_total_loss()
                train_op = slim.learning.create_train_op(total, tf.train.GradientDescentOptimizer(0.1))
                loss = slim.learning.train(train_op, train_dir, number_of_steps=2, save_interval_secs=60)
                print(loss)
        """
        after = """
            import compat.tf1_slots
            import tensorflow as tf
            import time


            def main(train_dir):
                global_step = tf.Variable(0, dtype=tf.int64, trainable=False, name="global_step")

                class Convolution2D(tf.keras.layers.Conv2D):
                    \"\"\"tf-slim's conv2d: a Conv2D whose variables keep TF1's names (scope/weights, scope/biases).\"\"\"

                    def add_weight(self, name=None, *args, **kwargs):
                        return super().add_weight({"kernel": "weights", "bias": "biases"}.get(name, name), *args, **kwargs)

                class FullyConnected(tf.keras.layers.Dense):
                    \"\"\"tf-slim's fully_connected: a Dense whose variables keep TF1's names (scope/weights, scope/biases).\"\"\"

                    def add_weight(self, name=None, *args, **kwargs):
                        return super().add_weight({"kernel": "weights", "bias": "biases"}.get(name, name), *args, **kwargs)

                Conv = Convolution2D(filters=2, kernel_size=[3, 3], padding="valid", activation=tf.nn.relu, kernel_regularizer=tf.keras.regularizers.l2(0.5 * 1e-4), name="Conv")
                Flatten = tf.keras.layers.Flatten(name="Flatten")
                fully_connected = FullyConnected(units=2, activation=None, kernel_regularizer=tf.keras.regularizers.l2(0.5 * 1e-4), name="fully_connected")

                def model():
                    images = tf.ones([2, 4, 4, 1])
                    labels = tf.constant([0, 1])
                    net = Conv(images)
                    logits = fully_connected(Flatten(net))
                    loss_1 = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)
                    total = tf.add_n([loss_1, *Conv.losses, *fully_connected.losses])
                    return {"total": total}

                optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

                @tf.function(input_signature=[])
                def train_step():
                    with tf.GradientTape() as tape:
                        outputs = model()
                    variables = tape.watched_variables()
                    optimizer.apply_gradients(zip(tape.gradient(outputs["total"], variables), variables))
                    global_step.assign_add(1)
                    return tf.debugging.check_numerics(outputs["total"], "LossTensor is inf or nan")

                model()  # (the layers make their variables: TF1's graph held them before its first step)
                optimizer.build([*Conv.trainable_variables, *fully_connected.trainable_variables])
                checkpoint = tf.train.Checkpoint(Conv=Conv, fully_connected=fully_connected, global_step=global_step, optimizer=optimizer)
                manager = tf.train.CheckpointManager(checkpoint, train_dir, max_to_keep=5, checkpoint_name="model.ckpt")
                checkpoint.restore(manager.latest_checkpoint)
                compat.tf1_slots.restore_slots(optimizer, [*Conv.trainable_variables, *fully_connected.trainable_variables], manager.latest_checkpoint)
                if manager.latest_checkpoint is None:
                    manager.save(checkpoint_number=global_step)
                saved = time.time()
                while True:
                    loss = train_step().numpy()
                    if time.time() >= saved + 60:
                        manager.save(checkpoint_number=global_step)
                        saved = time.time()
                    if int(global_step) >= 2:
                        break
                manager.save(checkpoint_number=global_step)
                print(loss)
        """
        self.assertCodemod(before, after, level="native")
        (said,) = [e.message for e in self.applied(before, level="native").entries]
        assert "conv2d -> Convolution2D, a Keras Conv2D" in said and "tf-slim's flatten -> a Keras Flatten" in said
        assert "learning.train -> an eager loop: a step, then a stop where the global step reaches" in said

    def test_must_not_fire_on_a_learning_train_it_cannot_prove(self):
        head = (
            "import tensorflow as tf\nimport tf_slim as slim\n"
            "x = tf.ones([2, 3])\nlogits = slim.fully_connected(x, 2)\n"
            "tf.losses.sparse_softmax_cross_entropy([0, 1], logits)\n"
        )
        total = "total = tf.losses.get_total_loss()\n"
        create = "train_op = slim.learning.create_train_op(total, tf.train.AdamOptimizer(0.1))\n"
        cases = {
            f"{total}{create}slim.learning.train(train_op, 'd', number_of_steps=2, init_fn=f)": (
                "learning.train(init_fn=...), which the rule does not convert"
            ),
            f"{total}{create}slim.learning.train(train_op, 'd', number_of_steps=2, train_step_fn=f)": (
                "learning.train(train_step_fn=...), which the rule does not convert"
            ),
            f"{total}{create}slim.learning.train(train_op, 'd', number_of_steps=2, sync_optimizer=o)": (
                "learning.train(sync_optimizer=...), which the rule does not convert"
            ),
            f"{total}{create}slim.learning.train(train_op, 'd', number_of_steps=2, summary_op=None)": (
                "learning.train(summary_op=...), which the rule does not convert"
            ),
            f"{total}{create}slim.learning.train(train_op, 'd', number_of_steps=2, master='grpc://ps:2222')": (
                "learning.train(master='grpc://ps:2222'), which the rule does not convert"
            ),
            f"{total}{create}slim.learning.train(train_op, 'd', number_of_steps=2, is_chief=FLAGS.task == 0)": (
                "learning.train(is_chief=FLAGS.task == 0), which the rule does not convert"
            ),
            f"{total}{create}slim.learning.train(train_op, 'd', number_of_steps=2, save_interval_secs=0)": (
                "learning.train(save_interval_secs=0), which the rule does not convert"
            ),
            f"{total}{create}slim.learning.train(train_op, 'd')": (
                "learning.train without number_of_steps (it trains until it is stopped)"
            ),
            f"{total}{create}slim.learning.train(train_op, None, number_of_steps=2)": (
                "learning.train without a logdir (it then saves no checkpoint)"
            ),
            f"{total}train_op = slim.learning.create_train_op(total, tf.train.AdamOptimizer(0.1), update_ops=[])\n"
            "slim.learning.train(train_op, 'd', number_of_steps=2)": (
                "create_train_op(update_ops=...), which the rule does not convert"
            ),
            "total = tf.losses.get_total_loss(add_regularization_losses=False)\n"
            f"{create}slim.learning.train(train_op, 'd', number_of_steps=2)": (
                "tf.losses.get_total_loss with arguments (the rule adds the regularization losses)"
            ),
            "l2 = 2.0 * tf.losses.sparse_softmax_cross_entropy([0, 1], logits)\n"
            f"{total}{create}slim.learning.train(train_op, 'd', number_of_steps=2)": (
                "tf.losses.get_total_loss over a loss computed inside an expression"
            ),
            f"{total}opt = tf.train.AdamOptimizer(0.1)\n"
            "train_op = slim.learning.create_train_op(total, opt)\n"
            "slim.learning.train(train_op, 'd', number_of_steps=2)": (
                "tf.train.AdamOptimizer, which the rule does not convert"
            ),
            f"{total}{create}y = tf.placeholder(tf.float32, [None])\n"
            "slim.learning.train(train_op, 'd', number_of_steps=2)": (
                "learning.train over placeholders or an input pipeline (the rule converts a graph of constants)"
            ),
            f"{total}{create}slim.learning.train(train_op, 'd', number_of_steps=2)\n"
            "slim.learning.train(train_op, 'd', number_of_steps=4)": "a second learning.train",
        }
        for graph, why in cases.items():
            with self.subTest(graph=graph):
                self.assertEqual(self.refused(head + graph + "\n"), [why])

    def test_must_not_fire_on_a_script_driven_by_a_slim_evaluation_loop(self):
        imports = (
            "from tensorflow.contrib import slim",
            "import tensorflow.contrib.slim as slim",
            "import tf_slim as slim",
        )
        for import_slim in imports:
            with self.subTest(import_slim=import_slim):
                source = TRAIN.format(
                    import_slim=import_slim, loop="evaluation.evaluate_once('', train_dir, train_dir)"
                )
                self.assertEqual(self.refused(source), [REASONS["evaluation.evaluate_once"]])

    def test_a_session_script_calling_no_slim_loop_gets_no_such_entry(self):
        source = TRAIN.format(import_slim="from tensorflow.contrib import slim", loop="learning.create_train_op")
        self.assertEqual([m for m in self.refused(source) if "tf-slim's" in m], [])


# TF 1.15's learning.train three times into one train_dir (number_of_steps 3, 3 again, then 5) on the corpus' net: the
# golden file (python3 dev.py tf115), of a program that records each step through train_step_fn, which the rule
# refuses (its own step function)
RESTARTS = os.path.join(REPO, "tests", "common", "tf1_programs", "slim_learning_train_restarts.py")
GOLDEN = os.path.join(REPO, "tests", "common", "golden", "tf115_slim_learning_train.json")
# what TF1 wrote besides checkpoints (the native port does not): the graph's text, each checkpoint's meta graph
GRAPH_FILES = ("graph.pbtxt", ".meta")
# the same net and runs, in the shape the rule converts: what learning.train returned, the latest checkpoint, the
# files of train_dir and each checkpoint's global step and variables (TF1's names, or object-based keys)
PROGRAM = """
    import json
    import os
    import sys

    import numpy as np
    import tensorflow as tf
    from tensorflow.contrib import slim


    def train(directory, steps):
        with tf.Graph().as_default():
            tf.set_random_seed(1)
            images = tf.constant(np.random.RandomState(0).rand(8, 16, 16, 3).astype(np.float32))
            labels = tf.constant(np.arange(8) % 4)
            with slim.arg_scope([slim.conv2d], padding="SAME", weights_regularizer=slim.l2_regularizer(1e-4)):
                net = slim.conv2d(images, 4, [3, 3])
            logits = slim.fully_connected(slim.flatten(net), 4, activation_fn=None)
            tf.losses.sparse_softmax_cross_entropy(labels, logits)
            total = tf.losses.get_total_loss()
            train_op = slim.learning.create_train_op(total, tf.train.AdamOptimizer(0.01))
            final = slim.learning.train(train_op, directory, number_of_steps=steps, save_summaries_secs=3600)
        return round(float(final), 6)


    def checkpoints(directory):
        found = {}
        for name in sorted(os.listdir(directory)):
            if name.startswith("model.ckpt-") and name.endswith(".index"):
                prefix = os.path.join(directory, name[: -len(".index")])
                names = sorted(n for n, _ in tf.train.list_variables(prefix))
                step = next(n for n in names if n.split("/")[0] == "global_step")
                value = int(tf.train.load_checkpoint(prefix).get_tensor(step))
                found[os.path.basename(prefix)] = {"global_step": value, "variables": names}
        return found


    def main():
        directory, runs = sys.argv[1], []
        for steps in sys.argv[2].split(","):
            final = train(directory, int(steps))
            files = sorted(f for f in os.listdir(directory) if not f.startswith("events.out.tfevents"))
            latest = os.path.basename(tf.train.latest_checkpoint(directory))
            runs.append({"returned": final, "checkpoint": latest, "files": files, "checkpoints": checkpoints(directory)})
        print("RESULT " + json.dumps({"runs": runs}))


    if __name__ == "__main__":
        main()
"""


def test_a_learning_train_program_left_at_the_safe_level_says_why(tmp_path):
    """The golden's own program reads the regularization loss collection and steps through train_step_fn: its native
    port is the safe one, with the entry naming the first."""
    report = native.migrate([RESTARTS], str(tmp_path / "native"), "native", in_process=True)
    assert native.converted(report) == []
    entries = [e["message"] for e in native._entries(report) if e["rule"] == "native-session"]
    why = "tf.losses.get_regularization_loss: a graph collection, which Keras layers do not fill"
    assert entries == [PREFIX + why]


def test_the_native_port_of_learning_train_trains_restarts_and_saves_as_tf115_did(tmp_path):
    """From scratch, three runs into one train_dir: each trains the steps TF 1.15's did (a restart one step past
    number_of_steps), saves the checkpoints TF1 saved under the same names (not graph.pbtxt nor .meta), each holding the
    weights under TF1's names and the optimizer's slots. Then from the safe port's first run (TF1's checkpoints): the
    native port's restarts train to the safe port's losses, which are TF 1.15's (the optimizer's slots mapped)."""
    with open(GOLDEN, encoding="utf-8") as handle:
        golden = json.load(handle)["values"]["runs"]
    ports = {level: path for level, (path, _) in migrated(tmp_path, "slim_restarts.py", PROGRAM).items()}
    with open(ports["native"], encoding="utf-8") as handle:
        assert native.references(handle.read())[1] == 0  # no tf.* reference through tf.compat.v1
    runs = result_json(run_file(ports["native"], str(tmp_path / "fresh"), "3,3,5").stdout)["runs"]
    for ours, tf1 in zip(runs, golden, strict=True):
        assert ours["checkpoint"] == tf1["checkpoint"]  # (model.ckpt-3, -4 then -5: the steps TF1 trained)
        assert ours["files"] == [f for f in tf1["files"] if not f.endswith(GRAPH_FILES)]
        assert sorted(ours["checkpoints"]) == sorted(tf1["checkpoints"])
        for name, saved in ours["checkpoints"].items():
            # each checkpoint holds the step it is named by; TF1's restarted saver thread wrote the step after it
            # (its first save raced the first step: model.ckpt-3 then held step 4), which the explain says
            assert saved["global_step"] == int(name.rpartition("-")[2])
            theirs = tf1["checkpoints"][name]["variables"]
            weights = sorted(n for n in theirs if n.endswith(("weights", "biases")))
            assert (
                sorted(
                    k.split("/.ATTRIBUTES")[0]
                    for k in saved["variables"]
                    if k.endswith(("weights/.ATTRIBUTES/VARIABLE_VALUE", "biases/.ATTRIBUTES/VARIABLE_VALUE"))
                )
                == weights
            )
            slots = [k for k in saved["variables"] if k.startswith("optimizer/_variables/")]
            assert len(slots) == len([n for n in theirs if n.endswith(("/Adam", "/Adam_1"))]) == 8
    assert {n: c["global_step"] for n, c in golden[2]["checkpoints"].items() if c["global_step"] != int(n[-1])} == {
        "model.ckpt-3": 4,
        "model.ckpt-4": 5,
    }
    # the safe port's first run writes TF1's checkpoints; both ports restart from a copy of them
    first = result_json(run_file(ports["safe"], str(tmp_path / "safe"), "3").stdout)["runs"]
    shutil.copytree(tmp_path / "safe", tmp_path / "native_dir")
    later = {
        level: result_json(run_file(ports[level], str(tmp_path / folder), "3,5").stdout)["runs"]
        for level, folder in (("safe", "safe"), ("native", "native_dir"))
    }
    assert abs(first[0]["returned"] - golden[0]["returned"]) <= native.TOLERANCE
    for ours, safe, tf1 in zip(later["native"], later["safe"], golden[1:], strict=True):
        assert abs(ours["returned"] - safe["returned"]) <= native.TOLERANCE, (later, golden)
        assert abs(ours["returned"] - tf1["returned"]) <= native.TOLERANCE, (later, golden)
        assert ours["checkpoint"] == safe["checkpoint"] == tf1["checkpoint"]
