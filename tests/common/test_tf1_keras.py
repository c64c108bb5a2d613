"""TF 1.x tf.keras programs run as on TF 1.15, under uai-run and after uai-migrate, on this TensorFlow (both suites:
TF 2.15 and 2.21). Each program and its golden (real TF 1.15): tests/common/tf1_programs/, tests/common/golden/.

- keras_optimizers_fit.py: optimizers called as TF 1.x called them (`lr=`, `decay=`). TF 2.11+'s classes of those
  names drop `lr`, training at their default rate with a warning only (a silent wrong result), and refuse `decay`;
  the port runs TF 1.x's classes, today's `tf.keras.optimizers.legacy` ones (the `keras-optimizers` rule).
- keras_metric_names.py: `metrics=["accuracy"]` read back as TF 1.x named it (`acc`, `val_acc`) by history,
  ModelCheckpoint and EarlyStopping. TF 2 names it `accuracy`: the checkpoint is never written, the early stop never
  comes, history["acc"] fails; the port compiles `metrics=["acc"]`, which TF 2 names `acc` (`keras-metric-names`).
- keras_named_metrics.py: `METRICS = ["accuracy", "crossentropy"]` then `compile(metrics=METRICS)`, read back as
  `acc`, `ce`, `val_acc` (TF 1.x's names of both; TF 2's `accuracy`, `crossentropy`): the port renames the list.
- keras_custom_optimizer.py: a program's own optimizers, subclasses of tf.keras.optimizers.Optimizer and SGD written
  on OptimizerV2's hooks (`_create_slots`, `_resource_apply_dense`), one made with `lr=`. Keras 2.11+'s classes of
  those names have none of them; the port subclasses `tf.keras.optimizers.legacy`'s (`keras-optimizers`).
- keras_fit_generator.py: TF 1.x code of Keras 2's API (fit_generator, .h5 checkpoints), which Keras 3 (tf.keras on
  TF >= 2.16) lacks; the port of a file of TF 1.x code using tf.keras imports compat, selecting tf-keras (`tf1-keras`).
- keras_predict_classes.py: Sequential.predict_classes and predict_proba, which TF 2.6 removed; the port calls
  `compat.keras_models.predict_classes(model, ...)` and `predict_proba(model, ...)` (`keras-predict`).
"""

import os
import sys

import pytest

from tests.support.goldens import assert_close_to, run_against_tf115, tf115_values
from tests.support.processes import REPO, result_json
from tests.support.runs import migrate, run

# program -> (its golden, what the port's code must show it ran: a text and how often)
PROGRAMS = {
    "keras_optimizers_fit.py": ("tf115_keras_optimizers.json", ("optimizers.legacy.", 5)),
    "keras_metric_names.py": ("tf115_keras_metric_names.json", ('metrics=["acc"]', 1)),
    "keras_fit_generator.py": ("tf115_keras_fit_generator.json", (".fit_generator(", 1)),
    "keras_predict_classes.py": ("tf115_keras_predict_classes.json", ("compat.keras_models.predict_", 5)),
    "keras_named_metrics.py": ("tf115_keras_named_metrics.json", ('METRICS = ["acc", "ce"]', 1)),
    "keras_custom_optimizer.py": ("tf115_keras_custom_optimizer.json", ("optimizers.legacy.", 2)),
}
# float32 training in another summation order than TF 1.15's graph (measured: 6e-7 on TF 2.15 and 2.21, both ways)
ATOL = 2e-6
# what each program prints besides numbers: compared exactly (keras_metric_names.py)
EXACT = ("keys", "saved", "softmax classes", "sigmoid classes", "sigmoid class dtype")


def _assert_as_tf115(values: dict, golden: dict) -> None:
    assert sorted(values) == sorted(golden)
    for name, value in golden.items():
        if isinstance(value, dict):
            assert_close_to(values[name], value, atol=ATOL)
        else:
            assert_close_to({name: values[name]}, {name: value}, atol=ATOL, exact=EXACT)


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_uai_run_runs_it_as_tf115(tmp_path, program):
    _assert_as_tf115(*run_against_tf115(program, PROGRAMS[program][0], tmp_path))


@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_the_port_runs_it_as_tf115(tmp_path, program):
    golden, (shown, times) = PROGRAMS[program]
    path = os.path.join(REPO, "tests", "common", "tf1_programs", program)
    migrated = migrate("--out", tmp_path / "port", path, cwd=tmp_path)
    assert migrated.returncode == 0, migrated.stdout[-3000:] + migrated.stderr[-3000:]
    port = tmp_path / "port" / program
    code = port.read_text().split('"""', 2)[2]  # (the docstring names TF 1.x's spellings)
    assert "import compat" in code and code.count(shown) == times, code
    result = run([sys.executable, str(port)], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    _assert_as_tf115(result_json(result.stdout), tf115_values(golden))
