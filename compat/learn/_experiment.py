"""`Experiment`: tf.contrib.learn.Experiment for a `tf.estimator.Estimator`, on tf.estimator.train_and_evaluate.

Each public method is a schedule `learn_runner.run` can call: `train`, `evaluate`,
`train_and_evaluate`, `run_std_server`, `test`. They behave as tf.contrib.learn 1.x did for a
core Estimator, except `train_and_evaluate`, which is `tf.estimator.train_and_evaluate`:
evaluation follows each checkpoint (at most every `continuous_eval_throttle_secs`) and the last
one, on a single machine and on a cluster's master alike.
"""

import math
import time
from collections.abc import Callable, Collection, Iterable
from typing import Any

from compat.errors import ExperimentError

SCHEDULES = ("train", "evaluate", "train_and_evaluate", "run_std_server", "test")
# tf.contrib.learn: worker i waited i * 5 s (at most 60 s) before training, so workers join gradually.
_DELAY_SECS_PER_WORKER, _MAX_DELAY_SECS = 5, 60
# tf.contrib.learn's delay_workers_by_global_step: worker i waits until step 8000 * ln(i + 1).
_STEPS_PER_LOG_WORKER = 8000.0


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
        local_eval_frequency: int | None = None,  # deprecated and ignored by tf.contrib.learn too
        eval_delay_secs: float = 120,
        continuous_eval_throttle_secs: float = 60,
        min_eval_frequency: int | None = None,  # steps; tf.estimator evaluates at checkpoints instead
        delay_workers_by_global_step: bool = False,
        export_strategies: object = None,
        train_steps_per_iteration: object = None,
        checkpoint_and_export: object = False,
        saving_listeners: Iterable[Any] | None = None,
    ) -> None:
        _refuse("eval_metrics", eval_metrics, (None,), "return eval_metric_ops from the model_fn")
        _refuse("export_strategies", export_strategies, (None, [], ()), "export with tf.estimator exporters")
        _refuse("train_steps_per_iteration", train_steps_per_iteration, (None,), "continuous_train_and_eval is gone")
        _refuse("checkpoint_and_export", checkpoint_and_export, (False,), "it needs export_strategies")
        self._estimator = estimator
        self._train_input_fn = train_input_fn
        self._eval_input_fn = eval_input_fn
        self._train_steps = train_steps
        self._eval_steps = eval_steps
        self._train_monitors = list(train_monitors or [])
        self._eval_hooks = list(eval_hooks or [])
        self._eval_delay_secs = eval_delay_secs
        self._continuous_eval_throttle_secs = continuous_eval_throttle_secs
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
    def train(self, delay_secs: float | None = None) -> Any:
        """Train to `train_steps`; in a cluster, start this task's server first and let worker i wait i * 5 s."""
        import tensorflow as tf

        config = self._estimator.config
        if _is_distributed(config):
            self._start_server()
        hooks = list(self._train_monitors)
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
        return self._estimator.evaluate(
            self._eval_input_fn, steps=self._eval_steps, hooks=self._eval_hooks, name=name or "one_pass"
        )

    def train_and_evaluate(self) -> tuple[dict, list] | None:
        """tf.estimator.train_and_evaluate: (metrics, export results) locally; a cluster task plays its role."""
        import tensorflow as tf

        train_spec = tf.estimator.TrainSpec(
            self._train_input_fn,
            max_steps=self._train_steps,
            hooks=self._train_monitors,
            saving_listeners=self._saving_listeners,
        )
        eval_spec = tf.estimator.EvalSpec(
            self._eval_input_fn,
            steps=self._eval_steps,
            hooks=self._eval_hooks,
            start_delay_secs=self._eval_delay_secs,
            throttle_secs=self._continuous_eval_throttle_secs,
        )
        return tf.estimator.train_and_evaluate(self._estimator, train_spec, eval_spec)

    def run_std_server(self) -> None:
        """Serve this task of the cluster (a parameter server) until the process is stopped."""
        self._start_server().join()

    def test(self) -> dict:
        """One training step and one evaluation step: a quick check that the experiment runs."""
        self._estimator.train(self._train_input_fn, steps=1, hooks=self._train_monitors)
        return self._estimator.evaluate(self._eval_input_fn, steps=1, hooks=self._eval_hooks, name="one_pass")

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


def _is_distributed(config: Any) -> bool:
    """A cluster this task has a place in (TF_CONFIG, or cluster_spec + master in the RunConfig)."""
    return bool(config.cluster_spec and config.cluster_spec.jobs and config.task_type and config.master)
