"""tf1-calls: TF 1.x call signatures TF 2 rejects (compat/tf1_names.py's CALL_KEYWORDS, TRANSFORMATIONS) -> TF 2's calls."""

import sys

from codemods import rules
from codemods.rules.tf1_calls import Tf1CallsRule
from codemods.rules.upgrade import UpgradeRule
from compat import tf1_names
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

    def test_a_functions_renamed_keywords_become_tf2s(self):
        before = """
            import tensorflow as tf
            from tensorflow.contrib.lookup import index_table_from_tensor

            state = tf.random.experimental.create_rng_state(42, algorithm=1)
            v1_state = tf.compat.v1.random.experimental.create_rng_state(seed, algorithm=alg)
            tf.config.experimental.set_virtual_device_configuration(cpu, virtual_devices=[config] * 2)
            table = index_table_from_tensor(mapping=words, num_oov_buckets=1)
            names = tf.contrib.lookup.index_to_string_table_from_tensor(mapping=None, default_value="?")
        """
        after = """
            import tensorflow as tf
            from tensorflow.contrib.lookup import index_table_from_tensor

            state = tf.random.experimental.create_rng_state(42, alg=1)
            v1_state = tf.compat.v1.random.experimental.create_rng_state(seed, alg=alg)
            tf.config.experimental.set_virtual_device_configuration(cpu, logical_devices=[config] * 2)
            table = index_table_from_tensor(vocabulary_list=words, num_oov_buckets=1)
            names = tf.contrib.lookup.index_to_string_table_from_tensor(default_value="?")
        """
        self.assertCodemod(before, after)

    def test_contrib_mirrored_strategy_gets_the_devices_tf1_chose(self):
        before = """
            import tensorflow as tf

            one = tf.contrib.distribute.MirroredStrategy(num_gpus=FLAGS.num_gpus, cross_tower_ops=ops)
            two = tf.contrib.distribute.MirroredStrategy(None, 0, auto_shard_dataset=False)
            three = tf.contrib.distribute.MirroredStrategy(num_gpus_per_worker=2, auto_shard_dataset=None)
            four = tf.contrib.distribute.MirroredStrategy(["/gpu:0"])
        """
        after = """
            import compat.tf1_calls
            import tensorflow as tf

            one = tf.contrib.distribute.MirroredStrategy(devices=compat.tf1_calls.mirrored_devices(FLAGS.num_gpus), cross_device_ops=ops)
            two = tf.contrib.distribute.MirroredStrategy(devices=compat.tf1_calls.mirrored_devices(0))
            three = tf.contrib.distribute.MirroredStrategy(devices=compat.tf1_calls.mirrored_devices(2))
            four = tf.contrib.distribute.MirroredStrategy(devices=["/gpu:0"])
        """
        self.assertCodemod(before, after)

    def test_a_dropped_keyword_that_did_something_or_two_for_one_keyword_are_error_entries(self):
        source = self.make_fixture_data(
            """
            import tensorflow as tf
            a = tf.contrib.distribute.MirroredStrategy(num_gpus=2, auto_shard_dataset=True)
            b = tf.contrib.distribute.MirroredStrategy(num_gpus=2, num_gpus_per_worker=2)
            c = tf.contrib.distribute.MirroredStrategy(devices=d, num_gpus=2)
            d = tf.contrib.distribute.MirroredStrategy(*devices)
            """
        )
        applied = apply(source, Tf1CallsRule)
        assert applied.module.code == source
        assert [(e.line, e.severity, e.manual) for e in applied.entries] == [
            (
                2,
                "error",
                tf1_names.CALL_KEYWORDS["tensorflow.contrib.distribute.MirroredStrategy"]["auto_shard_dataset"].manual,
            ),
            (3, "error", "keep one of them as devices="),
            (4, "error", "keep one of them as devices="),
            (5, "error", "pass them by keyword, as TF 2's parameters are named"),
        ]

    def test_with_the_other_rules_the_calls_are_tf2s(self):
        source = self.make_fixture_data(
            """
            import tensorflow as tf
            s = tf.contrib.distribute.MirroredStrategy(num_gpus=0)
            t = tf.contrib.lookup.index_table_from_tensor(mapping=words)
            """
        )
        code = apply(source, *rules.RULES).module.code
        assert code == (
            "import compat.tf1_calls\n"
            "import tensorflow as tf\n"
            "import compat.contrib_lookup as compat_contrib_lookup\n"
            "\n"
            "s = tf.compat.v1.distribute.MirroredStrategy(devices=compat.tf1_calls.mirrored_devices(0))\n"
            "t = compat_contrib_lookup.index_table_from_tensor(vocabulary_list=words)\n"
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
        # a function of the table's name that is not TensorFlow's, a method of it, the keyword in a string
        unchanged = """
            import tensorflow as tf
            def create_rng_state(seed, algorithm):
                return seed
            s = create_rng_state(1, algorithm=2)
            t = rng.create_rng_state(1, algorithm=2)
            u = tf.random.experimental.create_rng_state(1, 2)  # algorithm= in a comment
            v = "tf.random.experimental.create_rng_state(1, algorithm=2)"
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
