"""Training throughput (images/s) of the project's loops against hand-written native loops, in one run.

    python bench/train_bench.py [--steps 120] [--interval 20] [--rounds 3] [--batch 64]

Every runner trains the same tiny ResNet (size 8, 32x32 images, SGD with momentum and the
legacy weight decay) on the same generated ImageNet-schema TFRecords read by the same
`trainlib.data.imagenet` pipeline, and yields the images/s of each interval of `--interval`
steps. Pairs compared (runner -> its native anchor):
  modern_tf2 -> native_tf2   `modern_tf2.run_loop.run` as imagenet_main drives it (one device,
                             metrics, progress lines) vs a plain tf.function + GradientTape loop
  legacy_tf1 -> native_tf1   the Estimator program's graph (`legacy_tf1.resnet_model_fn.model_fn`,
                             TRAIN, one tower) stepped in a MonitoredTrainingSession with the hooks
                             Estimator.train adds, vs `Session.run(train_op)` of the same model,
                             loss and MomentumOptimizer built by hand
The machine is shared and noisy, so the runners interleave: within a round they take turns
interval by interval (the order flips every interval); `run_loop.run`, which owns its loop,
runs in a thread paused at each progress report (`Settings.after_report`) until its next
turn, the pause left out of its rate. Each runner's first interval (tracing,
warm-up, initial checkpoint) is dropped; a round's rate is the median of the other intervals.
The table shows the median over rounds and the median of the per-round ratios to the anchor.
Graph-mode runners build in their own tf.Graph and never leave it as the default between
turns, so eager and graph runners share the process. Add a runner as one entry of RUNNERS
(a generator of interval rates) and name its anchor in ANCHORS.
"""

import argparse
import os
import queue
import statistics
import sys
import tempfile
import threading
import time

import tensorflow as tf

import compat  # noqa: F401 - selects tf-keras before TensorFlow binds Keras
from trainlib.data import imagenet, synth
from trainlib.models.resnet import l2_weights
from trainlib.training.resnet_config import ResNetConfig

v1 = tf.compat.v1
# Every runner's model and optimisation; a constant rate (the schedule's first epoch boundary is never reached).
CONFIG = ResNetConfig(
    resnet_size=8,
    num_classes=11,
    image_size=32,
    weight_decay=1e-4,
    learning_rate=0.05,
    momentum=0.9,
    batches_per_epoch=10**6,
)
NUM_CLASSES, IMAGE_SIZE, WEIGHT_DECAY, RATE, MOMENTUM = (
    CONFIG.num_classes,
    CONFIG.image_size,
    CONFIG.weight_decay,
    CONFIG.learning_rate,
    CONFIG.momentum,
)


def train_data(data_dir, batch, input_context=None):
    return imagenet.dataset(data_dir, True, batch, IMAGE_SIZE, NUM_CLASSES, input_context=input_context)


def intervals(run_interval, args):
    """Forever: the images/s of one `run_interval()` call (`args.interval` steps, done when it returns)."""
    while True:
        start = time.perf_counter()
        run_interval()
        yield args.interval * args.batch / (time.perf_counter() - start)


def native_tf2(data_dir, args):
    """The TF2 anchor: a tf.function step with GradientTape, no strategy; one host sync per interval."""
    model = CONFIG.build_model()
    optimizer = tf.keras.optimizers.SGD(RATE, momentum=MOMENTUM)
    batches = iter(train_data(data_dir, args.batch))

    @tf.function
    def step(images, labels):
        with tf.GradientTape() as tape:
            logits = model(images, training=True)
            cross_entropy = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
            loss = cross_entropy + WEIGHT_DECAY * l2_weights(model.trainable_variables)
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    def run_interval():
        float(sum(step(*next(batches)) for _ in range(args.interval)))

    yield from intervals(run_interval, args)


def native_tf1(data_dir, args):
    """The TF1 anchor: the same model and loss as a graph, `session.run(train_op)` in a plain loop."""
    graph = tf.Graph()
    with graph.as_default():
        images, labels = v1.data.make_one_shot_iterator(train_data(data_dir, args.batch)).get_next()
        model = CONFIG.build_model()
        logits = model(images, training=True)
        cross_entropy = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
        loss = cross_entropy + WEIGHT_DECAY * l2_weights(model.trainable_variables)
        with tf.control_dependencies(model.updates):
            train_op = v1.train.MomentumOptimizer(RATE, MOMENTUM).minimize(loss, v1.train.get_or_create_global_step())
        initialize = v1.global_variables_initializer()
    # Not `with session`: that would keep this graph the default while other runners take their turn.
    session = v1.Session(graph=graph)
    try:
        session.run(initialize)

        def run_interval():
            for _ in range(args.interval):
                session.run(train_op)

        yield from intervals(run_interval, args)
    finally:
        session.close()


def legacy_tf1(data_dir, args):
    """The Estimator program's model_fn graph, stepped as Estimator.train steps it (same session hooks)."""
    from legacy_tf1 import resnet_model_fn

    params = resnet_model_fn.estimator_params(CONFIG)
    with tempfile.TemporaryDirectory() as model_dir:
        graph = tf.Graph()
        with graph.as_default():
            global_step = v1.train.get_or_create_global_step()
            dataset = imagenet.input_fn(data_dir, True, args.batch, IMAGE_SIZE, num_classes=NUM_CLASSES)()
            images, labels = v1.data.make_one_shot_iterator(dataset).get_next()
            spec = resnet_model_fn.model_fn(images, labels, tf.estimator.ModeKeys.TRAIN, params)
            # What Estimator.train adds around the spec (the program logs and summarises every
            # --log_every_n_steps, here one interval; checkpoints only at start and end here).
            hooks = list(spec.training_hooks) + [
                v1.train.NanTensorHook(spec.loss),
                v1.train.LoggingTensorHook({"loss": spec.loss, "step": global_step}, every_n_iter=args.interval),
            ]
            session = v1.train.MonitoredTrainingSession(
                checkpoint_dir=model_dir,
                hooks=hooks,
                chief_only_hooks=list(spec.training_chief_hooks),
                save_checkpoint_steps=10**9,
                save_checkpoint_secs=None,
                save_summaries_steps=args.interval,
                log_step_count_steps=args.interval,
            )
        try:

            def run_interval():
                for _ in range(args.interval):
                    session.run(spec.train_op)

            yield from intervals(run_interval, args)
        finally:
            with graph.as_default():  # the end hooks save a checkpoint: graph-mode savers
                session.close()


class _Stopped(Exception):
    """Ends a paused run_loop when its stream is closed."""


def modern_tf2(data_dir, args):
    """`modern_tf2.run_loop.run` as imagenet_main drives it (one device); rates from its progress lines.

    The loop runs in a thread that waits at each report for its next turn: one loop runs at a time.
    """
    from modern_tf2 import run_loop, trainer

    rates, turn, stopping = queue.Queue(), threading.Semaphore(0), threading.Event()

    def after_report(values):
        rates.put(values["images_per_sec"])
        turn.acquire()
        if stopping.is_set():
            raise _Stopped

    program = run_loop.Program(
        build_model=CONFIG.build_model,
        build_optimizer=lambda: trainer.sgd_momentum(
            trainer.resnet_learning_rate(RATE, CONFIG.batches_per_epoch), MOMENTUM
        ),
        train_dataset=lambda context: train_data(data_dir, args.batch, context),
        eval_dataset=None,
        weight_decay=WEIGHT_DECAY,
        decayed_weights=l2_weights,
        image_size=IMAGE_SIZE,
    )

    def train(out):
        settings = run_loop.Settings(
            output_dir=out,
            log_dir=out,
            train_steps=args.steps,
            global_batch=args.batch,
            save_every=10**9,
            log_every=args.interval,
            export=False,
            after_report=after_report,
        )
        try:
            run_loop.run(program, settings)
        except _Stopped:
            pass
        except BaseException as error:  # noqa: BLE001 - handed to the measuring thread
            rates.put(error)

    with tempfile.TemporaryDirectory() as out:
        thread = threading.Thread(target=train, args=(out,), daemon=True)
        thread.start()
        try:
            while True:
                rate = rates.get()
                if isinstance(rate, BaseException):
                    raise rate
                yield rate
                turn.release()
        finally:
            stopping.set()
            turn.release()
            thread.join()


RUNNERS = {"native_tf2": native_tf2, "modern_tf2": modern_tf2, "native_tf1": native_tf1, "legacy_tf1": legacy_tf1}
# runner -> the native loop it is compared with (anchors are compared with themselves)
ANCHORS = {
    "native_tf2": "native_tf2",
    "modern_tf2": "native_tf2",
    "native_tf1": "native_tf1",
    "legacy_tf1": "native_tf1",
}


def one_round(runners, data_dir, args, flip):
    """{runner: median images/s of its intervals but the first}, the runners taking turns per interval."""
    streams = {name: runner(data_dir, args) for name, runner in runners.items()}
    rates = {name: [] for name in runners}
    try:
        for index in range(args.steps // args.interval):
            order = list(streams) if (index + flip) % 2 == 0 else list(reversed(streams))
            for name in order:
                rates[name].append(next(streams[name]))
    finally:
        for stream in streams.values():
            stream.close()
    return {name: statistics.median(values[1:]) for name, values in rates.items()}


def measure(runners, data_dir, args):
    """{runner: [rate of each round]}."""
    rounds = [one_round(runners, data_dir, args, flip) for flip in range(args.rounds)]
    return {name: [r[name] for r in rounds] for name in runners}


def table(rates):
    width = 6 * len(next(iter(rates.values()))) + 2  # the per-round ratios' column, however many rounds
    lines = [
        f"{'runner':<12}{'images/s':>10}{'vs anchor':>11}  {'anchor':<12}{'per-round ratios':<{width}}rounds (images/s)"
    ]
    for name, values in rates.items():
        anchor = rates[ANCHORS[name]]
        ratios = [value / base for value, base in zip(values, anchor)]
        lines.append(
            f"{name:<12}{statistics.median(values):>10.0f}{statistics.median(ratios):>10.3f}x  {ANCHORS[name]:<12}"
            f"{' '.join(f'{r:.3f}' for r in ratios):<{width}}{' '.join(f'{v:.0f}' for v in values)}"
        )
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=120, help="steps per runner and round (default: 120)")
    parser.add_argument("--interval", type=int, default=20, help="steps per measured interval (default: 20)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds over all runners (default: 3)")
    parser.add_argument("--batch", type=int, default=64, help="global batch (default: 64)")
    parser.add_argument("--runners", default=",".join(RUNNERS), help=f"comma-separated subset of {', '.join(RUNNERS)}")
    args = parser.parse_args(argv)
    names = args.runners.split(",")
    if any(name not in RUNNERS or ANCHORS[name] not in names for name in names):
        parser.error(f"--runners: names of {', '.join(RUNNERS)}, each with its anchor ({ANCHORS})")
    if args.steps < 2 * args.interval:
        parser.error("--steps: at least two intervals (the first is warm-up)")
    tf.get_logger().setLevel("ERROR")  # TF1 deprecation notices would bury the table
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as data_dir:
        synth.generate(data_dir, train_shards=2, validation_shards=1, images=512, size=40, num_classes=NUM_CLASSES - 1)
        rates = measure({name: RUNNERS[name] for name in names}, data_dir, args)
    print(f"TensorFlow {tf.__version__}, {args.rounds} rounds of {args.steps} steps, batch {args.batch}")
    print(table(rates))
    print(
        "load average (1/5/15 min) at start {:.2f} {:.2f} {:.2f}, at end {:.2f} {:.2f} {:.2f}".format(
            *load_before, *os.getloadavg()
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
