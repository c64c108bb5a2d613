"""Variables given a regularizer (tf.get_variable(regularizer=), tf.variable_scope(regularizer=), reused) start
from TF 1.15's values and train with its losses, under uai-run and in uai-migrate's port.

TF 1.15 ran the regularizer once, under `<variable>/Regularizer/`; TF 2's get_variable runs it once more to see
whether it gives a loss, and collects a tensor that runs it again whenever it is read: every variable made after
the first regularized one drew other initial values (compat/_graph_seed.py; found: a total loss 3.493677 against
1.15's 3.254519). tests/common/tf1_programs/regularized_variables.py printed
tests/common/golden/tf115_regularized_variables.json on real TensorFlow 1.15 (`python3 dev.py tf115`); it rounds to
6 decimals (slack for the losses' kernels).
"""

import os
import sys

from tests.support import runs
from tests.support.goldens import assert_close_to, run_against_tf115, tf115_values
from tests.support.processes import REPO, result_json

PROGRAM = os.path.join(REPO, "tests", "common", "tf1_programs", "regularized_variables.py")
GOLDEN = "tf115_regularized_variables.json"
NAMES = ("losses in the collection",)


def test_uai_run_regularized_variables_are_tf115s(tmp_path):
    values, golden = run_against_tf115("regularized_variables.py", GOLDEN, tmp_path)
    assert_close_to(values, golden, atol=2e-6, exact=NAMES)


def test_uai_migrates_port_regularized_variables_are_tf115s(tmp_path):
    migrated = runs.migrate(PROGRAM, "--out", tmp_path / "out", cwd=tmp_path)
    assert migrated.returncode == 0, migrated.stderr[-3000:]
    result = runs.run([sys.executable, str(tmp_path / "out" / "regularized_variables.py")], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    assert_close_to(result_json(result.stdout), tf115_values(GOLDEN), atol=2e-6, exact=NAMES)
