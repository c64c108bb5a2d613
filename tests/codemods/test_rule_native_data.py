"""native-data: in eager code, TF1's dataset classes -> tf.data and make_one_shot_iterator() -> iter(), the whole
file or none of it (an info entry saying why); and the ported program reads the same elements as the safe port.
"""

from codemods.rules.native_data import NativeDataRule
from codemods.rules.tf1_api import Tf1ApiRule
from tests.support.native_ports import ports
from tests.support.rule_test import RuleTest, apply

PREFIX = "TF1 datasets left at the safe level: "


class TestNativeDataRule(RuleTest):
    TRANSFORM = NativeDataRule

    def refused(self, source: str) -> list[str]:
        """The entries of the safe pass (tf1-api) and this rule, for a source this rule must leave at the safe level."""
        safe = apply(self.make_fixture_data(source), Tf1ApiRule).module.code
        native = apply(self.make_fixture_data(source), Tf1ApiRule, NativeDataRule, level="native")
        assert native.module.code == safe
        return [e.message.removeprefix(PREFIX) for e in native.entries if e.rule == NativeDataRule.ID]

    def test_the_safe_passs_tf1_datasets_and_one_shot_iterators(self):
        before = """
            import tensorflow as tf

            def main():
                dataset = tf.compat.v1.data.TFRecordDataset(["a.tfrecord"]).batch(2)
                iterator = dataset.make_one_shot_iterator()
                first = iterator.get_next()
                for x in tf.compat.v1.data.Dataset.range(2).make_one_shot_iterator():
                    print(x, first)
                return tf.compat.v1.data.make_one_shot_iterator(dataset)

            if __name__ == "__main__":
                main()
        """
        after = """
            import tensorflow as tf

            def main():
                dataset = tf.data.TFRecordDataset(["a.tfrecord"]).batch(2)
                iterator = iter(dataset)
                first = iterator.get_next()
                for x in tf.data.Dataset.range(2):
                    print(x, first)
                return iter(dataset)

            if __name__ == "__main__":
                main()
        """
        self.assertCodemod(before, after, level="native")
        [entry] = self.applied(before, level="native").entries
        assert (
            entry.message
            == "eager code: 2 TF1 dataset class references -> tf.data; 3 make_one_shot_iterator() -> iter()"
        )

    def test_with_the_safe_pass_its_entries_for_the_classes_go(self):
        source = (
            "import tensorflow as tf\n\nfor x in tf.data.Dataset.range(2).make_one_shot_iterator():\n    print(x)\n"
        )
        applied = apply(source, Tf1ApiRule, NativeDataRule, level="native")
        assert applied.module.code == source.replace(".make_one_shot_iterator()", "")
        assert [e.rule for e in applied.entries] == [NativeDataRule.ID]

    def test_must_not_fire_on_tf1_only_members_graph_mode_or_a_library(self):
        member = """
            import tensorflow as tf

            dataset = tf.data.Dataset.range(4).batch(2)
            print(dataset.output_shapes, dataset.make_one_shot_iterator().get_next())
        """
        assert self.refused(member) == ["the file uses .output_shapes, a member only TF1's datasets and iterators have"]
        initializable = """
            import tensorflow as tf

            iterator = tf.data.Dataset.range(4).make_initializable_iterator()
        """
        assert self.refused(initializable)[0].startswith("the file uses .make_initializable_iterator")
        graph = """
            import tensorflow as tf

            x = tf.data.Dataset.range(4).make_one_shot_iterator().get_next()
            with tf.Session() as sess:
                print(sess.run(x))
        """
        assert self.refused(graph) == ["the file has graph-mode code (tf.Session): its TensorFlow code runs in a graph"]
        estimator = """
            import tensorflow as tf

            def input_fn(params):
                return tf.data.TFRecordDataset("train.tfrecord").make_one_shot_iterator().get_next()

            if __name__ == "__main__":
                print(tf.estimator.ModeKeys.TRAIN, input_fn)  # (an Estimator's input_fn runs in its graph)
        """
        assert self.refused(estimator)[0].startswith("the file has graph-mode code (tf.estimator)")
        imported = estimator.replace("tf.estimator.ModeKeys.TRAIN", "tpu").replace(
            "import tensorflow as tf\n", "import tensorflow as tf\n            from tensorflow.contrib import tpu\n"
        )
        assert self.refused(imported)[0].startswith("the file has graph-mode code (tf.contrib.tpu)")
        library = """
            import tensorflow as tf

            def batches(files):
                return tf.data.TFRecordDataset(files).make_one_shot_iterator()
        """
        assert self.refused(library)[0].startswith("a library module")

    def test_must_not_fire_on_a_shadowed_tf_strings_comments_or_the_safe_level(self):
        other = """
            import tensorflow as tf

            def main(tf):
                # dataset.make_one_shot_iterator()
                print(tf.compat.v1.data.Dataset, "x.make_one_shot_iterator()")

            if __name__ == "__main__":
                main(None)
        """
        assert self.refused(other) == []
        eager = "import tensorflow as tf\n\nfor x in tf.compat.v1.data.Dataset.range(2).make_one_shot_iterator():\n    print(x)\n"
        self.assertCodemod(eager, eager)  # (the safe level: the rule is native only)


PROGRAM = """
    import numpy as np
    import tensorflow as tf

    tf.enable_eager_execution()
    features = np.arange(24, dtype=np.float32).reshape(12, 2)
    dataset = tf.data.Dataset.from_tensor_slices(features).shuffle(12, seed=3).map(lambda x: x * 2).batch(5)
    iterator = dataset.make_one_shot_iterator()
    print(iterator.get_next().numpy().tolist())
    for batch in dataset.make_one_shot_iterator():
        print(batch.numpy().sum())
    iterator = tf.compat.v1.data.make_one_shot_iterator(dataset.repeat(2))
    print([float(tf.reduce_sum(next(iterator))) for _ in range(5)])
    try:
        while True:
            iterator.get_next()
    except tf.errors.OutOfRangeError:
        print("end of data")
"""


def test_the_native_port_reads_the_same_elements_as_the_safe_port(tmp_path):
    ported = ports(tmp_path, "eager_data.py", PROGRAM)
    assert "compat.v1.data" in ported["safe"].code and "one_shot" in ported["safe"].code
    assert "compat.v1.data" not in ported["native"].code and "one_shot" not in ported["native"].code
    assert "end of data" in ported["safe"].stdout and ported["native"].stdout == ported["safe"].stdout
