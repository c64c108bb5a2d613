"""Stable checkpoint names for `ResNet` variables, whichever runtime built the model.

A variable's stable name is `resnet/<layer path>/<weight>`, e.g. `resnet/stage1_block0/conv2/kernel`
or `resnet/logits/bias`. TensorFlow prefixes names differently by runtime (graph mode adds
the variable scope and model name: `resnet/resnet/conv0/kernel:0`; eager Keras may drop the
model name: `conv0/kernel:0`), so we keep what follows the last `resnet/` and drop `:0`.
Checkpoints written by either runtime are read through this mapping, so an Estimator
checkpoint restores into the TF2 model and a TF2 one (written with `save_by_name`) into
the Estimator model.
"""

import tensorflow as tf

from compat.errors import DataError

PREFIX = "resnet/"


def stable_name(name):
    name = name.split(":")[0]
    head, sep, tail = name.rpartition(PREFIX)
    return PREFIX + (tail if sep else name)


def name_map(variables):
    """{stable name: variable}; a clash (two variables, one name) is a bug in the model."""
    mapping = {}
    for variable in variables:
        key = stable_name(variable.name)
        if key in mapping:
            raise ValueError(f"two variables map to the stable name {key!r}")
        mapping[key] = variable
    return mapping


def _checkpoint_keys(path):
    reader = tf.train.load_checkpoint(path)
    keys = {}
    for key in reader.get_variable_to_shape_map():
        if "resnet/" in key or key.startswith(("conv0", "bn0", "stage", "final_bn", "logits")):
            keys.setdefault(stable_name(key), key)
    return reader, keys


def restore_by_name(variables, path):
    """Load `variables` from the checkpoint at `path` (file prefix or folder) by stable name.

    Eager: assigns now. Graph mode: returns the assign op to run (or to use as init op).
    Raises DataError naming the first variable the checkpoint lacks.
    """
    if tf.io.gfile.isdir(path):
        path = tf.train.latest_checkpoint(path) or path
    reader, keys = _checkpoint_keys(path)
    assigns = []
    for name, variable in sorted(name_map(variables).items()):
        if name not in keys:
            raise DataError(f"{path}: checkpoint has no variable for {name}")
        assigns.append(variable.assign(reader.get_tensor(keys[name])))
    return None if tf.executing_eagerly() else tf.group(*assigns)


def save_by_name(variables, path, session=None):
    """Write a name-based checkpoint with stable names (readable by `restore_by_name` and TF1 Savers)."""
    saver = tf.compat.v1.train.Saver(var_list=name_map(variables), write_version=tf.compat.v1.train.SaverDef.V2)
    return saver.save(session, path, write_meta_graph=False)
