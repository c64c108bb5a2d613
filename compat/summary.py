"""`tf.contrib.summary`'s functions whose TF 2 namesakes (`tf.compat.v2.summary`, where uai-run finds the
rest of the module) take other arguments: uai-run's TF1 face serves these first.

contrib's writers wrote at the global step when no `step` was given (TF 2's raise without one), took a
`family` (a name scope around the summary's tag) and spelled TF 2's `data` as `tensor`; contrib's
recording switches took no condition (TF 2's `record_if` needs one). uai-migrate rewrites the same calls
(its tf-upgrade rule); the manual steps are in tf_upgrade_v2's warnings.
"""

import contextlib
from collections.abc import Iterator
from typing import Any

import tensorflow as tf

__all__ = [
    "all_summary_ops",
    "always_record_summaries",
    "audio",
    "generic",
    "histogram",
    "image",
    "initialize",
    "never_record_summaries",
    "record_summaries_every_n_global_steps",
    "scalar",
]


def _step(step: Any) -> Any:
    return tf.compat.v1.train.get_or_create_global_step() if step is None else step


@contextlib.contextmanager
def _family(family: str | None) -> Iterator[None]:
    if family:
        with tf.name_scope(family):
            yield
    else:
        yield


def always_record_summaries() -> Any:
    return tf.compat.v2.summary.record_if(True)


def never_record_summaries() -> Any:
    return tf.compat.v2.summary.record_if(False)


def record_summaries_every_n_global_steps(n: int, global_step: Any = None) -> Any:
    """Records when the step is a multiple of `n` (TF1 read the condition at each summary, as this does)."""
    step = _step(global_step)
    return tf.compat.v2.summary.record_if(lambda: tf.math.equal(step % n, 0))


def scalar(name: str, tensor: Any, family: str | None = None, step: Any = None) -> Any:
    with _family(family):
        return tf.compat.v2.summary.scalar(name, tensor, step=_step(step))


def histogram(name: str, tensor: Any, family: str | None = None, step: Any = None) -> Any:
    with _family(family):
        return tf.compat.v2.summary.histogram(name, tensor, step=_step(step))


def image(
    name: str, tensor: Any, bad_color: Any = None, max_images: int = 3, family: str | None = None, step: Any = None
) -> Any:
    """(`bad_color`, TF1's colour for non-finite pixels, has no TF 2 counterpart: such pixels are written as they are)"""
    with _family(family):
        return tf.compat.v2.summary.image(name, tensor, step=_step(step), max_outputs=max_images)


def audio(
    name: str, tensor: Any, sample_rate: Any, max_outputs: int, family: str | None = None, step: Any = None
) -> Any:
    with _family(family):
        return tf.compat.v2.summary.audio(name, tensor, sample_rate, step=_step(step), max_outputs=max_outputs)


def generic(name: str, tensor: Any, metadata: Any = None, family: str | None = None, step: Any = None) -> Any:
    with _family(family):
        return tf.compat.v2.summary.write(name, tensor, step=_step(step), metadata=metadata)


# TF 2's own functions of TF1's graph-mode summaries, under contrib's names
all_summary_ops = tf.compat.v1.summary.all_v2_summary_ops
initialize = tf.compat.v1.summary.initialize
