"""Seeded draws made after image and matrix ops (rgb_to_grayscale, a tensordot of a Python list,
crop_to_bounding_box and resize_image_with_crop_or_pad, tf.eye and the identity initializer, matrix_diag,
matrix_diag_part, matrix_set_diag) are TF 1.15's, under uai-run and in uai-migrate's port.

TF 1.15's op seed is the graph's op count (compat/_graph_seed.py), and TF 2 builds these with other ops (a
tensordot transposing nothing, crop_to_bounding_box's size read from the image's shape, the v3 diagonal ops taking
k): a cifar10-style eval input made the conv weights after it start elsewhere. tests/common/tf1_programs/
image_matrix_op_seeds.py printed tests/common/golden/tf115_image_matrix_seeds.json on real TensorFlow 1.15
(`python3 dev.py tf115`); it rounds to 5 decimals (one unit of slack: the draws are the same bits).
"""

from tests.support.goldens import assert_close_to, port_against_tf115, run_against_tf115

PROGRAM = "image_matrix_op_seeds.py"  # of tests/common/tf1_programs
GOLDEN = "tf115_image_matrix_seeds.json"


def _assert_tf115s(values: dict, golden: dict) -> None:
    assert sorted(values) == sorted(golden)
    for case in sorted(golden):
        assert_close_to(values[case], golden[case], atol=1.5e-5)


def test_uai_run_draws_tf115s_numbers_after_image_and_matrix_ops(tmp_path):
    _assert_tf115s(*run_against_tf115(PROGRAM, GOLDEN, tmp_path))


def test_uai_migrates_port_draws_tf115s_numbers_after_image_and_matrix_ops(tmp_path):
    values, golden = port_against_tf115(PROGRAM, GOLDEN, tmp_path)
    _assert_tf115s(values, golden)
