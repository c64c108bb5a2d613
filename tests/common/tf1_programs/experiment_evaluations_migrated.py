"""When tf.contrib.learn's Experiment evaluates, schedule by schedule, as written for TF 1.x.

Runs on TF 1.15 and under uai-run. Prints `RESULT {case: {"evaluated": [global step of each
evaluation, in order], "dirs": [the model dir's eval folders], "returned": global step of the
metrics the schedule returned, "logged": [the "Validation (step N)" lines logged]}}`. A one-weight
Estimator trains 4 or 6 steps, a checkpoint every 2. The cases whose evaluations a clock decides
(the ValidationMonitor checks for a new checkpoint at most every `check_interval_secs`) set it to
None (every check) or to an hour (the first check only), so the result is the same on a loaded
machine. `python3 dev.py tf115` (tests/common/golden/make_tf115_goldens.py) runs it on TF 1.15 to write
tests/common/golden/tf115_experiment.json; tests/common/test_runtime_learn.py runs it under uai-run,
and its uai-migrate port (experiment_evaluations_migrated.py, kept as uai-migrate wrote it) with
python, and compares.
"""

import json
import logging
import os
import shutil
import tempfile
import compat

import numpy as np
import tensorflow as tf
import compat.learn as compat_learn
import compat.learn.learn_runner as learn_runner

AN_HOUR = 3600


def input_fn():
    x = np.arange(8, dtype="float32").reshape(8, 1) / 8
    return tf.compat.v1.data.Dataset.from_tensors(({"x": x}, 2 * x)).repeat()


def model_fn(features, labels, mode):
    prediction = tf.compat.v1.layers.dense(features["x"], 1, use_bias=False)
    loss = tf.compat.v1.losses.mean_squared_error(labels, prediction)
    train_op = tf.compat.v1.train.GradientDescentOptimizer(0.5).minimize(loss, tf.compat.v1.train.get_or_create_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


class ValidationLines(logging.Handler):
    """The start of each "Validation (step N): <metrics>" line train_and_evaluate logs, its metrics left out."""

    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        message = record.getMessage()
        if message.startswith("Validation (step"):
            self.lines.append(message.partition(":")[0])


class EvaluatedSteps(tf.compat.v1.train.SessionRunHook):
    """An evaluation hook: appends the global step each evaluation ran at."""

    def __init__(self, steps):
        self.steps = steps

    def begin(self):
        self.global_step = tf.compat.v1.train.get_global_step()

    def end(self, session):
        self.steps.append(int(session.run(self.global_step)))


def case(name, schedules, train_steps=4, **experiment_args):
    """Run `schedules` (learn_runner's schedule names, or callables taking the Experiment) in order."""
    model_dir = os.path.join(ROOT, name)
    evaluated = []
    logged = ValidationLines()
    logging.getLogger("tensorflow").addHandler(logged)
    config = compat_learn.RunConfig(model_dir=model_dir, save_checkpoints_steps=2, tf_random_seed=1)

    def experiment_fn(run_config, hparams):
        estimator = tf.estimator.Estimator(model_fn, config=run_config)
        return compat_learn.Experiment(
            estimator,
            input_fn,
            input_fn,
            train_steps=train_steps,
            eval_steps=1,
            eval_hooks=[EvaluatedSteps(evaluated)],
            eval_delay_secs=0,
            **experiment_args,
        )

    returned = None
    for schedule in schedules:
        if callable(schedule):
            returned = schedule(experiment_fn(config, None))
        else:
            returned = learn_runner.run(experiment_fn, schedule=schedule, run_config=config)
    logging.getLogger("tensorflow").removeHandler(logged)
    metrics = returned[0] if isinstance(returned, tuple) else returned
    RESULT[name] = {
        "evaluated": evaluated,
        "dirs": sorted(d for d in os.listdir(model_dir) if d.startswith("eval")),
        "returned": None if metrics is None else int(metrics["global_step"]),
        "logged": logged.lines,
    }


def continuous_eval(experiment):
    return experiment.continuous_eval(delay_secs=0, throttle_delay_secs=0)


def until_evaluated(experiment):
    """A predicate of the results only: true until the first evaluation."""
    return experiment.continuous_train_and_eval(continuous_eval_predicate_fn=lambda results: results is None)


def until_a_checkpoint(experiment):
    """A predicate that also takes the evaluated checkpoint: true until there is one."""

    def predicate(eval_results, checkpoint_path):
        return checkpoint_path is None

    return experiment.continuous_train_and_eval(continuous_eval_predicate_fn=predicate)


ROOT = tempfile.mkdtemp()
RESULT = {}
tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.INFO)
try:
    # learn_runner's default schedule without a cluster
    case("train_and_evaluate, first check only", [None], check_interval_secs=AN_HOUR)
    case("train_and_evaluate, every check", ["train_and_evaluate"], check_interval_secs=None)
    case(
        "train_and_evaluate, min_eval_frequency 3",
        ["train_and_evaluate"],
        train_steps=6,
        min_eval_frequency=3,
        check_interval_secs=None,
    )
    case("train_and_evaluate, min_eval_frequency 0", ["train_and_evaluate"], min_eval_frequency=0)
    case("train, then evaluate", ["train", "evaluate"])
    case("train, then continuous_eval", ["train", continuous_eval])
    case("continuous_train_and_eval", ["continuous_train_and_eval"], train_steps_per_iteration=2)
    case("continuous_train_and_eval, until evaluated", [until_evaluated], train_steps_per_iteration=2)
    case("continuous_train_and_eval, until a checkpoint", [until_a_checkpoint], train_steps_per_iteration=2)
    case("test", ["test"])
finally:
    shutil.rmtree(ROOT, ignore_errors=True)
print("RESULT " + json.dumps(RESULT, sort_keys=True))
