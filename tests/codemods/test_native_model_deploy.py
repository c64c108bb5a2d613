"""native-session on tf-slim's model_deploy (codemods/rules/_native_model_deploy.py): `create_clones(config, clone_fn)`
trained by create_train_op in a MonitoredTrainingSession loop -> clone_fn of the input element called on each of the
config's clones over Keras layers made once, their losses summed as get_total_loss summed TF1's clones' losses, and
the eager loop of a monitored session. What it cannot prove keeps the script at the safe level with an entry saying
why. The equivalence tests train tests/corpus/slim_model_deploy.py at both levels from the safe port's checkpoint
(bench/native.py's method) with 1 and 2 clones: TF1's loss with 2 clones is twice the loss of 1 (each clone adds its
loss to the LOSSES collection, on the same batch and variables), the port's too; and a variant with a regularized
layer and tf.losses' cross-entropy with 2 clones (TF1 added the regularization loss once: 261.44843 with 2 clones,
130.77892 with 1)."""

import os
import shutil
import subprocess
import sys

import pytest

from bench import corpus, native
from codemods.rules.native_session import NativeSessionRule
from tests.support.processes import REPO, python_env
from tests.support.rule_test import RuleTest

CORPUS = os.path.join(REPO, "tests", "corpus")
SCRIPT = """
    import tensorflow as tf
    import tensorflow.contrib.slim as slim
    from deployment import model_deploy

    tf.app.flags.DEFINE_integer("num_clones", 1, "")
    FLAGS = tf.app.flags.FLAGS


    def batch():
        return tf.data.TFRecordDataset(FLAGS.files).map(parse).batch(4).make_one_shot_iterator().get_next()


    def parse(raw):
        f = tf.parse_single_example(raw, {"x": tf.FixedLenFeature([8], tf.float32), "y": tf.FixedLenFeature([], tf.int64)})
        return f["x"], f["y"]


    def main(_):
        config = model_deploy.DeploymentConfig(num_clones=FLAGS.num_clones, clone_on_cpu=True)
        with tf.Graph().as_default():
            with tf.device(config.variables_device()):
                global_step = slim.create_global_step()
            features, labels = batch()

            def clone_fn():
                logits = slim.fully_connected(features, 3, activation_fn=None, scope="logits")
                slim.losses.softmax_cross_entropy(logits, slim.one_hot_encoding(labels, 3))
                return logits

            model_deploy.create_clones(config, clone_fn)
            loss = tf.losses.get_total_loss()
            train_op = slim.learning.create_train_op(loss, tf.train.GradientDescentOptimizer(0.1), global_step=global_step)
            hooks = [tf.train.StopAtStepHook(last_step=3)]
            with tf.train.MonitoredTrainingSession(checkpoint_dir=FLAGS.output_dir, hooks=hooks) as sess:
                while not sess.should_stop():
                    print("loss", sess.run(train_op))


    if __name__ == "__main__":
        tf.app.run()
"""


class TestModelDeploy(RuleTest):
    TRANSFORM = NativeSessionRule

    def test_clones_of_a_clone_fn_become_a_function_of_the_element_called_on_each_clone(self):
        after = '''
    import compat.clones
    import compat.tf1_saver
    import compat.tf1_slots
    import tensorflow as tf
    from deployment import model_deploy
    import time

    tf.app.flags.DEFINE_integer("num_clones", 1, "")
    FLAGS = tf.app.flags.FLAGS


    def batch():
        return tf.data.TFRecordDataset(FLAGS.files).map(parse).batch(4)


    def parse(raw):
        f = tf.parse_single_example(raw, {"x": tf.FixedLenFeature([8], tf.float32), "y": tf.FixedLenFeature([], tf.int64)})
        return f["x"], f["y"]


    def main(_):
        config = model_deploy.DeploymentConfig(num_clones=FLAGS.num_clones, clone_on_cpu=True)
        with tf.device(compat.clones.variables_device(config)):
            global_step = tf.Variable(0, dtype=tf.int64, trainable=False, name="global_step")
        iterator = iter(batch())

        clone_devices = compat.clones.clone_devices(config)

        class FullyConnected(tf.keras.layers.Dense):
            """tf-slim's fully_connected: a Dense whose variables keep TF1's names (scope/weights, scope/biases)."""

            def add_weight(self, name=None, *args, **kwargs):
                return super().add_weight({"kernel": "weights", "bias": "biases"}.get(name, name), *args, **kwargs)

        logits_1 = FullyConnected(units=3, activation=None, name="logits")

        def clone_fn(features, labels):
            """clone_fn of one clone: its losses (TF1's LOSSES collection), its layers made once."""
            logits = logits_1(features)
            loss_1 = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=tf.stop_gradient(tf.one_hot(labels, 3, on_value=1.0, off_value=0.0)), logits=logits))
            return [loss_1]


        def model(features, labels):
            """create_clones(config, clone_fn) and get_total_loss(): each clone's losses on its device, the layers' regularization losses once."""
            losses = []
            for device in clone_devices:
                with tf.device(device):
                    losses += clone_fn(features, labels)
            return tf.add_n([*losses, *logits_1.losses])

        optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

        @tf.function(input_signature=[])
        def train_step():
            features, labels = next(iterator)
            with tf.GradientTape() as tape:
                loss = model(features, labels)
            variables = tape.watched_variables()
            optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
            global_step.assign_add(1)
            return tf.debugging.check_numerics(loss, "LossTensor is inf or nan")

        # (the layers make their variables, on the variables' device: TF1's graph held them before its first step)
        compat.clones.float32_inputs(iterator.element_spec)
        with tf.device(compat.clones.variables_device(config)):
            tf.function(clone_fn).get_concrete_function(*iterator.element_spec)
        optimizer.build([*logits_1.trainable_variables])
        checkpoint = tf.train.Checkpoint(logits_1=logits_1, global_step=global_step, optimizer=optimizer)
        manager = compat.tf1_saver.CheckpointManager(checkpoint, FLAGS.output_dir, max_to_keep=5, checkpoint_name="model.ckpt", relative_paths=False)
        checkpoint.restore(manager.latest_checkpoint)
        compat.tf1_slots.restore_slots(optimizer, [*logits_1.trainable_variables], manager.latest_checkpoint)
        last_step = 3
        manager.save_at_start(checkpoint_number=global_step)
        saved = (int(global_step), time.time())
        try:
            while True:
                print("loss", train_step().numpy())
                if int(global_step) != saved[0] and time.time() >= saved[1] + 600:
                    manager.save(checkpoint_number=global_step)
                    saved = (int(global_step), time.time())
                if int(global_step) >= last_step:
                    break
        except (StopIteration, tf.errors.OutOfRangeError):
            pass  # (the end of the input)
        if int(global_step) != saved[0]:
            manager.save(checkpoint_number=global_step)


    if __name__ == "__main__":
        tf.app.run()
        '''
        self.assertCodemod(SCRIPT, after, level="native")
        (said,) = [e.message for e in self.applied(SCRIPT, level="native").entries]
        assert said.startswith("model_deploy.create_clones(config, clone_fn) -> clone_fn() of the input element"), said
        assert "no 1/num_clones" in said and "StopAtStepHook's last_step" in said, said

    def test_must_not_fire_on_clones_it_cannot_prove_and_says_why(self):
        cases = {
            # model_deploy's deploy/optimize_clones read the clones (and scale each loss by 1/num_clones)
            "        clones = model_deploy.create_clones(config, clone_fn)\n": "create_clones' clones read",
            # a cluster's config: variables on parameter servers
            "clone_on_cpu=True)": "DeploymentConfig(num_ps_tasks=...)",
            # TF1 named an unscoped layer per clone (Conv, Conv_1 ...): not proven one layer
            ', scope="logits")': "fully_connected without a literal scope in a clone",
            # clone_fn reading a graph name besides the input
            "slim.one_hot_encoding(labels, 3))": "clone_fn() reads `global_step`, a graph name",
            # a summary (TF1's collection, which the monitored session's summary hook wrote), a helper of the module
            # (it may make variables at every step), a loss the conversion does not know
            "summary": "tf.summary.histogram in clone_fn(): a loss, summary, collection or side effect of the graph",
            "helper": "helper() in clone_fn(), which the conversion does not read",
            "mse": "tf.losses.mean_squared_error in clone_fn(): a loss, summary, collection or side effect",
            # TF1's layer made float64 variables of a float64 input, the Keras layer is float32
            "float64": "float64 in clone_fn(): TF1's layers made variables of their input's dtype",
        }
        edits = {
            "        clones = model_deploy.create_clones(config, clone_fn)\n": (
                "        model_deploy.create_clones(config, clone_fn)\n",
                "        clones = model_deploy.create_clones(config, clone_fn)\n",
            ),
            "clone_on_cpu=True)": ("clone_on_cpu=True)", "clone_on_cpu=True, num_ps_tasks=1)"),
            ', scope="logits")': (', scope="logits")', ")"),
            "slim.one_hot_encoding(labels, 3))": (
                "slim.one_hot_encoding(labels, 3))",
                "slim.one_hot_encoding(labels, 3), weights=global_step)",
            ),
            "summary": (
                "            return logits\n",
                "            summary = tf.summary.histogram('logits', logits)\n                return logits\n",
            ),
            "helper": (
                "            return logits\n",
                "            logits = helper(logits)\n                return logits\n",
            ),
            "mse": (
                "            return logits\n",
                "            mse = tf.losses.mean_squared_error(features[:, :3], logits)\n                return logits\n",
            ),
            "float64": ("slim.fully_connected(features,", "slim.fully_connected(tf.cast(features, tf.float64),"),
        }
        for key, why in cases.items():
            old, new = edits[key]
            source = SCRIPT.replace(old, new)
            assert source != SCRIPT
            refused = self.refused(source)
            assert len(refused) == 1 and refused[0].startswith(why), (key, refused)

    def test_must_not_fire_on_a_monitored_loop_without_model_deploy(self):
        """No create_clones: the rule's other code reads the block, as before (here: refused at the global step's
        computed device, which only the model_deploy conversion reads)."""
        source = SCRIPT.replace("        model_deploy.create_clones(config, clone_fn)\n", "        clone_fn()\n")
        (why,) = self.refused(source)
        assert "model_deploy" not in why, why


# the corpus script with a regularized conv2d and tf.losses' softmax cross-entropy: TF1 added the regularization loss
# once (the clones reuse the variable), each clone's cross-entropy to the total
REGULARIZED = (
    ('scope="conv1")', 'weights_regularizer=slim.l2_regularizer(0.05), scope="conv1")'),
    (
        "slim.losses.softmax_cross_entropy(logits, slim.one_hot_encoding(labels, 11))",
        "tf.losses.softmax_cross_entropy(slim.one_hot_encoding(labels, 11), logits)",
    ),
)


def ported(tmp_path, name: str, edits=()) -> dict[str, str]:
    """tests/corpus/slim_model_deploy.py (`edits` made), with its deployment package, at both levels: level -> the
    script's path."""
    source = tmp_path / "source"
    shutil.copytree(os.path.join(CORPUS, "deployment"), source / "deployment")
    with open(os.path.join(CORPUS, "slim_model_deploy.py"), encoding="utf-8") as handle:
        text = handle.read()
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    (source / name).write_text(text)
    sources = [str(source / name), str(source / "deployment")]
    reports = {
        level: native.migrate(sources, str(tmp_path / level), level, in_process=True) for level in ("safe", "native")
    }
    assert [os.path.basename(p) for p in native.converted(reports["native"])] == [name]
    files = {level: str(tmp_path / level / name) for level in reports}
    with open(files["native"], encoding="utf-8") as handle:
        assert native.references(handle.read())[1] == 0  # no tf.* reference through tf.compat.v1
    return files


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("data")
    corpus.generate_data(str(folder))
    return folder


@pytest.fixture(scope="module")
def ports(tmp_path_factory):
    return {
        "corpus": ported(tmp_path_factory.mktemp("corpus"), "slim_model_deploy.py"),
        "regularized": ported(tmp_path_factory.mktemp("regularized"), "regularized.py", REGULARIZED),
    }


@pytest.mark.parametrize(("script", "clones"), [("corpus", 1), ("corpus", 2), ("regularized", 2)])
def test_the_native_port_trains_each_number_of_clones_like_the_safe_port(ports, data, tmp_path, script, clones):
    files = ports[script]
    argv = {
        level: [f"--data_dir={data}", f"--output_dir={tmp_path / level}", f"--num_clones={clones}"] for level in files
    }
    name = os.path.basename(files["safe"])
    row = native.equivalence(name, files["safe"], files["native"], argv["safe"], str(tmp_path), argv["native"])
    assert row["steps"] == 3 and row["loaded"] == "4/4" and row["equal"], row
    written = sorted(f for f in os.listdir(tmp_path / "native") if f.startswith("model.ckpt"))
    assert written == [
        "model.ckpt-0.data-00000-of-00001",
        "model.ckpt-0.index",
        "model.ckpt-3.data-00000-of-00001",
        "model.ckpt-3.index",
    ]


def test_a_clone_on_a_device_this_machine_lacks_stops_the_port_with_one_line(ports, data, tmp_path):
    """TF1's session stopped at its first step there (measured: "Cannot assign a device for operation
    clone_0/conv1/Conv2D ... explicitly assigned to /device:GPU:0"); eager TF 2 would place the clone elsewhere."""
    import tensorflow as tf

    if tf.config.list_physical_devices("GPU"):
        pytest.skip("a machine with a GPU has clone 0's device")
    files = ports["corpus"]
    done = subprocess.run(
        [
            sys.executable,
            files["native"],
            f"--data_dir={data}",
            f"--output_dir={tmp_path / 'gpu'}",
            "--noclone_on_cpu",
        ],
        cwd=os.path.dirname(files["native"]),
        env=python_env(),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    lines = [line for line in done.stderr.splitlines() if "model_deploy" in line]
    assert done.returncode == 2 and len(lines) == 1, done.stderr[-3000:]
    assert "clone 0 on /device:GPU:0, which this process does not have" in lines[0], lines
    assert not os.path.exists(tmp_path / "gpu"), "no checkpoint written before the stop"
