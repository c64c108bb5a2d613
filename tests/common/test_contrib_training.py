"""tf.contrib.training (tf-slim's training and evaluation modules, compat/tf1_names.py MODULES) trains as TF 1.15's did.

tests/common/tf1_programs/contrib_training_steps.py, a TF 1 program, runs unmodified under uai-run: create_train_op
with multiply_gradients and clip_gradient_norms_fn, train(), evaluate_once and checkpoints_iterator with a timeout_fn
print what real TensorFlow 1.15 printed (tests/common/golden/tf115_contrib_training.json), to the 6 decimals it
rounds to; the iterator yields both checkpoints (TF 2.21's tf.train.checkpoints_iterator stops after the first).
"""

from tests.support.goldens import assert_close_to, run_against_tf115


def test_uai_run_trains_and_evaluates_with_contrib_training_as_tf115_did(tmp_path):
    values, golden = run_against_tf115("contrib_training_steps.py", "tf115_contrib_training.json", tmp_path)
    assert values["checkpoints_iterator"] == golden["checkpoints_iterator"] == ["model.ckpt-1", "model.ckpt-2"]
    assert_close_to(values["evaluate_once"], golden["evaluate_once"], atol=2e-6)
    numbers = ("session losses", "train returned")
    assert_close_to({k: values[k] for k in numbers}, {k: golden[k] for k in numbers}, atol=2e-6)
