"""`convert`: a TF1 ResNet checkpoint (Estimator or name-based) -> the `tf.train.Checkpoint` the TF2 program resumes from."""

from typing import Any

import tensorflow as tf

from compat.errors import DataError
from trainlib.models.names import RESNET, checkpoint_reader, read_tensor, restore_by_name
from trainlib.training.resnet_config import ResNetConfig

# Builds the variables; a global average pool before the logits makes every size take it.
_PROBE_SIZE = 32


def _num_classes(reader: Any) -> int | None:  # a tf.train.CheckpointReader (no stubs)
    """The classes of the checkpoint's ResNet logits, or None when it has none."""
    for key, shape in reader.get_variable_to_shape_map().items():
        if RESNET.key(key) == "resnet/logits/bias":
            return int(shape[0])
    return None


def convert_resnet(
    path: str, out: str, resnet_size: int, num_classes: int | None = None, resnet_version: int = 2
) -> str:
    """Write the ResNet of the checkpoint at `path` into `out` as modern_tf2 checkpoints it; return the new prefix.

    Every variable of a `resnet_size`/`resnet_version` net must be in the checkpoint with its
    shape, and every ResNet variable of the checkpoint in the net (DataError otherwise, naming
    it). `num_classes` defaults to the checkpoint's. The TF1 `global_step` becomes the
    optimizer's iteration count, so training resumes at that step (with fresh momentum: TF1's
    accumulator is not Keras' velocity).
    """
    prefix, reader = checkpoint_reader(path, "CKPT")
    if tf.io.gfile.exists(out) and not tf.io.gfile.isdir(out):
        raise DataError(f"--out {out!r} is a file; name a folder")
    if tf.train.latest_checkpoint(out):
        raise DataError(f"--out {out!r} already holds a checkpoint; convert into an empty folder")
    classes = num_classes or _num_classes(reader)
    if classes is None:
        raise DataError(f"CKPT {prefix!r}: no ResNet logits in the checkpoint (another model? `inspect` lists it)")
    config = ResNetConfig(resnet_size=resnet_size, num_classes=classes, resnet_version=resnet_version)
    model = config.build_model()
    model(tf.zeros([1, _PROBE_SIZE, _PROBE_SIZE, 3]), training=False)
    restore_by_name(model.variables, prefix, strict=True)
    step = int(read_tensor(reader, "global_step", prefix)) if reader.has_tensor("global_step") else 0
    # A schedule, not a fixed rate: the optimizer then checkpoints what the TF2 ResNet program's
    # does (its iterations and current rate), and restores there without leftovers. The program's
    # own schedule replaces this one.
    optimizer = tf.keras.optimizers.SGD(learning_rate=tf.keras.optimizers.schedules.ExponentialDecay(0.0, 1, 1.0))
    optimizer.iterations.assign(step)
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(model=model, optimizer=optimizer), out, max_to_keep=1)
    return manager.save(checkpoint_number=step)
