"""TPUEstimator with use_tpu=False on CPU (BERT's fine-tuning pattern): TF 2.15's own, TF 2.21's through compat."""

import importlib.util
import math
import os

from tests.support.processes import result_json, run_script

PROGRAM = os.path.join(os.path.dirname(__file__), "runtime_programs", "bert_style_tpu.py")


def _program():
    """The program as a module, for its data and sizes."""
    spec = importlib.util.spec_from_file_location("bert_style_tpu", PROGRAM)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bert_style_tpu_estimator_trains_evaluates_and_predicts_on_cpu(tmp_path):
    program = _program()
    result = run_script(
        tmp_path, open(PROGRAM).read(), [str(tmp_path / "model")], timeout=300, name="run_classifier.py"
    )
    assert result.returncode == 0, result.stderr[-3000:]
    out = result_json(result.stdout)
    assert out["estimator"] == "TPUEstimator" and out["eval"]["global_step"] == program.STEPS
    # it learned: better than always answering the eval set's majority class, and than a uniform guess
    _, _, labels = program.generated_examples(2)
    assert out["eval"]["eval_accuracy"] > max(labels.mean(), 1 - labels.mean()), out
    assert out["eval"]["eval_loss"] < math.log(program.CLASSES), out
    # predict_batch_size batches, the last one partial (drop_remainder=False)
    assert out["predictions"] == program.EXAMPLES and out["probability_sums"] == [1.0]


def test_tpu_names_resolve_and_cross_shard_optimizer_wraps_an_optimizer():
    import compat

    compat.install()
    import tensorflow as tf

    tpu = tf.compat.v1.estimator.tpu
    names = [tpu.TPUEstimator, tpu.TPUEstimatorSpec, tpu.RunConfig, tpu.TPUConfig, tpu.InputPipelineConfig]
    assert [n.__name__ for n in names] == [
        "TPUEstimator",
        "TPUEstimatorSpec",
        "RunConfig",
        "TPUConfig",
        "InputPipelineConfig",
    ]
    assert tpu.InputPipelineConfig.PER_HOST_V2 != tpu.InputPipelineConfig.PER_HOST_V1
    inner = tf.compat.v1.train.AdamOptimizer(0.1)
    wrapped = tf.compat.v1.tpu.CrossShardOptimizer(inner)  # BERT wraps only when use_tpu
    assert isinstance(wrapped, tf.compat.v1.train.Optimizer) and wrapped._opt is inner


def test_only_tpu_embedding_is_refused(run_py):
    """TF 2.16 removed TPU embedding modules that TPUEstimator imports; only their use fails, saying so."""
    result = run_py("""
        import compat
        compat.install()
        from tensorflow.python.tpu import tpu_embedding
        from compat.errors import EstimatorSupportError
        try:
            tpu_embedding.AdagradParameters(0.1)
            print("AVAILABLE")  # TF 2.15 still ships it
        except EstimatorSupportError as error:
            print("REFUSED", error)
    """)
    assert result.returncode == 0, result.stderr[-3000:]
    line = result.stdout.strip().splitlines()[-1]
    assert line == "AVAILABLE" or (
        line.startswith("REFUSED tensorflow.python.tpu.tpu_embedding.AdagradParameters was removed in TensorFlow 2.16")
        and "TPUEstimator with use_tpu=False runs" in line
    ), line
