"""One progress line every N steps (loss, accuracy, rate, steps/s, images/s) and the same values in TensorBoard."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import cast

import tensorflow as tf

RATES = ("steps_per_sec", "images_per_sec")  # the values `report` adds to the ones it is given


class Progress:
    def __init__(
        self,
        log_dir: str,
        global_batch: int,
        total_steps: int,
        write: bool = True,
        echo: Callable[..., None] = print,
    ) -> None:
        self.global_batch = global_batch
        self.total_steps = total_steps
        self.writer = tf.summary.create_file_writer(log_dir) if write else tf.summary.create_noop_writer()
        self.echo = echo if write else None
        self._write = tf.function(self._write_scalars)
        # None until `start`, which comes before any `report`
        self._last_step: int = cast(int, None)
        self._last_time: float = cast(float, None)

    def start(self, step: int, fields: tuple[str, ...]) -> None:
        """Start the clock at `step`; `fields`: the names of the values each `report` will be given, in order.

        The summaries of those names are traced here, before the clock starts: traced at the first
        report, they would count in the second rate.
        """
        names = (*fields, *RATES)
        self._write.get_concrete_function(tf.TensorSpec([], tf.int64), names, tf.TensorSpec([len(names)], tf.float32))
        self._last_step, self._last_time = step, time.perf_counter()

    def leave_out(self, seconds: float) -> None:
        """Keep `seconds` the loop spent paused (e.g. by Settings.after_report) out of the next rate."""
        self._last_time += seconds

    def report(self, step: int, values: dict[str, float]) -> dict[str, float]:
        """Print and record `values` ({name: float}) at `step`, with the rates since the last report."""
        now = time.perf_counter()
        steps = step - self._last_step
        seconds = max(now - self._last_time, 1e-9)
        rates = (steps / seconds, steps * self.global_batch / seconds)
        values = {**values, **dict(zip(RATES, rates))}
        self._last_step, self._last_time = step, now
        # One traced call for all the scalars: eager, each `tf.summary.scalar` took ~0.35 ms of host CPU and
        # read its recording condition back from the device; traced, all six take ~0.7 ms (TF 2.21).
        self._write(tf.constant(step, tf.int64), tuple(values), tf.constant(list(values.values()), tf.float32))
        self.writer.flush()
        if self.echo is not None:
            fields = " ".join(f"{name} {value:.4g}" for name, value in values.items())
            self.echo(f"step {step}/{self.total_steps} {fields}", flush=True)
        return values

    def _write_scalars(self, step: tf.Tensor, names: tuple[str, ...], values: tf.Tensor) -> None:
        """`names` (a tuple of str, fixed per loop: traced once) and their float32 `values` at `step`."""
        with self.writer.as_default(step=step):
            for index, name in enumerate(names):
                tf.summary.scalar(name, values[index])
