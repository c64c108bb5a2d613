"""tf1-calls: TF 1.x call signatures TF 2 rejects (compat/tf1_names.py's CALL_KEYWORDS, TRANSFORMATIONS) -> TF 2's calls."""

import sys

from codemods.rules.tf1_calls import Tf1CallsRule
from codemods.rules.upgrade import UpgradeRule
from tests.support import runs as _runs
from tests.support import tf14
from tests.support.rule_test import RuleTest, apply


class TestTf1CallsRule(RuleTest):
    TRANSFORM = Tf1CallsRule

    def test_tf_1_4_map_keywords_become_parallel_calls_and_prefetch(self):
        before = """
            import tensorflow as tf

            dataset = tf.contrib.data.TFRecordDataset(filenames).repeat()
            dataset = dataset.map(parser, num_threads=batch_size, output_buffer_size=2 * batch_size)
            images = dataset.map(decode, output_buffer_size=8)
            labels = dataset.map(
                decode,
                num_threads=4,
            )
        """
        after = """
            import tensorflow as tf

            dataset = tf.contrib.data.TFRecordDataset(filenames).repeat()
            dataset = dataset.map(parser, num_parallel_calls=batch_size).prefetch(2 * batch_size)
            images = dataset.map(decode).prefetch(8)
            labels = dataset.map(
                decode,
                num_parallel_calls=4,
            )
        """
        self.assertCodemod(before, after)

    def test_none_is_tf1s_default_and_is_dropped(self):
        before = """
            import tensorflow as tf
            d = ds.map(f, num_threads=None, output_buffer_size=None)
        """
        after = """
            import tensorflow as tf
            d = ds.map(f)
        """
        self.assertCodemod(before, after)

    def test_batch_and_drop_remainder_applied_becomes_the_batch_method(self):
        before = """
            import tensorflow as tf
            from tensorflow.contrib.data import padded_batch_and_drop_remainder

            d = d.apply(tf.contrib.data.batch_and_drop_remainder(FLAGS.batch_size))
            p = d.apply(padded_batch_and_drop_remainder(2, [None], padding_values=-1))
        """
        after = """
            import tensorflow as tf

            d = d.batch(FLAGS.batch_size, drop_remainder=True)
            p = d.padded_batch(2, [None], padding_values=-1, drop_remainder=True)
        """
        self.assertCodemod(before, after)

    def test_a_transformation_not_applied_in_place_is_an_error_entry_and_stays(self):
        source = self.make_fixture_data(
            """
            import tensorflow as tf
            batching = tf.contrib.data.batch_and_drop_remainder(32)
            make = tf.contrib.data.padded_batch_and_drop_remainder
            d = d.apply(batching)
            """
        )
        applied = apply(source, Tf1CallsRule)
        assert applied.module.code == source
        batching, make = (i for i, line in enumerate(source.splitlines(), 1) if "_drop_remainder" in line)
        errors = [(e.line, e.severity, e.manual) for e in applied.entries]
        assert errors == [
            (
                batching,
                "error",
                "write dataset.batch(<its arguments>, drop_remainder=True) where the dataset is transformed",
            ),
            (
                make,
                "error",
                "write dataset.padded_batch(<its arguments>, drop_remainder=True) where the dataset is transformed",
            ),
        ]

    def test_both_keywords_of_one_argument_are_an_error_entry(self):
        source = "import tensorflow as tf\nd = ds.map(f, num_threads=4, num_parallel_calls=2)\n"
        applied = apply(source, Tf1CallsRule)
        assert applied.module.code == source
        assert [(e.severity, e.manual) for e in applied.entries] == [
            ("error", "keep one of them as num_parallel_calls= (TF 1.4 used num_threads=)")
        ]

    def test_with_tf_upgrade_the_whole_tf_1_4_pipeline_is_tf2(self):
        source = self.make_fixture_data(
            """
            import tensorflow as tf
            d = tf.contrib.data.TFRecordDataset(files).map(parse, num_threads=4, output_buffer_size=8)
            d = d.apply(tf.contrib.data.batch_and_drop_remainder(4))
            """
        )
        code = apply(source, Tf1CallsRule, UpgradeRule).module.code
        assert code == (
            "import tensorflow as tf\n"
            "d = tf.compat.v1.data.TFRecordDataset(files).map(parse, num_parallel_calls=4).prefetch(8)\n"
            "d = d.batch(4, drop_remainder=True)\n"
        )

    def test_must_not_fire(self):
        # no TensorFlow in the module: another library's map may take these keywords
        self.assertCodemod(
            "import pool\nresult = pool.map(f, items, num_threads=4)\n",
            "import pool\nresult = pool.map(f, items, num_threads=4)\n",
        )
        unchanged = """
            import tensorflow as tf
            d = ds.map(f, num_parallel_calls=4)  # num_threads=4 in a comment
            s = "ds.map(f, num_threads=4)"
            e = executor.submit(f, num_threads=4)
            def batch_and_drop_remainder(n):
                return n
            b = d.apply(batch_and_drop_remainder(3))
            c = obj.batch_and_drop_remainder(3)
        """
        self.assertCodemod(unchanged, unchanged)
        assert apply(self.make_fixture_data(unchanged), Tf1CallsRule).entries == []


def test_the_tf_1_4_program_after_uai_migrate_out_runs_with_python_as_it_did_under_uai_run(tmp_path):
    """tests/common/test_uai_run_tf14.py's program, ported by the real CLI: nothing is left by hand and the
    port reads what TF 1.4 read."""
    source, out = tmp_path / "src", tmp_path / "out"
    source.mkdir()
    (source / "tf14_input.py").write_text(tf14.SCRIPT)
    migrated = _runs.migrate("--out", out, source, cwd=tmp_path)
    assert migrated.returncode == 0, migrated.stdout + migrated.stderr
    port = (out / "tf14_input.py").read_text()
    assert "num_threads" not in port and "_drop_remainder" not in port and "_parse_flags" not in port, port
    result = _runs.run([sys.executable, str(out / "tf14_input.py"), *tf14.arguments(tmp_path)], tmp_path)
    assert tf14.printed(result) == tf14.expected(str(tmp_path), 3)
