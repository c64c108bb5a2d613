"""compat.tf1_modules: a TF1 module path as an object (what uai-migrate binds for a contrib module read as a
value) serves each name as uai-run's face does, from the same table, and a name with no home fails in one line."""

import pytest

import compat  # noqa: F401  (legacy Keras chosen before TensorFlow loads, as the ports do)
from compat import tf1_modules

# TF1 names read off a contrib module object: a SYMBOLS entry, a MODULES target, a submodule of the table
NAMES = (
    "tensorflow.contrib.opt.LazyAdamOptimizer",
    "tensorflow.contrib.rnn.LayerNormBasicLSTMCell",
    "tensorflow.contrib.rnn.LSTMCell",
    "tensorflow.contrib.framework.arg_scope",
    "tensorflow.contrib.training.HParams",
    "tensorflow.contrib.training.create_train_op",
    "tensorflow.contrib.training.checkpoints_iterator",
    "tensorflow.contrib.learn.RunConfig",
    "tensorflow.contrib.tpu.TPUEstimator",
    "tensorflow.contrib.data.batch_and_drop_remainder",
)


@pytest.mark.parametrize("name", NAMES)
def test_a_name_read_off_the_module_object_is_the_one_uai_run_serves(name):
    from uai_run import _tf1_modules  # (test only: compat never imports uai_run)

    path, _, attr = name.rpartition(".")
    ported = getattr(tf1_modules.tf1_module(path), attr)
    face = getattr(_tf1_modules.Face(path), attr)
    if name.endswith("_and_drop_remainder"):  # a function made per read: the same transformation
        assert ported.__name__ == face.__name__ == attr
    else:
        assert ported is face


def test_one_object_per_path_and_its_submodules_are_module_objects():
    opt = tf1_modules.tf1_module("tensorflow.contrib.opt")
    assert tf1_modules.tf1_module("tensorflow.contrib.opt") is opt
    learn = tf1_modules.tf1_module("tensorflow.contrib").learn
    assert isinstance(learn, tf1_modules.TF1Module) and learn is tf1_modules.tf1_module("tensorflow.contrib.learn")


def test_a_name_with_no_home_fails_in_one_line_naming_it_and_the_reading_line():
    rnn = tf1_modules.tf1_module("tensorflow.contrib.rnn")
    assert not hasattr(rnn, "NoSuchCell")
    with pytest.raises(tf1_modules.MissingTF1Name) as raised:
        rnn.NoSuchCell  # noqa: B018
    message = str(raised.value)
    assert "\n" not in message and message.startswith("tf.contrib.rnn.NoSuchCell is not available on this TensorFlow")
    assert f"{__file__}:" in message and "uai-migrate: tf.contrib was removed" in message
    cloud = tf1_modules.tf1_module("tensorflow.contrib.cloud")  # a module with no home: every name fails
    with pytest.raises(AttributeError, match="tf.contrib.cloud.BigQueryReader is not available"):
        cloud.BigQueryReader  # noqa: B018
