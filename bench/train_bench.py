"""Training throughput (images/s) of the project's loops against a hand-written native TF2 loop, in one run.

    python bench/train_bench.py [--steps 120] [--interval 20] [--rounds 2] [--batch 64]

Every runner trains the same tiny ResNet (size 8, 32x32 images, SGD with momentum and the
legacy weight decay) on the same generated ImageNet-schema TFRecords read by the same
`compat.data.imagenet` pipeline. A runner returns the images/s of each interval of
`--interval` steps; the first interval (tracing, warm-up) is dropped and the median of the
rest is the runner's rate. Runners alternate over `--rounds` rounds in one process (the
machine is noisy: compare ratios measured together); the table shows the median rate per
runner and its ratio to the native anchor. Add a runner (e.g. `legacy_tf1`) as one entry
of RUNNERS.
"""

import argparse
import statistics
import sys
import tempfile
import time

import compat  # noqa: F401 - selects tf-keras before TensorFlow binds Keras
import tensorflow as tf

from compat.data import imagenet, synth
from compat.models.resnet import ResNet, l2_weights

ANCHOR = "native_tf2"
NUM_CLASSES, IMAGE_SIZE, RESNET_SIZE, WEIGHT_DECAY, RATE, MOMENTUM = 11, 32, 8, 1e-4, 0.05, 0.9


def train_data(data_dir, batch):
    return imagenet.dataset(data_dir, True, batch, IMAGE_SIZE, NUM_CLASSES)


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
    rates = []
    for _ in range(args.steps // args.interval):
        start = time.perf_counter()
        for _ in range(args.interval):
            loss = step(*next(batches))
        float(loss)  # wait for the interval's last step
        rates.append(args.interval * args.batch / (time.perf_counter() - start))
    return rates


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


RUNNERS = {"native_tf2": native_tf2, "modern_tf2": modern_tf2}


def measure(runners, data_dir, args):
    """{runner: [median images/s of each round]}, runners alternating within each round."""
    rates = {name: [] for name in runners}
    for _ in range(args.rounds):
        for name, runner in runners.items():
            intervals = runner(data_dir, args)[1:]  # the first interval traces and warms up
            rates[name].append(statistics.median(intervals))
    return rates


def table(rates):
    anchor = statistics.median(rates[ANCHOR])
    lines = [f"{'runner':<14}{'images/s':>10}{'vs native':>11}   rounds"]
    for name, values in rates.items():
        rate = statistics.median(values)
        lines.append(f"{name:<14}{rate:>10.0f}{rate / anchor:>10.3f}x   {' '.join(f'{v:.0f}' for v in values)}")
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
    if ANCHOR not in names or any(name not in RUNNERS for name in names):
        parser.error(f"--runners must name {ANCHOR} and only runners of {', '.join(RUNNERS)}")
    with tempfile.TemporaryDirectory() as data_dir:
        synth.generate(data_dir, train_shards=2, validation_shards=1, images=512, size=40, num_classes=NUM_CLASSES - 1)
        rates = measure({name: RUNNERS[name] for name in names}, data_dir, args)
    print(table(rates))
    return 0


if __name__ == "__main__":
    sys.exit(main())
