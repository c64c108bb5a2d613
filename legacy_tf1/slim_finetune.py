"""Fine-tuning in train_image_classifier: what to restore from `--checkpoint_path`, what to train.

    init = restore_fn(checkpoint_path, "InceptionV3/Logits,InceptionV3/AuxLogits", train_dir)
    var_list = variables_to_train("InceptionV3/Logits")

A checkpoint already in `train_dir` wins over `--checkpoint_path` (a restarted job resumes
instead of starting the fine-tuning over), as in slim.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import tensorflow as tf

import compat.slim as slim
from trainlib.models.names import checkpoint_file, in_scopes
from trainlib.training.checkpoint_flags import scopes

v1 = tf.compat.v1


def restore_fn(
    checkpoint_path: str | None,
    exclude_scopes: str | None = None,
    train_dir: str | None = None,
    ignore_missing_vars: bool = False,
) -> Callable[[Any], None] | None:
    """`fn(session)` assigning the model variables outside `exclude_scopes` from the checkpoint, or None.

    None when there is no `checkpoint_path` or `train_dir` already has a checkpoint.
    """
    if not checkpoint_path:
        return None
    if train_dir and tf.train.latest_checkpoint(train_dir):
        v1.logging.info("Ignoring --checkpoint_path: %s already has a checkpoint", train_dir)
        return None
    path = checkpoint_file(checkpoint_path, "--checkpoint_path")
    exclusions = scopes(exclude_scopes)
    variables = [v for v in slim.get_model_variables() if not in_scopes(v.op.name, exclusions)]
    v1.logging.info("Fine-tuning from %s (%d variables restored)", path, len(variables))
    return slim.assign_from_checkpoint_fn(path, variables, ignore_missing_vars=ignore_missing_vars)


def variables_to_train(trainable_scopes: str | None = None) -> list[tf.Variable]:
    """Trainable variables under `trainable_scopes` (all of them when none are given)."""
    wanted = scopes(trainable_scopes)
    if not wanted:
        return v1.trainable_variables()
    return [v for v in v1.trainable_variables() if in_scopes(v.op.name, wanted)]
