"""native-estimator-loop's plain (non-TPU) model_fn making its own variables: `w = tf.get_variable("w", [literal
shape][, dtype=tf.float32][, initializer=<a v1 initializer of the repo's table>])` becomes a tf.Variable of TF1's name
made once (TF1's default initializer for a float: Glorot's uniform), and `step = tf.train.get_or_create_global_step()`
read only as minimize's global step is the port's global step. What the rule cannot prove TF1's (a regularizer, a
partitioner, trainable=False, collections, a computed shape, a name made twice or in a loop, another dtype, the step
read elsewhere) keeps the program on the Estimator with one entry saying why. The equivalence test trains both ports
from the safe port's step-0 checkpoint and compares their losses.
"""

import pathlib
import re
import shutil
import subprocess
import sys

from codemods.rules.native_estimator_loop import NativeEstimatorLoopRule
from tests.support.native_ports import migrated
from tests.support.rule_test import RuleTest
from tests.support.runs import clean_env

# an Estimator program as the safe rules, native-losses and native-data leave it
PROGRAM = """
    import compat
    import tensorflow as tf

    def model_fn(features, labels, mode):
        w = tf.compat.v1.get_variable("w", [2, 3])
        b = tf.compat.v1.get_variable("bias", [3], initializer=tf.compat.v1.zeros_initializer())
        logits = tf.matmul(features, w) + b
        loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)
        step = tf.compat.v1.train.get_or_create_global_step()
        train_op = tf.compat.v1.train.AdamOptimizer(0.1).minimize(loss, step)
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

    def input_fn():
        return tf.data.Dataset.from_tensors(([[1.0, 2.0]], [1])).repeat()

    def main():
        config = tf.estimator.RunConfig(model_dir="/tmp/m", tf_random_seed=1, log_step_count_steps=1)
        tf.estimator.Estimator(model_fn, config=config).train(input_fn, steps=2)
"""
W = 'w = tf.compat.v1.get_variable("w", [2, 3])'
STEP = "step = tf.compat.v1.train.get_or_create_global_step()"
MINIMIZE = "train_op = tf.compat.v1.train.AdamOptimizer(0.1).minimize(loss, step)"


class TestNativeEstimatorLoopVariables(RuleTest):
    TRANSFORM = NativeEstimatorLoopRule

    def test_get_variable_and_a_named_global_step_become_variables_made_once(self):
        ported = self.applied(PROGRAM, level="native")
        code = ported.module.code
        made = (
            '    w = tf.Variable(tf.keras.initializers.GlorotUniform()([2, 3]), name="w")\n'
            '    b = tf.Variable(tf.zeros_initializer()([3]), name="bias")\n'
            "\n"
            "    def model(features, labels, training):\n"
            "        logits = tf.matmul(features, w) + b\n"
            "        loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(labels, logits)\n"
            "        return loss\n"
        )
        assert made in code, code
        assert "compat.v1" not in code and "get_variable" not in code and "get_or_create" not in code, code
        assert "tf.train.Checkpoint(w=w, b=b, global_step=global_step, optimizer=optimizer)" in code, code
        assert "compat.tf1_slots.check_names([global_step, w, b], manager.latest_checkpoint)" in code, code
        assert "compat.tf1_slots.restore_slots(optimizer, [w, b], manager.latest_checkpoint)" in code, code
        (entry,) = [e.message for e in ported.entries if e.rule == NativeEstimatorLoopRule.ID]
        assert "2 tf.get_variable -> tf.Variable made once under TF1's names (w, bias: names TF" in entry, entry
        assert "Glorot" in entry and "TF1's graph seed" in entry, entry

    def test_an_initializer_and_dtype_float32_map_through_the_table(self):
        variable = (
            'w = tf.compat.v1.get_variable("w", shape=(2, 3), dtype=tf.float32, '
            "initializer=tf.compat.v1.truncated_normal_initializer(stddev=0.1), trainable=True)"
        )
        code = self.applied(PROGRAM.replace(W, variable), level="native").module.code
        made = 'w = tf.Variable(tf.keras.initializers.TruncatedNormal(stddev=0.1)((2, 3)), name="w")\n'
        assert made in code, code
        # (minimize's global_step given by keyword, the tf.train names as the safe level leaves them)
        keyword = self.applied(PROGRAM.replace("(loss, step)", "(loss, global_step=step)"), level="native")
        assert keyword.module.code == self.applied(PROGRAM, level="native").module.code

    def test_must_not_fire_where_the_variable_or_the_step_is_not_proven_tf1s(self):
        variable = 'tf.compat.v1.get_variable("w", [2, 3]'
        cases = {
            "tf.get_variable(regularizer=...)": (
                variable,
                f"{variable}, regularizer=tf.keras.regularizers.l2(0.1)",
            ),
            "tf.get_variable(partitioner=...)": (variable, f"{variable}, partitioner=None"),
            "tf.get_variable(collections=...)": (variable, f"{variable}, collections=[]"),
            "tf.get_variable(trainable=False)": (variable, f"{variable}, trainable=False"),
            "a shape other than a list of integers written out": (
                variable,
                'tf.compat.v1.get_variable("w", [2, 1 + 2]',
            ),
            "a dtype other than tf.float32": (variable, f"{variable}, dtype=tf.float64"),
            "a computed name": (variable, 'tf.compat.v1.get_variable("w" + "", [2, 3]'),
            "an initializer the repo's table does not read": (
                variable,
                f"{variable}, initializer=tf.compat.v1.orthogonal_initializer()",
            ),
            "`w`, a variable of the model_fn, bound again": (
                "        logits = ",
                "        w = w * 2.0\n        logits = ",
            ),
            "the variable `w` made twice (TF1 raised ValueError)": (
                "        b = ",
                '        v = tf.compat.v1.get_variable("w", [2, 3])\n        b = ',
            ),
            "tf.get_variable in a loop": (
                f"        {W}\n",
                f"        for i in range(2):\n            {W}\n",
            ),
            "the global step read other than as minimize's global_step": (
                "        logits = tf.matmul(features, w) + b\n",
                "        logits = tf.matmul(features, w) + b\n        seen = tf.cast(step, tf.float32)\n",
            ),
            "the variable `global_step` made twice": (W, W.replace('"w"', '"global_step"')),
            # (TF1's graph named an op so before it, then the variable `add_1`: measured on TF 2.15)
            "the variable `add` named as an op TF may have made before it": (W, W.replace('"w"', '"add"')),
            "the variable `MatMul_1` named as an op TF may have made before it": (W, W.replace('"w"', '"MatMul_1"')),
            "`model`, a variable of the model_fn, is a name the port binds": (
                "+ b\n",
                "+ model\n",
            ),
        }
        for why, (old, new) in cases.items():
            assert old in PROGRAM, old
            source = PROGRAM.replace(old, new)
            if why.startswith("`model`"):
                source = source.replace("        b = ", "        model = ")
            refused = self.refused(source)
            assert len(refused) == 1 and why in refused[0], (why, refused)

    def test_must_not_fire_where_a_variable_would_clash_with_a_keras_layer_in_tf1s_graph(self):
        """TF1's graph made the layer's scope unique against the variable's name (dense_1/kernel), the port names it
        dense/kernel: a variable named as one of the model_fn's Keras layers is refused."""
        layered = PROGRAM.replace(
            "        logits = tf.matmul(features, w) + b\n",
            "        logits = tf.keras.layers.Dense(3, dtype=features.dtype)(tf.matmul(features, w) + b)\n",
        )
        assert self.applied(layered, level="native").module.code != layered
        (refused,) = self.refused(layered.replace('get_variable("bias"', 'get_variable("dense"'))
        assert "the variable `dense` named as a Keras layer" in refused, refused


# a TF1 Estimator program making its own variables (no initializer: Glorot's; a zeros and a truncated normal
# initializer) and binding the global step it minimizes with, trained with Adam into the model_dir of argv[1] up to
# max_steps=argv[2] on one batch of 12 rows
EQUIVALENCE = """
    import sys

    import numpy as np
    import tensorflow as tf


    def model_fn(features, labels, mode):
        w = tf.get_variable("w", [5, 4])
        b = tf.get_variable("b", [4], initializer=tf.zeros_initializer())
        v = tf.get_variable("out", [4, 3], dtype=tf.float32, initializer=tf.truncated_normal_initializer(stddev=0.5))
        hidden = tf.nn.relu(tf.matmul(features, w) + b)
        loss = tf.losses.sparse_softmax_cross_entropy(labels, tf.matmul(hidden, v))
        step = tf.train.get_or_create_global_step()
        train_op = tf.train.AdamOptimizer(0.1).minimize(loss, global_step=step)
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


    def input_fn():
        rng = np.random.RandomState(0)
        x, y = rng.rand(12, 5).astype(np.float32), rng.randint(0, 3, 12)
        return tf.data.Dataset.from_tensors((x, y)).repeat()


    if __name__ == "__main__":
        tf.logging.set_verbosity(tf.logging.INFO)
        config = tf.estimator.RunConfig(model_dir=sys.argv[1], tf_random_seed=1, log_step_count_steps=1)
        tf.estimator.Estimator(model_fn, config=config).train(input_fn, max_steps=int(sys.argv[2]))
"""


def _losses(path: str, model_dir: pathlib.Path) -> list[float]:
    """The losses the program at `path` logged, trained into `model_dir` up to step 3."""
    done = subprocess.run(
        [sys.executable, path, str(model_dir), "3"], env=clean_env(), capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return [float(found) for found in re.findall(r"loss = (\S+), step = \d+", done.stderr)]


def test_the_variables_port_trains_as_the_estimator_from_its_step_0_checkpoint(tmp_path: pathlib.Path) -> None:
    found = migrated(tmp_path, "estimator_variables.py", EQUIVALENCE)
    ported = {level: path for level, (path, _) in found.items()}
    entries = [e["message"] for f in found["native"][1]["files"] for e in f["entries"]]
    (said,) = [m for m in entries if "tf.get_variable -> tf.Variable" in m]
    assert "TF1's names (w, b, out: " in said and "`step = tf.train.get_or_create_global_step()`" in said, said
    code = pathlib.Path(ported["native"]).read_text()
    assert "compat.v1" not in code and "tf.estimator" not in code, code
    assert 'tf.Variable(tf.keras.initializers.GlorotUniform()([5, 4]), name="w")' in code, code
    safe = _losses(ported["safe"], tmp_path / "safe_dir")
    start = tmp_path / "native_dir"
    start.mkdir()
    for found in (tmp_path / "safe_dir").glob("model.ckpt-0.*"):
        shutil.copy(found, start)
    (start / "checkpoint").write_text('model_checkpoint_path: "model.ckpt-0"\n')
    native = _losses(ported["native"], start)
    assert len(safe) == len(native) == 3, (safe, native)
    assert max(abs(a - b) / max(1.0, abs(a)) for a, b in zip(safe, native)) <= 1e-5, (safe, native)
    # (on its one batch the loss falls: the variables trained, not merely read)
    assert native[0] > native[1] > native[2], native
