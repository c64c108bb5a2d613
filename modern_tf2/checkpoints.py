"""Checkpoints that only the chief writes, and that a restarted job resumes from.

Under MultiWorkerMirrored every worker must take part in a save (reading synchronised
variables such as batch-norm statistics is a collective), but only the chief may write into
`output_dir`: the others write into a private temporary folder that is deleted right after
(TensorFlow's own recipe). `tf.train.CheckpointManager` writes the data files first and
then replaces the `checkpoint` index, so the index always names complete files, also when
the process is killed mid-save.
"""

import shutil
import tempfile

import tensorflow as tf


class ChiefCheckpoints:
    def __init__(self, checkpoint, output_dir, is_chief, max_to_keep=3):
        self.checkpoint = checkpoint
        self.output_dir = output_dir
        self.is_chief = is_chief
        self.max_to_keep = max_to_keep
        self.manager = tf.train.CheckpointManager(checkpoint, output_dir, max_to_keep) if is_chief else None

    def restore(self):
        """Restore the latest checkpoint of `output_dir` (every task reads the chief's); return its path or None."""
        path = tf.train.latest_checkpoint(self.output_dir)
        if path:
            self.checkpoint.restore(path)
        return path

    def save(self, step):
        if self.is_chief:
            return self.manager.save(checkpoint_number=step)
        scratch = tempfile.mkdtemp(prefix="worker-checkpoint-")
        try:
            tf.train.CheckpointManager(self.checkpoint, scratch, 1).save(checkpoint_number=step)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return None
