"""compat.learn (tf.contrib.learn's Experiment and learn_runner, RunConfig), in-process on a one-weight Estimator.

The cifar10_estimator-style program built on them, as TF 1.4 users wrote it and after uai-migrate,
trains alone and as a master + worker + ps cluster in tests/common/test_cifar10_tf1_program.py.
When each schedule evaluates is TF 1.15's: tests/common/tf1_programs/experiment_evaluations.py runs
under uai-run, and its uai-migrate port with python, against what it printed on real TF 1.15
(tests/common/golden/tf115_experiment.json).
"""

import json
import os
import sys

import numpy as np
import pytest

from compat.errors import ExperimentError
from tests.support import runs
from tests.support.goldens import tf115_values
from tests.support.processes import REPO, result_json

EVALUATIONS_PROGRAM = os.path.join(REPO, "tests", "common", "tf1_programs", "experiment_evaluations.py")
EVALUATIONS_PORT = EVALUATIONS_PROGRAM.replace(".py", "_migrated.py")


@pytest.mark.parametrize("way", ["uai-run", "port"])
def test_each_schedule_evaluates_when_tf115s_experiment_did(tmp_path, way):
    """train_and_evaluate evaluates the step-0 checkpoint and each new one its ValidationMonitor finds, then
    the last; the continuous schedules, evaluate and test as 1.15 did (same steps, same eval folders).
    The port keeps TF 2's resource variables: its global step is one."""
    golden = tf115_values("tf115_experiment.json")
    argv = ["-m", "uai_run", EVALUATIONS_PROGRAM] if way == "uai-run" else [EVALUATIONS_PORT]
    result = runs.run([sys.executable, *argv], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result_json(result.stdout) == golden


def test_the_experiment_port_is_what_uai_migrate_writes_today(tmp_path):
    result = runs.migrate(EVALUATIONS_PROGRAM, "--out", tmp_path / "out", cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    with open(EVALUATIONS_PORT) as kept:
        assert (tmp_path / "out" / "experiment_evaluations.py").read_text() == kept.read()


# -- learn_runner and Experiment, in-process ----------------------------------------------------------
def _linear_experiment(model_dir, **experiment_args):
    """experiment_fn for y = 2x with one weight; the Estimator is built with the config it is given."""
    import tensorflow as tf

    from compat.learn import Experiment

    def input_fn():
        x = np.arange(8, dtype="float32").reshape(8, 1) / 8
        return tf.data.Dataset.from_tensors(({"x": x}, 2 * x)).repeat()

    def model_fn(features, labels, mode):
        v1 = tf.compat.v1
        prediction = v1.layers.dense(features["x"], 1, use_bias=False)
        loss = v1.losses.mean_squared_error(labels, prediction)
        train_op = v1.train.GradientDescentOptimizer(0.5).minimize(loss, v1.train.get_or_create_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

    def experiment_fn(run_config, hparams):
        estimator = tf.estimator.Estimator(model_fn, config=run_config)
        return Experiment(estimator, input_fn, input_fn, train_steps=hparams.steps, eval_steps=1, **experiment_args)

    return experiment_fn


def _config(model_dir):
    from compat.learn import RunConfig

    return RunConfig(model_dir=str(model_dir), save_checkpoints_steps=2)


def test_each_schedule_runs_the_estimator(tmp_path, monkeypatch):
    from compat.hparams import HParams
    from compat.learn import learn_runner

    monkeypatch.delenv("TF_CONFIG", raising=False)
    experiment_fn = _linear_experiment(tmp_path, eval_delay_secs=0)
    config = _config(tmp_path)
    assert learn_runner.default_schedule(config) == "train_and_evaluate"
    # no cluster: train, then evaluate each checkpoint; returns (metrics, export results) like tf.contrib
    metrics, exports = learn_runner.run(experiment_fn, run_config=config, hparams=HParams(steps=4))
    assert metrics["global_step"] == 4 and metrics["loss"] < 1.0 and exports == []
    learn_runner.run(experiment_fn, schedule="train", run_config=config, hparams=HParams(steps=6))
    evaluated = learn_runner.run(experiment_fn, schedule="evaluate", run_config=config, hparams=HParams(steps=6))
    assert evaluated["global_step"] == 6 and evaluated["loss"] <= metrics["loss"]
    assert (tmp_path / "eval_one_pass").is_dir()  # tf.contrib's evaluation name
    tested = learn_runner.run(experiment_fn, schedule="test", run_config=config, hparams=HParams(steps=6))
    assert tested["global_step"] == 7  # one more step


@pytest.mark.parametrize(
    "task, schedule",
    [("master", "train_and_evaluate"), ("worker", "train"), ("ps", "run_std_server"), ("chief", "train_and_evaluate")],
)
def test_default_schedule_follows_the_task_type_of_tf_config(monkeypatch, task, schedule):
    from compat.learn import RunConfig, learn_runner

    cluster = {"master" if task != "chief" else "chief": ["m:1"], "worker": ["w:1"], "ps": ["p:1"]}
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": cluster, "task": {"type": task, "index": 0}}))
    assert learn_runner.default_schedule(RunConfig()) == schedule


def test_bad_arguments_name_the_field(tmp_path, monkeypatch):
    import tensorflow as tf

    from compat.hparams import HParams
    from compat.learn import Experiment, learn_runner

    monkeypatch.delenv("TF_CONFIG", raising=False)
    config = _config(tmp_path)
    experiment_fn = _linear_experiment(tmp_path)
    cases = [
        (dict(schedule="not_a_schedule"), "schedule"),
        (dict(experiment_fn=lambda config, hparams: "not an experiment"), "experiment_fn"),
        (dict(run_config=None), "run_config"),
        (dict(output_dir=str(tmp_path)), "output_dir"),
        # an Estimator built with another config than the one given (tf.contrib's uid check)
        (dict(experiment_fn=lambda c, h: experiment_fn(_config(tmp_path / "other"), h)), "run_config"),
    ]
    for overrides, field in cases:
        args = {"experiment_fn": experiment_fn, "run_config": config, "hparams": HParams(steps=1), **overrides}
        with pytest.raises(ExperimentError) as raised:
            learn_runner.run(args.pop("experiment_fn"), **args)
        assert raised.value.field == field, (overrides, raised.value)
    estimator = tf.estimator.Estimator(lambda features, labels, mode: None, config=config)
    with pytest.raises(ExperimentError, match="^eval_metrics: "):
        Experiment(estimator, None, None, eval_metrics={"accuracy": None})
    with pytest.raises(ExperimentError, match="^train_steps_per_iteration: must be an int"):
        Experiment(estimator, None, None, train_steps_per_iteration=0.5)


def test_uid_ignores_the_white_listed_fields(tmp_path):
    from compat.learn import run_config

    base = run_config.RunConfig(model_dir=str(tmp_path), tf_random_seed=1)
    assert base.uid() == base.replace(tf_random_seed=2, save_summary_steps=7).uid()
    assert base.uid() != base.replace(model_dir=str(tmp_path / "other")).uid()
    assert "_tf_random_seed=1" in base.uid(whitelist=[])


def test_run_config_takes_tf_contrib_learns_arguments_in_its_order(tmp_path, monkeypatch):
    """uai-migrate and uai-run both turn tf.contrib.learn.RunConfig into this one: its calls must keep working."""
    from compat.learn import RunConfig

    monkeypatch.delenv("TF_CONFIG", raising=False)
    config = RunConfig(
        "grpc://m:2222", 2, True, 0.5, evaluation_master="grpc://e:2222", model_dir=str(tmp_path), tf_random_seed=3
    )
    assert (config.master, config.evaluation_master, config.tf_random_seed) == ("grpc://m:2222", "grpc://e:2222", 3)
    session = config.session_config
    assert session.inter_op_parallelism_threads == session.intra_op_parallelism_threads == 2
    assert session.log_device_placement and session.gpu_options.per_process_gpu_memory_fraction == 0.5
    assert config.tf_config == session and "_master='grpc://m:2222'" in config.uid()
    # tf.contrib's defaults: checkpoints every 600 s unless steps are given, no session config of its own
    default = RunConfig()
    assert (default.save_checkpoints_secs, default.save_checkpoints_steps, default.session_config) == (600, None, None)
    steps = RunConfig(save_checkpoints_steps=5)
    assert (steps.save_checkpoints_secs, steps.save_checkpoints_steps) == (None, 5)
    import tensorflow as tf

    given = tf.compat.v1.ConfigProto(allow_soft_placement=True)
    assert RunConfig(num_cores=4, session_config=given).session_config is given
