"""`learn_runner.run`: tf.contrib.learn.learn_runner.run on `compat.learn.Experiment`.

    learn_runner.run(experiment_fn, run_config=config, hparams=hparams)   # experiment_fn(config, hparams)
    learn_runner.run(experiment_fn, output_dir="/tmp/model")              # the older experiment_fn(output_dir)

Without `schedule`, the task type in the run config (from TF_CONFIG) picks it, as tf.contrib did:
no cluster or master -> train_and_evaluate, worker -> train, ps -> run_std_server.
"""

from collections.abc import Callable
from typing import Any

from compat.errors import ExperimentError
from compat.learn._experiment import SCHEDULES, Experiment

_DEFAULT_SCHEDULES = {
    "master": "train_and_evaluate",
    "chief": "train_and_evaluate",
    "worker": "train",
    "ps": "run_std_server",
}


def default_schedule(config: Any) -> str:  # a tf.estimator.RunConfig, or None
    """The schedule tf.contrib gave a task: from its run config's cluster and task type."""
    if config is None or not config.cluster_spec or not config.cluster_spec.jobs:
        return "train_and_evaluate"
    if config.task_type not in _DEFAULT_SCHEDULES:
        raise ExperimentError(
            "schedule", f"task type {config.task_type!r} has no default schedule: pass one of {', '.join(SCHEDULES)}"
        )
    return _DEFAULT_SCHEDULES[config.task_type]


def _experiment(
    experiment_fn: Callable[..., object], output_dir: str | None, run_config: Any, hparams: Any
) -> Experiment:
    if output_dir is not None:
        if run_config is not None:
            raise ExperimentError("output_dir", "give output_dir or run_config, not both (put model_dir in run_config)")
        experiment = experiment_fn(output_dir)
    else:
        if run_config is None:
            raise ExperimentError("run_config", "learn_runner.run needs run_config (or the older output_dir)")
        experiment = experiment_fn(run_config, hparams)
    if not isinstance(experiment, Experiment):
        raise ExperimentError(
            "experiment_fn", f"must return a compat.learn.Experiment, got {type(experiment).__name__}"
        )
    # tf.contrib checked that the Estimator runs with the config given here; a RunConfig
    # subclass overriding uid() (cifar10_estimator's) chose which fields may differ.
    if run_config is not None and hasattr(run_config, "uid") and hasattr(experiment.estimator.config, "uid"):
        if experiment.estimator.config.uid() != run_config.uid():
            raise ExperimentError(
                "run_config",
                "the Estimator in the Experiment must be built with the run_config "
                "given to learn_runner.run (its uid() differs)",
            )
    return experiment


def run(
    experiment_fn: Callable[..., object],
    output_dir: str | None = None,
    schedule: str | None = None,
    run_config: Any = None,
    hparams: Any = None,
) -> Any:
    """Build the experiment and run its `schedule` (default from the task type); return what it returns."""
    experiment = _experiment(experiment_fn, output_dir, run_config, hparams)
    schedule = schedule or default_schedule(experiment.estimator.config)
    if schedule not in SCHEDULES:
        raise ExperimentError("schedule", f"must be one of {', '.join(SCHEDULES)}, got {schedule!r}")
    return getattr(experiment, schedule)()
