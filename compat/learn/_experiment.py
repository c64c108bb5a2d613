"""`Experiment`: tf.contrib.learn.Experiment for a `tf.estimator.Estimator`, with TF 1.15's schedules.

Each public schedule is a method `learn_runner.run` can call: `train`, `evaluate`,
`train_and_evaluate`, `local_run`, `continuous_eval`, `continuous_eval_on_train_data`,
`continuous_train_and_eval`, `run_std_server`, `test`. They evaluate when tf.contrib.learn 1.15 did
for a core Estimator: `train_and_evaluate` trains, evaluating each new checkpoint it finds every
`min_eval_frequency` steps (the one saved at step 0 first; compat/learn/_checkpoint_evaluation.py),
then evaluates the last one, on a single machine and on a cluster's master alike.
Export strategies are not supported (tf.estimator's exporters replaced them): the export results
returned are always empty.
"""

import inspect
import math
import time
from collections.abc import Callable, Collection, Iterable
from typing import Any

from compat.errors import ExperimentError

SCHEDULES = (
    "train",
    "evaluate",
    "train_and_evaluate",
    "local_run",
    "continuous_eval",
    "continuous_eval_on_train_data",
    "continuous_train_and_eval",
    "run_std_server",
    "test",
)
# tf.contrib.learn: worker i waited i * 5 s (at most 60 s) before training, so workers join gradually.
_DELAY_SECS_PER_WORKER, _MAX_DELAY_SECS = 5, 60
# tf.contrib.learn's delay_workers_by_global_step: worker i waits until step 8000 * ln(i + 1).
_STEPS_PER_LOG_WORKER = 8000.0
# continuous_train_and_eval's steps per iteration without train_steps_per_iteration or train_steps
_STEPS_PER_ITERATION = 1000
PredicateFn = Callable[..., bool]


def _refuse(field: str, value: object, unusable: Collection[object], instead: str) -> None:
    if value not in unusable:
        raise ExperimentError(field, f"is not supported with tf.estimator ({instead}), got {value!r}")


class Experiment:
    """What to train and evaluate, and how: tf.contrib.learn.Experiment's constructor and schedules."""

    def __init__(
        self,
        estimator: Any,  # a tf.estimator.Estimator (TensorFlow has no stubs)
        train_input_fn: Callable[..., Any],
        eval_input_fn: Callable[..., Any],
        eval_metrics: object = None,
        train_steps: int | None = None,
        eval_steps: int | None = 100,
        train_monitors: Iterable[Any] | None = None,
        eval_hooks: Iterable[Any] | None = None,
        local_eval_frequency: int | None = None,  # local_run's min_eval_frequency
        eval_delay_secs: float = 120,
        continuous_eval_throttle_secs: float = 60,
        min_eval_frequency: int | None = None,  # train_and_evaluate: look for a new checkpoint every N steps
        delay_workers_by_global_step: bool = False,
        export_strategies: object = None,
        train_steps_per_iteration: int | None = None,
        checkpoint_and_export: object = False,
        saving_listeners: Iterable[Any] | None = None,
        check_interval_secs: float | None = 5,  # ... and at most once in this time (None: every time)
    ) -> None:
        _refuse("eval_metrics", eval_metrics, (None,), "return eval_metric_ops from the model_fn")
        _refuse("export_strategies", export_strategies, (None, [], ()), "export with tf.estimator exporters")
        _refuse("checkpoint_and_export", checkpoint_and_export, (False,), "it needs export_strategies")
        if train_steps_per_iteration is not None and not isinstance(train_steps_per_iteration, int):
            raise ExperimentError("train_steps_per_iteration", f"must be an int, got {train_steps_per_iteration!r}")
        self._estimator = estimator
        self._train_input_fn = train_input_fn
        self._eval_input_fn = eval_input_fn
        self._train_steps = train_steps
        self._eval_steps = eval_steps
        self._train_monitors = list(train_monitors or [])
        self._eval_hooks = list(eval_hooks or [])
        self._eval_delay_secs = eval_delay_secs
        self._continuous_eval_throttle_secs = continuous_eval_throttle_secs
        self._local_eval_frequency = local_eval_frequency
        self._min_eval_frequency = 1 if min_eval_frequency is None else min_eval_frequency
        self._check_interval_secs = check_interval_secs
        self._train_steps_per_iteration = train_steps_per_iteration
        self._delay_workers_by_global_step = delay_workers_by_global_step
        self._saving_listeners = list(saving_listeners or [])

    @property
    def estimator(self) -> Any:
        return self._estimator

    @property
    def train_steps(self) -> int | None:
        return self._train_steps

    @property
    def eval_steps(self) -> int | None:
        return self._eval_steps

    # -- schedules ---------------------------------------------------------------------------
    def extend_train_hooks(self, additional_hooks: Iterable[Any]) -> None:
        """Add hooks to the ones training runs with."""
        self._train_monitors.extend(additional_hooks)

    def train(self, delay_secs: float | None = None) -> Any:
        """Train to `train_steps`; in a cluster, start this task's server first and let worker i wait i * 5 s."""
        return self._train(delay_secs, [])

    def _train(self, delay_secs: float | None, extra_hooks: list[Any]) -> Any:
        import tensorflow as tf

        config = self._estimator.config
        if _is_distributed(config):
            self._start_server()
        hooks = [*self._train_monitors, *extra_hooks]
        task_id = config.task_id or 0
        if delay_secs is None:
            if self._delay_workers_by_global_step:
                hooks.append(
                    tf.compat.v1.train.GlobalStepWaiterHook(int(_STEPS_PER_LOG_WORKER * math.log(task_id + 1)))
                )
                delay_secs = 0
            else:
                delay_secs = min(_MAX_DELAY_SECS, task_id * _DELAY_SECS_PER_WORKER)
        if delay_secs > 0:
            time.sleep(delay_secs)
        return self._estimator.train(
            self._train_input_fn, max_steps=self._train_steps, hooks=hooks, saving_listeners=self._saving_listeners
        )

    def evaluate(self, delay_secs: float | None = None, name: str | None = None) -> dict:
        """Evaluate the latest checkpoint once, after `delay_secs` (default: eval_delay_secs)."""
        delay_secs = self._eval_delay_secs if delay_secs is None else delay_secs
        if delay_secs:
            time.sleep(delay_secs)
        return self._call_evaluate(name or "one_pass")

    def train_and_evaluate(self) -> tuple[dict, list]:
        """Train, evaluating each new checkpoint found every `min_eval_frequency` steps (0: none), then the last.

        Returns (metrics, export results) as tf.contrib did; the evaluations go to the model dir's `eval`.
        """
        from compat.learn._checkpoint_evaluation import CheckpointEvaluationHook

        hooks = []
        if self._min_eval_frequency:
            hooks.append(
                CheckpointEvaluationHook(
                    lambda: self._call_evaluate(name=None),
                    self._estimator.model_dir,
                    self._min_eval_frequency,
                    self._check_interval_secs,
                )
            )
        self._train(0, hooks)
        return self._call_evaluate(name=None), []

    def local_run(self) -> tuple[dict, list]:
        """train_and_evaluate with `local_eval_frequency` as `min_eval_frequency` (tf.contrib's older name)."""
        min_eval_frequency = self._min_eval_frequency
        self._min_eval_frequency = self._local_eval_frequency or 0
        try:
            return self.train_and_evaluate()
        finally:
            self._min_eval_frequency = min_eval_frequency

    def continuous_eval(
        self,
        delay_secs: float | None = None,
        throttle_delay_secs: float | None = None,
        evaluate_checkpoint_only_once: bool = True,
        continuous_eval_predicate_fn: PredicateFn | None = None,
        name: str = "continuous",
    ) -> None:
        """Evaluate each new checkpoint (at most one evaluation per throttle) until training reaches `train_steps`
        or the predicate says stop; without either, forever (an evaluator task)."""
        self._continuous_eval(
            self._eval_input_fn,
            name,
            delay_secs,
            throttle_delay_secs,
            evaluate_checkpoint_only_once,
            continuous_eval_predicate_fn,
        )

    def continuous_eval_on_train_data(
        self,
        delay_secs: float | None = None,
        throttle_delay_secs: float | None = None,
        continuous_eval_predicate_fn: PredicateFn | None = None,
        name: str = "continuous_on_train_data",
    ) -> None:
        """continuous_eval on the training input."""
        self._continuous_eval(
            self._train_input_fn, name, delay_secs, throttle_delay_secs, True, continuous_eval_predicate_fn
        )

    def continuous_train_and_eval(
        self, continuous_eval_predicate_fn: PredicateFn | None = None
    ) -> tuple[dict | None, list | None]:
        """Train `train_steps_per_iteration` steps (default: a tenth of train_steps), evaluate, and again,
        until `train_steps` or the predicate says stop. Returns the last (metrics, export results)."""
        import tensorflow as tf

        predicate = _standardized(continuous_eval_predicate_fn)
        steps = self._train_steps_per_iteration
        if steps is None:
            steps = _STEPS_PER_ITERATION if self._train_steps is None else int(self._train_steps / 10)
        eval_result: dict | None = None
        export_results: list | None = None
        latest: str | None = None
        while predicate is None or predicate(eval_result, checkpoint_path=latest if eval_result else None):
            if self._has_training_stopped(eval_result):
                break
            self._estimator.train(
                self._train_input_fn, steps=steps, hooks=self._train_monitors, saving_listeners=self._saving_listeners
            )
            latest = tf.train.latest_checkpoint(self._estimator.model_dir)
            eval_result, export_results = self._call_evaluate(name="one_pass", checkpoint_path=latest), []
        return eval_result, export_results

    def run_std_server(self) -> None:
        """Serve this task of the cluster (a parameter server) until the process is stopped."""
        self._start_server().join()

    def test(self) -> dict:
        """One training step and one evaluation step (without the eval hooks, as tf.contrib): a quick check."""
        self._estimator.train(
            self._train_input_fn, steps=1, hooks=self._train_monitors, saving_listeners=self._saving_listeners
        )
        return self._estimator.evaluate(self._eval_input_fn, steps=1, name="one_pass")

    # -- shared by the schedules ---------------------------------------------------------------
    def _call_evaluate(
        self, name: str | None, checkpoint_path: str | None = None, input_fn: Callable[..., Any] | None = None
    ) -> dict:
        return self._estimator.evaluate(
            input_fn or self._eval_input_fn,
            steps=self._eval_steps,
            hooks=self._eval_hooks,
            name=name,
            checkpoint_path=checkpoint_path,
        )

    def _has_training_stopped(self, eval_result: dict | None) -> bool:
        global_step = (eval_result or {}).get("global_step")
        return bool(global_step and self._train_steps and global_step >= self._train_steps)

    def _continuous_eval(
        self,
        input_fn: Callable[..., Any],
        name: str,
        delay_secs: float | None,
        throttle_delay_secs: float | None,
        evaluate_checkpoint_only_once: bool,
        continuous_eval_predicate_fn: PredicateFn | None,
    ) -> None:
        import tensorflow as tf

        predicate = _standardized(continuous_eval_predicate_fn)
        delay_secs = self._eval_delay_secs if delay_secs is None else delay_secs
        throttle = self._continuous_eval_throttle_secs if throttle_delay_secs is None else throttle_delay_secs
        if delay_secs:
            time.sleep(delay_secs)
        previous: str | None = None
        eval_result: dict | None = None
        while predicate is None or predicate(eval_result, checkpoint_path=previous):
            if self._has_training_stopped(eval_result):
                return
            start = time.time()
            latest = tf.train.latest_checkpoint(self._estimator.model_dir)
            if not latest or (evaluate_checkpoint_only_once and latest == previous):
                eval_result = {}  # nothing new: wait for the next checkpoint
            else:
                eval_result = self._call_evaluate(name, checkpoint_path=latest, input_fn=input_fn) or {}
                previous = latest
            time.sleep(max(0.0, throttle - (time.time() - start)))

    def _start_server(self) -> Any:
        import tensorflow as tf

        config = self._estimator.config
        if not _is_distributed(config) or config.task_id is None:
            raise ExperimentError("run_config", "no cluster, task and master to start a server for (set TF_CONFIG)")
        return tf.distribute.Server(
            config.cluster_spec,
            job_name=config.task_type,
            task_index=config.task_id,
            config=config.session_config,
            protocol=config.protocol,
            start=True,
        )


def _standardized(predicate_fn: PredicateFn | None) -> PredicateFn | None:
    """The predicate called as predicate(eval_result, checkpoint_path=...), also when it takes eval_result only."""
    if predicate_fn is None:
        return None
    if not callable(predicate_fn):
        raise ExperimentError("continuous_eval_predicate_fn", f"must be callable or None, got {predicate_fn!r}")
    if "checkpoint_path" in inspect.signature(predicate_fn).parameters:
        return predicate_fn
    return lambda eval_result, checkpoint_path: predicate_fn(eval_result)


def _is_distributed(config: Any) -> bool:
    """A cluster this task has a place in (TF_CONFIG, or cluster_spec + master in the RunConfig)."""
    return bool(config.cluster_spec and config.cluster_spec.jobs and config.task_type and config.master)
