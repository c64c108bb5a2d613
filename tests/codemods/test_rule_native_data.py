"""native-data: in eager code, TF1's dataset classes -> tf.data and make_one_shot_iterator() -> iter(), the whole
file or none of it (an info entry saying why); and the ported program reads the same elements as the safe port.
"""

import pathlib
import re
import shutil
import subprocess
import sys

from codemods.rules.native_data import NativeDataRule
from codemods.rules.tf1_api import Tf1ApiRule
from tests.support.native_ports import migrated, ports
from tests.support.rule_test import RuleTest, apply
from tests.support.runs import clean_env

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


class TestEstimatorInputFunctions(RuleTest):
    """An Estimator's input_fn returning its one-shot iterator's element returns the dataset (the Estimator makes
    the iterator), where the function is only an Estimator's input: the whole file, or none of it."""

    TRANSFORM = NativeDataRule

    def refused(self, source: str) -> list[str]:
        """The reasons after the file's graph-mode code (an entry without one, whole)."""
        messages = TestNativeDataRule.refused(self, source)  # type: ignore[arg-type]
        return [
            m.split(GRAPH, 1)[1] if m.startswith("the file has graph-mode code (") and GRAPH in m else m
            for m in messages
        ]

    def test_an_estimators_input_fns_return_their_datasets(self):
        before = """
            import tensorflow as tf

            def train_input_fn(params):
                return tf.compat.v1.data.TFRecordDataset(params["files"]).map(parse).repeat().batch(8).make_one_shot_iterator().get_next()

            def eval_input_fn(mode, params):
                ds = tf.compat.v1.data.TFRecordDataset(params["files"]).map(parse)
                if mode == tf.estimator.ModeKeys.TRAIN:
                    ds = ds.shuffle(64).repeat()
                ds = ds.batch(params["batch_size"])
                return tf.compat.v1.data.make_one_shot_iterator(ds).get_next()

            def main():
                estimator = tf.estimator.Estimator(model_fn, params={"files": ["a"], "batch_size": 4})
                estimator.train(train_input_fn, max_steps=3)
                print(estimator.evaluate(input_fn=eval_input_fn, steps=1), estimator.get_variable_value("w"))
                tf.estimator.Estimator(model_fn).predict(lambda: eval_input_fn(tf.estimator.ModeKeys.PREDICT, {}))

            if __name__ == "__main__":
                main()
        """
        after = """
            import tensorflow as tf

            def train_input_fn(params):
                return tf.data.TFRecordDataset(params["files"]).map(parse).repeat().batch(8)

            def eval_input_fn(mode, params):
                ds = tf.data.TFRecordDataset(params["files"]).map(parse)
                if mode == tf.estimator.ModeKeys.TRAIN:
                    ds = ds.shuffle(64).repeat()
                ds = ds.batch(params["batch_size"])
                return ds

            def main():
                estimator = tf.estimator.Estimator(model_fn, params={"files": ["a"], "batch_size": 4})
                estimator.train(train_input_fn, max_steps=3)
                print(estimator.evaluate(input_fn=eval_input_fn, steps=1), estimator.get_variable_value("w"))
                tf.estimator.Estimator(model_fn).predict(lambda: eval_input_fn(tf.estimator.ModeKeys.PREDICT, {}))

            if __name__ == "__main__":
                main()
        """
        self.assertCodemod(before, after, level="native")
        messages = [e.message for e in self.applied(before, level="native").entries if e.rule == self.RULE.ID]
        assert messages == [
            "graph code: 2 TF1 dataset class references -> tf.data; an Estimator's input_fn returns its dataset, "
            "not its one-shot iterator's element (the Estimator makes the iterator): train_input_fn(), eval_input_fn()"
        ]

    def test_train_and_evaluates_specs_and_must_not_fire_where_the_input_fn_is_not_only_an_estimators_input(self):
        program = """
            import tensorflow as tf

            def input_fn():
                ds = tf.compat.v1.data.Dataset.range(8).batch(2)
                return ds.make_one_shot_iterator().get_next()

            def eval_input_fn():
                return tf.compat.v1.data.Dataset.range(4).batch(2).make_one_shot_iterator().get_next()

            if __name__ == "__main__":
                estimator = tf.estimator.Estimator(model_fn)
                estimator.train(input_fn, steps=3)
                train = tf.estimator.TrainSpec(input_fn, max_steps=3)
                tf.estimator.train_and_evaluate(estimator, train, tf.estimator.EvalSpec(input_fn=eval_input_fn, steps=1))
        """
        converted = program.replace("ds.make_one_shot_iterator().get_next()", "ds").replace("compat.v1.data", "data")
        self.assertCodemod(program, converted.replace(".make_one_shot_iterator().get_next()", ""), level="native")
        cases = [
            # its result read outside an Estimator
            ("estimator.train(input_fn, steps=3)", "features, labels = input_fn()"),
            # a TPUEstimator (per-host input, params['batch_size']): not an Estimator the rule knows
            ("tf.estimator.Estimator(model_fn)", "tf.compat.v1.estimator.tpu.TPUEstimator(model_fn)"),
            # the Estimator's name bound to something else too
            (
                "if __name__",
                "def other(estimator):\n                estimator.train(input_fn)\n\n            if __name__",
            ),
            ("estimator = tf.estimator.Estimator(model_fn)", "estimator, e = tf.estimator.Estimator(model_fn), None"),
            # a spec that is not train_and_evaluate's, or read besides it
            ("estimator.train(input_fn, steps=3)", "run(estimator, tf.estimator.TrainSpec(input_fn))"),
            ("max_steps=3)\n", "max_steps=3)\n                print(train.input_fn())\n"),
            # train_and_evaluate of an Estimator not proven one
            ("(estimator, train", "(make_estimator(), train"),
            # a method that is not one of the Estimator's taking an input_fn
            ("estimator.train(input_fn, steps=3)", "estimator.export_saved_model(input_fn, None)"),
        ]
        for old, new in cases:
            assert old in program and self.refused(program.replace(old, new)) == [USED], new

    def test_must_not_fire_where_the_returned_value_is_not_proven_a_dataset_or_the_shape_differs(self):
        head = "import tensorflow as tf\n\n"
        tail = '\n\nif __name__ == "__main__":\n    tf.estimator.Estimator(model_fn).train(input_fn, max_steps=3)\n'
        not_built = "input_fn() returns the element of `ds`, which is not proven a tf.data dataset it builds"
        other = "a one-shot iterator whose element is not what an Estimator's input_fn returns"
        cases = {
            # a parameter
            "def input_fn(ds):\n    return ds.make_one_shot_iterator().get_next()": not_built,
            # a helper's result
            "def input_fn():\n    ds = make()\n    return ds.make_one_shot_iterator().get_next()": not_built,
            # re-bound by a loop
            "def input_fn():\n    ds = tf.compat.v1.data.Dataset.range(4)\n    for ds in [ds]:\n        pass\n"
            "    return ds.make_one_shot_iterator().get_next()": not_built,
            # the element unpacked and returned again
            "def input_fn():\n    features, labels = tf.compat.v1.data.Dataset.range(4).make_one_shot_iterator().get_next()\n"
            "    return features, labels": other,
            # the element given a name
            "def input_fn():\n    return tf.compat.v1.data.Dataset.range(4).make_one_shot_iterator().get_next(name='x')": other,
            # two returns
            "def input_fn(mode):\n    if mode:\n        return None\n"
            "    return tf.compat.v1.data.Dataset.range(4).make_one_shot_iterator().get_next()": (
                "input_fn() has another return, a yield, decorators or is asynchronous"
            ),
            # a distribution strategy: the Estimator distributes a dataset, not a one-shot element
            "def input_fn():\n    return tf.compat.v1.data.Dataset.range(4).make_one_shot_iterator().get_next()\n\n"
            "config = tf.estimator.RunConfig(train_distribute=tf.distribute.MirroredStrategy())": (
                "the file names a distribution (distribute): the Estimator reads a distributed input otherwise"
            ),
        }
        saved = (
            "def input_fn():\n    return tf.compat.v1.data.Dataset.range(4).make_one_shot_iterator().get_next()\n\n"
            "hook = tf.data.experimental.CheckpointInputPipelineHook(None)"
        )
        cases[saved] = (
            "the file names CheckpointInputPipelineHook, which saves the state of the input's iterator (another one here)"
        )
        for body, why in cases.items():
            assert self.refused(head + body + tail) == [why], body
        member = head + "def input_fn():\n    ds = tf.compat.v1.data.Dataset.range(4)\n    print(ds.output_types)\n"
        member += (
            "    return ds.make_one_shot_iterator().get_next()" + tail
        )  # (the input_fn is proven: nothing converts)
        assert self.refused(member) == ["the file uses .output_types, a member only TF1's datasets and iterators have"]
        initializable = (
            head + "def input_fn():\n    return tf.compat.v1.data.Dataset.range(4).make_initializable_iterator()" + tail
        )
        assert self.refused(initializable)[0].startswith("the file uses .make_initializable_iterator")


GRAPH = "): its TensorFlow code runs in a graph, and "
USED = "input_fn() (a one-shot iterator's element) is read otherwise than as a tf.estimator.Estimator's input_fn"


# An Estimator program whose input_fns return their one-shot iterator's element (as TF 1.x programs wrote them): TFRecords
# parsed, shuffled without a seed of their own under the graph seed, batched; trained with params and mode, evaluated,
# then trained and evaluated again by train_and_evaluate's specs. argv: the model dir, the records file (written on the
# first run).
INPUT_FNS = """
    import os
    import sys

    import numpy as np
    import tensorflow as tf


    class Losses(tf.train.SessionRunHook):
        def before_run(self, run_context):
            return tf.train.SessionRunArgs(tf.get_default_graph().get_tensor_by_name("loss:0"))

        def after_run(self, run_context, run_values):
            print("loss %.9g" % run_values.results)


    def model_fn(features, labels, mode, params):
        logits = tf.layers.dense(features["x"], 3)
        loss = tf.identity(tf.losses.sparse_softmax_cross_entropy(labels, logits), name="loss")
        train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss, tf.train.get_or_create_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


    def parse(raw):
        f = tf.parse_single_example(raw, {"x": tf.FixedLenFeature([4], tf.float32), "y": tf.FixedLenFeature([], tf.int64)})
        return {"x": f["x"] * 2.0}, f["y"]


    def train_input_fn(mode, params):
        ds = tf.data.TFRecordDataset(params["files"]).map(parse)
        if mode == tf.estimator.ModeKeys.TRAIN:
            ds = ds.shuffle(24).repeat()
        ds = ds.batch(params["batch_size"])
        return ds.make_one_shot_iterator().get_next()


    def eval_input_fn():
        return tf.data.TFRecordDataset(sys.argv[2]).map(parse).batch(5).make_one_shot_iterator().get_next()


    if __name__ == "__main__":
        if not os.path.exists(sys.argv[2]):
            rng = np.random.RandomState(0)
            with tf.python_io.TFRecordWriter(sys.argv[2]) as writer:
                for i in range(24):
                    feature = {
                        "x": tf.train.Feature(float_list=tf.train.FloatList(value=rng.rand(4).tolist())),
                        "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[i % 3])),
                    }
                    writer.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())
        config = tf.estimator.RunConfig(model_dir=sys.argv[1], tf_random_seed=1)
        estimator = tf.estimator.Estimator(model_fn, config=config, params={"files": [sys.argv[2]], "batch_size": 4})
        estimator.train(train_input_fn, hooks=[Losses()], max_steps=6)
        print("eval %.9g" % estimator.evaluate(input_fn=eval_input_fn)["loss"])
        train = tf.estimator.TrainSpec(train_input_fn, max_steps=8, hooks=[Losses()])
        evaluated, _ = tf.estimator.train_and_evaluate(estimator, train, tf.estimator.EvalSpec(eval_input_fn, throttle_secs=0))
        print("eval %.9g" % evaluated["loss"])
"""


def test_an_estimator_program_whose_input_fns_return_their_datasets_trains_as_the_safe_port(tmp_path):
    """From the safe port's step-0 checkpoint the native port trains and evaluates to the same losses, bit-equal: the
    same batches in the same order. (From scratch the model's initial values differ: the Estimator's iterator ops,
    made before the model_fn, are others, so the op seeds the graph seed gives the model's initializers are others.)"""
    ported = {}
    for level, (path, report) in migrated(tmp_path, "estimator_input_fns.py", INPUT_FNS).items():
        ported[level] = pathlib.Path(path)
        entries = [
            e["message"] for f in report.get("files", []) for e in f.get("entries", []) if e["rule"] == "native-data"
        ]
        assert len(entries) == (level == "native") and (level == "safe" or entries[0].startswith("graph code: ")), (
            entries
        )
    assert ported["safe"].read_text().count("make_one_shot_iterator") == 2
    code = ported["native"].read_text()
    assert "make_one_shot_iterator" not in code and "compat.v1.data" not in code, code
    records = tmp_path / "train.tfrecord"
    safe = _train(ported["safe"], tmp_path / "safe_dir", records)
    start = tmp_path / "native_dir"  # the native port starts from the safe port's step-0 checkpoint
    start.mkdir()
    for found in (tmp_path / "safe_dir").glob("model.ckpt-0.*"):
        shutil.copy(found, start)
    (start / "checkpoint").write_text('model_checkpoint_path: "model.ckpt-0"\n')
    assert len([line for line in safe if line.startswith("loss ")]) == 8 and safe[-1].startswith("eval "), safe
    assert _train(ported["native"], start, records) == safe


def _train(path: pathlib.Path, model_dir: pathlib.Path, records: pathlib.Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, str(path), str(model_dir), str(records)],
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return re.findall(r"^(?:loss|eval) \S+$", done.stdout, re.M)
