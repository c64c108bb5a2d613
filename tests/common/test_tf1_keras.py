"""TF 1.x's tf.keras optimizers as TF 1.x programs called them (`lr=`, `decay=`) train as on TF 1.15, under uai-run
and after uai-migrate, on this TensorFlow (both suites: TF 2.15 and 2.21).

TF 2.11+'s classes of those names take `lr` and drop it, training at their default rate with a warning only (a
silent wrong result), and refuse `decay`; the port runs TF 1.x's classes, today's `tf.keras.optimizers.legacy`
ones (the `keras-optimizers` rule). The program and its golden: tests/common/tf1_programs/keras_optimizers_fit.py,
tests/common/golden/tf115_keras_optimizers.json (real TF 1.15).
"""

import os
import sys

from tests.support.goldens import assert_close_to, run_against_tf115, tf115_values
from tests.support.processes import REPO, result_json
from tests.support.runs import migrate, run

PROGRAM = os.path.join(REPO, "tests", "common", "tf1_programs", "keras_optimizers_fit.py")
GOLDEN = "tf115_keras_optimizers.json"
# float32 training over five epochs, in another summation order than TF 1.15's graph (measured: 6e-7 on TF 2.15 and
# 2.21, both ways)
ATOL = 2e-6


def _assert_as_tf115(values: dict, golden: dict) -> None:
    assert sorted(values) == sorted(golden)
    for name in golden:
        assert_close_to(values[name], golden[name], atol=ATOL)


def test_uai_run_trains_them_as_tf115(tmp_path):
    _assert_as_tf115(*run_against_tf115(os.path.basename(PROGRAM), GOLDEN, tmp_path))


def test_the_port_trains_them_as_tf115(tmp_path):
    migrated = migrate("--out", tmp_path / "port", PROGRAM, cwd=tmp_path)
    assert migrated.returncode == 0, migrated.stdout[-3000:] + migrated.stderr[-3000:]
    port = tmp_path / "port" / os.path.basename(PROGRAM)
    code = port.read_text().split('"""', 2)[2]  # (the docstring names them as TF 1.x did)
    assert "import compat" in code and code.count(".legacy.") == 4 and "lr=" not in code, code
    result = run([sys.executable, str(port)], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    _assert_as_tf115(result_json(result.stdout), tf115_values(GOLDEN))
