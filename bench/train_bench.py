"""Training throughput (images/s) of the project's loops against hand-written native loops, in one run.

    python bench/train_bench.py [--steps 120] [--interval 20] [--rounds 2] [--batch 64]

Every runner trains the same tiny ResNet (size 8, 32x32 images, SGD with momentum and the
legacy weight decay) on the same generated ImageNet-schema TFRecords read by the same
`compat.data.imagenet` pipeline. A runner returns the images/s of each interval of
`--interval` steps; the first interval (tracing, warm-up) is dropped and the median of the
rest is the runner's rate. Runners alternate over `--rounds` rounds in one process (the
machine is noisy: compare ratios measured together); the table shows the median rate per
runner and its ratio to its native anchor: modern_tf2 against a plain TF2 tf.function loop,
legacy_tf1 (the Estimator program's model_fn under tf.estimator) against a plain TF1 graph
loop (Session.run of a MomentumOptimizer train op). Add a runner as one entry of RUNNERS
and name its anchor in ANCHORS.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

import compat  # noqa: F401 - selects tf-keras before TensorFlow binds Keras
import tensorflow as tf

from compat.data import imagenet, synth
from compat.models.resnet import ResNet, l2_weights

NUM_CLASSES, IMAGE_SIZE, RESNET_SIZE, WEIGHT_DECAY, RATE, MOMENTUM = 11, 32, 8, 1e-4, 0.05, 0.9


def train_data(data_dir, batch):
    return imagenet.dataset(data_dir, True, batch, IMAGE_SIZE, NUM_CLASSES)


def timed_intervals(run_step, args):
    """images/s of each `args.interval` steps of `run_step()` (which returns once the step is done)."""
    rates = []
    for _ in range(args.steps // args.interval):
        start = time.perf_counter()
        for _ in range(args.interval):
            run_step()
        rates.append(args.interval * args.batch / (time.perf_counter() - start))
    return rates


def native_tf2(data_dir, args):
    """The anchor: a plain tf.function step with GradientTape, no strategy, no project code but model and data."""
    model = ResNet(RESNET_SIZE, NUM_CLASSES)
    optimizer = tf.keras.optimizers.SGD(RATE, momentum=MOMENTUM)

    @tf.function
    def step(images, labels):
        with tf.GradientTape() as tape:
            logits = model(images, training=True)
            cross_entropy = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
            loss = cross_entropy + WEIGHT_DECAY * l2_weights(model.trainable_variables)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    batches = iter(train_data(data_dir, args.batch))
    return timed_intervals(lambda: float(step(*next(batches))), args)


def native_tf1(data_dir, args):
    """The TF1 anchor: the same model and loss as a graph, `session.run(train_op)` in a plain loop."""
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        images, labels = v1.data.make_one_shot_iterator(train_data(data_dir, args.batch)).get_next()
        model = ResNet(RESNET_SIZE, NUM_CLASSES)
        logits = model(images, training=True)
        cross_entropy = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
        loss = cross_entropy + WEIGHT_DECAY * l2_weights(model.trainable_variables)
        with tf.control_dependencies(model.updates):
            train_op = v1.train.MomentumOptimizer(RATE, MOMENTUM).minimize(loss, v1.train.get_or_create_global_step())
        with v1.Session() as session:
            session.run(v1.global_variables_initializer())
            return timed_intervals(lambda: session.run(train_op), args)


class _IntervalRates(tf.compat.v1.train.SessionRunHook):
    def __init__(self, args):
        self.args, self.rates, self.steps, self.start = args, [], 0, None

    def before_run(self, run_context):
        if self.start is None:
            self.start = time.perf_counter()

    def after_run(self, run_context, run_values):
        self.steps += 1
        if self.steps % self.args.interval == 0:
            now = time.perf_counter()
            self.rates.append(self.args.interval * self.args.batch / (now - self.start))
            self.start = now


def legacy_tf1(data_dir, args):
    """legacy_tf1's Estimator program (its model_fn, RunConfig and input_fn), one device, timed by a hook."""
    from legacy_tf1 import resnet_model_fn

    params = dict(resnet_size=RESNET_SIZE, resnet_version=2, num_classes=NUM_CLASSES, batch_norm_decay=0.997,
                  batch_norm_epsilon=1e-5, image_size=IMAGE_SIZE, weight_decay=WEIGHT_DECAY, momentum=MOMENTUM,
                  learning_rate=RATE, batches_per_epoch=10**6, towers=1, tower_devices=["/cpu:0"],
                  parameter_devices=["/cpu:0"], is_chief=True)
    rates = _IntervalRates(args)
    with tempfile.TemporaryDirectory() as out:
        config = tf.estimator.RunConfig(model_dir=out, save_checkpoints_steps=10**9, log_step_count_steps=10**9)
        estimator = tf.estimator.Estimator(resnet_model_fn.model_fn, config=config, params=params)
        estimator.train(imagenet.input_fn(data_dir, True, args.batch, IMAGE_SIZE, num_classes=NUM_CLASSES),
                        max_steps=args.steps, hooks=[rates])
    return rates.rates


def modern_tf2(data_dir, args):
    """`modern_tf2.run_loop.run` as imagenet_main drives it (one device), rates from its progress lines."""
    from modern_tf2 import run_loop, trainer

    program = run_loop.Program(
        build_model=lambda: ResNet(RESNET_SIZE, NUM_CLASSES),
        build_optimizer=lambda: trainer.sgd_momentum(trainer.resnet_learning_rate(RATE, 10**6), MOMENTUM),
        train_dataset=lambda context: imagenet.dataset(data_dir, True, args.batch, IMAGE_SIZE, NUM_CLASSES, input_context=context),
        eval_dataset=None,
        weight_decay=WEIGHT_DECAY,
        decayed_weights=l2_weights,
        image_size=IMAGE_SIZE,
    )
    with tempfile.TemporaryDirectory() as out:
        settings = run_loop.Settings(
            output_dir=out, log_dir=out, train_steps=args.steps, global_batch=args.batch,
            save_every=10**9, log_every=args.interval, export=False,
        )
        result = run_loop.run(program, settings)
    return [report["images_per_sec"] for report in result["reports"]]


RUNNERS = {"native_tf2": native_tf2, "modern_tf2": modern_tf2, "native_tf1": native_tf1, "legacy_tf1": legacy_tf1}
# runner -> the native loop it is compared with (anchors are compared with themselves)
ANCHORS = {"native_tf2": "native_tf2", "modern_tf2": "native_tf2", "native_tf1": "native_tf1", "legacy_tf1": "native_tf1"}


def measure(runners, data_dir, args):
    """{runner: [median images/s of each round]}, runners alternating within each round."""
    rates = {name: [] for name in runners}
    for _ in range(args.rounds):
        for name, runner in runners.items():
            intervals = runner(data_dir, args)[1:]  # the first interval traces and warms up
            rates[name].append(statistics.median(intervals))
    return rates


def table(rates):
    lines = [f"{'runner':<14}{'images/s':>10}{'vs anchor':>11}  {'anchor':<12}rounds"]
    for name, values in rates.items():
        rate = statistics.median(values)
        anchor = statistics.median(rates[ANCHORS[name]])
        rounds = " ".join(f"{v:.0f}" for v in values)
        lines.append(f"{name:<14}{rate:>10.0f}{rate / anchor:>10.3f}x  {ANCHORS[name]:<12}{rounds}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=120, help="steps per runner and round (default: 120)")
    parser.add_argument("--interval", type=int, default=20, help="steps per measured interval (default: 20)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds over all runners (default: 2)")
    parser.add_argument("--batch", type=int, default=64, help="global batch (default: 64)")
    parser.add_argument("--runners", default=",".join(RUNNERS), help=f"comma-separated subset of {', '.join(RUNNERS)}")
    args = parser.parse_args(argv)
    names = args.runners.split(",")
    if any(name not in RUNNERS or ANCHORS[name] not in names for name in names):
        parser.error(f"--runners: names of {', '.join(RUNNERS)}, each with its anchor ({ANCHORS})")
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as data_dir:
        synth.generate(data_dir, train_shards=2, validation_shards=1, images=512, size=40, num_classes=NUM_CLASSES - 1)
        rates = measure({name: RUNNERS[name] for name in names}, data_dir, args)
    print(table(rates))
    print(f"load average (1 min) at start {load_before:.2f}, at end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
