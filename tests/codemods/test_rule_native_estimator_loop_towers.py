"""native-estimator-loop on towers that average their own gradients (cifar10_estimator's shape, as native-layers
leaves it; the sample samples/tf1/resnet_estimator.py): the before/after of the port over compat.eager_towers, what
stays at the safe level, and a two-tower TF1 program trained at both levels from the safe port's step-0 checkpoint."""

import pathlib
import re
import shutil
import subprocess
import sys
import textwrap

from codemods.rules.native_estimator_loop import MESSAGE, NativeEstimatorLoopRule
from tests.support.native_ports import migrated
from tests.support.rule_test import RuleTest
from tests.support.runs import clean_env

# two towers as native-layers leaves them: a helper's layers under its variable scope, tf.gradients of the tower's
# loss, the first tower's batch normalization updates, the averaged gradients applied under them, a loss summary
BEFORE = textwrap.dedent(
    """
    import compat
    import tensorflow as tf


    def tower_fn(images, labels, training):
        with tf.compat.v1.variable_scope("block"):
            net = compat.scoped_layers.layer(tf.keras.layers.BatchNormalization, name="bn", dtype=images.dtype)(images, training=training)
        logits = compat.scoped_layers.layer(tf.keras.layers.Dense, 3, name="logits", dtype=net.dtype)(net)
        loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)
        params = tf.compat.v1.trainable_variables()
        return loss, tf.gradients(loss, params)


    def model_fn(features, labels, mode):
        image_shards, label_shards = tf.split(features, 2), tf.split(labels, 2)
        losses, gradients = [], []
        for i in range(2):
            with tf.compat.v1.variable_scope("net", reuse=bool(i != 0)):
                with tf.compat.v1.name_scope("tower_%d" % i) as scope:
                    loss, grads = tower_fn(image_shards[i], label_shards[i], mode == tf.estimator.ModeKeys.TRAIN)
                    losses.append(loss)
                    gradients.append(grads)
                    if i == 0:
                        update_ops = [update for layer in compat.scoped_layers.made() for update in layer.updates]
        variables = tf.compat.v1.trainable_variables()
        averaged = [(tf.add_n(list(g)) / 2, v) for g, v in zip(zip(*gradients), variables)]
        loss = tf.reduce_mean(losses)
        global_step = tf.compat.v1.train.get_or_create_global_step()
        optimizer = tf.compat.v1.train.GradientDescentOptimizer(0.1)
        with tf.control_dependencies(update_ops):
            train_op = optimizer.apply_gradients(averaged, global_step=global_step)
        tf.compat.v1.summary.scalar("train_loss", loss)
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


    def input_fn():
        return tf.data.Dataset.from_tensors(([[1.0, 2.0]] * 2, [1, 0])).repeat()


    if __name__ == "__main__":
        tf.estimator.Estimator(model_fn, "/tmp/m").train(input_fn, max_steps=3)
"""
)


# the corpus's towers (tests/corpus/estimator_towers.py) as native-layers leaves them: a Keras layer made in the first
# tower and called by every tower under variable_scope("net", reuse=i > 0) and a device function of the file, one
# tf.train optimizer's minimize of the towers' mean loss
MINIMIZE = textwrap.dedent(
    """
    import compat
    import compat.devices
    import tensorflow as tf


    def tower_setter(worker):
        strategy = compat.devices.RoundRobin(range(1))
        return lambda op: "/cpu:%d" % strategy(op) if op.type == "VarHandleOp" else worker


    def model_fn(features, labels, mode):
        images, label_shards = tf.split(features, 2), tf.split(labels, 2)
        losses = []
        for i in range(2):
            with tf.compat.v1.variable_scope("net", reuse=i > 0), compat.device(tower_setter("/cpu:0")):
                if i == 0:
                    dense_layer = tf.keras.layers.Dense(3, dtype=images[i].dtype)
                logits = dense_layer(images[i])
                losses.append(tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(label_shards[i], logits))
        loss = tf.add_n(losses) / 2
        train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss, tf.compat.v1.train.get_or_create_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


    def input_fn():
        return tf.data.Dataset.from_tensors(([[1.0, 2.0]] * 2, [1, 0])).repeat()


    if __name__ == "__main__":
        tf.estimator.Estimator(model_fn, "/tmp/m").train(input_fn, max_steps=3)
"""
)


# native-estimator-loop's port of a towers program of this file (BEFORE's input_fn and train call): the imports, the
# functions its towers call (HELPERS), the program's start, model() (MODEL), the train step and the loop
PORT = """
    import compat.tf1_saver
    import compat.tf1_slots
    import compat.eager_towers
    import compat
    import tensorflow as tf
    import itertools
    import json
    import os
    import sys
    import time


HELPERS
    def input_fn():
        return tf.data.Dataset.from_tensors(([[1.0, 2.0]] * 2, [1, 0])).repeat()


    if __name__ == "__main__":
        if sum(len(tasks) for tasks in (json.loads(os.environ.get("TF_CONFIG") or "{}").get("cluster") or {}).values()) > 1:
            sys.exit("TF_CONFIG names a cluster of more than one task; this program, ported from an Estimator program by uai-migrate --level native, trains in one process")
        dataset = input_fn()

MODEL
        optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)
        global_step = tf.Variable(0, dtype=tf.int64, trainable=False, name="global_step")

        @tf.function
        def train_step(features, labels):
            with compat.eager_towers.model_fn_call():  # (TF1 built the model_fn in a graph, each tower's gradients)
                loss, gradients = model(features, labels, True)
            optimizer.apply_gradients(gradients)
            global_step.assign_add(1)  # (after the update, as minimize(loss, global_step) did)
            return loss

        batches = iter(dataset)
        first = next(batches)
        with compat.eager_towers.model_fn_call():
            model(*first, False)  # (the layers make their variables, which the checkpoint restores)
        checkpoint = tf.train.Checkpoint(layers=compat.eager_towers.made(), global_step=global_step, optimizer=optimizer)
        manager = compat.tf1_saver.CheckpointManager(checkpoint, "/tmp/m", max_to_keep=5, checkpoint_name="model.ckpt")
        checkpoint.restore(manager.latest_checkpoint)
        compat.tf1_slots.check_names([global_step, *(w for layer in compat.eager_towers.made() for w in layer.variables)], manager.latest_checkpoint)
        compat.tf1_slots.restore_slots(optimizer, compat.eager_towers.trainable_variables(), manager.latest_checkpoint)
        last_step = 3
        if int(global_step) < last_step:  # (the Estimator trained nothing from a checkpoint at or past it)
            manager.save_at_start(checkpoint_number=global_step)
            saved = (int(global_step), time.time())
            writer = tf.summary.create_file_writer("/tmp/m")
            summarized = None
            for iteration, (features, labels) in enumerate(itertools.chain([first], batches)):
                step = int(global_step)
                loss = train_step(features, labels)
                if iteration % 100 == 0:
                    tf.get_logger().info("loss = %s, step = %s", loss.numpy(), step)
                if summarized is None or int(global_step) >= summarized + 100:
                    summarized = int(global_step)
                    with writer.as_default():
                        tf.summary.scalar("loss", loss, step=summarized)
TAGS
                if int(global_step) != saved[0] and time.time() >= saved[1] + 600:
                    manager.save(checkpoint_number=global_step)
                    saved = (int(global_step), time.time())
                if int(global_step) >= last_step:
                    break
            if int(global_step) != saved[0]:
                manager.save(checkpoint_number=global_step)
            writer.flush()
"""


def _port(helpers: str, model: str, tags: tuple[str, ...] = ()) -> str:
    """PORT of `helpers` (the functions the towers call, as ported) and `model` (model()'s def), its summary hook
    writing `tags` beside loss."""
    written = "".join(f'                        tf.summary.scalar("{tag}", loss, step=summarized)\n' for tag in tags)
    return PORT.replace("HELPERS\n", helpers).replace("MODEL\n", model).replace("TAGS\n", written)


class TestTowers(RuleTest):
    TRANSFORM = NativeEstimatorLoopRule

    def _refuses(self, source: str, cases: dict[str, tuple[str, str]]) -> None:
        """`source` with each case's text replaced stays as it is, with one entry saying why (the case's key)."""
        for why, (old, new) in cases.items():
            assert old in source, old
            (refused,) = self.refused(source.replace(old, new))
            assert why in refused, (why, refused)

    def test_towers_averaging_their_gradients_become_model_over_compat_eager_towers(self):
        helpers = """
    def tower_fn(images, labels, training):
        with compat.eager_towers.variable_scope("block"):
            net = compat.eager_towers.layer(tf.keras.layers.BatchNormalization, name="bn", dtype=images.dtype)(images, training=training)
        logits = compat.eager_towers.layer(tf.keras.layers.Dense, 3, name="logits", dtype=net.dtype)(net)
        loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)
        params = compat.eager_towers.trainable_variables()
        return loss, compat.eager_towers.gradients(loss, params)


"""
        model = """
        def model(features, labels, training):
            image_shards, label_shards = tf.split(features, 2), tf.split(labels, 2)
            losses, gradients = [], []
            for i in range(2):
                with compat.eager_towers.variable_scope("net", reuse=bool(i != 0)):
                    with tf.name_scope("tower_%d" % i) as scope:
                        loss, grads = tower_fn(image_shards[i], label_shards[i], training)
                        losses.append(loss)
                        gradients.append(grads)
                        if i == 0:
                            update_ops = compat.eager_towers.updates_so_far()
            variables = compat.eager_towers.trainable_variables()
            averaged = [(tf.add_n(list(g)) / 2, v) for g, v in zip(zip(*gradients), variables)]
            loss = tf.reduce_mean(losses)
            compat.eager_towers.keep_updates(update_ops)
            return loss, averaged

"""
        after = _port(helpers.removeprefix("\n"), model.removeprefix("\n"), ("train_loss",))
        self.assertCodemod(BEFORE, after, level="native")
        (entry,) = self.applied(BEFORE, level="native").entries
        assert entry.message.startswith(MESSAGE + ": the model_fn's 2 towers as model()"), entry.message
        assert "Dataset.shuffle draws another order" in entry.message

    def test_must_not_fire_where_the_towers_are_not_proven_one_entry_says_why(self):
        cases = {
            # (TF1 ran every tower's updates, each of the shared moving means twice, in an order the graph does not fix)
            "batch normalization updates read other than in the first tower": (
                "    variables = tf.compat.v1.trainable_variables()\n",
                "    update_ops = [update for layer in compat.scoped_layers.made() for update in layer.updates]\n"
                "    variables = tf.compat.v1.trainable_variables()\n",
            ),
            "other than the first tower's `if i == 0:`": ("if i == 0:", "if i == 1:"),
            "called by the towers, is read elsewhere too": ("if __name__", "print(tower_fn)\n\n\nif __name__"),
            "a summary of another value than the loss": (
                'summary.scalar("train_loss", loss)',
                'summary.scalar("train_loss", averaged)',
            ),
            "makes a Keras layer at each call": (
                '    logits = compat.scoped_layers.layer(tf.keras.layers.Dense, 3, name="logits", dtype=net.dtype)(net)',
                "    logits = tf.keras.layers.Dense(3, dtype=net.dtype)(net)",
            ),
            "holds graph code the port cannot run": (
                "    params = tf.compat.v1.trainable_variables()",
                '    params = tf.compat.v1.get_collection("weights")',
            ),
            "does not prove equal": ("GradientDescentOptimizer(0.1)", "RMSPropOptimizer(0.1)"),
            # (TF1 made the layers in the first tower and took them in the others; compat.eager_towers reads a bool)
            "whose reuse is not True or False": ("reuse=bool(i != 0)", "reuse=tf.compat.v1.AUTO_REUSE"),
            "an apply_gradients other than the optimizer's": (
                "apply_gradients(averaged, global_step=global_step)",
                "apply_gradients(averaged[:1], global_step=global_step)",
            ),
        }
        self._refuses(BEFORE, cases)

    def test_towers_minimizing_their_mean_loss_become_model_returning_its_gradient(self):
        model = """
        def model(features, labels, training):
            images, label_shards = tf.split(features, 2), tf.split(labels, 2)
            losses = []
            for i in range(2):
                with compat.eager_towers.variable_scope("net", reuse=i > 0):
                    if i == 0:
                        dense_layer = compat.eager_towers.layer(tf.keras.layers.Dense, 3, dtype=images[i].dtype, name="dense")
                    logits = dense_layer(images[i])
                    losses.append(tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(label_shards[i], logits))
            loss = tf.add_n(losses) / 2
            return loss, compat.eager_towers.compute_gradients(loss)

"""
        after = _port("", model.removeprefix("\n"))
        self.assertCodemod(MINIMIZE, after, level="native")
        (entry,) = self.applied(MINIMIZE, level="native").entries
        assert "one gradient of `loss` over the towers' shared variables" in entry.message, entry.message
        assert "device function (compat.device) not run" in entry.message, entry.message

    def test_must_not_fire_where_minimizing_towers_are_not_proven_one_entry_says_why(self):
        tower = "            logits = dense_layer(images[i])\n"
        cases = {
            # (minimize runs no UPDATE_OPS: TF1's moving statistics stayed, a Keras layer in eager updates them)
            "a batch normalization whose updates the train op does not run": (
                tower,
                "            if i == 0:\n"
                "                norm_layer = tf.keras.layers.BatchNormalization(dtype=images[i].dtype)\n"
                "            logits = dense_layer(norm_layer(images[i], training=True))\n",
            ),
            "is read besides the towers' device": ("if __name__", "print(tower_setter)\n\n\nif __name__"),
            # (TF1's graph named the Keras layer's variables by the name scope it was built under: net/inner/dense)
            "under a scope inside the tower's": (tower, '            with tf.name_scope("inner"):\n    ' + tower),
            "made other than in the first tower (`if i == 0:`) right in the towers' variable scope": (
                "reuse=i > 0), compat.device(",
                'reuse=i > 0), tf.name_scope("inner"), compat.device(',
            ),
            # (the first tower's layer would meet the op's name scope: Keras numbers it, net/dense_1)
            "another op or scope of the file is named 'dense'": (
                "tf.split(labels, 2)",
                'tf.split(labels, 2, name="dense")',
            ),
            "a minimize in the towers' loop": (
                "    loss = tf.add_n(losses) / 2\n    train_op",
                "        loss = tf.add_n(losses) / 2\n        train_op",
            ),
            "`loss` bound again after its minimize": (
                "    return tf.estimator.EstimatorSpec(mode, loss=loss",
                "    loss = loss * 2\n    return tf.estimator.EstimatorSpec(mode, loss=loss",
            ),
            "minimize without (loss, global_step), or with more": (
                "get_or_create_global_step())",
                "get_or_create_global_step(), var_list=None)",
            ),
        }
        self._refuses(MINIMIZE, cases)


# a TF1 program of two towers (argv[2]) of the sample's shape: a block under its variable scope with a training-mode
# batch normalization, tf.gradients per tower over tf.trainable_variables(), the sample's device setter of
# DeviceSpecs, the first tower's UPDATE_OPS under the averaged apply_gradients (momentum), on fixed float32 batches
TOWERS = """
    import sys

    import numpy as np
    import tensorflow as tf
    from tensorflow.python.training import device_setter


    def block(inputs, training, name):
        with tf.variable_scope(name):
            net = tf.layers.batch_normalization(inputs, training=training, name="bn")
            net = tf.nn.relu(net)
            net = tf.layers.conv2d(net, 4, 3, padding="same", use_bias=False, name="conv")
            return inputs + net


    def tower_fn(images, labels, training):
        net = tf.layers.conv2d(images, 4, 3, padding="same", name="conv0")
        net = block(net, training, "block0")
        net = tf.reduce_mean(net, [1, 2])
        logits = tf.layers.dense(net, 3, name="logits")
        loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
        loss += 1e-4 * tf.add_n([tf.nn.l2_loss(v) for v in tf.trainable_variables()])
        params = tf.trainable_variables()
        return loss, tf.gradients(loss, params)


    def local_device_setter(worker_device):
        ps_strategy = device_setter._RoundRobinStrategy(1)

        def chooser(op):
            current = tf.DeviceSpec.from_string(op.device or "")
            node_def = op if isinstance(op, tf.NodeDef) else op.node_def
            if node_def.op in ["Variable", "VariableV2", "VarHandleOp"]:
                spec = tf.DeviceSpec.from_string("/cpu:%d" % ps_strategy(op))
            else:
                spec = tf.DeviceSpec.from_string(worker_device)
            return spec.make_merged_spec(current).to_string()

        return chooser


    def model_fn(features, labels, mode):
        towers = int(sys.argv[2])
        image_shards, label_shards = tf.split(features, towers), tf.split(labels, towers)
        losses, gradients = [], []
        for i in range(towers):
            setter = local_device_setter("/cpu:0")
            with tf.variable_scope("resnet", reuse=bool(i != 0)):
                with tf.name_scope("tower_%d" % i) as scope:
                    with tf.device(setter):
                        loss, grads = tower_fn(image_shards[i], label_shards[i], mode == tf.estimator.ModeKeys.TRAIN)
                        losses.append(loss)
                        gradients.append(grads)
                        if i == 0:
                            update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS, scope)
        with tf.device("/cpu:0"):
            variables = tf.trainable_variables()
            averaged = [(tf.add_n(list(g)) / towers, v) for g, v in zip(zip(*gradients), variables)]
            loss = tf.reduce_mean(losses, name="loss")
            global_step = tf.train.get_or_create_global_step()
            optimizer = tf.train.MomentumOptimizer(0.1, 0.9)
            with tf.control_dependencies(update_ops):
                train_op = optimizer.apply_gradients(averaged, global_step=global_step)
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


    def input_fn():
        rng = np.random.RandomState(0)
        x, y = rng.rand(16, 8, 8, 3).astype(np.float32), rng.randint(0, 3, 16)
        return tf.data.Dataset.from_tensor_slices((x, y)).batch(4).repeat().make_one_shot_iterator().get_next()


    if __name__ == "__main__":
        tf.logging.set_verbosity(tf.logging.INFO)
        config = tf.estimator.RunConfig(model_dir=sys.argv[1], tf_random_seed=1, log_step_count_steps=1)
        tf.estimator.Estimator(model_fn, config=config).train(input_fn, max_steps=3)
"""


def _losses(path: str, model_dir: pathlib.Path, towers: int) -> list[float]:
    done = subprocess.run(
        [sys.executable, path, str(model_dir), str(towers)],
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [float(found) for found in re.findall(r"loss = (\S+), step = \d+", done.stderr)]


def _from_step_0(tmp_path: pathlib.Path, source: str) -> tuple[list[float], list[float], pathlib.Path]:
    """(the safe port's losses, the native port's from the safe port's model.ckpt-0, the native port's model_dir)."""
    ported = {level: path for level, (path, _) in migrated(tmp_path, "towers.py", source).items()}
    code = pathlib.Path(ported["native"]).read_text()
    assert "compat.v1" not in code and "tf.estimator" not in code and "_setter(" not in code, code
    safe = _losses(ported["safe"], tmp_path / "safe_dir", 2)
    start = tmp_path / "native_dir"
    start.mkdir()
    for found in (tmp_path / "safe_dir").glob("model.ckpt-0.*"):
        shutil.copy(found, start)
    (start / "checkpoint").write_text('model_checkpoint_path: "model.ckpt-0"\n')
    native = _losses(ported["native"], start, 2)
    assert len(safe) == len(native) == 3, (safe, native)
    assert max(abs(a - b) / max(1.0, abs(a)) for a, b in zip(safe, native)) <= 1e-5, (safe, native)
    return safe, native, start


def test_two_towers_train_as_the_safe_port_from_its_step_0_checkpoint(tmp_path):
    import tensorflow as tf

    start = _from_step_0(tmp_path, TOWERS)[2]
    # the first tower's updates of the shared moving statistics alone, as TF1's train op ran them
    moving = [
        k
        for k, _ in tf.train.list_variables(str(start / "model.ckpt-3"))
        if k.endswith("moving_mean/.ATTRIBUTES/VARIABLE_VALUE")
    ]
    assert len(moving) == 1, moving
    ours = tf.train.load_variable(str(start / "model.ckpt-3"), moving[0])
    theirs = tf.train.load_variable(str(tmp_path / "safe_dir" / "model.ckpt-3"), "resnet/block0/bn/moving_mean")
    assert abs(theirs).max() > 0 and abs(ours - theirs).max() <= 1e-5, (ours, theirs)


# the corpus's towers (tests/corpus/estimator_towers.py, smaller), on TOWERS' input and train call: tf.layers in two
# towers under variable_scope("net", reuse=i > 0) and a device function of the file, one MomentumOptimizer's minimize
# of their mean loss
MINIMIZED = (
    TOWERS[: TOWERS.index("    def block(")]
    + """    def tower_setter(worker):
        strategy = device_setter._RoundRobinStrategy(1)
        return lambda op: "/cpu:%d" % strategy(op) if op.type in ("VariableV2", "VarHandleOp") else worker


    def model_fn(features, labels, mode):
        images, label_shards = tf.split(features, 2), tf.split(labels, 2)
        losses = []
        for i in range(2):
            with tf.variable_scope("net", reuse=i > 0), tf.device(tower_setter("/cpu:0")):
                net = tf.layers.conv2d(images[i], 4, 3, activation=tf.nn.relu)
                net = tf.reduce_mean(net, [1, 2])
                logits = tf.layers.dense(net, 3)
                losses.append(tf.losses.sparse_softmax_cross_entropy(label_shards[i], logits))
        loss = tf.add_n(losses) / 2
        train_op = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss, tf.train.get_or_create_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


"""
    + TOWERS[TOWERS.index("    def input_fn():") :]
)


def test_towers_minimizing_their_mean_loss_train_as_the_safe_port_from_its_step_0_checkpoint(tmp_path):
    import tensorflow as tf

    start = _from_step_0(tmp_path, MINIMIZED)[2]
    # the third update too (the losses show two): the shared layers' variables after it, by their TF1 names
    for index, name in enumerate(("net/conv2d/kernel", "net/conv2d/bias", "net/dense/kernel", "net/dense/bias")):
        key = f"layers/{index // 2}/{name.rpartition('/')[2]}/.ATTRIBUTES/VARIABLE_VALUE"
        ours = tf.train.load_variable(str(start / "model.ckpt-3"), key)
        theirs = tf.train.load_variable(str(tmp_path / "safe_dir" / "model.ckpt-3"), name)
        assert abs(ours - theirs).max() <= 1e-5, (name, ours, theirs)
