"""native-session on monitored sessions and device setters (codemods/rules/_native_monitored.py): a monitored
session without arguments is a local Session initialising its variables; replica_device_setter with one local
device is that device, or None where ps_tasks is 0. Anything else stays at the safe level, with the entry saying why.

The rule runs alone here (the safe rules' rewrites are not applied); the equivalence test runs both ports.
"""

import json
import os
import subprocess
import sys
import textwrap

from bench import native
from codemods.rules._native_monitored import CLUSTER
from codemods.rules.native_session import NativeSessionRule
from tests.support.processes import REPO, python_env, result_json, run_file
from tests.support.rule_test import RuleTest

CONVERTS = (
    "; the rule converts one without arguments, or a MonitoredTrainingSession of a checkpoint_dir and a StopAtStepHook"
)
# a MonitoredTrainingSession writing its checkpoints, trained three times into one checkpoint_dir; its output on
# TF 1.15 is the golden file (python3 dev.py tf115)
RESTARTS = os.path.join(REPO, "tests", "common", "tf1_programs", "monitored_training_restarts.py")
GOLDEN = os.path.join(REPO, "tests", "common", "golden", "tf115_monitored_training.json")
# what TF1 wrote besides checkpoints (the native port does not): the graph's text, each checkpoint's meta graph
GRAPH_FILES = ("graph.pbtxt", ".meta")
# the bench's kind of script: a MonitoredTrainingSession loop with its checkpoint_dir from a flag
TRAINING = """
    import numpy as np
    import tensorflow as tf

    tf.app.flags.DEFINE_string("output_dir", "", "")
    FLAGS = tf.app.flags.FLAGS


    def main(_):
        x = tf.placeholder(tf.float32, [None, 3])
        w = tf.Variable(tf.ones([3, 1]))
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
        global_step = tf.train.get_or_create_global_step()
        train_op = tf.train.AdamOptimizer(0.05).minimize(loss, global_step=global_step)
        hooks = [tf.train.StopAtStepHook(last_step=4)]
        rng = np.random.RandomState(0)
        with tf.train.MonitoredTrainingSession(checkpoint_dir=FLAGS.output_dir, hooks=hooks) as sess:
            while not sess.should_stop():
                print("loss", sess.run([train_op, loss], {x: rng.rand(4, 3)})[1])


    if __name__ == "__main__":
        tf.app.run()
"""
# a training script of a plain MonitoredSession, its variable and loss under a local replica_device_setter
MONITORED = """
    import numpy as np
    import tensorflow as tf

    tf.app.flags.DEFINE_integer("ps_tasks", 1, "")
    FLAGS = tf.app.flags.FLAGS


    def main(_):
        setter = tf.train.replica_device_setter(ps_tasks=FLAGS.ps_tasks, ps_device="/cpu:0", worker_device="/cpu:0")
        x = tf.placeholder(tf.float32, [None, 3])
        with tf.device(setter):
            w = tf.Variable(tf.ones([3, 1]))
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
        train_op = tf.train.MomentumOptimizer(0.05, 0.9).minimize(loss)
        rng = np.random.RandomState(0)
        with tf.train.MonitoredSession() as sess:
            for step in range(3):
                _, value = sess.run([train_op, loss], {x: rng.rand(4, 3)})
                print("step", step, value)
            print("eval %.5f" % sess.run(loss, {x: rng.rand(4, 3)}))


    if __name__ == "__main__":
        tf.app.run()
"""


class TestNativeMonitored(RuleTest):
    TRANSFORM = NativeSessionRule

    def test_a_monitored_session_without_arguments_and_a_local_device_setter(self):
        before = """
            import tensorflow as tf

            def main(_):
                setter = tf.train.replica_device_setter(ps_tasks=FLAGS.ps_tasks, ps_device="/cpu:0", worker_device="/cpu:0")
                with tf.device(setter):
                    v = tf.Variable(3.0)
                    doubled = v * 2
                with tf.train.MonitoredSession() as sess:
                    print("doubled", sess.run(doubled))
        """
        after = """
            import compat
            import tensorflow as tf

            def main(_):
                setter = None if FLAGS.ps_tasks == 0 else "/cpu:0"
                with tf.device(setter):
                    v = tf.Variable(3.0, name="Variable")

                def model():
                    with tf.device(setter):
                        doubled = v * 2
                    return {"doubled": doubled}

                evaluate = tf.function(model, input_signature=[])

                print("doubled", evaluate()["doubled"].numpy())
        """
        self.assertCodemod(before, after, level="native")
        said = [e.message for e in self.applied(before, level="native").entries]
        self.assertIn(
            'setter = tf.train.replica_device_setter(...) -> "/cpu:0", the one local device it gave every op (None '
            "where ps_tasks is 0, as TF1 returned)",
            said[0],
        )

    def test_a_literal_ps_tasks_is_folded(self):
        for tasks, device in (("", "None"), ("ps_tasks=0, ", "None"), ("2, ", '"/device:CPU:0"')):
            before = f"""
                import tensorflow as tf
                setter = tf.train.replica_device_setter({tasks}ps_device="/device:CPU:0", worker_device="/device:CPU:0")
                with tf.device(setter):
                    v = tf.Variable(3.0)
                with tf.train.SingularMonitoredSession() as sess:
                    print(sess.run(v))
            """
            after = f"""
                import compat
                import tensorflow as tf
                setter = {device}
                with tf.device(setter):
                    v = tf.Variable(3.0, name="Variable")
                print(v.numpy())
            """
            with self.subTest(tasks=tasks):
                self.assertCodemod(before, after, level="native")

    def test_must_not_fire_on_a_monitored_session_with_arguments_and_names_them(self):
        body = "v = tf.Variable(3.0)\nwith tf.train.{call} as sess:\n    print(sess.run(v * 2))\n"
        hooks = "hooks run around each run"
        cases = {
            "MonitoredSession(hooks=[tf.train.StopAtStepHook(last_step=3)])": (
                f"tf.train.MonitoredSession(hooks=...): {hooks}"
            ),
            "MonitoredTrainingSession(master=server.target, is_chief=task == 0)": (
                f"tf.train.MonitoredTrainingSession(master=..., is_chief=...): master=server.target and is_chief=task "
                f"== 0 {CLUSTER}"
            ),
            "MonitoredTrainingSession(is_chief=is_chief, hooks=hooks)": (
                f"tf.train.MonitoredTrainingSession(is_chief=..., hooks=...): is_chief=is_chief {CLUSTER}; {hooks}"
            ),
            "MonitoredTrainingSession(master='', checkpoint_dir=out, save_summaries_steps=None)": (
                "tf.train.MonitoredTrainingSession(master=..., checkpoint_dir=..., save_summaries_steps=...): "
                "checkpoint_dir: it restores the latest checkpoint and its saver and summary hooks write there; "
                "save_summaries_steps, which a Session does not take"
            ),
            "MonitoredTrainingSession(checkpoint_dir=out)": (
                "tf.train.MonitoredTrainingSession(checkpoint_dir=...): checkpoint_dir: it restores the latest "
                "checkpoint and its saver and summary hooks write there"
            ),
            "MonitoredSession(creator)": "tf.train.MonitoredSession with positional arguments, which the rule does not read",
        }
        for call, why in cases.items():
            source = "import tensorflow as tf\n" + body.format(call=call)
            with self.subTest(call=call):
                suffix = "" if "positional" in why else CONVERTS
                self.assertEqual(self.refused(source), [why + suffix])

    def test_a_monitored_training_loop_runs_once_at_least_then_to_the_stop_hooks_step(self):
        before = """
            import tensorflow as tf

            def main(_):
                x = tf.placeholder(tf.float32, [None, 2])
                w = tf.Variable(tf.zeros([2, 1]))
                loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
                step = tf.train.get_or_create_global_step()
                train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, step)
                with tf.train.MonitoredTrainingSession(hooks=[tf.train.StopAtStepHook(num_steps=FLAGS.steps)]) as sess:
                    while not sess.should_stop():
                        print(sess.run([train_op, loss], feed_dict={x: [[1.0, 2.0]]})[1])
        """
        after = """
            import compat
            import tensorflow as tf

            def main(_):
                w = tf.Variable(tf.zeros([2, 1]), name="Variable")
                step = tf.Variable(0, dtype=tf.int64, trainable=False, name="global_step")

                def model(x):
                    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
                    return {"loss": loss}

                optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

                @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
                def train_step(x):
                    with tf.GradientTape() as tape:
                        outputs = model(x)
                    variables = tape.watched_variables()
                    optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))
                    step.assign_add(1)
                    return outputs["loss"]

                last_step = int(step) + FLAGS.steps
                while True:
                    print([None, train_step([[1.0, 2.0]]).numpy()][1])
                    if int(step) >= last_step:
                        break
        """
        self.assertCodemod(before, after, level="native")
        said = [e.message for e in self.applied(before, level="native").entries]
        self.assertIn("until the global step reaches StopAtStepHook's start + num_steps", said[0])

    def test_a_monitored_training_loop_writes_its_checkpoints_where_tf1s_chief_did(self):
        before = """
            import tensorflow as tf

            def train():
                x = tf.placeholder(tf.float32, [None, 2])
                w = tf.Variable(tf.zeros([2, 1]))
                loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
                global_step = tf.train.get_or_create_global_step()
                train_op = tf.train.AdamOptimizer(0.1).minimize(loss, global_step=global_step)
                hooks = [tf.train.StopAtStepHook(last_step=FLAGS.max_step or 5)]
                with tf.train.MonitoredTrainingSession(checkpoint_dir=FLAGS.output_dir, hooks=hooks) as sess:
                    step = 0
                    while not sess.should_stop():
                        _, value = sess.run([train_op, loss], {x: [[1.0, 2.0]]})
                        step += 1
                    print("steps", step)
        """
        after = """
            import compat.tf1_saver
            import compat.tf1_slots
            import tensorflow as tf
            import time

            def train():
                w = tf.Variable(tf.zeros([2, 1]), name="Variable")
                global_step = tf.Variable(0, dtype=tf.int64, trainable=False, name="global_step")

                def model(x):
                    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
                    return {"loss": loss}

                optimizer = tf.keras.optimizers.Adam(learning_rate=0.1, epsilon=1e-08)

                @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
                def train_step(x):
                    with tf.GradientTape() as tape:
                        outputs = model(x)
                    variables = tape.watched_variables()
                    optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))
                    global_step.assign_add(1)
                    return outputs["loss"]

                checkpoint = tf.train.Checkpoint(global_step=global_step, w=w, optimizer=optimizer)
                manager = compat.tf1_saver.CheckpointManager(checkpoint, FLAGS.output_dir, max_to_keep=5, checkpoint_name="model.ckpt", relative_paths=False)
                checkpoint.restore(manager.latest_checkpoint)
                compat.tf1_slots.restore_slots(optimizer, [global_step, w], manager.latest_checkpoint)
                last_step = FLAGS.max_step or 5
                manager.save_at_start(checkpoint_number=global_step)
                saved = (int(global_step), time.time())
                step = 0
                while True:
                    value = train_step([[1.0, 2.0]]).numpy()
                    step += 1
                    if int(global_step) != saved[0] and time.time() >= saved[1] + 600:
                        manager.save(checkpoint_number=global_step)
                        saved = (int(global_step), time.time())
                    if int(global_step) >= last_step:
                        break
                print("steps", step)
                if int(global_step) != saved[0]:
                    manager.save(checkpoint_number=global_step)
        """
        self.assertCodemod(before, after, level="native")
        said = [e.message for e in self.applied(before, level="native").entries]
        self.assertIn("its checkpoint_dir -> compat.tf1_saver.CheckpointManager there", said[0])

    def test_must_not_fire_on_a_monitored_training_loop_it_cannot_prove(self):
        graph = (
            "import tensorflow as tf\n"
            "x = tf.placeholder(tf.float32, [None, 2])\n"
            "w = tf.Variable(tf.zeros([2, 1]))\n"
            "loss = tf.reduce_mean(tf.matmul(x, w))\n"
            "gs = tf.train.get_or_create_global_step()\n"
            "{minimize}\n"
            "with tf.train.MonitoredTrainingSession(hooks=[tf.train.StopAtStepHook(last_step=3)]) as sess:\n"
            "{body}"
        )
        step = "op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, gs)"
        run = "        sess.run(op, {x: [[1.0, 2.0]]})\n"
        loop = "    while not sess.should_stop():\n"
        cases = {
            ("op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)", loop + run): (
                "StopAtStepHook reads the global step, which no minimize(loss, global_step) increments"
            ),
            (step, loop + run + "        print(sess.run(loss, {x: [[1.0, 2.0]]}))\n"): (
                "a loop body without exactly one sess.run, of the train op, as a statement of its own"
            ),
            (step, loop + "        if True:\n    " + run): (
                "a loop body without exactly one sess.run, of the train op, as a statement of its own"
            ),
            (step, loop + run + "        break\n"): (
                "a break, continue, return or yield in the loop (TF1's loop ended at should_stop alone)"
            ),
            (step, "    for _ in range(3):\n" + run): (
                "a MonitoredTrainingSession's block without one `while not sess.should_stop():` loop"
            ),
            (step, "    print(sess.run(loss, {x: [[1.0, 2.0]]}))\n" + loop + run): (
                "the session used outside its `while not sess.should_stop():` loop"
            ),
            (step, loop + "        print(sess.run([op, gs], {x: [[1.0, 2.0]]}))\n"): (
                "a training sess.run that also fetches variables, assign ops or metrics"
            ),
        }
        for (minimize, body), why in cases.items():
            with self.subTest(why=why, body=body):
                self.assertEqual(self.refused(graph.format(minimize=minimize, body=body)), [why])
        layers = graph.replace("tf.matmul(x, w)", "tf.layers.dense(x, 1)").format(minimize=step, body=loop + run)
        self.assertEqual(
            self.refused(layers),
            [
                "Keras layers or get_variable helpers, whose variables are made at the first step, after "
                "the checkpoint TF1's chief wrote at the start"
            ],
        )

    def test_must_not_fire_on_a_graph_a_function_of_the_module_builds_and_says_so(self):
        # (`train_op, loss = build()` reads no graph name and calls no TensorFlow: the entry said the train op, which
        # build() makes with minimize(loss, global_step), increments no global step; a Session's, that sess.run
        # fetched no tensor of the graph; the cause is the function, whose graph state the rule does not convert)
        build = (
            "import tensorflow as tf\n"
            "def build():\n"
            "    x = tf.ones([8, 4])\n"
            "    w = tf.Variable(tf.zeros([4, 1]))\n"
            "    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))\n"
            "    step = tf.train.get_or_create_global_step()\n"
            "    return tf.train.GradientDescentOptimizer(0.1).minimize(loss, {step}), loss\n"
            "def main(_):\n"
            "    train_op, loss = build()\n"
            "{session}"
        )
        monitored = (
            "    hooks = [tf.train.StopAtStepHook(last_step=3)]\n"
            '    with tf.train.MonitoredTrainingSession(checkpoint_dir="ck", hooks=hooks) as sess:\n'
            "        while not sess.should_stop():\n"
            "            sess.run([train_op, loss])\n"
        )
        session = "    with tf.Session() as sess:\n        sess.run([train_op, loss])\n"
        why = "the graph calls build(), which builds graph state the rule does not convert (tf.Variable)"
        for step in ("step", "global_step=step"):
            for run in (monitored, session):
                with self.subTest(step=step, run=run):
                    self.assertEqual(self.refused(build.format(step=step, session=run)), [why])
        # must-not-fire on the must-not-fire: a function building no graph state stays a host value, and converts
        host = (
            "import tensorflow as tf\n"
            "def rate():\n"
            "    return 0.1\n"
            "def main(_):\n"
            "    x = tf.placeholder(tf.float32, [None, 2])\n"
            "    w = tf.Variable(tf.zeros([2, 1]))\n"
            "    loss = tf.reduce_mean(tf.matmul(x, w))\n"
            "    learning_rate = rate()\n"
            "    op = tf.train.GradientDescentOptimizer(learning_rate).minimize(loss)\n"
            "    with tf.Session() as sess:\n"
            "        sess.run(op, {x: [[1.0, 2.0]]})\n"
        )
        self.assertIn("-> eager TF 2", self.applied(host, level="native").entries[0].message)

    def test_must_not_fire_on_hooks_beside_the_stop_hook_and_names_them_the_cause(self):
        # (the StopAtStepHook converts alone: the entry names the list of hooks, not it)
        source = (
            "import tensorflow as tf\n"
            "x = tf.placeholder(tf.float32, [None, 2])\n"
            "w = tf.Variable(tf.zeros([2, 1]))\n"
            "loss = tf.reduce_mean(tf.matmul(x, w))\n"
            "gs = tf.train.get_or_create_global_step()\n"
            "op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, gs)\n"
            'hooks = [tf.train.StopAtStepHook(last_step=3), tf.train.LoggingTensorHook({"loss": loss}, every_n_iter=1)]\n'
            "with tf.train.MonitoredTrainingSession(hooks=hooks) as sess:\n"
            "    while not sess.should_stop():\n"
            "        sess.run(op, {x: [[1.0, 2.0]]})\n"
        )
        self.assertEqual(
            self.refused(source), ["hooks other than one tf.train.StopAtStepHook, which the rule does not convert"]
        )

    def test_must_not_fire_on_a_one_shot_iterator_of_a_pipeline_bound_to_no_name(self):
        # (found here: the element was kept as a host statement, whose make_one_shot_iterator TF 2's datasets lack)
        source = """
            import tensorflow as tf
            x = tf.data.Dataset.from_tensor_slices([[1.0, 2.0]]).batch(1).make_one_shot_iterator().get_next()
            w = tf.Variable(tf.ones([2, 1]))
            loss = tf.reduce_sum(tf.matmul(x, w))
            train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                print(sess.run([train_op, loss])[1])
        """
        why = (
            "make_one_shot_iterator() of a tf.data pipeline bound to no name (the rule reads `dataset = ...` and "
            "`dataset.make_one_shot_iterator().get_next()`)"
        )
        self.assertEqual(self.refused(source), [why])

    def test_must_not_fire_on_a_device_setter_of_a_cluster(self):
        cases = {
            "ps_tasks=2": "tf.train.replica_device_setter without one local device as both ps_device and "
            "worker_device (its defaults /job:ps and /job:worker are a cluster's jobs)",
            "ps_tasks=2, ps_device='/cpu:0', worker_device='/job:worker/cpu:0'": "tf.train.replica_device_setter "
            "without one local device as both ps_device and worker_device (its defaults /job:ps and /job:worker are "
            "a cluster's jobs)",
            "cluster=cluster, ps_device='/cpu:0', worker_device='/cpu:0'": "tf.train.replica_device_setter(cluster="
            "...): it places the variables on a cluster's parameter servers",
        }
        for args, why in cases.items():
            source = (
                "import tensorflow as tf\n"
                f"setter = tf.train.replica_device_setter({args})\n"
                "with tf.device(setter):\n    v = tf.Variable(3.0)\n"
                "with tf.train.MonitoredSession() as sess:\n    print(sess.run(v))\n"
            )
            with self.subTest(args=args):
                self.assertEqual(self.refused(source), [why])

    def test_a_monitored_session_reading_a_dataset_ends_its_block_quietly_at_the_end_of_the_input(self):
        # (TF 1.15 and the port print 0.0, 1.0, 2.5600002 and done: 3 elements for 5 runs)
        before = """
            import tensorflow as tf
            dataset = tf.data.Dataset.range(3)
            x = dataset.make_one_shot_iterator().get_next()
            w = tf.Variable(1.0)
            loss = tf.square(w * tf.cast(x, tf.float32))
            train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.train.MonitoredSession() as sess:
                for _ in range(5):
                    print(sess.run([train_op, loss])[1])
            print("done")
        """
        after = """
            import compat
            import tensorflow as tf
            dataset = tf.data.Dataset.range(3)
            iterator = iter(dataset)
            w = tf.Variable(1.0, name="Variable")

            def model(x):
                loss = tf.square(w * tf.cast(x, tf.float32))
                return {"loss": loss}

            optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

            @tf.function(input_signature=[dataset.element_spec])
            def train_step(x):
                with tf.GradientTape() as tape:
                    outputs = model(x)
                variables = tape.watched_variables()
                optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))
                return outputs["loss"]

            try:
                for _ in range(5):
                    print([None, train_step(iterator.get_next()).numpy()][1])
            except (StopIteration, tf.errors.OutOfRangeError):
                pass  # (the end of the input)
            print("done")
        """
        self.assertCodemod(before, after, level="native")


# an evaluation only (compared by what it prints), printing the folder it is given
FOLDER = """
    import tensorflow as tf

    tf.app.flags.DEFINE_string("output_dir", "", "")
    FLAGS = tf.app.flags.FLAGS


    def main(_):
        v = tf.Variable(2.0)
        doubled = v * 2
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            print("wrote", FLAGS.output_dir, sess.run(doubled))


    if __name__ == "__main__":
        tf.app.run()
"""


def ports(tmp_path, name: str, source: str) -> dict[str, str]:
    """The script ported at both levels (the native level converts it, with no tf.compat.v1 left): level -> path."""
    script = tmp_path / name
    script.write_text(textwrap.dedent(source))
    ported = {
        level: native.migrate([str(script)], str(tmp_path / level), level, in_process=True)
        for level in ("safe", "native")
    }
    assert [os.path.basename(p) for p in native.converted(ported["native"])] == [name]
    files = {level: native.ported_file(str(tmp_path / level), name, name) for level in ported}
    with open(files["native"], encoding="utf-8") as handle:
        assert native.references(handle.read())[1] == 0  # no tf.* reference through tf.compat.v1
    (tmp_path / "runs").mkdir()
    return files


def test_the_native_port_of_a_monitored_session_trains_like_the_safe_port(tmp_path):
    files = ports(tmp_path, "monitored.py", MONITORED)
    row = native.equivalence("monitored.py", files["safe"], files["native"], [], str(tmp_path / "runs"))
    assert row["steps"] == 3 and row["loaded"] == "1/1" and row["equal"], row
    evaluations = [[line for line in out.splitlines() if line.startswith("eval")] for out in row["stdout"]]
    assert evaluations[0] and evaluations[0] == evaluations[1]


def test_the_native_port_of_a_monitored_training_loop_trains_like_the_safe_port(tmp_path):
    files = ports(tmp_path, "training.py", TRAINING)
    argv = {level: [f"--output_dir={tmp_path / 'runs' / level}"] for level in files}
    row = native.equivalence(
        "training.py", files["safe"], files["native"], argv["safe"], str(tmp_path / "runs"), argv["native"]
    )
    assert row["steps"] == 4 and row["loaded"] == "1/1" and row["equal"], row  # (4 steps: StopAtStepHook's last_step)
    written = [
        sorted(f for f in os.listdir(tmp_path / "runs" / level) if f.startswith("model.ckpt")) for level in files
    ]
    assert written[1] == [f for f in written[0] if not f.endswith(GRAPH_FILES)], written  # (model.ckpt-0 and -4)


def test_the_native_port_restarts_from_its_checkpoints_as_tf115_did(tmp_path):
    """Five runs into one checkpoint_dir (a fresh one to step 3, one already there, ones to steps 5, 6 and 7, the last
    deleting model.ckpt-0), and one on a tf.data input ending before the hook's step: the steps each ran, their losses,
    the checkpoints written and kept, and the state file listing them, against TF 1.15's; the root logger left without
    a handler (TF 2.21's saver logs through absl, whose first call gave it one: TensorFlow's lines then printed
    twice)."""
    with open(GOLDEN, encoding="utf-8") as handle:
        golden = json.load(handle)["values"]
    native.migrate([RESTARTS], str(tmp_path / "native"), "native", in_process=True)
    port = native.ported_file(
        str(tmp_path / "native"), "monitored_training_restarts.py", "monitored_training_restarts.py"
    )
    done = subprocess.run(
        [sys.executable, port, str(tmp_path / "checkpoints")],
        env=python_env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    runs = json.loads(next(line for line in done.stdout.splitlines() if line.startswith("RESULT "))[len("RESULT ") :])
    for ours, tf1 in zip(runs["runs"], golden["runs"], strict=True):
        assert len(ours["losses"]) == len(tf1["losses"])  # (3 steps, then 1 at step 3 already, then 1 to step 5)
        # (TF1's Momentum updates through a fused kernel, Keras's element-wise: bench.native.TOLERANCE)
        assert all(abs(a - b) <= native.TOLERANCE for a, b in zip(ours["losses"], tf1["losses"])), (ours, tf1)
        assert ours["checkpoint"] == tf1["checkpoint"]
        assert ours["files"] == [f for f in tf1["files"] if not f.endswith(GRAPH_FILES)]
        assert ours["state"] == tf1["state"]  # (absolute paths, no timestamps: the scaffold Saver's)
    assert runs["root_handlers"] == golden["root_handlers"] == 0
    # (nor does it warn of the TF1 functions compat.tf1_saver keeps the state file and deletes checkpoints with)
    assert "deprecated" not in done.stderr, done.stderr
    # a tf.data input of 3 batches, last_step 10: 3 steps, then the block ends quietly (TF1's session swallowed the
    # end of the input) and the chief's last checkpoint is written
    ours, tf1 = runs["end_of_input"], golden["end_of_input"]
    assert len(ours["losses"]) == len(tf1["losses"]) == 3
    assert all(abs(a - b) <= native.TOLERANCE for a, b in zip(ours["losses"], tf1["losses"])), (ours, tf1)
    assert ours["checkpoint"] == tf1["checkpoint"] and ours["files"] == [
        f for f in tf1["files"] if not f.endswith(GRAPH_FILES)
    ]


def test_the_native_port_continues_a_tf1_checkpoint_dir_with_its_optimizers_slots(tmp_path):
    """The safe port's first run writes TF1's checkpoints (as TF 1.15's, the test above), the native port's restarts
    continue them: their steps are TF 1.15's second and third runs. The step after the restart updates with the
    Momentum accumulator of TF1's checkpoint (`Variable/Momentum`), which the Keras SGD's slot (`m/Variable`) does
    not load by name: without compat.tf1_slots the port's third run trained to another loss (0.2704 against 0.1593
    in the run measured). The native port takes TF1's checkpoints over as TF1's Saver did: its run to step 7 deletes
    the safe port's model.ckpt-0, .meta included (tf.train.CheckpointManager deleted none it had not written)."""
    with open(GOLDEN, encoding="utf-8") as handle:
        golden = json.load(handle)["values"]["runs"]
    name = "monitored_training_restarts.py"
    ports = {}
    for level in ("safe", "native"):
        native.migrate([RESTARTS], str(tmp_path / level), level, in_process=True)
        ports[level] = native.ported_file(str(tmp_path / level), name, name)
    runs = {
        level: result_json(run_file(ports[level], str(tmp_path / "checkpoints"), lasts).stdout)
        for level, lasts in (("safe", "3"), ("native", "3,5,6,7"))
    }
    ours = [*runs["safe"]["runs"], *runs["native"]["runs"]]
    for run, tf1 in zip(ours, golden, strict=True):
        assert len(run["losses"]) == len(tf1["losses"]) and run["checkpoint"] == tf1["checkpoint"], (run, tf1)
        assert all(abs(a - b) <= native.TOLERANCE for a, b in zip(run["losses"], tf1["losses"])), (ours, golden)
        assert run["state"] == tf1["state"], (run, tf1)
        # (the checkpoints; the safe port's .meta and graph.pbtxt stay where TF1's did)
        assert [f for f in run["files"] if f.endswith(".index")] == [f for f in tf1["files"] if f.endswith(".index")]
    assert "model.ckpt-0.meta" not in ours[-1]["files"] and "model.ckpt-3.meta" in ours[-1]["files"]


def test_the_bench_compares_what_a_port_prints_of_its_own_output_folder_as_the_safe_ports(tmp_path):
    """Each port writes to its own folder (a checkpoint_dir the safe port wrote would be restored); a script printing
    that folder prints the same (found when bench/native.py's session_summaries row differed by its path)."""
    files = ports(tmp_path, "folder.py", FOLDER)
    argv = {level: [f"--output_dir={tmp_path / 'runs' / level}"] for level in files}
    row = native.equivalence(
        "folder.py", files["safe"], files["native"], argv["safe"], str(tmp_path / "runs"), argv["native"]
    )
    assert row["output"] == "same" and row["equal"], row
