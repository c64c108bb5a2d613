"""tf.nn.softmax_cross_entropy_with_logits as TF 1 computed it: the gradient stops at the labels. TF 2's function of
that name (TF 1's _v2) sends it into them too, so a port left with it trained a teacher whose soft labels TF 1 held
fixed. uai-migrate writes `labels=tf.stop_gradient(...)` (the `softmax-labels` rule, as TensorFlow's own upgrader
does); uai-run serves TF 1's function. The program and its golden (real TF 1.15):
tests/common/tf1_programs/softmax_labels_gradient.py, tests/common/golden/tf115_softmax_labels.json.
"""

import os
import sys

import pytest

from tests.support.goldens import assert_close_to, run_against_tf115, tf115_values
from tests.support.processes import REPO, result_json
from tests.support.runs import migrate, run

PROGRAM = "softmax_labels_gradient.py"
GOLDEN = "tf115_softmax_labels.json"
# float32 steps in another summation order than TF 1.15's (measured: 2.4e-7); the mask is drawn exactly
ATOL = 1e-6


def _ported(tmp_path):
    migrated = migrate(
        "--out", tmp_path / "port", os.path.join(REPO, "tests", "common", "tf1_programs", PROGRAM), cwd=tmp_path
    )
    assert migrated.returncode == 0, migrated.stdout[-3000:] + migrated.stderr[-3000:]
    port = tmp_path / "port" / PROGRAM
    assert "labels=tf.stop_gradient(labels)" in port.read_text()
    result = run([sys.executable, str(port)], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    return result_json(result.stdout), tf115_values(GOLDEN)


@pytest.mark.parametrize("way", ["uai-run", "uai-migrate"])
def test_the_labels_get_no_gradient_as_in_tf115(tmp_path, way):
    if way == "uai-run":
        values, golden = run_against_tf115(PROGRAM, GOLDEN, tmp_path)
    else:
        values, golden = _ported(tmp_path)
    assert_close_to(values, golden, atol=ATOL, exact=("teacher", "mask"))
