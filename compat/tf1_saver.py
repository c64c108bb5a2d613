"""The checkpoints of a TF1 training loop's directory, written by its TF 2 port (uai-migrate's native-estimator-loop,
and native-session's MonitoredTrainingSession and tf-slim learning.train loops) and kept as the loop's Saver kept them;
and a Session script's `saver.save(sess, path, global_step)` in its port (`save`).

`CheckpointManager` stands for `tf.train.CheckpointManager` in the port (`latest_checkpoint`, `save`), and
differs from it where the TF1 loops did (measured on TF 2.15's Estimator, and on TF 1.15's and 2.15's
MonitoredTrainingSession and learning.train, whose restarts into one directory kept the same files and state):

- The Saver, restored from model_dir, took over the checkpoints its state file lists (those whose files exist), TF1
  ones included, and deleted the oldest past its max_to_keep (the Estimator's keep_checkpoint_max, the other loops'
  5) as it saved: one per save, its .meta with it. tf.train.CheckpointManager deletes none it did not write (a TF1
  Saver's state holds no timestamps it reads as its own), and all past max_to_keep at once.
- The Estimator and MonitoredTrainingSession saved when their session started, a restart too (learning.train's saver
  thread too, racing the first step): there the port records the restored checkpoint as saved again
  (`save_at_start`) rather than writing its state over TF1's files.
- TensorFlow >= 2.16's saver logs through absl, whose first call gives Python's root logger a handler
  (`logging.basicConfig`) where none was; TensorFlow's logger, which has a handler of its own and propagates,
  then printed each later line twice (the port's `loss = ..., step = ...`, TensorFlow's warnings). TF1's Savers did
  not log, so a save here leaves the root logger as it was, and warns of none of the TF1 functions it calls.

The port's own checkpoints are object-based (`tf.train.Checkpoint.write`); the state file lists them as the Saver's
did, without timestamps: relative to the folder (the Estimator's Saver, save_relative_paths=True), or as the
paths the Saver wrote (`relative_paths=False`: MonitoredTrainingSession's scaffold and learning.train's `Saver()`,
which listed an absolute folder's by their absolute paths). keep_checkpoint_every_n_hours is not kept (the loops'
default, 10000 hours, preserves none in practice).
"""

from __future__ import annotations

import contextlib
import logging
import os
import weakref
from collections.abc import Iterator

import tensorflow as tf
from tensorflow.python.util import deprecation


class CheckpointManager:
    """`checkpoint` saved as `<directory>/<checkpoint_name>-<step>`, at most `max_to_keep` kept (None: all), listed
    relative to `directory` or, where not `relative_paths`, as their paths (the Saver's save_relative_paths)."""

    def __init__(
        self,
        checkpoint: tf.train.Checkpoint,
        directory: str,
        max_to_keep: int | None,
        checkpoint_name: str,
        relative_paths: bool = True,
    ) -> None:
        self._checkpoint, self._directory = checkpoint, directory
        self._max_to_keep, self._name, self._relative = max_to_keep, checkpoint_name, relative_paths
        state = tf.train.get_checkpoint_state(directory)
        self.latest_checkpoint: str | None = None
        self._kept: list[str] = []  # (oldest first, as the Saver's last checkpoints)
        if state is not None and state.model_checkpoint_path:
            self.latest_checkpoint = state.model_checkpoint_path
            # (as Saver.recover_last_checkpoints after the restore: the listed ones whose files are there)
            self._kept = [p for p in state.all_model_checkpoint_paths if tf.io.gfile.exists(p + ".index")]

    def save_at_start(self, checkpoint_number: int | tf.Variable) -> str:
        """The Estimator's save as its session started: where `checkpoint_number` is the restored checkpoint's, the
        Saver rewrote it with the values it holds, which the port records without writing them again."""
        path = os.path.join(self._directory, f"{self._name}-{int(checkpoint_number)}")
        if self.latest_checkpoint is None or os.path.abspath(path) != os.path.abspath(self.latest_checkpoint):
            return self.save(checkpoint_number)
        self._record(self.latest_checkpoint)
        return self.latest_checkpoint

    def save(self, checkpoint_number: int | tf.Variable) -> str:
        prefix = os.path.join(self._directory, f"{self._name}-{int(checkpoint_number)}")
        with _root_logger_kept():
            path = self._checkpoint.write(prefix)
        self._record(path)
        return path

    def _record(self, path: str) -> None:
        """Saver.save's bookkeeping: the path last in the list, the state file, then the oldest past max_to_keep
        deleted (one)."""
        deleted = None
        if self._max_to_keep:
            self._kept = [p for p in self._kept if os.path.abspath(p) != os.path.abspath(path)] + [path]
            if len(self._kept) > self._max_to_keep:
                deleted = self._kept.pop(0)
        self.latest_checkpoint = path
        kept = [self._state_name(p) for p in self._kept]
        # (the Saver's own calls: the port warns of no TF1 function its program does not call)
        with deprecation.silence():
            tf.compat.v1.train.update_checkpoint_state(self._directory, self._state_name(path), kept)
            if deleted is not None:
                tf.compat.v1.train.remove_checkpoint(deleted)

    def _state_name(self, path: str) -> str:
        """`path` as update_checkpoint_state takes it to list it as the Saver did: as written where the Saver's paths
        were not relative; else relative to an absolute model_dir, and under a relative (or gs://) one, which it
        rewrites its paths relative to, as the Saver's."""
        if not self._relative:
            return path
        name = os.path.relpath(path, self._directory)
        return name if os.path.isabs(self._directory) else os.path.join(self._directory, name)


class _ScriptSaver:
    """A Session script's `tf.train.Saver()` (5 kept, save_relative_paths False) saving its variables, which
    `checkpoint` holds in the port: its list of the checkpoints it saved starts empty, as a new TF1 Saver's did (only
    the session managers recovered the folder's), so the checkpoints of an earlier run stay on disk, unlisted."""

    MAX_TO_KEEP = 5

    def __init__(self, checkpoint: tf.train.Checkpoint) -> None:
        self._checkpoint = checkpoint
        self._kept: list[str] = []  # (oldest first: the Saver's last checkpoints)

    def save(self, save_path: str, global_step: int | tf.Variable | None) -> str:
        path = save_path if global_step is None else f"{save_path}-{int(global_step)}"
        with _root_logger_kept():
            written = self._checkpoint.write(path)
        # Saver._RecordLastCheckpoint: the path last in the list (once), the oldest past max_to_keep to be deleted
        self._kept = [kept for kept in self._kept if kept != written] + [written]
        deleted = self._kept.pop(0) if len(self._kept) > self.MAX_TO_KEEP else None
        with deprecation.silence():  # (the state file without timestamps, as the Saver's)
            # (a copy: under a relative folder, update_checkpoint_state rewrites the list's paths in place)
            tf.compat.v1.train.update_checkpoint_state(os.path.dirname(save_path), written, list(self._kept))
            if deleted is not None:
                tf.compat.v1.train.remove_checkpoint(deleted)
        return written


_SCRIPT_SAVERS: weakref.WeakKeyDictionary[tf.train.Checkpoint, _ScriptSaver] = weakref.WeakKeyDictionary()


def save(checkpoint: tf.train.Checkpoint, save_path: str, global_step: int | tf.Variable | None = None) -> str:
    """A Session script's `saver.save(sess, save_path, global_step)` in its port, `checkpoint` standing for the
    `tf.train.Saver()`: written at save_path (save_path-<global_step>) as an object-based checkpoint, the state file
    in its folder updated as the Saver updated it (the checkpoints this saver saved, the 5 last, their paths as given),
    so tf.train.latest_checkpoint finds it, and the oldest past 5 deleted; the path returned. No .meta is written."""
    saver = _SCRIPT_SAVERS.get(checkpoint)
    if saver is None:
        saver = _SCRIPT_SAVERS[checkpoint] = _ScriptSaver(checkpoint)
    return saver.save(save_path, global_step)


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
