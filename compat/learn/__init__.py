"""`compat.learn`: what TF 1.x programs used from tf.contrib.learn to run an Estimator.

    from compat.learn import Experiment, learn_runner, run_config
    learn_runner.run(experiment_fn, run_config=config, hparams=hparams)

`Experiment` (tf.contrib.learn.Experiment) runs a `tf.estimator.Estimator` on TF 1.15's schedules,
evaluating when they did; `learn_runner.run` picks its schedule from TF_CONFIG's task type; `run_config.RunConfig` is the Estimator's RunConfig with tf.contrib's `uid()`;
`monitors.replace_monitors_with_hooks` passes SessionRunHooks through (no monitor runs on TF 2).
`datasets.base` holds tf.contrib.learn's CSV loaders (`load_csv_with_header`, `load_csv_without_header`,
`Dataset`, `Datasets`), which TF 1.0's iris tutorial used.
Importing this package imports TensorFlow (through `compat.estimator`).
"""

from compat.learn import learn_runner, monitors, run_config
from compat.learn._experiment import Experiment
from compat.learn.run_config import RunConfig

__all__ = ["Experiment", "RunConfig", "learn_runner", "monitors", "run_config"]
