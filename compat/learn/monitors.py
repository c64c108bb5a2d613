"""`tf.contrib.learn.monitors`, as far as TF1-era programs still need it on TF 2: no monitor, only hooks.

TF 1.x deprecated its monitors (`ValidationMonitor`, `CaptureVariable`, ...) for `tf.train.SessionRunHook`s,
and the Estimator of TF 2 runs only hooks. Programs kept calling `replace_monitors_with_hooks` on their hook
lists before giving them to the Estimator (tensor2tensor's trainer does, with hooks only): it returns
the hooks as TF 1.x did. A monitor in the list cannot run on TF 2's Estimator; it raises
`ExperimentError`, naming the hook to write instead. The monitor classes themselves are not provided:
under uai-run, reading one stops the program in one line with that manual step.
"""

from collections.abc import Iterable
from typing import Any

import tensorflow as tf

from compat.errors import ExperimentError

__all__ = ["replace_monitors_with_hooks"]  # (read by migrating: no monitor class is here)

MANUAL = (
    "tf.contrib.learn's monitors do not run on TensorFlow 2's Estimator: write a tf.estimator.SessionRunHook "
    "(ValidationMonitor: tf.estimator.train_and_evaluate, or tf.estimator.experimental.InMemoryEvaluatorHook)"
)


def replace_monitors_with_hooks(monitors_or_hooks: Iterable[Any] | None, estimator: Any = None) -> list[Any]:
    """The hooks of `monitors_or_hooks`, in order (TF 1.x wrapped its monitors into one more hook)."""
    hooks = list(monitors_or_hooks or [])
    monitors = [item for item in hooks if not isinstance(item, tf.compat.v1.train.SessionRunHook)]
    if monitors:
        raise ExperimentError("monitors", f"{type(monitors[0]).__name__}: {MANUAL}")
    return hooks
