"""Start a model from another run's checkpoint, as tf-slim's `--checkpoint_path` does."""

from collections.abc import Iterable, Sequence
from typing import Any

import tensorflow as tf

from trainlib.models.names import RESNET, Naming, checkpoint_file, checkpoint_values


def fine_tune_source(checkpoint_path: str | None, output_dir: str) -> str | None:
    """The checkpoint prefix to start from, or None: no `checkpoint_path`, or `output_dir` holds a checkpoint.

    A checkpoint of the run's own folder wins (a restarted job resumes instead of starting the
    fine-tuning over); a folder means its latest checkpoint; a missing one is a DataError.
    """
    if not checkpoint_path or tf.train.latest_checkpoint(output_dir):
        return None
    return checkpoint_file(checkpoint_path, "--checkpoint_path")


def initialize(
    variables: Iterable[Any],
    prefix: str,
    naming: Naming = RESNET,
    exclude_scopes: Sequence[str] = (),
    ignore_missing: bool = False,
) -> int:
    """Assign `variables` (created, eager) from the checkpoint `prefix` by stable name but those in
    `exclude_scopes`; return how many were assigned. DataError names a missing or misshapen variable."""
    pairs = checkpoint_values(variables, prefix, naming, exclude_scopes=exclude_scopes, ignore_missing=ignore_missing)
    for variable, value in pairs:
        variable.assign(value)
    return len(pairs)
