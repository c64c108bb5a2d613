"""Seeded draws made after transposed convolutions (tf.layers.conv2d_transpose, tf.contrib.layers.conv2d_transpose)
are TF 1.15's, under uai-run and in uai-migrate's port.

TF 1.15's Keras Conv2DTranspose read the output's height and width from tf.shape(inputs); Keras 2 reads them from the
static shape where it is known, building 10 ops fewer for a stride-2 SAME layer: every seeded draw after it (a GAN
generator's next weights) was another (compat/_graph_seed.py). tests/common/tf1_programs/conv_transpose_op_seeds.py
printed tests/common/golden/tf115_conv_transpose_seeds.json on real TensorFlow 1.15 (`python3 dev.py tf115`); it
rounds to 5 decimals (one unit of slack: the draws are the same bits).
"""

from tests.support.goldens import assert_close_to, port_against_tf115, run_against_tf115

PROGRAM = "conv_transpose_op_seeds.py"  # of tests/common/tf1_programs
GOLDEN = "tf115_conv_transpose_seeds.json"


def _assert_tf115s(values: dict, golden: dict) -> None:
    assert sorted(values) == sorted(golden)
    for case in sorted(golden):
        assert_close_to(values[case], golden[case], atol=1.5e-5)


def test_uai_run_draws_tf115s_numbers_after_transposed_convolutions(tmp_path):
    _assert_tf115s(*run_against_tf115(PROGRAM, GOLDEN, tmp_path))


def test_uai_migrates_port_draws_tf115s_numbers_after_transposed_convolutions(tmp_path):
    values, golden = port_against_tf115(PROGRAM, GOLDEN, tmp_path)
    _assert_tf115s(values, golden)
