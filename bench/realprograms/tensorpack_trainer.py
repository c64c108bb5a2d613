"""tensorpack's trainer on a FakeData dataflow, written as a TF 1.x program.

`launch_train_with_config` with a `SimpleTrainer` (its gradients gated per op): a tiny `ModelDesc` (two `FullyConnected`
layers, softmax cross-entropy, SGD) fed by `FakeData` through tensorpack's default QueueInput, one
epoch of 3 steps. A tensorpack callback fetches the cost in each training step's `session.run` and
prints it as `REALPROGRAMS-LOSS <step> <loss>` (bench/realprograms.py reads those lines). tensorpack
is imported from the folder this script is in (its package copied next to it).

    python tensorpack_trainer.py WORKDIR
"""

import os
import sys

import numpy as np
import tensorflow as tf
from tensorpack import (
    Callback,
    FakeData,
    ModelDesc,
    SimpleTrainer,
    TrainConfig,
    launch_train_with_config,
    logger,
)
from tensorpack.models import FullyConnected

FEATURES = 6
CLASSES = 3
BATCH = 8


class SeededFakeData(FakeData):
    """FakeData seeds its generator from the object's id and the time; this one from 0."""

    def reset_state(self):
        super().reset_state()
        self.rng = np.random.RandomState(0)


class Model(ModelDesc):
    def inputs(self):
        return [tf.placeholder(tf.float32, [None, FEATURES], "x"), tf.placeholder(tf.int32, [None], "y")]

    def build_graph(self, x, y):
        net = FullyConnected(
            "fc1", x, 16, activation=tf.nn.relu, kernel_initializer=tf.truncated_normal_initializer(stddev=0.3, seed=2)
        )
        logits = FullyConnected(
            "logits", net, CLASSES, kernel_initializer=tf.truncated_normal_initializer(stddev=0.3, seed=3)
        )
        cost = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        return tf.identity(cost, name="total_cost")

    def optimizer(self):
        return tf.train.GradientDescentOptimizer(0.5)


class LossPrinter(Callback):
    def _setup_graph(self):
        self._cost = self.get_tensors_maybe_in_tower(["total_cost:0"])[0]
        self._step = 0

    def _before_run(self, ctx):
        return tf.train.SessionRunArgs(fetches=self._cost)

    def _after_run(self, ctx, values):
        self._step += 1
        print(f"REALPROGRAMS-LOSS {self._step} {values.results:.9g}", flush=True)


def main(workdir):
    logger.set_logger_dir(os.path.join(workdir, "log"), action="d")
    tf.set_random_seed(1)
    dataflow = SeededFakeData(
        [[BATCH, FEATURES], [BATCH]], size=3, random=True, dtype=["float32", "int32"], domain=(0, CLASSES)
    )
    config = TrainConfig(
        model=Model(),
        dataflow=dataflow,
        callbacks=[LossPrinter()],
        max_epoch=1,
        steps_per_epoch=3,
    )
    trainer = SimpleTrainer()
    # tensorpack computes gradients with gate_gradients=False: the optimizer may then update a (ref)
    # variable while another gradient still reads it, and the losses differ from run to run from step 2,
    # on TF 1.15 too (docs/traps.md). Gating each op's gradients makes every TF repeat itself.
    trainer.GATE_GRADIENTS = tf.train.Optimizer.GATE_OP
    launch_train_with_config(config, trainer)


if __name__ == "__main__":
    main(sys.argv[1])
