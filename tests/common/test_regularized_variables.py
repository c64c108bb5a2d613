"""Variables given a regularizer (tf.get_variable(regularizer=), tf.variable_scope(regularizer=), reused) start
from TF 1.15's values and train with its losses, under uai-run and in uai-migrate's port.

TF 1.15 ran the regularizer once, under `<variable>/Regularizer/`; TF 2's get_variable runs it once more to see
whether it gives a loss, and collects a tensor that runs it again whenever it is read: every variable made after
the first regularized one drew other initial values (compat/_graph_seed.py; found: a total loss 3.493677 against
1.15's 3.254519). tests/common/tf1_programs/regularized_variables.py printed
tests/common/golden/tf115_regularized_variables.json on real TensorFlow 1.15 (`python3 dev.py tf115`); it rounds to
6 decimals (slack for the losses' kernels).
"""

from tests.support.goldens import assert_close_to, port_against_tf115, run_against_tf115

PROGRAM = "regularized_variables.py"  # of tests/common/tf1_programs
GOLDEN = "tf115_regularized_variables.json"
NAMES = ("losses in the collection",)


def test_uai_run_regularized_variables_are_tf115s(tmp_path):
    values, golden = run_against_tf115(PROGRAM, GOLDEN, tmp_path)
    assert_close_to(values, golden, atol=2e-6, exact=NAMES)


def test_uai_migrates_port_regularized_variables_are_tf115s(tmp_path):
    values, golden = port_against_tf115(PROGRAM, GOLDEN, tmp_path)
    assert_close_to(values, golden, atol=2e-6, exact=NAMES)
