"""native-session on a cluster's MonitoredTrainingSession (codemods/rules/_native_cluster.py): the platform's
uai_dist script shape becomes ParameterServerStrategy training through compat.strategy() and compat.train_steps;
anything else stays at the safe level with the session's entry (_native_monitored.CLUSTER).

The rule runs alone here (the safe rules' rewrites are not applied): the names stay TF1's where the port keeps an
expression. tests/tf2/test_native_cluster_port.py runs the ports (locally against the safe port's checkpoint, and
as clusters of real processes).
"""

from codemods.rules._native_monitored import CLUSTER
from codemods.rules.native_session import NativeSessionRule
from tests.support.rule_test import RuleTest

# tests/corpus/uai_dist_local.py's shape
SCRIPT = """
    import tensorflow as tf
    from uaitrain.arch.tensorflow import uai_dist

    tf.set_random_seed(1)


    def build():
        x = tf.random_normal([8, 4])
        w = tf.Variable(tf.zeros([4, 1]))
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
        step = tf.train.get_or_create_global_step()
        return tf.train.GradientDescentOptimizer(0.1).minimize(loss, step), loss


    def main(_):
        dist = uai_dist.UAITensorFlowDistRunConfigParser()
        target, is_chief, device = "", True, None
        if dist.is_dist():
            dist.load_cluster_config()
            cluster = tf.train.ClusterSpec({"ps": dist.get_ps_list(), "worker": dist.get_worker_list()})
            server = tf.train.Server(cluster, job_name="ps" if dist.is_ps() else "worker", task_index=dist.get_task_id())
            target, is_chief = server.target, dist.get_task_id() == 0
            device = tf.train.replica_device_setter(cluster=cluster)
        with tf.device(device):
            train_op, loss = build()
        hooks = [tf.train.StopAtStepHook(last_step=3)]
        with tf.train.MonitoredTrainingSession(master=target, is_chief=is_chief, hooks=hooks) as sess:
            while not sess.should_stop():
                print("loss", sess.run([train_op, loss])[1])
"""
PORT = """
    import compat.train_steps
    import tensorflow as tf

    tf.set_random_seed(1)


    def build():
        w = tf.Variable(tf.zeros([4, 1]), name="Variable")
        step = tf.Variable(0, dtype=tf.int64, trainable=False, name="global_step")
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

        @tf.function
        def train_step():
            with tf.GradientTape() as tape:
                x = tf.random_normal([8, 4], seed=3)  # (TF1's op seed: the graph held 3 ops when it drew)
                loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
            variables = tape.watched_variables()
            optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
            step.assign_add(1)
            return (loss,)

        return train_step, step


    def main(_):
        strategy = compat.strategy()
        with strategy.scope():
            train_step, step = build()
        for values in compat.train_steps.steps(strategy, train_step, step, 3):
            print("loss", values[0])
"""
REFUSED = "tf.train.MonitoredTrainingSession(master=..., is_chief=..., hooks=...): master=target and is_chief=is_chief "


class TestNativeCluster(RuleTest):
    TRANSFORM = NativeSessionRule

    def test_a_uai_dist_script_becomes_parameter_server_strategy_training(self):
        self.assertCodemod(SCRIPT, PORT, level="native")

    def test_its_entry_says_the_roles_change_and_tf1s_op_seed_is_written(self):
        entries = [e.message for e in self.applied(SCRIPT, level="native").entries if e.rule == "native-session"]
        assert len(entries) == 1 and "-> ParameterServerStrategy training" in entries[0], entries
        assert "ps and worker tasks serve, the chief coordinates" in entries[0]
        assert "given TF1's op seed 3" in entries[0]

    def test_unpacked_fetches_are_the_steps_values(self):
        before = SCRIPT.replace('print("loss", sess.run([train_op, loss])[1])', "_, value = sess.run([train_op, loss])")
        after = PORT.replace('print("loss", values[0])', "(value,) = values")
        self.assertCodemod(before, after, level="native")

    def test_must_not_fire_where_the_shape_is_not_proven_and_says_what_it_ports(self):
        cases = {
            "a statement after the session": (
                '            print("loss", sess.run([train_op, loss])[1])\n',
                '            print("loss", sess.run([train_op, loss])[1])\n    print("done")\n',
            ),
            "a random op that is not the graph's first": (
                "    x = tf.random_normal([8, 4])\n    w = tf.Variable(tf.zeros([4, 1]))\n",
                "    w = tf.Variable(tf.zeros([4, 1]))\n    x = tf.random_normal([8, 4])\n",
            ),
            "num_steps, counted from where the session started": ("last_step=3", "num_steps=3"),
            "setup code the port would drop": (
                "    target, is_chief, device",
                '    print("cluster")\n    target, is_chief, device',
            ),
            "the setup read in the loop": ('print("loss",', 'print(target, "loss",'),
            "a checkpoint_dir": ("hooks=hooks) as sess", 'hooks=hooks, checkpoint_dir="out") as sess'),
        }
        for case, (old, new) in cases.items():
            source = self.make_fixture_data(SCRIPT)
            assert old in source, case
            source = source.replace(old, new)
            with self.subTest(case=case):
                refused = self.refused(source)
                assert len(refused) == 1 and CLUSTER in refused[0], refused

    def test_must_not_fire_on_a_local_training_session(self):
        source = SCRIPT.replace("master=target, is_chief=is_chief, ", "")
        assert not any("ParameterServerStrategy" in why for why in self.refused(source))
