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
the chief runs no step: a `ClusterCoordinator` schedules them on the workers, `last_step` minus the restored global
step of them (once at least), at most two per worker in flight, and their values come back in the order they were
scheduled. With one worker the steps run one after the other, as TF1's one trainer ran them; with more they race
for the variables on the parameter servers, as TF1's tasks did.
"""

import collections
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import tensorflow as tf

# scheduled steps in flight per worker: enough to keep a worker busy while the chief fetches the previous value
IN_FLIGHT_PER_WORKER = 2


def _numpy(value: Any) -> Any:
    import tensorflow as tf

    return tf.nest.map_structure(lambda t: t.numpy() if hasattr(t, "numpy") else t, value)


def is_parameter_server(strategy: "tf.distribute.Strategy") -> bool:
    """Does `strategy` train on parameter servers (the chief coordinating workers)?"""
    import tensorflow as tf

    return isinstance(strategy, tf.distribute.experimental.ParameterServerStrategy)


def steps(
    strategy: "tf.distribute.Strategy",
    train_step: Callable[[], Any],
    global_step: "tf.Variable",
    last_step: int,
) -> Iterator[Any]:
    """Run `train_step` (no arguments; it increments `global_step`) until `global_step` reaches `last_step`,
    yielding each step's returned values as NumPy values."""
    if not is_parameter_server(strategy):
        while True:
            yield _numpy(strategy.run(train_step))
            if int(global_step.numpy()) >= last_step:
                return
    yield from _scheduled(strategy, train_step, global_step, last_step)


def _scheduled(
    strategy: "tf.distribute.experimental.ParameterServerStrategy",
    train_step: Callable[[], Any],
    global_step: "tf.Variable",
    last_step: int,
) -> Iterator[Any]:
    import tensorflow as tf

    workers = strategy.extended._num_workers  # noqa: SLF001 - the cluster's worker count, which PSS keeps
    coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
    step = tf.function(lambda: strategy.run(train_step))
    pending: collections.deque = collections.deque()
    for _ in range(max(1, last_step - int(global_step.numpy()))):
        pending.append(coordinator.schedule(step))
        if len(pending) >= IN_FLIGHT_PER_WORKER * workers:
            yield pending.popleft().fetch()
    while pending:
        yield pending.popleft().fetch()
