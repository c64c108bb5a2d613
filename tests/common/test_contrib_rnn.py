"""tf.contrib.rnn.stack_bidirectional_dynamic_rnn (compat.rnn) stacks bidirectional layers as TF 1.15's did.

tests/common/tf1_programs/stacked_bidirectional_rnn.py, a TF 1 program, runs unmodified under uai-run; its
variables, outputs and states must be the ones real TensorFlow 1.15 printed
(tests/common/golden/tf115_stacked_birnn.json), to the 5 decimals it rounds to (one unit of slack).
"""

import numpy as np

from tests.support.goldens import run_against_tf115


def test_uai_run_stacks_bidirectional_layers_as_tf115_did(tmp_path):
    values, golden = run_against_tf115("stacked_bidirectional_rnn.py", "tf115_stacked_birnn.json", tmp_path)
    assert values["variables"] == golden["variables"]
    for key in sorted(set(values) - {"variables"}):
        for got, want in zip(values[key], golden[key], strict=True):
            np.testing.assert_allclose(got, want, atol=1.5e-5, err_msg=key)
