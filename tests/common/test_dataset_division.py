"""A division by a constant inside a tf.data function computes what TF 1.15 computed there: TF 1.15's Grappler
rewrote it as a multiplication by the constant's reciprocal (it still does in the graph itself on TF 2, but
skips tf.data functions now), so image pipelines' `image / 255.0` gave values one ulp away from the exact
quotient (docs/traps.md). Here in a v1 graph under compat, as uai-run and uai-migrate's ports build it."""

import numpy as np
import pytest

from tests.support.processes import result_json, run_script

PROGRAM = """
    import compat  # noqa: F401 - first, as in uai-migrate's output
    import json
    import numpy as np
    import tensorflow as tf

    tf.compat.v1.disable_eager_execution()
    values = np.arange(256, dtype=np.float32)
    dataset = tf.data.Dataset.from_tensors(values).map(
        lambda x: (x / 255.0, tf.math.divide(x, np.float32(3)), x / tf.reduce_max(x))
    )
    quotients = tf.compat.v1.data.make_one_shot_iterator(dataset).get_next()
    with tf.compat.v1.Session() as session:
        print("RESULT " + json.dumps([q.tolist() for q in session.run(quotients)]))
"""


# compat's fixes hold whatever the import order (compat/_import_hook.py): here TensorFlow, and its tf.data, first
TENSORFLOW_FIRST = PROGRAM.replace("    import compat  # noqa: F401 - first, as in uai-migrate's output\n", "").replace(
    "    import tensorflow as tf\n", "    import tensorflow as tf\n    import compat  # noqa: F401\n"
)


@pytest.mark.parametrize("program", [PROGRAM, TENSORFLOW_FIRST], ids=["compat first", "tensorflow first"])
def test_a_constant_divisor_in_a_dataset_function_divides_as_tf115s_reciprocal_multiply(tmp_path, program):
    assert program.count("import compat") == 1
    result = run_script(tmp_path, program)
    assert result.returncode == 0, result.stderr[-3000:]
    by_255, by_3, by_computed = (np.array(q, dtype=np.float32) for q in result_json(result.stdout))
    values = np.arange(256, dtype=np.float32)
    for divisor, found in ((255, by_255), (3, by_3)):
        reciprocal = np.float32(1) / np.float32(divisor)
        assert not np.array_equal(values * reciprocal, values / np.float32(divisor))  # the two differ here
        np.testing.assert_array_equal(found, values * reciprocal)
    np.testing.assert_array_equal(by_computed, values / np.float32(255))  # a divisor known at run time: exact on 1.15
