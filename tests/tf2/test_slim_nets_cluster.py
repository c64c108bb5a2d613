"""compat.slim_nets.SlimNet under ParameterServerStrategy (compat.strategy() on a cluster of a chief, a worker and a
ps, uai-launch's engine): its variables made under strategy.scope() by create_variables are the ps task's, the train
step runs on the worker (compat.train_steps), and it trains as without a cluster (the same losses and moving
statistics), as a port of a cluster's zoo net (train_slim_classifier.py) needs."""

import subprocess
import sys

import pytest

from tests.support.clusters import run_cluster
from tests.support.processes import REPO, python_env

PROGRAM = """
import numpy as np
import tensorflow as tf

import compat
import compat.train_steps
from tf_slim.nets import resnet_v1


def tiny(images, is_training=True):
    blocks = [resnet_v1.resnet_v1_block("block1", base_depth=2, num_units=1, stride=2)]
    return resnet_v1.resnet_v1(images, blocks, num_classes=3, is_training=is_training, scope="tiny")


def load_batch():
    rng = np.random.RandomState(0)
    x, y = rng.rand(32, 16, 16, 3).astype(np.float32), rng.randint(0, 3, 32)
    return tf.data.Dataset.from_tensor_slices((x, y)).repeat().batch(4, drop_remainder=True)


def build():
    net = compat.slim_nets.SlimNet(tiny, resnet_v1.resnet_arg_scope(), is_training=True)
    net.create_variables(tf.TensorSpec([4, 16, 16, 3]))
    for i, v in enumerate(net.trainable_variables):
        v.assign(tf.fill(v.shape, 0.01 * (i % 7 + 1)))  # (fixed values: both runs comparable)
    global_step = tf.Variable(0, dtype=tf.int64, trainable=False, name="global_step")
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)

    @tf.function
    def train_step(images, labels):
        with tf.GradientTape() as tape:
            logits, _ = net(images)
            loss = tf.reduce_mean(
                tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=tf.squeeze(logits, [1, 2]))
            )
        variables = tape.watched_variables()
        optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        global_step.assign_add(1)
        return (loss,)

    return train_step, global_step, net


strategy = compat.strategy()
print("strategy", type(strategy).__name__)
with strategy.scope():
    train_step, global_step, net = build()
print("placed", sorted({v.device for v in net.variables}), len(net.variables))
for values in compat.train_steps.steps(strategy, train_step, global_step, 3, dataset_fn=load_batch):
    print("step loss %.5f" % values[0])
moving = [v for v in net.variables if "moving_mean" in v.name][0]
print("moving %.6f" % float(tf.reduce_sum(moving)))
"""
TIMEOUT = 180


def _printed(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(("placed", "step", "moving"))]


@pytest.mark.slow
def test_a_slim_net_trains_on_a_parameter_server_cluster_as_on_one_device(tmp_path):
    script = tmp_path / "ps_zoo.py"
    script.write_text(PROGRAM)
    alone = subprocess.run(
        [sys.executable, str(script)], env=python_env(), cwd=REPO, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert alone.returncode == 0, alone.stderr[-3000:]
    status, logs = run_cluster(
        tmp_path, command=[sys.executable, str(script)], timeout=TIMEOUT, grace=0, chief=1, workers=1, ps=1,
        dialect="master",
    )  # fmt: skip
    assert status == 0, logs
    chief, one = _printed(logs["chief:0"]), _printed(alone.stdout)
    assert chief[0] == "placed ['/job:ps/replica:0/task:0/device:CPU:0'] 27", chief
    assert one[0] == "placed ['/job:localhost/replica:0/task:0/device:CPU:0'] 27", one
    assert len(chief) == 5 and chief[1:] == one[1:], (chief, one)  # (3 steps' losses, the moving mean after)
    assert "strategy ParameterServerStrategy" in logs["chief:0"] and not _printed(logs["worker:0"])
