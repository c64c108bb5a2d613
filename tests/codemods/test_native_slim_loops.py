"""native-session on tf-slim's training loop (codemods/rules/_native_slim_loops.py): learning.train over
create_train_op, slim.conv2d / fully_connected under arg_scope, slim.flatten, a bare tf.losses loss read back by
get_total_loss -> an eager loop of Keras layers, checked against what TF 1.15 did (the golden file
tests/common/golden/tf115_slim_learning_train.json) and against the safe port from the same checkpoint. A script driven
by an evaluation loop, or by a learning.train the rule cannot prove, stays at the safe level with an entry saying why."""

import json
import os
import shutil

from bench import native
from codemods.rules import select
from codemods.rules._native_slim_loops import REASONS
from codemods.rules.native_session import NativeSessionRule
from tests.support.processes import REPO, run_file
from tests.support.rule_test import RuleTest, apply

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
            import compat.tf1_saver
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
                manager = compat.tf1_saver.CheckpointManager(checkpoint, train_dir, max_to_keep=5, checkpoint_name="model.ckpt", relative_paths=False)
                checkpoint.restore(manager.latest_checkpoint)
                compat.tf1_slots.restore_slots(optimizer, [*Conv.trainable_variables, *fully_connected.trainable_variables], manager.latest_checkpoint)
                manager.save_at_start(checkpoint_number=global_step)
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
        # (the optimizer bound to a name create_train_op alone reads: the same)
        inline = "create_train_op(total, tf.train.GradientDescentOptimizer(0.1))"
        named = before.replace(inline, "create_train_op(total, optimizer)").replace(
            "    train_op =", "    optimizer = tf.train.GradientDescentOptimizer(0.1)\n                train_op ="
        )
        self.assertCodemod(named, after, level="native")
        (said,) = [e.message for e in self.applied(before, level="native").entries]
        assert "conv2d -> Convolution2D, a Keras Conv2D" in said and "tf-slim's flatten -> a Keras Flatten" in said
        assert "learning.train -> an eager loop: a step, then a stop where the global step reaches" in said

    def test_a_module_level_learning_train_of_a_named_optimizer_and_a_flag_s_steps(self):
        # (its value unread: the step's loss is not kept; a number_of_steps of 0 trains without end, as TF1's test)
        before = """
            import tensorflow as tf
            import tf_slim as slim

            x = tf.ones([2, 3])
            logits = slim.fully_connected(x, 2, activation_fn=None)
            loss = tf.losses.sparse_softmax_cross_entropy([0, 1], logits)
            optimizer = tf.train.MomentumOptimizer(0.1, 0.9)
            train_op = slim.learning.create_train_op(loss, optimizer)
            slim.learning.train(train_op, "train", number_of_steps=FLAGS.steps, log_every_n_steps=10)
        """
        after = """
            import compat.tf1_saver
            import compat.tf1_slots
            import tensorflow as tf
            import time

            global_step = tf.Variable(0, dtype=tf.int64, trainable=False, name="global_step")

            class FullyConnected(tf.keras.layers.Dense):
                \"\"\"tf-slim's fully_connected: a Dense whose variables keep TF1's names (scope/weights, scope/biases).\"\"\"

                def add_weight(self, name=None, *args, **kwargs):
                    return super().add_weight({"kernel": "weights", "bias": "biases"}.get(name, name), *args, **kwargs)

            fully_connected = FullyConnected(units=2, activation=None, name="fully_connected")

            def model():
                x = tf.ones([2, 3])
                logits = fully_connected(x)
                loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)([0, 1], logits)
                return {"loss": loss}

            optimizer = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)

            @tf.function(input_signature=[])
            def train_step():
                with tf.GradientTape() as tape:
                    outputs = model()
                variables = tape.watched_variables()
                optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))
                global_step.assign_add(1)
                return tf.debugging.check_numerics(outputs["loss"], "LossTensor is inf or nan")

            model()  # (the layers make their variables: TF1's graph held them before its first step)
            optimizer.build([*fully_connected.trainable_variables])
            checkpoint = tf.train.Checkpoint(fully_connected=fully_connected, global_step=global_step, optimizer=optimizer)
            manager = compat.tf1_saver.CheckpointManager(checkpoint, "train", max_to_keep=5, checkpoint_name="model.ckpt", relative_paths=False)
            checkpoint.restore(manager.latest_checkpoint)
            compat.tf1_slots.restore_slots(optimizer, [*fully_connected.trainable_variables], manager.latest_checkpoint)
            manager.save_at_start(checkpoint_number=global_step)
            saved = time.time()
            while True:
                train_step()
                if time.time() >= saved + 600:
                    manager.save(checkpoint_number=global_step)
                    saved = time.time()
                if FLAGS.steps and int(global_step) >= FLAGS.steps:
                    break
            manager.save(checkpoint_number=global_step)
        """
        self.assertCodemod(before, after, level="native")

    def test_the_slim_import_goes_where_only_its_loop_used_it(self):
        before = """
            import tensorflow as tf
            import tf_slim as slim

            logits = tf.layers.dense(tf.ones([2, 3]), 2)
            loss = tf.losses.sparse_softmax_cross_entropy([0, 1], logits)
            train_op = slim.learning.create_train_op(loss, tf.train.AdamOptimizer(0.1))
            slim.learning.train(train_op, "train", number_of_steps=2)
        """
        code = self.applied(before, level="native").module.code
        assert "tf_slim" not in code and "while True:" in code, code

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
            f"{total}{create}slim.learning.train(train_op, 'd', number_of_steps=0)": (
                "learning.train without number_of_steps (it trains until it is stopped)"
            ),
            f"{total}{create}slim.learning.train(train_op, None, number_of_steps=2)": (
                "learning.train without a logdir (it then saves no checkpoint)"
            ),
            f"{total}{create}slim.learning.train(train_op, '', number_of_steps=2)": (
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
            "slim.learning.train(train_op, 'd', number_of_steps=2)\nprint(opt)": (
                "`opt`, the optimizer, is used besides create_train_op"
            ),
            f"{total}opt = tf.train.AdamOptimizer(0.1)\n"
            "train_op = opt.minimize(total)\n"
            "slim.learning.train(train_op, 'd', number_of_steps=2)": (
                "learning.train of a train op other than create_train_op's"
            ),
            f"{total}{create}y = tf.placeholder(tf.float32, [None])\n"
            "slim.learning.train(train_op, 'd', number_of_steps=2)": (
                "learning.train over placeholders or an input pipeline (the rule converts a graph of constants)"
            ),
            f"{total}{create}slim.learning.train(train_op, 'd', number_of_steps=2)\n"
            "slim.learning.train(train_op, 'd', number_of_steps=4)": "a second learning.train",
            f"norm = tf.layers.batch_normalization(logits, training=True)\n{total}{create}"
            "slim.learning.train(train_op, 'd', number_of_steps=2)": (
                "learning.train over batch normalization (model()'s first call would update its statistics)"
            ),
            f"{total}{create}with tf.Session() as sess:\n    sess.run(tf.global_variables_initializer())\n"
            "    sess.run(train_op)": (
                "create_train_op's train op run other than by learning.train (TF1 fetched the loss)"
            ),
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

    def test_must_not_fire_on_a_learning_train_outside_the_statements_it_reads(self):
        loop = "learning.train(train_op, train_dir, number_of_steps=3)"  # (an argument of print())
        source = TRAIN.format(import_slim="import tf_slim as slim", loop=loop)
        self.assertEqual(self.refused(source), [REASONS["learning.train"]])

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
# the corpus' learning.train script: the golden's net, number_of_steps 3, the value returned printed
CORPUS = os.path.join(REPO, "tests", "corpus", "slim_learning_train.py")


def test_a_learning_train_refused_once_its_loop_is_written_leaves_the_code_of_the_other_rules():
    """A host value of the loop left in tf.compat.v1 is refused after the loop's code is written (the safe pass's
    tf.compat.v1 name left in it): no import that code needed (time, compat.tf1_slots) stays. (A learning rate the
    graph computes is refused earlier, at the optimizer.)"""
    source = (
        "import tensorflow as tf\nimport tf_slim as slim\n\n\ndef main(train_dir):\n"
        "    logits = slim.fully_connected(tf.ones([2, 3]), 2, activation_fn=None)\n"
        "    loss = tf.losses.sparse_softmax_cross_entropy([0, 1], logits)\n"
        "    step = tf.train.get_or_create_global_step()\n"
        "    rate = tf.train.GradientDescentOptimizer(0.1)\n"
        "    train_op = slim.learning.create_train_op(loss, rate)\n"
        "    slim.learning.train(train_op, train_dir, number_of_steps=2 + len(tf.train.get_checkpoint_mtimes([train_dir])))\n\n\n"
        'if __name__ == "__main__":\n    main("train")\n'
    )
    others = apply(source, *select(level="native", ignore=(NativeSessionRule.ID,)), level="native")
    ported = apply(source, *select(level="native"), level="native")
    said = [e.message for e in ported.entries if e.rule == NativeSessionRule.ID]
    assert said == [PREFIX + "tf.compat.v1.train.get_checkpoint_mtimes has no native equivalent the rule knows"], said
    assert ported.module.code == others.module.code


def test_a_learning_train_program_left_at_the_safe_level_says_why(tmp_path):
    """The golden's own program reads the regularization loss collection and steps through train_step_fn: its native
    port is the safe one, with the entry naming the first."""
    report = native.migrate([RESTARTS], str(tmp_path / "native"), "native", in_process=True)
    assert native.converted(report) == []
    entries = [e["message"] for e in native._entries(report) if e["rule"] == "native-session"]
    why = "tf.losses.get_regularization_loss: a graph collection, which Keras layers do not fill"
    assert entries == [PREFIX + why]


def _run(port: str, train_dir) -> dict:
    """A run of a port of the corpus script into `train_dir`: what learning.train returned, the latest checkpoint, the
    files (event files left out), the state file (the folder written <DIR>) and each checkpoint's global step and
    variables (TF1's names, or object-based keys)."""
    import tensorflow as tf

    stdout = run_file(port, f"--train_dir={train_dir}").stdout
    found = {}
    for name in sorted(os.listdir(train_dir)):
        if name.startswith("model.ckpt-") and name.endswith(".index"):
            prefix = os.path.join(train_dir, name[: -len(".index")])
            names = sorted(n for n, _ in tf.train.list_variables(prefix))
            step = next(n for n in names if n.split("/")[0] == "global_step")
            found[os.path.basename(prefix)] = (int(tf.train.load_checkpoint(prefix).get_tensor(step)), names)
    return {
        "returned": float(next(line for line in stdout.splitlines() if line.startswith("final loss")).split()[-1]),
        "checkpoint": os.path.basename(tf.train.latest_checkpoint(str(train_dir))),
        "files": sorted(f for f in os.listdir(train_dir) if not f.startswith("events.out.tfevents")),
        "state": (train_dir / "checkpoint").read_text().replace(os.path.abspath(train_dir), "<DIR>"),
        "checkpoints": found,
    }


def test_the_native_port_of_learning_train_trains_restarts_and_saves_as_tf115_did(tmp_path):
    """The corpus script from scratch, run twice into one train_dir: each run trains the steps TF 1.15's did (the
    restart one step past number_of_steps), saves the checkpoints TF1 saved under the same names (not graph.pbtxt nor
    .meta), listed in the state file as TF1's Saver listed them (absolute paths, no timestamps), each holding the weights under TF1's names and the optimizer's slots. Then from the safe port's first run
    (TF1's checkpoints): the native port's restart trains to the safe port's loss, which is TF 1.15's (the optimizer's
    slots mapped)."""
    with open(GOLDEN, encoding="utf-8") as handle:
        golden = json.load(handle)["values"]["runs"][:2]  # (number_of_steps 3, then 3 again)
    report = native.migrate([CORPUS], str(tmp_path / "native"), "native", in_process=True)
    name = os.path.basename(CORPUS)
    port = native.ported_file(str(tmp_path / "native"), name, name)
    with open(port, encoding="utf-8") as handle:
        assert native.references(handle.read())[1] == 0  # no tf.* reference through tf.compat.v1
    assert [os.path.basename(p) for p in native.converted(report)] == [name]
    for ours, tf1 in zip([_run(port, tmp_path / "fresh") for _ in golden], golden, strict=True):
        assert ours["checkpoint"] == tf1["checkpoint"]  # (model.ckpt-3, then -4: the steps TF1 trained)
        assert ours["files"] == [f for f in tf1["files"] if not f.endswith(GRAPH_FILES)]
        assert ours["state"] == tf1["state"]
        assert sorted(ours["checkpoints"]) == sorted(tf1["checkpoints"])
        for checkpoint, (step, variables) in ours["checkpoints"].items():
            # each checkpoint holds the step it is named by, where TF1's restarted saver thread wrote the step after
            # it (its first save raced the first step: model.ckpt-3 then held step 4), which the explain says
            assert step == int(checkpoint.rpartition("-")[2])
            theirs = tf1["checkpoints"][checkpoint]["variables"]
            weights = sorted(n.split("/.ATTRIBUTES")[0] for n in variables if not n.startswith("optimizer/"))
            assert [w for w in weights if w.endswith(("weights", "biases"))] == [
                n for n in theirs if n.endswith(("weights", "biases"))
            ]
            slots = [n for n in variables if n.startswith("optimizer/_variables/")]
            assert len(slots) == len([n for n in theirs if n.endswith(("/Adam", "/Adam_1"))]) == 8
    assert golden[1]["checkpoints"]["model.ckpt-3"]["global_step"] == 4
    # the safe port's first run writes TF1's checkpoints; each port restarts from a copy of them
    migrated = native.migrate([CORPUS], str(tmp_path / "safe"), "safe", in_process=True)
    assert native.converted(migrated) == []
    safe = native.ported_file(str(tmp_path / "safe"), name, name)
    first = _run(safe, tmp_path / "safe_dir")
    assert abs(first["returned"] - golden[0]["returned"]) <= native.TOLERANCE
    shutil.copytree(tmp_path / "safe_dir", tmp_path / "native_dir")
    # (the native port first: the copied state names safe_dir's checkpoints by their absolute paths, as TF1's Saver
    # listed them, and the safe restart's saver thread rewrites safe_dir's model.ckpt-3 as it starts)
    restarts = {level: _run(path, tmp_path / f"{level}_dir") for level, path in (("native", port), ("safe", safe))}
    assert abs(restarts["native"]["returned"] - restarts["safe"]["returned"]) <= native.TOLERANCE, restarts
    assert abs(restarts["native"]["returned"] - golden[1]["returned"]) <= native.TOLERANCE, restarts
    assert restarts["native"]["checkpoint"] == restarts["safe"]["checkpoint"] == golden[1]["checkpoint"]
