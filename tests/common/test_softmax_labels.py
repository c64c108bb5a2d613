"""tf.nn.softmax_cross_entropy_with_logits as TF 1 computed it: the gradient stops at the labels. TF 2's function of
that name (TF 1's _v2) sends it into them too, so a port left with it trained a teacher whose soft labels TF 1 held
fixed. uai-migrate writes `labels=tf.stop_gradient(...)` (the `softmax-labels` rule, as TensorFlow's own upgrader
does); uai-run serves TF 1's function. The program and its golden (real TF 1.15):
tests/common/tf1_programs/softmax_labels_gradient.py, tests/common/golden/tf115_softmax_labels.json.
"""

import pytest

from tests.support.goldens import assert_close_to, port_against_tf115, run_against_tf115

PROGRAM = "softmax_labels_gradient.py"
GOLDEN = "tf115_softmax_labels.json"
# float32 steps in another summation order than TF 1.15's (measured: 2.4e-7); the mask is drawn exactly
ATOL = 1e-6


@pytest.mark.parametrize("way", ["uai-run", "uai-migrate"])
def test_the_labels_get_no_gradient_as_in_tf115(tmp_path, way):
    if way == "uai-run":
        values, golden = run_against_tf115(PROGRAM, GOLDEN, tmp_path)
    else:
        values, golden = port_against_tf115(PROGRAM, GOLDEN, tmp_path)
        assert "labels=tf.stop_gradient(labels)" in (tmp_path / "port" / PROGRAM).read_text()
    assert_close_to(values, golden, atol=ATOL, exact=("teacher", "mask"))
