"""One progress line every N steps (loss, accuracy, rate, steps/s, images/s) and the same values in TensorBoard."""

import time

import tensorflow as tf


class Progress:
    def __init__(self, log_dir, global_batch, total_steps, write=True, echo=print):
        self.global_batch = global_batch
        self.total_steps = total_steps
        self.writer = tf.summary.create_file_writer(log_dir) if write else tf.summary.create_noop_writer()
        self.echo = echo if write else None
        self._last_step = None
        self._last_time = None

    def start(self, step):
        self._last_step, self._last_time = step, time.perf_counter()

    def leave_out(self, seconds):
        """Keep `seconds` the loop spent paused (e.g. by Settings.after_report) out of the next rate."""
        self._last_time += seconds

    def report(self, step, values):
        """Print and record `values` ({name: float}) at `step`, with the rates since the last report."""
        now = time.perf_counter()
        steps = step - self._last_step
        seconds = max(now - self._last_time, 1e-9)
        values = dict(values, steps_per_sec=steps / seconds, images_per_sec=steps * self.global_batch / seconds)
        self._last_step, self._last_time = step, now
        with self.writer.as_default(step=step):
            for name, value in values.items():
                tf.summary.scalar(name, value)
        self.writer.flush()
        if self.echo is not None:
            fields = " ".join(f"{name} {value:.4g}" for name, value in values.items())
            self.echo(f"step {step}/{self.total_steps} {fields}", flush=True)
        return values
