"""native-session on monitored sessions and device setters (codemods/rules/_native_monitored.py): a monitored
session without arguments is a local Session initialising its variables; replica_device_setter with one local
device is that device, or None where ps_tasks is 0. Anything else stays at the safe level, with the entry saying why.

The rule runs alone here (the safe rules' rewrites are not applied); the equivalence test runs both ports.
"""

import os
import textwrap

from bench import native
from codemods.rules.native_session import NativeSessionRule
from tests.support.rule_test import RuleTest

PREFIX = "Session script left at the safe level: "
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

    def refused(self, source: str) -> list[str]:
        self.assertCodemod(source, source, level="native")
        return [e.message for e in self.applied(source, level="native").entries if e.rule == NativeSessionRule.ID]

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
                "tf.train.MonitoredTrainingSession(master=..., is_chief=...): master=server.target may be another "
                "process's (a cluster's target, where the program runs a cluster); is_chief=task == 0 may make this "
                "process a worker that is not the chief (a cluster's), whose session waits for the chief's"
            ),
            "MonitoredTrainingSession(master='', checkpoint_dir=out, save_summaries_steps=None)": (
                "tf.train.MonitoredTrainingSession(master=..., checkpoint_dir=..., save_summaries_steps=...): "
                "checkpoint_dir: it restores the latest checkpoint and its saver and summary hooks write there; "
                "save_summaries_steps, which a Session does not take"
            ),
            "MonitoredSession(creator)": "tf.train.MonitoredSession with positional arguments, which the rule does not read",
        }
        for call, why in cases.items():
            source = "import tensorflow as tf\n" + body.format(call=call)
            with self.subTest(call=call):
                suffix = "" if "positional" in why else "; the rule converts one without arguments"
                self.assertEqual(self.refused(source), [PREFIX + why + suffix])

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
                self.assertEqual(self.refused(source), [PREFIX + why])

    def test_must_not_fire_on_a_monitored_session_reading_a_dataset(self):
        source = """
            import tensorflow as tf
            x = tf.data.Dataset.range(3).make_one_shot_iterator().get_next()
            with tf.train.MonitoredSession() as sess:
                for _ in range(5):
                    print(sess.run(x))
        """
        why = (
            "a monitored session reading a tf.data input: it ends its with block quietly at the end of the input "
            "(OutOfRangeError), where an eager loop raises"
        )
        self.assertEqual(self.refused(source), [PREFIX + why])


def test_the_native_port_of_a_monitored_session_trains_like_the_safe_port(tmp_path):
    script = tmp_path / "monitored.py"
    script.write_text(textwrap.dedent(MONITORED))
    ported = {level: native.migrate([str(script)], str(tmp_path / level), level) for level in ("safe", "native")}
    assert [os.path.basename(p) for p in native.converted(ported["native"])] == ["monitored.py"]
    files = {level: native.ported_file(str(tmp_path / level), "monitored.py", "monitored.py") for level in ported}
    with open(files["native"], encoding="utf-8") as handle:
        assert native.references(handle.read())[1] == 0  # no tf.* reference through tf.compat.v1
    (tmp_path / "runs").mkdir()
    row = native.equivalence("monitored.py", files["safe"], files["native"], [], str(tmp_path / "runs"))
    assert row["steps"] == 3 and row["loaded"] == "1/1" and row["equal"], row
    evaluations = [[line for line in out.splitlines() if line.startswith("eval")] for out in row["stdout"]]
    assert evaluations[0] and evaluations[0] == evaluations[1]
