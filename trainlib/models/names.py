"""Stable checkpoint names for model variables, whichever runtime built the model.

A ResNet variable's stable name is `resnet/<layer path>/<weight>`, e.g.
`resnet/stage1_block0/conv2/kernel` or `resnet/logits/bias`. TensorFlow prefixes names
differently by runtime (graph mode adds the variable scope and model name:
`resnet/resnet/conv0/kernel:0`; eager Keras may drop the model name: `conv0/kernel:0`), so we
keep what follows the last `resnet/` and drop `:0` (`RESNET`).

A tf-slim net's variables keep their TF1 names in both runtimes (`LeNet/conv1/weights`: the
TF2 layer creates them with `track_tf1_style_variables`), so their stable name is the name
without `:0` (`SLIM`), and a slim zoo checkpoint's keys are already stable.

Checkpoints written by either runtime are read through this mapping, so an Estimator or
slim checkpoint restores into the TF2 model and a TF2 one (written with `save_by_name`) into
the Estimator model.
"""

from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

import tensorflow as tf

from compat.errors import DataError
from trainlib.data.paths import check_checkpoint

PREFIX = "resnet/"
OBJECT_GRAPH = "_CHECKPOINTABLE_OBJECT_GRAPH"  # the key a tf.train.Checkpoint writes, a TF1 Saver does not
# Keys of an eager ResNet saved by name without the model name (`conv0/kernel`).
_RESNET_LAYERS = ("conv0", "bn0", "stage", "final_bn", "logits")


def stable_name(name: str) -> str:
    """A ResNet variable's (or checkpoint key's) stable name."""
    name = name.split(":")[0]
    head, sep, tail = name.rpartition(PREFIX)
    return PREFIX + (tail if sep else name)


def op_name(name: str) -> str:
    """`LeNet/conv1/weights:0` -> `LeNet/conv1/weights`: a slim net's stable name."""
    return name.split(":")[0]


def _resnet_key(key: str) -> str | None:
    return stable_name(key) if PREFIX in key or key.startswith(_RESNET_LAYERS) else None


class Naming(NamedTuple):
    """How one model family's variables and checkpoint keys map to stable names."""

    variable: Callable[[str], str]  # variable.name -> stable name
    key: Callable[[str], str | None]  # checkpoint key -> stable name, None for a key not of the family


RESNET = Naming(stable_name, _resnet_key)
SLIM = Naming(op_name, op_name)


def in_scopes(name: str, scopes: Sequence[str]) -> bool:
    """True when `name` is one of `scopes` or inside one (`LeNet/fc4` covers `LeNet/fc4/weights`, not `LeNet/fc40`)."""
    return any(name == scope.rstrip("/") or name.startswith(scope.rstrip("/") + "/") for scope in scopes)


def name_map(variables: Iterable[Any], naming: Naming = RESNET) -> dict:
    """{stable name: variable}; a clash (two variables, one name) is a bug in the model."""
    mapping = {}
    for variable in variables:
        key = naming.variable(variable.name)
        if key in mapping:
            raise ValueError(f"two variables map to the stable name {key!r}")
        mapping[key] = variable
    return mapping


def checkpoint_file(path: str, field: str = "checkpoint") -> str:
    """The checkpoint prefix `path` names (a folder means its latest); DataError naming `field` when there is none."""
    if tf.io.gfile.isdir(path):
        # the folder's `checkpoint` file read here, not by latest_checkpoint, which logs an ERROR line
        # (twice: TensorFlow's logger and absl's) before returning None for a prefix that is gone
        state = tf.train.get_checkpoint_state(path)
        if state is None or not state.model_checkpoint_path:
            raise DataError(f"{field} {path!r}: no checkpoint in this folder")
        latest = state.model_checkpoint_path
        if not (tf.io.gfile.exists(latest + ".index") or tf.io.gfile.exists(latest)):
            raise DataError(f"{field} {path!r}: its `checkpoint` file names {latest}, which does not exist")
        return latest
    check_checkpoint(path, field)
    return path


def checkpoint_reader(path: str, field: str = "checkpoint") -> tuple:
    """(prefix, reader) of the checkpoint `path` names; DataError naming `field` when it cannot be read."""
    prefix = checkpoint_file(path, field)
    try:
        return prefix, tf.train.load_checkpoint(prefix)
    except (tf.errors.OpError, ValueError) as err:
        raise DataError(f"{field} {prefix!r} is not a readable checkpoint ({type(err).__name__})") from None


def read_tensor(reader: Any, key: str, prefix: str) -> Any:
    """The value of `key` in the checkpoint; DataError when its data shard cannot give it (TensorFlow
    raises IndexError for a truncated shard, whose index still lists every variable)."""
    try:
        return reader.get_tensor(key)
    except (IndexError, tf.errors.OpError, ValueError) as err:
        raise DataError(
            f"{prefix}: the data of {key} cannot be read (a truncated or damaged data file?): {err}"
        ) from None


def _checkpoint_keys(reader: Any, naming: Naming) -> dict:
    keys: dict = {}
    for key in sorted(reader.get_variable_to_shape_map()):
        name = naming.key(key)
        if name is not None:
            keys.setdefault(name, key)
    return keys


def _below(name: str, names: Any) -> bool:
    """True when `name` is inside one of `names`: an optimizer slot (`<variable>/Momentum`)."""
    parts = name.split("/")
    return any("/".join(parts[:end]) in names for end in range(1, len(parts)))


def checkpoint_values(
    variables: Iterable[Any],
    path: str,
    naming: Naming = RESNET,
    exclude_scopes: Sequence[str] = (),
    ignore_missing: bool = False,
    strict: bool = False,
) -> list:
    """[(variable, value from the checkpoint at `path`)] matched by stable name.

    A variable whose stable name or checkpoint key is in `exclude_scopes` is left out. Raises
    DataError naming the variable when the checkpoint lacks one (unless `ignore_missing`) or
    holds it with another shape; with `strict`, also when the checkpoint holds a model variable
    the model lacks (a deeper net, another version), which would otherwise be dropped silently.
    """
    path, reader = checkpoint_reader(path)
    shapes = reader.get_variable_to_shape_map()
    keys = _checkpoint_keys(reader, naming)
    wanted = name_map(variables, naming)
    if wanted and not set(wanted) & set(keys):
        if OBJECT_GRAPH in shapes:
            raise DataError(f"{path}: a TF2 object-based checkpoint (its keys are object paths, not variable names)")
        raise DataError(f"{path}: no variable of this model in the checkpoint (another model? `inspect` lists it)")
    pairs = []
    for name, variable in sorted(wanted.items()):
        key = keys.get(name)
        if in_scopes(name, exclude_scopes) or (key is not None and in_scopes(key, exclude_scopes)):
            continue
        if key is None:
            if ignore_missing:
                continue
            raise DataError(f"{path}: checkpoint has no variable for {name}")
        if list(shapes[key]) != list(variable.shape):
            raise DataError(
                f"{path}: {key} has shape {list(shapes[key])} in the checkpoint, {list(variable.shape)} in the model "
                "(another model size or number of classes?)"
            )
        pairs.append((variable, read_tensor(reader, key, path)))
    if strict:
        extra = [name for name in keys if name not in wanted and not _below(name, wanted)]
        if extra:
            raise DataError(f"{path}: checkpoint variable {keys[extra[0]]} has no place in this model")
    return pairs


def restore_by_name(variables: Iterable[Any], path: str, naming: Naming = RESNET, **options: Any) -> Any:
    """Load `variables` from the checkpoint at `path` (file prefix or folder) by stable name.

    Eager: assigns now. Graph mode: returns the assign op to run (or to use as init op).
    `options`: `checkpoint_values`' (exclude_scopes, ignore_missing, strict).
    Raises DataError naming the first variable the checkpoint lacks.
    """
    pairs = checkpoint_values(variables, path, naming, **options)
    assigns = [variable.assign(value) for variable, value in pairs]
    return None if tf.executing_eagerly() else tf.group(*assigns)


def save_by_name(variables: Iterable[Any], path: str, session: Any = None) -> str:
    """Write a name-based checkpoint with stable names (readable by `restore_by_name` and TF1 Savers)."""
    saver = tf.compat.v1.train.Saver(var_list=name_map(variables), write_version=tf.compat.v1.train.SaverDef.V2)
    return saver.save(session, path, write_meta_graph=False)
