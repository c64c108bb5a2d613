"""The training loop both TF2 programs share: strategy from TF_CONFIG, train, checkpoint, export.

    result = run_loop.run(program, settings)      # Program: model, optimizer, data; Settings: steps, folders

Strategy (`compat.strategy`, TF_CONFIG in any dialect, rewritten to `chief` for TensorFlow):
one device; Mirrored over the local devices (`--num_gpus` GPUs, or as many logical CPUs);
MultiWorkerMirrored (workers, no ps); ParameterServer (the chief schedules steps through a
`ClusterCoordinator`; ps and worker tasks only serve, inside `compat.strategy`); an evaluator
task only evaluates the checkpoints the chief writes.

Why a custom loop and not Keras `fit`: Keras 3 `fit` fails under MultiWorkerMirrored and
ParameterServer (docs/traps.md); tf-keras `fit` works, but needs a `DatasetCreator`
under PS and a `BackupAndRestore` callback whose folder layout differs from the
`CheckpointManager` one the evaluator, the export and a restarted chief read. One loop,
`Trainer.distributed_step` either called (synchronous strategies) or scheduled (PS), runs
under every strategy with either Keras, and its per-step loss is the one the equivalence
test compares with the Estimator program's.

Resumption: every task restores the latest checkpoint of `output_dir` before training, so a
restarted job continues at the step it had saved (`BackupAndRestore` semantics).
"""

from __future__ import annotations

import dataclasses
import os
import re
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, cast

import tensorflow as tf

import compat  # noqa: F401 - selects tf-keras before TensorFlow binds Keras
import compat.strategy as strategies
from compat import tf_config
from compat.errors import ClusterError, DeviceError
from modern_tf2 import export
from modern_tf2.chief_checkpoints import ChiefCheckpoints
from modern_tf2.progress import Progress
from modern_tf2.trainer import Trainer, classification_loss

if TYPE_CHECKING:
    from compat.tf_config import ClusterConfig

# A peer that died makes collectives and remote calls fail with one of these.
_LOST_PEER_ERRORS = (
    tf.errors.UnavailableError,
    tf.errors.DeadlineExceededError,
    tf.errors.CancelledError,
    tf.errors.AbortedError,
)


@dataclasses.dataclass
class Program:
    """What a main supplies: all callables, run under the chosen strategy's scope."""

    build_model: Callable[[], tf.keras.Model]
    build_optimizer: Callable[[], tf.keras.optimizers.Optimizer]
    # (tf.distribute.InputContext) -> dataset of (images, labels), per-replica batch
    train_dataset: Callable[[tf.distribute.InputContext], tf.data.Dataset]
    eval_dataset: Callable[[], tf.data.Dataset] | None  # () -> finite dataset of (images, labels), or None
    weight_decay: float
    # (trainable variables) -> scalar to multiply by weight_decay
    decayed_weights: Callable[[list[tf.Variable]], tf.Tensor]
    image_size: int
    # (logits, labels) -> scalar, before weight decay
    data_loss: Callable[[tf.Tensor, tf.Tensor], tf.Tensor] = classification_loss


@dataclasses.dataclass
class Settings:
    output_dir: str
    log_dir: str
    train_steps: int
    global_batch: int
    num_devices: int = 1
    save_every: int = 100
    log_every: int = 10
    export: bool = True
    evaluator_timeout: float = 600.0
    # called with each progress line's values; the time it takes is left out of the next rate
    # (bench/train_bench.py pauses the loop there so other loops can take their turn)
    after_report: Callable[[dict[str, float]], None] | None = None


def run(program: Program, settings: Settings, config: ClusterConfig | None = None) -> dict[str, Any]:
    """Train (or, on an evaluator task, evaluate) as the cluster in TF_CONFIG asks; return a summary dict."""
    config = tf_config.from_environment() if config is None else config
    chosen = strategies.kind(config, settings.num_devices)
    strategy = strategies.strategy(config, settings.num_devices)  # ps and PS-worker tasks serve in here
    if chosen == strategies.EVALUATOR:
        return evaluate_checkpoints(program, settings)
    replicas = strategy.num_replicas_in_sync
    if settings.global_batch % replicas:
        raise DeviceError(f"the batch of {settings.global_batch} does not split evenly over {replicas} replicas")
    print(f"strategy {chosen} ({type(strategy).__name__}, {replicas} replica(s) in sync)", flush=True)
    try:
        return _train(program, settings, config, chosen, strategy)
    except _LOST_PEER_ERRORS as err:
        if chosen != strategies.MULTI_WORKER:
            raise
        # TensorFlow prefixes the op's function name in {{...}}: keep the cause only.
        first_line = re.sub(r"\{\{.*?\}\}\s*", "", err.message or type(err).__name__).strip().splitlines()[0]
        raise ClusterError(
            f"{config.task}: a MultiWorkerMirrored peer was lost ({type(err).__name__}: {first_line[:200]}); "
            f"restart the whole job to resume from the last checkpoint in {settings.output_dir}"
        ) from None


def _train(
    program: Program, settings: Settings, config: ClusterConfig, chosen: str, strategy: tf.distribute.Strategy
) -> dict[str, Any]:
    with strategy.scope():
        model = program.build_model()
        model(tf.zeros([1, program.image_size, program.image_size, 3]), training=False)
        optimizer = program.build_optimizer()
        optimizer.build(model.trainable_variables)
        trainer = Trainer(model, optimizer, program.weight_decay, strategy, program.decayed_weights, program.data_loss)
    checkpoints = ChiefCheckpoints(
        tf.train.Checkpoint(model=model, optimizer=optimizer), settings.output_dir, config.is_chief
    )
    restored = checkpoints.restore()
    step = int(optimizer.iterations.numpy())
    if restored:
        print(f"restored {restored} at step {step}", flush=True)

    if chosen == strategies.PARAMETER_SERVER:
        coordinator = strategies.coordinator(strategy)
        iterator = iter(
            coordinator.create_per_worker_dataset(
                lambda: strategy.distribute_datasets_from_function(program.train_dataset)
            )
        )

        def steps(count: int) -> tf.Tensor:
            results = [coordinator.schedule(trainer.distributed_step, args=(iterator,)) for _ in range(count)]
            coordinator.join()
            return sum(result.fetch() for result in results) / count

    else:
        iterator = iter(_train_batches(program, chosen, strategy))

        def steps(count: int) -> tf.Tensor:
            total = 0.0  # summed as tensors: no wait for each step's result
            for _ in range(count):
                total += trainer.distributed_step(iterator)
            return total / count

    progress = Progress(settings.log_dir, settings.global_batch, settings.train_steps, write=config.is_chief)
    progress.start(step, trainer.PROGRESS_FIELDS)
    while step < settings.train_steps:
        boundary = min(
            _next_multiple(step, settings.log_every), _next_multiple(step, settings.save_every), settings.train_steps
        )
        step, values = trainer.progress(steps(boundary - step))  # loss: the mean over these steps
        if step % settings.log_every == 0 or step >= settings.train_steps:
            reported = progress.report(step, values)
            trainer.reset_metrics()
            if settings.after_report is not None:
                paused = time.perf_counter()
                settings.after_report(reported)
                progress.leave_out(time.perf_counter() - paused)
        if step % settings.save_every == 0 or step >= settings.train_steps:
            checkpoints.save(step)
    return _finish(program, settings, config, model, step, restored)


def _train_batches(program: Program, chosen: str, strategy: tf.distribute.Strategy) -> Iterator[Any] | Any:
    """The training dataset as the steps read it: through `tf.distribute` except on one CPU device.

    There the batches are already where the step runs, but the distributed iterator still passes
    each through a multi-device iterator, on a thread of its own: ~0.5 ms more host CPU per step
    than a plain iterator (measured with a trivial step on TF 2.21), ~1% of the ~50 ms step of
    bench/train_bench.py's tiny ResNet. The input context is the one OneDeviceStrategy gives: one
    pipeline, one replica.
    """
    if chosen == strategies.ONE_DEVICE:
        (device,) = strategy.extended.worker_devices
        if tf.DeviceSpec.from_string(device).device_type == "CPU":
            return program.train_dataset(tf.distribute.InputContext())
    return strategy.distribute_datasets_from_function(program.train_dataset)


def _finish(
    program: Program,
    settings: Settings,
    config: ClusterConfig,
    model: tf.keras.Model,
    step: int,
    restored: str | None,
) -> dict[str, Any]:
    weights = export.read_weights(model)  # a collective under MultiWorkerMirrored: every task reads
    result: dict[str, Any] = {"step": step, "restored": restored, "export": None, "eval": None}
    if not config.is_chief:
        return result
    plain = export.plain_copy(program.build_model, weights, program.image_size)
    if settings.export:
        result["export"] = export.save(plain, os.path.join(settings.output_dir, "export"), step, program.image_size)
        print(f"exported {result['export']}", flush=True)
    if program.eval_dataset is not None:
        result["eval"] = _report_eval(plain, program, settings, step)
    print(f"done at step {step}", flush=True)
    return result


def _report_eval(model: tf.keras.Model, program: Program, settings: Settings, step: int) -> dict[str, float]:
    # (set: `_finish` checks it, and an evaluator task is given a program that has one)
    eval_dataset = cast("Callable[[], tf.data.Dataset]", program.eval_dataset)
    values = export.evaluate(model, eval_dataset())
    with tf.summary.create_file_writer(os.path.join(settings.log_dir, "eval")).as_default(step=step):
        for name in ("top_1_accuracy", "top_5_accuracy"):
            tf.summary.scalar(name, values[name])
    print(
        f"eval step {step} top_1_accuracy {values['top_1_accuracy']:.4f} "
        f"top_5_accuracy {values['top_5_accuracy']:.4f} images {values['images']}",
        flush=True,
    )
    return values


def evaluate_checkpoints(program: Program, settings: Settings) -> dict[str, Any]:
    """The evaluator task: evaluate each new checkpoint of `output_dir` until the one of the last step."""
    model = program.build_model()
    model(tf.zeros([1, program.image_size, program.image_size, 3]), training=False)
    checkpoint = tf.train.Checkpoint(model=model)
    last = None
    for path in tf.train.checkpoints_iterator(settings.output_dir, timeout=settings.evaluator_timeout):
        checkpoint.restore(path).expect_partial()
        step = int(path.rsplit("-", 1)[1])
        last = _report_eval(model, program, settings, step)
        if step >= settings.train_steps:
            break
    return {"eval": last}


def platform_log_dir(values: Any, fallback: str | None = None) -> str:
    """`--log_dir` when given, else `fallback` or `--output_dir` (the platform's default may not exist locally)."""
    return values.log_dir if values["log_dir"].present else fallback or values.output_dir


def _next_multiple(step: int, every: int) -> int:
    every = max(1, every)
    return (step // every + 1) * every
