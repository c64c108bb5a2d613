"""The checkpoints of an Estimator program's model_dir, written by its TF 2 port (uai-migrate's native-estimator-loop)
as the Estimator's Saver wrote them.

`CheckpointManager` stands for `tf.train.CheckpointManager` in the port, and differs from it where the Estimator did:

- TensorFlow >= 2.16's saver logs through absl, whose first call gives Python's root logger a handler
  (`logging.basicConfig`) where none was; TensorFlow's logger, which has a handler of its own and propagates,
  then printed each later line twice (the port's `loss = ..., step = ...`). The Estimator's Saver did not log,
  so a save here leaves the root logger as it was.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

import tensorflow as tf


class CheckpointManager(tf.train.CheckpointManager):
    """tf.train.CheckpointManager whose save leaves Python's root logger without a handler where it had none."""

    def save(self, checkpoint_number: int | tf.Variable | None = None, **kwargs: object) -> str:  # type: ignore[override]
        with _root_logger_kept():
            return str(super().save(checkpoint_number=checkpoint_number, **kwargs))


@contextlib.contextmanager
def _root_logger_kept() -> Iterator[None]:
    """absl's logging calls basicConfig where the root logger has no handler: a handler that drops its records
    stands there meanwhile."""
    if logging.root.handlers:
        yield
        return
    placeholder = logging.NullHandler()
    logging.root.addHandler(placeholder)
    try:
        yield
    finally:
        logging.root.removeHandler(placeholder)
