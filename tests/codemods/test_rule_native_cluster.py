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


class ClusterTest(RuleTest):
    """The rule on one of this file's programs: its one entry, and variants of it that stay at the safe level."""

    TRANSFORM = NativeSessionRule

    def entry(self, source: str) -> str:
        """The one native-session entry of `source` converted."""
        entries = [e.message for e in self.applied(source, level="native").entries if e.rule == "native-session"]
        assert len(entries) == 1, entries
        return entries[0]

    def assert_refused(self, fixture: str, cases: dict[str, tuple[str, str]]) -> None:
        """Each case, `fixture` with its `old` text made `new`, stays with the session's one entry naming the cluster
        port's refusal."""
        for case, (old, new) in cases.items():
            source = self.make_fixture_data(fixture)
            assert old in source, case
            source = source.replace(old, new)
            with self.subTest(case=case):
                refused = self.refused(source)
                assert len(refused) == 1 and CLUSTER in refused[0] and "; the cluster port refuses " in refused[0], (
                    refused
                )


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


class TestNativeCluster(ClusterTest):
    def test_a_uai_dist_script_becomes_parameter_server_strategy_training(self):
        self.assertCodemod(SCRIPT, PORT, level="native")

    def test_its_entry_says_the_roles_change_and_tf1s_op_seed_is_written(self):
        entry = self.entry(SCRIPT)
        assert "-> ParameterServerStrategy training" in entry, entry
        assert "ps and worker tasks serve, the chief coordinates" in entry
        assert "given TF1's op seed 3" in entry

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
            "summaries saved": ("hooks=hooks) as sess", "hooks=hooks, save_summaries_steps=10) as sess"),
            "a function of the module called by the builder": (
                "    loss = tf.reduce_mean(",
                "    x = helper(x)\n    loss = tf.reduce_mean(",
            ),
            "tf.get_variable": (
                "w = tf.Variable(tf.zeros([4, 1]))",
                'w = tf.get_variable("w", initializer=tf.zeros([4, 1]))',
            ),
            "the trainer's own name for the global step": ('print("loss",', 'step = 1\n            print("loss",'),
            "a random op after module-level ops": (
                "tf.set_random_seed(1)\n",
                "tf.set_random_seed(1)\nc = tf.constant(2.0)\n",
            ),
        }
        self.assert_refused(SCRIPT, cases)

    def test_must_not_fire_on_a_local_training_session(self):
        source = SCRIPT.replace("master=target, is_chief=is_chief, ", "")
        assert not any("ParameterServerStrategy" in why for why in self.refused(source))


# tests/common/tf1_programs/uai_dist_trainer.py's shape (samples/tf1/train_slim_classifier.py's cluster part): the
# setup in main(), its ps joining, the trainer given the master, is_chief and device
TRAINER = """
    import tensorflow as tf
    from uaitrain.arch.tensorflow import uai_dist

    FLAGS = tf.app.flags.FLAGS


    def load_batch():
        dataset = tf.data.TFRecordDataset(FLAGS.files).map(parse).repeat().batch(8)
        return dataset.make_one_shot_iterator().get_next()


    def build_train_op():
        images, labels = load_batch()
        weights = tf.Variable(tf.zeros([4, 1]))
        total_loss = tf.reduce_mean(tf.square(tf.matmul(images, weights) - labels))
        tf.summary.scalar("total_loss", total_loss)
        global_step = tf.train.get_or_create_global_step()
        return tf.train.GradientDescentOptimizer(0.1).minimize(total_loss, global_step), total_loss


    def train(master, is_chief, device_fn):
        with tf.Graph().as_default():
            tf.set_random_seed(1)
            with tf.device(device_fn):
                train_op, total_loss = build_train_op()
            hooks = [tf.train.StopAtStepHook(last_step=FLAGS.max_step or 5)]
            with tf.train.MonitoredTrainingSession(
                master=master, is_chief=is_chief, checkpoint_dir=FLAGS.output_dir, hooks=hooks, save_summaries_steps=None
            ) as sess:
                step = 0
                while not sess.should_stop():
                    loss = sess.run([train_op, total_loss])[1]
                    step += 1
                    print("step %d loss %.4f" % (step, loss))


    def main(_):
        dist = uai_dist.UAITensorFlowDistRunConfigParser()
        if not dist.is_dist():
            train("", True, None)
            return
        dist.load_cluster_config()
        cluster = tf.train.ClusterSpec({"ps": dist.get_ps_list(), "worker": dist.get_worker_list()})
        job = "ps" if dist.is_ps() else "worker"
        server = tf.train.Server(cluster, job_name=job, task_index=dist.get_task_id())
        if dist.is_ps():
            server.join()
            return
        device_fn = tf.train.replica_device_setter(worker_device="/job:worker/task:%d" % dist.get_task_id(), cluster=cluster)
        train(server.target, dist.get_task_id() == 0, device_fn)
"""
TRAINER_PORT = """
    import compat.tf1_saver
    import compat.tf1_slots
    import compat.train_steps
    import tensorflow as tf

    FLAGS = tf.app.flags.FLAGS


    def load_batch():
        dataset = tf.data.TFRecordDataset(FLAGS.files).map(parse).repeat().batch(8)
        return dataset


    def build_train_op():
        weights = tf.Variable(tf.zeros([4, 1]), name="Variable")
        global_step = tf.Variable(0, dtype=tf.int64, trainable=False, name="global_step")
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

        @tf.function
        def train_step(images, labels):
            with tf.GradientTape() as tape:
                total_loss = tf.reduce_mean(tf.square(tf.matmul(images, weights) - labels))
            variables = tape.watched_variables()
            optimizer.apply_gradients(zip(tape.gradient(total_loss, variables), variables))
            global_step.assign_add(1)
            return (total_loss,)

        return train_step, global_step, tf.train.Checkpoint(global_step=global_step, weights=weights, optimizer=optimizer)


    def train(strategy):
        tf.set_random_seed(1)
        with strategy.scope():
            train_step, global_step, checkpoint = build_train_op()
        manager = compat.tf1_saver.CheckpointManager(
            checkpoint, FLAGS.output_dir, max_to_keep=5, checkpoint_name="model.ckpt", relative_paths=False
        )
        checkpoint.restore(manager.latest_checkpoint)
        compat.tf1_slots.restore_slots(checkpoint.optimizer, [checkpoint.weights], manager.latest_checkpoint)
        step = 0
        for values in compat.train_steps.steps(
            strategy, train_step, global_step, FLAGS.max_step or 5, manager, dataset_fn=load_batch
        ):
            loss = values[0]
            step += 1
            print("step %d loss %.4f" % (step, loss))


    def main(_):
        train(compat.strategy())
"""


class TestNativeClusterTrainer(ClusterTest):
    def test_a_trainer_given_the_cluster_by_main_trains_under_the_strategy_main_makes(self):
        self.assertCodemod(TRAINER, TRAINER_PORT, level="native")

    def test_its_entry_says_what_became_of_main_the_summary_and_the_checkpoints(self):
        entry = self.entry(TRAINER)
        assert "main()'s cluster setup (its ps task's join, its local call) -> train(compat.strategy())" in entry
        assert "1 v1 summary op(s) of the builder deleted: the session wrote none" in entry
        assert "checkpoint_dir -> compat.tf1_saver.CheckpointManager there, written by the chief" in entry
        assert "load_batch() returns its dataset, whose elements the train step takes" in entry

    def test_must_not_fire_where_main_or_the_trainer_does_more(self):
        cases = {
            "main prints": (
                "    dist.load_cluster_config()\n",
                '    dist.load_cluster_config()\n    print("cluster")\n',
            ),
            "the trainer called twice": (
                "    train(server.target, dist.get_task_id() == 0, device_fn)\n",
                "    train(server.target, dist.get_task_id() == 0, device_fn)\n    train(server.target, False, None)\n",
            ),
            "the trainer reads is_chief": ("step += 1", "step += int(is_chief)"),
            "a statement before the build": (
                "tf.set_random_seed(1)\n",
                "tf.set_random_seed(1)\n        print(master)\n",
            ),
            "a summary saved": ("save_summaries_steps=None", "save_summaries_steps=5"),
            "a shuffled input": (".repeat().batch(8)", ".shuffle(16).repeat().batch(8)"),
            "an input that ends": (".repeat().batch(8)", ".batch(8)"),
            "an input read besides": (
                "    images, labels = load_batch()\n",
                "    images, labels = load_batch()\n    load_batch()\n",
            ),
        }
        self.assert_refused(TRAINER, cases)


# samples/tf1/train_slim_classifier.py's builder: its input function, a zoo net under its arg_scope, tf-slim's losses
# and create_train_op (compat.slim_nets.SlimNet: helper-108's, codemods/rules/_native_slim_nets.py)
ZOO = """
    import tensorflow as tf
    import tensorflow.contrib.slim as slim
    from tensorflow.contrib.slim.nets import resnet_v1
    from uaitrain.arch.tensorflow import uai_dist

    FLAGS = tf.app.flags.FLAGS


    def load_batch():
        dataset = tf.data.TFRecordDataset(FLAGS.files).map(parse).repeat().batch(8, drop_remainder=True)
        return dataset.make_one_shot_iterator().get_next()


    def build_train_op():
        images, labels = load_batch()
        with slim.arg_scope(resnet_v1.resnet_arg_scope()):
            logits, _ = resnet_v1.resnet_v1_50(images, num_classes=10, is_training=True)
        logits = tf.squeeze(logits, [1, 2])
        one_hot = slim.one_hot_encoding(labels, 10)
        slim.losses.softmax_cross_entropy(logits, one_hot)
        total_loss = slim.losses.get_total_loss()
        optimizer = tf.train.GradientDescentOptimizer(FLAGS.learning_rate)
        global_step = tf.train.get_or_create_global_step()
        return slim.learning.create_train_op(total_loss, optimizer, global_step=global_step), total_loss


    def train(master, is_chief, device_fn):
        with tf.Graph().as_default():
            with tf.device(device_fn):
                train_op, total_loss = build_train_op()
            hooks = [tf.train.StopAtStepHook(last_step=FLAGS.max_step)]
            with tf.train.MonitoredTrainingSession(master=master, is_chief=is_chief, hooks=hooks) as sess:
                while not sess.should_stop():
                    print("loss", sess.run([train_op, total_loss])[1])


    def main(_):
        dist = uai_dist.UAITensorFlowDistRunConfigParser()
        if not dist.is_dist():
            train("", True, None)
            return
        dist.load_cluster_config()
        cluster = tf.train.ClusterSpec({"ps": dist.get_ps_list(), "worker": dist.get_worker_list()})
        server = tf.train.Server(cluster, job_name="ps" if dist.is_ps() else "worker", task_index=dist.get_task_id())
        if dist.is_ps():
            server.join()
            return
        train(server.target, dist.get_task_id() == 0, tf.train.replica_device_setter(cluster=cluster))
"""
ZOO_PORT = """
    import compat.slim_nets
    import compat.train_steps
    import tensorflow as tf
    from tensorflow.contrib.slim.nets import resnet_v1

    FLAGS = tf.app.flags.FLAGS


    def load_batch():
        dataset = tf.data.TFRecordDataset(FLAGS.files).map(parse).repeat().batch(8, drop_remainder=True)
        return dataset


    def build_train_op():
        resnet_v1_50 = compat.slim_nets.SlimNet(resnet_v1.resnet_v1_50, resnet_v1.resnet_arg_scope(), num_classes=10, is_training=True)
        resnet_v1_50.create_variables(load_batch().element_spec[0])
        global_step = tf.Variable(0, dtype=tf.int64, trainable=False, name="global_step")
        optimizer = tf.keras.optimizers.SGD(learning_rate=FLAGS.learning_rate)

        @tf.function
        def train_step(images, labels):
            with tf.GradientTape() as tape:
                logits, _ = resnet_v1_50(images)
                logits = tf.squeeze(logits, [1, 2])
                one_hot = tf.one_hot(labels, 10, on_value=1.0, off_value=0.0)
                loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(one_hot), logits=logits))
                total_loss = tf.add_n([loss, *resnet_v1_50.losses])
            variables = tape.watched_variables()
            tf.debugging.check_numerics(total_loss, "LossTensor is inf or nan")
            optimizer.apply_gradients(zip(tape.gradient(total_loss, variables), variables))
            global_step.assign_add(1)
            return (total_loss,)

        return train_step, global_step


    def train(strategy):
        with strategy.scope():
            train_step, global_step = build_train_op()
        for values in compat.train_steps.steps(strategy, train_step, global_step, FLAGS.max_step, dataset_fn=load_batch):
            print("loss", values[0])


    def main(_):
        train(compat.strategy())
"""


class TestNativeClusterZooNet(ClusterTest):
    def test_the_samples_builder_becomes_a_slim_net_layer_and_tf_slims_losses_tf_2_ops(self):
        self.assertCodemod(ZOO, ZOO_PORT, level="native")

    def test_its_entry_says_what_became_of_the_net_the_losses_and_the_train_op(self):
        entry = self.entry(ZOO)
        assert "the zoo net -> resnet_v1_50 = compat.slim_nets.SlimNet(...)" in entry
        assert "as create_train_op ran UPDATE_OPS" in entry
        assert "slim.losses.get_total_loss() -> tf.add_n of those losses and the nets' regularization losses" in entry
        assert "slim.learning.create_train_op -> the train step: the loss check_numerics'd" in entry

    def test_must_not_fire_where_the_builder_does_otherwise(self):
        cases = {
            "a net in training mode under a bare minimize": (
                "slim.learning.create_train_op(total_loss, optimizer, global_step=global_step)",
                "optimizer.minimize(total_loss, global_step)",
            ),
            "a net of a computed tensor": ("resnet_v1_50(images,", "resnet_v1_50(images * 2.0,"),
            "a loss with weights": (
                "softmax_cross_entropy(logits, one_hot)",
                "softmax_cross_entropy(logits, one_hot, weights=2.0)",
            ),
            "the optimizer read besides": (
                "    global_step = tf.train.get_or_create_global_step()\n",
                "    global_step = tf.train.get_or_create_global_step()\n    print(optimizer)\n",
            ),
            "create_train_op's other arguments": (
                "global_step=global_step), total_loss",
                "global_step=global_step, clip_gradient_norm=1.0), total_loss",
            ),
        }
        self.assert_refused(ZOO, cases)
