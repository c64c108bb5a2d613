"""modern_tf2.slim_main starts from the legacy slim program's checkpoint: `--checkpoint_path`, `--checkpoint_exclude_scopes`.

Both environments, real processes: legacy_tf1.slim_main trains LeNet 2 steps, the modern program
fine-tunes from it one step at learning rate 0, so its checkpoint holds the initial weights.
"""

import numpy as np
import pytest
import tensorflow as tf

from tests.support.processes import assert_one_line_error, run_module
from tests.support.programs import NUM_CLASSES

TINY = [
    "--model_name=lenet",
    "--train_image_size=32",
    f"--num_classes={NUM_CLASSES}",
    "--batch_size=8",
    "--optimizer=sgd",
]
EXCLUDED = "LeNet/fc4"


@pytest.fixture(scope="module")
def legacy(program_data, tmp_path_factory):
    out = tmp_path_factory.mktemp("legacy_slim")
    args = [f"--data_dir={program_data}", f"--output_dir={out}", *TINY, "--max_step=2"]
    result = run_module("legacy_tf1.slim_main", args)
    assert result.returncode == 0, result.stderr[-3000:]
    return out


def modern(program_data, out, *extra):
    args = [f"--data_dir={program_data}", f"--output_dir={out}", *TINY, "--max_step=1", "--export=false", *extra]
    return run_module("modern_tf2.slim_main", args)


@pytest.mark.slow
def test_checkpoint_path_restores_all_but_the_excluded_scopes(legacy, program_data, tmp_path):
    out = tmp_path / "out"
    # Rate 0 and no decay: the step leaves the weights as the initialisation made them.
    frozen = ["--learning_rate=0", "--learning_rate_decay_type=fixed", "--weight_decay=0"]
    result = modern(
        program_data, out, *frozen, f"--checkpoint_path={legacy}", f"--checkpoint_exclude_scopes={EXCLUDED}"
    )
    assert result.returncode == 0, result.stderr[-3000:]
    old = tf.train.load_checkpoint(tf.train.latest_checkpoint(str(legacy)))
    values = _values_by_variable_name(tf.train.latest_checkpoint(str(out)))
    excluded = [name for name in values if name.startswith(EXCLUDED + "/")]
    restored = [name for name in values if name not in excluded]
    assert len(excluded) == 2 and len(restored) == 6, sorted(values)
    for name in restored:
        np.testing.assert_array_equal(values[name], old.get_tensor(name), err_msg=name)
    # Excluded: the initialiser's, not the legacy run's.
    assert not np.allclose(values[f"{EXCLUDED}/weights"], old.get_tensor(f"{EXCLUDED}/weights"))
    assert f"{len(restored)} variables restored, not {EXCLUDED}" in result.stdout, result.stdout


def _values_by_variable_name(prefix):
    """{variable name: value} of a TF2 checkpoint's model, read by loading it into the same Keras model."""
    from trainlib.models import slim_layer

    model = tf.keras.Sequential([slim_layer.SlimNetLayer("lenet", NUM_CLASSES)])
    model(tf.zeros([1, 32, 32, 3]))
    tf.train.Checkpoint(model=model).restore(prefix).expect_partial()
    return {variable.name.split(":")[0]: variable.numpy() for variable in model.variables}


def test_a_missing_checkpoint_path_is_one_line_and_exit_2(program_data, tmp_path):
    result = modern(program_data, tmp_path / "out", "--checkpoint_path=/nonexistent/model.ckpt")
    assert_one_line_error(result, "--checkpoint_path '/nonexistent/model.ckpt' does not exist")
