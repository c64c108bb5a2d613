"""compat.summary: tf.contrib.summary's calls on TF 2 (what uai-run serves for them), checked by the events
a real writer leaves."""

import numpy as np

from tests.support.events import scalars
from tests.support.processes import run_script


def test_family_is_the_tag_prefix_and_every_n_steps_records_at_multiples_of_n(tmp_path):
    result = run_script(
        tmp_path,
        """
        import sys
        import tensorflow as tf
        from compat import summary

        writer = tf.summary.create_file_writer(sys.argv[1])
        step = tf.compat.v1.train.get_or_create_global_step()
        with writer.as_default(), summary.record_summaries_every_n_global_steps(2):
            for i in range(5):
                summary.scalar("loss", float(i), family="train")
                step.assign_add(1)
        with writer.as_default(), summary.never_record_summaries():
            summary.scalar("never", 1.0)
        """,
        args=[str(tmp_path / "logs")],
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert scalars(tmp_path / "logs") == [(s, "train/loss", float(np.float32(s))) for s in (0, 2, 4)]
