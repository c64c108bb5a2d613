"""Reading the summaries a program wrote: its event files, as TensorBoard reads them."""

from pathlib import Path


def scalars(logdir: Path) -> list[tuple[int, str, float]]:
    """(step, tag, value) of every scalar summary written under `logdir`, file by file."""
    import tensorflow as tf

    return [
        (event.step, value.tag, float(tf.make_ndarray(value.tensor)))
        for path in sorted(logdir.iterdir())
        for event in tf.compat.v1.train.summary_iterator(str(path))
        for value in event.summary.value
    ]
