"""Seeded draws made after a TensorArray's ops (dynamic_rnn, bidirectional_dynamic_rnn, map_fn, scan, a TensorArray's
stack, size and concat) are TF 1.15's, under uai-run and in uai-migrate's port.

TF 1.15's op seed is the graph's op count (compat/_graph_seed.py), and its TensorArray built a TensorArraySizeV3
for every size() (stack() calls it) where TF 2 answers a known size with the size itself: every random op after a
dynamic_rnn drew other numbers (found: a GRU made after a MultiRNNCell of LSTMCells' dynamic_rnn started from other
weights, its losses 0.04 off from the first step). tests/common/tf1_programs/tensor_array_op_seeds.py, a TF 1
program, printed tests/common/golden/tf115_tensor_array_seeds.json on real TensorFlow 1.15 (`python3 dev.py tf115`);
it rounds to 6 decimals (one unit of slack: the draws are the same bits, the sums kernels of their own).
"""

from tests.support.goldens import assert_close_to, port_against_tf115, run_against_tf115

PROGRAM = "tensor_array_op_seeds.py"  # of tests/common/tf1_programs
GOLDEN = "tf115_tensor_array_seeds.json"


def _assert_tf115s(values: dict, golden: dict) -> None:
    assert sorted(values) == sorted(golden)
    for case in sorted(golden):
        assert_close_to(values[case], golden[case], atol=1.5e-6)


def test_uai_run_draws_tf115s_numbers_after_tensor_arrays(tmp_path):
    _assert_tf115s(*run_against_tf115(PROGRAM, GOLDEN, tmp_path))


def test_uai_migrates_port_draws_tf115s_numbers_after_tensor_arrays(tmp_path):
    values, golden = port_against_tf115(PROGRAM, GOLDEN, tmp_path)
    _assert_tf115s(values, golden)
