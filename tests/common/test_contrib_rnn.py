"""tf.contrib.rnn.stack_bidirectional_dynamic_rnn (compat.rnn) stacks bidirectional layers as TF 1.15's did.

tests/common/tf1_programs/stacked_bidirectional_rnn.py, a TF 1 program, runs unmodified under uai-run; its
variables, outputs and states must be the ones real TensorFlow 1.15 printed
(tests/common/golden/tf115_stacked_birnn.json), to the 5 decimals it rounds to (one unit of slack).
"""

import json
import os
import sys

import numpy as np

from tests.support import runs as _runs
from tests.support.processes import REPO

PROGRAM = os.path.join(REPO, "tests", "common", "tf1_programs", "stacked_bidirectional_rnn.py")
GOLDEN = os.path.join(REPO, "tests", "common", "golden", "tf115_stacked_birnn.json")


def test_uai_run_stacks_bidirectional_layers_as_tf115_did(tmp_path):
    with open(GOLDEN) as handle:
        golden = json.load(handle)
    assert golden["tensorflow"].startswith("1.15.") and "python3 dev.py tf115" in golden["_header"]
    result = _runs.run([sys.executable, "-m", "uai_run", PROGRAM], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    line = next(line for line in result.stdout.splitlines() if line.startswith("RESULT "))
    values = json.loads(line[len("RESULT ") :])
    assert sorted(values) == sorted(golden["values"])
    assert values["variables"] == golden["values"]["variables"]
    for key in sorted(set(values) - {"variables"}):
        for got, want in zip(values[key], golden["values"][key], strict=True):
            np.testing.assert_allclose(got, want, atol=1.5e-5, err_msg=key)
