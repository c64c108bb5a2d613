"""The evaluations `Experiment.train_and_evaluate` makes while it trains, as tf.contrib.learn 1.x made them.

TF 1.x's train_and_evaluate trained with a `ValidationMonitor` (every `min_eval_frequency` steps,
default 1) wrapped into a hook: after such a step it looked for a new checkpoint, at most once per
`check_interval_secs`, and evaluated it inside the training loop. The Estimator saves a checkpoint
when its session starts, so the first step evaluates the untrained model (global step 0). This hook
does the same on TF 2's Estimator, and logs each evaluation's line as the monitor did (programs' logs
and the losses read from them keep TF 1.x's lines).
"""

import time
from collections.abc import Callable
from typing import Any

import tensorflow as tf


class CheckpointEvaluationHook(tf.compat.v1.train.SessionRunHook):
    """Evaluate each new checkpoint seen every `every_n_steps` steps, checking at most every `check_interval_secs`."""

    def __init__(
        self,
        evaluate: Callable[[], dict[str, Any]],
        model_dir: str,
        every_n_steps: int,
        check_interval_secs: float | None,
    ) -> None:
        self._evaluate = evaluate
        self._model_dir = model_dir
        self._every_n_steps = every_n_steps
        self._check_interval_secs = check_interval_secs
        self._evaluated_path: str | None = None
        self._last_check_time: float | None = None

    def begin(self) -> None:
        self._global_step = tf.compat.v1.train.get_global_step()
        self._last_active_step = 0

    def after_run(self, run_context: Any, run_values: Any) -> None:
        # The step this run made is the global step after it, read once the run is over: a fetch in the
        # run itself reads a resource variable (a port's global step) before or after the train op's
        # increment as it happens (TF 1.x's monitors fetched it, on ref variables, and added 1).
        step = int(run_context.session.run(self._global_step))
        if step >= self._last_active_step + self._every_n_steps:
            self._last_active_step = step
            self._evaluate_new_checkpoint(step)

    def _evaluate_new_checkpoint(self, step: int) -> None:
        now = time.time()
        if (
            self._check_interval_secs is not None
            and self._last_check_time is not None
            and now - self._last_check_time <= self._check_interval_secs
        ):
            return
        self._last_check_time = now
        latest = tf.train.latest_checkpoint(self._model_dir)
        if latest is None or latest == self._evaluated_path:
            return
        self._evaluated_path = latest
        metrics = self._evaluate()
        stats = ", ".join(f"{name} = {value!s}" for name, value in metrics.items())  # str(): float32 as printed
        tf.compat.v1.logging.info("Validation (step %d): %s", step, stats)
