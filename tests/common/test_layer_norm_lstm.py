"""tf.contrib.rnn.LayerNormBasicLSTMCell (compat.rnn) computes and trains as TF 1.15's did, with its variables.

tests/common/tf1_programs/layer_norm_lstm.py, a TF 1 program, runs unmodified under uai-run; its variables,
outputs, final states and the loss before and after one SGD step, in three cases, must be the ones real
TensorFlow 1.15 printed (tests/common/golden/tf115_layer_norm_lstm.json), to the 5 decimals it rounds to.
"""

from tests.support.goldens import assert_close_to, run_against_tf115


def test_uai_run_runs_layer_norm_lstm_cells_as_tf115_did(tmp_path):
    values, golden = run_against_tf115("layer_norm_lstm.py", "tf115_layer_norm_lstm.json", tmp_path)
    assert sorted(golden) == ["gain shift", "layer norm", "no layer norm"]
    for case, want in golden.items():
        assert_close_to(values[case], want, atol=2e-5, exact=("variables",))
