"""Checkpoints that only the chief writes, and that a restarted job resumes from.

Under MultiWorkerMirrored every worker must take part in a save (reading synchronised
variables such as batch-norm statistics is a collective), but only the chief may write into
`output_dir`: the others write into a private temporary folder that is deleted right after
(TensorFlow's own recipe). `tf.train.CheckpointManager` writes the data files first and
then replaces the `checkpoint` index, so the index always names complete files, also when
the process is killed mid-save.

`starting_from`: the model of a first run starts from another run's checkpoint (TF1 or TF2,
`--checkpoint_path`), matched by stable name (`trainlib.checkpoints`).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Sequence
from typing import cast

import tensorflow as tf

from trainlib import checkpoints
from trainlib.checkpoints import Naming


class ChiefCheckpoints:
    def __init__(self, checkpoint: tf.train.Checkpoint, output_dir: str, is_chief: bool, max_to_keep: int = 3) -> None:
        self.checkpoint = checkpoint
        self.output_dir = output_dir
        self.is_chief = is_chief
        self.max_to_keep = max_to_keep
        self.manager = tf.train.CheckpointManager(checkpoint, output_dir, max_to_keep) if is_chief else None

    def restore(self) -> str | None:
        """Restore the latest checkpoint of `output_dir` (every task reads the chief's); return its path or None."""
        path = tf.train.latest_checkpoint(self.output_dir)
        if path:
            self.checkpoint.restore(path)
        return path

    def save(self, step: int) -> str | None:
        if self.is_chief:
            manager = cast("tf.train.CheckpointManager", self.manager)  # (the chief's is set)
            return manager.save(checkpoint_number=step)
        scratch = tempfile.mkdtemp(prefix="worker-checkpoint-")
        try:
            tf.train.CheckpointManager(self.checkpoint, scratch, 1).save(checkpoint_number=step)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return None


def starting_from(
    build_model: Callable[[], tf.keras.Model],
    image_size: int,
    source: str | None,
    naming: Naming,
    exclude_scopes: Sequence[str] = (),
    ignore_missing: bool = False,
) -> Callable[[], tf.keras.Model]:
    """`build_model` whose first model starts from the checkpoint `source` (slim's `--checkpoint_path`).

    The loop builds its training model first, under the strategy's scope, and restores the
    latest checkpoint of `output_dir` over it; later builds (the export's plain copy, which
    gets the trained weights) are left alone. `source` None: `build_model` itself.
    """
    if source is None:
        return build_model
    pending = [source]

    def build() -> tf.keras.Model:
        model = build_model()
        if pending:
            model(tf.zeros([1, image_size, image_size, 3]), training=False)  # creates the variables
            count = checkpoints.initialize(model.variables, pending.pop(), naming, exclude_scopes, ignore_missing)
            excluded = f", not {','.join(exclude_scopes)}" if exclude_scopes else ""
            print(f"fine-tuning from {source}: {count} variables restored{excluded}", flush=True)
        return model

    return build
