"""The training loop of a TF1 MonitoredTrainingSession script ported to TF 2 (uai-migrate --level native):
its train step run until the global step reaches the StopAtStepHook's last step, on whatever `compat.strategy()`
gave this task.

    strategy = compat.strategy()                      # ps and worker tasks serve there; the chief goes on
    with strategy.scope():
        train_step, global_step = build()             # variables, optimizer, a tf.function train step
    for loss in compat.train_steps.steps(strategy, train_step, global_step, last_step=3):
        print("loss", loss)

Without a cluster the step runs here (`strategy.run`), the body of the loop after each step, until the global step
reaches `last_step` (once at least: TF 1.15's StopAtStepHook checked after each run). Under ParameterServerStrategy
the chief runs no step: a `ClusterCoordinator` schedules them on the workers, `last_step` minus the global step at the
start of them (once at least), at most two per worker in flight, and their values come back in the order they were
scheduled. With one worker the steps run one after the other, as TF1's one trainer ran them; with more they race
for the variables on the parameter servers, as TF1's tasks did.

With a `dataset_fn` (a function returning the tf.data dataset TF1's graph read one element of per run) each step
takes the next element as its arguments: here from the dataset, under ParameterServerStrategy from each worker's own
copy (`create_per_worker_dataset`), as each TF1 task read its own pipeline.

At the end of the input the loop ends quietly, as TF1's session did at its OutOfRangeError.

With a `manager` (compat.tf1_saver.CheckpointManager, of the session's checkpoint_dir, its latest checkpoint restored
by the caller) the chief saves as TF1's chief did: at the start (not again where it restored that step), every
`every_secs` seconds between steps and at the end.
"""

import collections
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import tensorflow as tf

    from compat.tf1_saver import CheckpointManager

# scheduled steps in flight per worker: enough to keep a worker busy while the chief fetches the previous value
IN_FLIGHT_PER_WORKER = 2
# TF 1.15's CheckpointSaverHook of a MonitoredTrainingSession: save_checkpoint_secs' default
EVERY_SECS = 600


def _numpy(value: Any) -> Any:
    import tensorflow as tf

    return tf.nest.map_structure(lambda t: t.numpy() if hasattr(t, "numpy") else t, value)


def is_parameter_server(strategy: "tf.distribute.Strategy") -> bool:
    """Does `strategy` train on parameter servers (the chief coordinating workers)?"""
    import tensorflow as tf

    return isinstance(strategy, tf.distribute.experimental.ParameterServerStrategy)


class _Saves:
    """When the chief writes the manager's checkpoints: at the start, every `every_secs` seconds, at the end."""

    def __init__(self, manager: "CheckpointManager | None", global_step: "tf.Variable", every_secs: float) -> None:
        self.manager, self.global_step, self.every_secs = manager, global_step, every_secs
        if manager is not None:
            manager.save_at_start(checkpoint_number=self.step())
        self.saved = (self.step(), time.time())

    def step(self) -> int:
        return int(self.global_step.numpy())

    def between_steps(self) -> None:
        if self.manager is not None and time.time() >= self.saved[1] + self.every_secs and self.step() != self.saved[0]:
            self.manager.save(checkpoint_number=self.step())
            self.saved = (self.step(), time.time())

    def at_end(self) -> None:
        if self.manager is not None and self.step() != self.saved[0]:
            self.manager.save(checkpoint_number=self.step())


def steps(
    strategy: "tf.distribute.Strategy",
    train_step: Callable[..., Any],
    global_step: "tf.Variable",
    last_step: int,
    manager: "CheckpointManager | None" = None,
    every_secs: float = EVERY_SECS,
    dataset_fn: "Callable[[], tf.data.Dataset] | None" = None,
) -> Iterator[Any]:
    """Run `train_step` (it increments `global_step`; its arguments an element of `dataset_fn`'s dataset, or none)
    until `global_step` reaches `last_step`, yielding each step's returned values as NumPy values; save `manager`'s
    checkpoints as TF1's chief did."""
    saves = _Saves(manager, global_step, every_secs)
    if is_parameter_server(strategy):
        yield from _scheduled(strategy, train_step, last_step, saves, dataset_fn)
    else:
        elements = iter(dataset_fn()) if dataset_fn is not None else None
        while True:
            try:
                args = _arguments(next(elements)) if elements is not None else ()
            except StopIteration:
                break  # (the end of the input: TF1's session ended there quietly)
            yield _numpy(strategy.run(train_step, args=args))
            saves.between_steps()
            if saves.step() >= last_step:
                break
    saves.at_end()


def _arguments(element: Any) -> tuple:
    """A dataset element as a step's arguments (a tuple element: its parts)."""
    return element if isinstance(element, tuple) else (element,)


def _scheduled(
    strategy: "tf.distribute.experimental.ParameterServerStrategy",
    train_step: Callable[..., Any],
    last_step: int,
    saves: _Saves,
    dataset_fn: "Callable[[], tf.data.Dataset] | None",
) -> Iterator[Any]:
    import tensorflow as tf

    from compat.strategy import coordinator as make_coordinator

    workers = strategy.extended._num_workers  # noqa: SLF001 - the cluster's worker count, which PSS keeps
    coordinator = make_coordinator(strategy)
    args: tuple = ()
    if dataset_fn is None:
        step = tf.function(lambda: strategy.run(train_step))
    else:  # (each worker reads its own copy of the input, as each TF1 task did)
        step = tf.function(lambda elements: strategy.run(train_step, args=_arguments(next(elements))))
        args = (iter(coordinator.create_per_worker_dataset(dataset_fn)),)
    pending: collections.deque = collections.deque()
    try:
        for _ in range(max(1, last_step - saves.step())):
            pending.append(coordinator.schedule(step, args=args))
            if len(pending) >= IN_FLIGHT_PER_WORKER * workers:
                yield pending.popleft().fetch()
                saves.between_steps()
        while pending:
            yield pending.popleft().fetch()
        coordinator.join()
    except tf.errors.OutOfRangeError:
        pass  # (a worker's input ended: TF1's session ended there quietly; the steps scheduled after it do not run)
