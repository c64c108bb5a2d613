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

    def test_graph_code_of_a_program_without_a_one_shot_iterator_an_estimators_input_fn(self):
        before = """
            import tensorflow as tf

            def input_fn(params):
                d = tf.compat.v1.data.TFRecordDataset("train.tfrecord").repeat()
                return d.apply(tf.data.experimental.map_and_batch(decode, batch_size=params["batch_size"]))

            if __name__ == "__main__":
                tf.estimator.Estimator(model_fn).train(input_fn, max_steps=3)
        """
        after = before.replace("tf.compat.v1.data.TFRecordDataset", "tf.data.TFRecordDataset")
        self.assertCodemod(before, after, level="native")
        messages = [e.message for e in self.applied(before, level="native").entries if e.rule == self.RULE.ID]
        assert messages == ["graph code: 1 TF1 dataset class references -> tf.data"]
        library = before.split("if __name__")[0]
        assert self.refused(library)[0].startswith("a library module")
        session = """
            import tensorflow as tf

            x = tf.compat.v1.data.make_one_shot_iterator(tf.compat.v1.data.Dataset.range(4)).get_next()
            with tf.compat.v1.Session() as sess:
                print(sess.run(x))
        """
        assert self.refused(session) == [
            "the file has graph-mode code (tf.compat.v1.Session): its TensorFlow code runs in a graph"
        ]

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


# an Estimator program whose input_fn returns a TF1 dataset, shuffled without a seed of its own under the graph
# seed (its op seed comes from the graph: the same ops in the same order draw the same order), batched; its model's
# initial weights draw from op seeds after the pipeline's ops too
ESTIMATOR = """
    import numpy as np
    import tensorflow as tf

    tf.logging.set_verbosity(tf.logging.ERROR)


    def model_fn(features, labels, mode):
        logits = tf.layers.dense(features, 1)
        loss = tf.reduce_mean(tf.square(logits - labels))
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss, tf.train.get_or_create_global_step())
        hook = tf.train.LoggingTensorHook({"loss": loss}, every_n_iter=1, formatter=lambda v: "loss %.9g" % v["loss"])
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op, training_hooks=[hook])


    def input_fn():
        rng = np.random.RandomState(0)
        x, y = rng.rand(16, 3).astype(np.float32), rng.rand(16, 1).astype(np.float32)
        return tf.data.Dataset.from_tensor_slices((x, y)).shuffle(16).repeat().batch(4)


    if __name__ == "__main__":
        import tempfile

        tf.logging.set_verbosity(tf.logging.INFO)
        config = tf.estimator.RunConfig(model_dir=tempfile.mkdtemp(), tf_random_seed=7)
        estimator = tf.estimator.Estimator(model_fn, config=config)
        estimator.train(input_fn, max_steps=4)
        print("weights", estimator.get_variable_value("dense/kernel").ravel().tolist())
"""


def test_an_estimator_program_reads_the_same_batches_in_the_native_port(tmp_path):
    ported = ports(tmp_path, "estimator_input.py", ESTIMATOR)
    assert "tf.compat.v1.data.Dataset" in ported["safe"].code
    assert (
        "tf.data.Dataset.from_tensor_slices" in ported["native"].code and "compat.v1.data" not in ported["native"].code
    )
    assert [e["message"] for e in ported["native"].entries if e["rule"] == "native-data"] == [
        "graph code: 1 TF1 dataset class references -> tf.data"
    ]
    assert ported["safe"].stdout.startswith("weights ") and ported["native"].stdout == ported["safe"].stdout
