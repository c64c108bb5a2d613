"""tf.estimator with device-setter towers: the real Estimator on tf1, the same code through compat on tf2."""

import json
import os

from tests.support.processes import result_json, run_script

PROGRAM = os.path.join(os.path.dirname(__file__), "runtime_programs", "estimator_towers.py")


def test_tower_estimator_trains_evaluates_predicts_and_exports(tmp_path):
    source = open(PROGRAM).read()
    result = run_script(tmp_path, source, [str(tmp_path / "run")], timeout=240)
    assert result.returncode == 0, result.stderr[-3000:]
    out = result_json(result.stdout)
    # Two towers on half batches with averaged gradients are the same SGD as one tower on the
    # whole batch: after 3 steps both give the same weights and loss (computed in-process).
    assert out["weights_equal"]
    assert abs(out["tower_loss"] - out["single_loss"]) < 1e-5
    assert out["global_step"] == 3 and out["predictions"] == 8 and out["export"]
    # tower_setter: every variable on the parameter device, each tower's ops on its own CPU.
    assert out["placed"]["variables"] == ["/device:CPU:0"]
    assert out["placed"]["convolutions"] == ["/device:CPU:0", "/device:CPU:1"]
    # tf1 runs TensorFlow's own Estimator; tf2 the released 2.15 package through compat.
    assert out["estimator_module"] == "tensorflow_estimator.python.estimator.estimator"


def test_names_import_from_compat_estimator_and_run_config_reads_the_master_dialect(tmp_path):
    # What `uai-migrate` writes for `from tensorflow.contrib.learn import RunConfig`: on TF 2.21
    # `tensorflow.estimator` is no module (compat attaches the attribute), compat.estimator works on both.
    cluster = {"master": ["m:2222"], "worker": ["w:2222"], "ps": ["p:2222"]}
    source = """
        from compat.estimator import Estimator, RunConfig
        import tensorflow as tf
        config = RunConfig(model_dir="model")
        print(RunConfig is tf.estimator.RunConfig, Estimator is tf.estimator.Estimator)
        print(config.model_dir, config.master, config.task_type, config.is_chief, config.num_worker_replicas)
    """
    env = {"TF_CONFIG": json.dumps({"cluster": cluster, "task": {"type": "worker", "index": 0}})}
    result = run_script(tmp_path, source, env=env, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split() == ["True", "True", "model", "grpc://w:2222", "worker", "False", "2"]
