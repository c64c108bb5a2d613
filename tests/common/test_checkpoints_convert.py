"""A TF1 Estimator ResNet checkpoint in the TF2 program: `python -m trainlib.checkpoints inspect/convert`, `--checkpoint_path`.

Both environments. One legacy run (3 steps) per module; the conversion and the program runs
are real processes, the matching rules are tested in-process on that checkpoint.
"""

import glob
import json
import os
import shutil

import numpy as np
import pytest
import tensorflow as tf
from hypothesis import given
from hypothesis import strategies as st

from compat.errors import DataError
from modern_tf2.chief_checkpoints import starting_from
from tests.support import tf_free
from tests.support.processes import assert_one_line_error, run_module
from tests.support.programs import NUM_CLASSES, imagenet_args
from trainlib import checkpoints
from trainlib.models import names
from trainlib.training.resnet_config import ResNetConfig

LEGACY_STEPS = 3
SIZE = 8
IMAGE = 32


@pytest.fixture(scope="module")
def legacy(program_data, tmp_path_factory):
    """The Estimator program's output folder after 3 steps."""
    out = tmp_path_factory.mktemp("legacy")
    result = run_module("legacy_tf1.imagenet_main", imagenet_args(program_data, out, LEGACY_STEPS, "--export=false"))
    assert result.returncode == 0, result.stderr[-3000:]
    return out


def config(resnet_size=SIZE):
    return ResNetConfig(resnet_size=resnet_size, num_classes=NUM_CLASSES, image_size=IMAGE)


def batch():
    return np.random.RandomState(0).uniform(-1, 1, (4, IMAGE, IMAGE, 3)).astype(np.float32)


def legacy_logits(checkpoint):
    """The Estimator's model (its graph, its variable names) restored by a TF1 Saver: no stable-name mapping."""
    from legacy_tf1 import resnet_model_fn

    with tf.Graph().as_default():
        model = resnet_model_fn.build_model(config())
        logits = model(tf.constant(batch()), training=False)
        with tf.compat.v1.Session() as session:
            tf.compat.v1.train.Saver().restore(session, checkpoint)
            return session.run(logits)


def modern_model():
    model = config().build_model()
    model(tf.zeros([1, IMAGE, IMAGE, 3]), training=False)
    return model


@pytest.mark.slow
def test_convert_keeps_the_predictions_and_the_modern_program_resumes(legacy, program_data, tmp_path):
    source = tf.train.latest_checkpoint(str(legacy))
    out = tmp_path / "converted"
    result = run_module(
        "trainlib.checkpoints", ["convert", str(legacy), "--model=resnet", f"--resnet_size={SIZE}", f"--out={out}"]
    )
    assert result.returncode == 0, result.stderr[-3000:]
    converted = tf.train.latest_checkpoint(str(out))
    assert result.stdout.strip() == f"wrote {converted}" and converted.endswith(f"ckpt-{LEGACY_STEPS}")

    before = legacy_logits(source)  # first: a Keras model made in a Graph invalidates the eager ones made earlier
    model = modern_model()
    tf.train.Checkpoint(model=model).restore(converted).expect_partial()
    after = model(batch(), training=False).numpy()
    assert np.abs(before).max() > 0
    np.testing.assert_allclose(after, before, rtol=1e-5, atol=1e-6)

    resumed = run_module(
        "modern_tf2.imagenet_main", imagenet_args(program_data, out, LEGACY_STEPS + 2, "--export=false")
    )
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert f"restored {converted} at step {LEGACY_STEPS}" in resumed.stdout, resumed.stdout
    assert f"done at step {LEGACY_STEPS + 2}" in resumed.stdout, resumed.stdout
    assert "could not be found in the restored object" not in resumed.stderr  # the layout is the program's own


def test_inspect_lists_what_tf_list_variables_sees(legacy):
    prefix = tf.train.latest_checkpoint(str(legacy))
    header, *rows = checkpoints.describe(str(legacy)).splitlines()
    listed = tf.train.list_variables(prefix)
    assert header == f"{prefix}: {len(listed)} variables"
    dtypes = tf.train.load_checkpoint(prefix).get_variable_to_dtype_map()
    fields = [row.split() for row in rows]
    assert [(key, json.loads(shape), dtype) for key, shape, dtype in fields] == [
        (key, shape, dtypes[key].name) for key, shape in listed
    ]  # list_variables sorts by key too


def _cli_args(args, legacy, tmp_path):
    (tmp_path / "gone").mkdir()
    (tmp_path / "gone" / "checkpoint").write_text('model_checkpoint_path: "model.ckpt-9"\n')
    replace = {"LEGACY": str(legacy), "OUT": str(tmp_path / "out"), "GONE": str(tmp_path / "gone")}
    for word, value in replace.items():
        args = [arg.replace(word, value) for arg in args]
    return args


@pytest.mark.parametrize(
    "args, message",
    [
        (["convert", "LEGACY", "--model=resnet", "--resnet_size=14", "--out=OUT"], "checkpoint has no variable for"),
        (["inspect", "GONE"], "`checkpoint` file names"),
    ],
    ids=["wrong-size", "checkpoint-file-names-no-prefix"],
)
def test_bad_input_is_one_line_and_exit_2(legacy, tmp_path, args, message):
    result = run_module("trainlib.checkpoints", _cli_args(args, legacy, tmp_path))
    assert_one_line_error(result, message)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["inspect", "/nonexistent/model.ckpt-1"], "CKPT '/nonexistent/model.ckpt-1' does not exist"),
        (["convert", "/nonexistent", "--model=resnet", "--resnet_size=8", "--out=OUT"], "CKPT '/nonexistent' does"),
        (["inspect", "LEGACY", "--nosuchflag"], "unknown flag --nosuchflag"),
        (
            ["convert", "LEGACY", "--model=resnet", "--resnet_size=8", "--num_classes=-1", "--out=OUT"],
            "--num_classes",
        ),
    ],
    ids=["missing-checkpoint", "convert-missing-checkpoint", "unknown-flag", "negative-classes"],
)
def test_bad_input_is_refused_before_tensorflow_is_imported(legacy, tmp_path, args, message):
    result = tf_free.run_module("trainlib.checkpoints", _cli_args(args, legacy, tmp_path))
    tf_free.assert_one_line_error_before_tensorflow(result, message)
    assert not (tmp_path / "out").exists()


def test_the_package_names_load_on_first_use():
    assert checkpoints.convert_resnet.__module__ == "trainlib.checkpoints._convert"
    assert checkpoints.RESNET is names.RESNET and checkpoints.Naming is names.Naming
    assert sorted(checkpoints.__all__) == sorted(checkpoints._HOMES)
    assert set(checkpoints.__all__) <= set(dir(checkpoints))
    with pytest.raises(AttributeError, match="no_such_name"):
        checkpoints.no_such_name  # noqa: B018


@pytest.mark.parametrize(
    "options, message",
    [
        (dict(resnet_size=14), "checkpoint has no variable for resnet/stage0_block1"),  # deeper than the checkpoint
        (dict(resnet_size=8, resnet_version=1), "checkpoint has no variable for resnet/bn0"),
        (dict(resnet_size=8, num_classes=NUM_CLASSES + 1), "resnet/logits/bias has shape"),
    ],
    ids=["deeper-net", "other-version", "other-classes"],
)
def test_a_model_the_checkpoint_does_not_hold_is_refused_naming_the_variable(legacy, tmp_path, options, message):
    with pytest.raises(DataError, match=message):
        checkpoints.convert_resnet(str(legacy), str(tmp_path / "out"), **options)


def test_a_shallower_net_than_the_checkpoint_is_refused_not_truncated(tmp_path):
    """A size-14 checkpoint holds every size-8 variable with its shape: only the leftovers tell them apart."""
    deeper = config(resnet_size=14).build_model()
    deeper(tf.zeros([1, IMAGE, IMAGE, 3]))
    saved = names.save_by_name(deeper.variables, str(tmp_path / "deep" / "model.ckpt"))
    with pytest.raises(DataError, match="has no place in this model"):
        checkpoints.convert_resnet(saved, str(tmp_path / "out"), resnet_size=SIZE)


def test_convert_refuses_an_out_folder_holding_a_checkpoint(legacy, tmp_path):
    first = checkpoints.convert_resnet(str(legacy), str(tmp_path / "out"), resnet_size=SIZE)
    with pytest.raises(DataError, match="already holds a checkpoint"):
        checkpoints.convert_resnet(str(legacy), str(tmp_path / "out"), resnet_size=SIZE)
    assert (tmp_path / "out" / (first.rsplit("/", 1)[1] + ".index")).exists()


def test_starting_from_restores_all_but_the_excluded_scopes(legacy):
    prefix = tf.train.latest_checkpoint(str(legacy))
    reader = tf.train.load_checkpoint(prefix)
    model = starting_from(config().build_model, IMAGE, prefix, checkpoints.RESNET, ["resnet/logits"])()
    restored = excluded = 0
    for name, variable in names.name_map(model.variables).items():
        if name.startswith("resnet/logits/"):
            excluded += 1
            assert not np.allclose(variable.numpy(), reader.get_tensor(name)), name
        else:
            restored += 1
            np.testing.assert_array_equal(variable.numpy(), reader.get_tensor(name), err_msg=name)
    assert excluded == 2 and restored == len(model.variables) - 2


def test_the_runs_own_checkpoint_wins_over_checkpoint_path(legacy, tmp_path):
    assert checkpoints.fine_tune_source(None, str(tmp_path)) is None
    assert checkpoints.fine_tune_source(str(legacy), str(tmp_path)).startswith(str(legacy))
    assert checkpoints.fine_tune_source(str(legacy), str(legacy)) is None  # the folder already has one: resume
    with pytest.raises(DataError, match="--checkpoint_path '/nonexistent' does not exist"):
        checkpoints.fine_tune_source("/nonexistent", str(tmp_path))


@pytest.mark.slow
def test_checkpoint_path_starts_the_modern_program_from_the_estimators_checkpoint(legacy, program_data, tmp_path):
    prefix = tf.train.latest_checkpoint(str(legacy))
    model_variables = len(modern_model().variables)
    args = imagenet_args(program_data, tmp_path / "out", 1, "--export=false", f"--checkpoint_path={legacy}")
    result = run_module("modern_tf2.imagenet_main", [*args, "--checkpoint_exclude_scopes=resnet/logits"])
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"fine-tuning from {prefix}: {model_variables - 2} variables restored, not resnet/logits" in result.stdout
    assert "done at step 1" in result.stdout and "restored " + str(tmp_path) not in result.stdout

    fresh = imagenet_args(program_data, tmp_path / "fresh", 1, "--checkpoint_path=/nonexistent")
    wrong = run_module("modern_tf2.imagenet_main", fresh)
    assert_one_line_error(wrong, "--checkpoint_path '/nonexistent' does not exist")


SEGMENT = st.text("abcXYZ_019", min_size=1, max_size=6)


@given(scope=st.lists(SEGMENT, min_size=1, max_size=3).map("/".join), rest=SEGMENT, tail=SEGMENT)
def test_a_scope_covers_itself_and_what_is_inside_not_a_sibling_sharing_its_prefix(scope, rest, tail):
    assert names.in_scopes(scope, [scope]) and names.in_scopes(f"{scope}/{rest}", [scope + "/"])
    assert names.in_scopes(f"{scope}/{rest}/{tail}", ["other", scope])
    assert not names.in_scopes(f"{scope}{rest}", [scope]) and not names.in_scopes(scope, [f"{scope}/{rest}"])


def test_checkpoint_values_names_a_checkpoint_that_is_not_one(tmp_path):
    bogus = tmp_path / "model.ckpt"
    bogus.write_text("not a checkpoint")
    with pytest.raises(DataError, match="is not a readable checkpoint"):
        names.checkpoint_values([], str(bogus))


def test_a_tf2_object_checkpoint_is_named_as_such(tmp_path):
    model = modern_model()
    saved = tf.train.Checkpoint(model=model).save(str(tmp_path / "tf2" / "ckpt"))
    with pytest.raises(DataError, match="a TF2 object-based checkpoint"):
        names.checkpoint_values(model.variables, saved)


def test_convert_refuses_an_out_that_is_a_file(legacy, tmp_path):
    (tmp_path / "out").write_text("")
    with pytest.raises(DataError, match="--out .* is a file"):
        checkpoints.convert_resnet(str(legacy), str(tmp_path / "out"), resnet_size=SIZE)


def test_a_truncated_data_file_is_a_data_error_in_inspect_and_convert(legacy, tmp_path):
    # the index still lists every variable: inspect said all was well, convert hit TensorFlow's IndexError
    prefix = tf.train.latest_checkpoint(str(legacy))
    copy = tmp_path / "ckpt"
    copy.mkdir()
    for path in glob.glob(prefix + ".*"):
        shutil.copy(path, copy)
    [data] = glob.glob(str(copy / "*.data-*"))
    os.truncate(data, os.path.getsize(data) // 2)
    damaged = str(copy / os.path.basename(prefix))
    with pytest.raises(DataError, match="cannot be read .a truncated or damaged data file"):
        checkpoints.describe(damaged)
    with pytest.raises(DataError, match="cannot be read .a truncated or damaged data file"):
        checkpoints.convert_resnet(damaged, str(tmp_path / "out"), resnet_size=SIZE)
