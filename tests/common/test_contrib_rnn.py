"""tf.contrib.rnn.stack_bidirectional_dynamic_rnn (compat.rnn) stacks bidirectional layers as TF 1.15's did.

tests/common/tf1_programs/stacked_bidirectional_rnn.py, a TF 1 program, runs unmodified under uai-run; its
variables, outputs and states must be the ones real TensorFlow 1.15 printed
(tests/common/golden/tf115_stacked_birnn.json), to the 5 decimals it rounds to (one unit of slack).
"""

import os
import sys

import numpy as np

from tests.support import runs as _runs
from tests.support.goldens import tf115_values
from tests.support.processes import REPO, result_json

PROGRAM = os.path.join(REPO, "tests", "common", "tf1_programs", "stacked_bidirectional_rnn.py")


def test_uai_run_stacks_bidirectional_layers_as_tf115_did(tmp_path):
    golden = tf115_values("tf115_stacked_birnn.json")
    result = _runs.run([sys.executable, "-m", "uai_run", PROGRAM], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    values = result_json(result.stdout)
    assert sorted(values) == sorted(golden)
    assert values["variables"] == golden["variables"]
    for key in sorted(set(values) - {"variables"}):
        for got, want in zip(values[key], golden[key], strict=True):
            np.testing.assert_allclose(got, want, atol=1.5e-5, err_msg=key)
