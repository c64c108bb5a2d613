"""native-session's queue-runner input (codemods/rules/_native_queues.py): string_input_producer, a TFRecordReader's
read, the record's statements and shuffle_batch / batch -> a tf.data pipeline; the Coordinator and the queue runners
deleted. The rule runs alone in the fixture tests (their expressions are TF 2 already); the equivalence tests port
programs at both levels and run both (bench/native.py's method)."""

import os
import textwrap

from bench import native
from codemods.rules.native_session import NativeSessionRule
from tests.support.rule_test import RuleTest

# the queue part of a script: the record parsed, its label and the label doubled batched
QUEUE = """
    import os
    import tensorflow as tf

    def main(data_dir):
        files = tf.io.gfile.glob(os.path.join(data_dir, "train-*"))
        queue = tf.train.string_input_producer(files)
        _, raw = tf.TFRecordReader().read(queue)
        features = tf.io.parse_single_example(raw, {"label": tf.io.FixedLenFeature([], tf.int64)})
        label = features["label"]
        labels, doubled = tf.train.shuffle_batch([label, label * 2], batch_size=4, capacity=32, min_after_dequeue=8)
"""
RUN = """\
        with tf.Session() as sess:
            coord = tf.train.Coordinator()
            threads = tf.train.start_queue_runners(sess=sess, coord=coord)
            for step in range(3):
                print("batch", step, sess.run(labels))
            coord.request_stop()
            coord.join(threads)
"""


class TestQueueInput(RuleTest):
    TRANSFORM = NativeSessionRule

    def test_a_shuffled_queue_input_becomes_a_tf_data_pipeline_iterated_by_each_run(self):
        after = """
            import os
            import compat
            import tensorflow as tf

            def main(data_dir):
                files = tf.io.gfile.glob(os.path.join(data_dir, "train-*"))

                def parse_record(raw):
                    features = tf.io.parse_single_example(raw, {"label": tf.io.FixedLenFeature([], tf.int64)})
                    label = features["label"]
                    return label, label * 2

                dataset = tf.data.TFRecordDataset(tf.data.Dataset.from_tensor_slices(files).shuffle(len(files)).repeat())
                dataset = dataset.map(parse_record).shuffle(8).batch(4)
                iterator = iter(dataset)

                def model(labels, doubled):
                    return {"labels": labels}

                evaluate = tf.function(model, input_signature=[*dataset.element_spec])

                for step in range(3):
                    print("batch", step, evaluate(*iterator.get_next())["labels"].numpy())
        """
        self.assertCodemod(QUEUE + RUN, after, level="native")
        said = [e.message for e in self.applied(QUEUE + RUN, level="native").entries]
        assert any("queue-runner input -> a tf.data pipeline" in m and "another order" in m for m in said), said

    def test_an_ordered_queue_of_tf_train_batch_trains_with_the_step_taking_each_batch(self):
        before = """
            import tensorflow as tf
            queue = tf.train.string_input_producer(["a.tfrecord", "b.tfrecord"], shuffle=False)
            reader = tf.TFRecordReader()
            _, raw = reader.read(queue)
            parsed = tf.io.parse_single_example(raw, {"x": tf.io.FixedLenFeature([2], tf.float32)})
            x, y = tf.train.batch([parsed["x"], tf.reduce_sum(parsed["x"])], batch_size=2)
            w = tf.Variable(tf.zeros([2]))
            loss = tf.reduce_mean(tf.square(tf.reduce_sum(x * w, 1) - y))
            train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                coord = tf.train.Coordinator()
                threads = tf.train.start_queue_runners(sess, coord)
                for step in range(3):
                    _, value = sess.run([train_op, loss])
                coord.request_stop()
                coord.join(threads)
        """
        after = """
            import compat
            import tensorflow as tf

            def parse_record(raw):
                parsed = tf.io.parse_single_example(raw, {"x": tf.io.FixedLenFeature([2], tf.float32)})
                return parsed["x"], tf.reduce_sum(parsed["x"])

            dataset = tf.data.TFRecordDataset(tf.data.Dataset.from_tensor_slices(["a.tfrecord", "b.tfrecord"]).repeat())
            dataset = dataset.map(parse_record).batch(2)
            iterator = iter(dataset)

            w = tf.Variable(tf.zeros([2]), name="Variable")

            def model(x, y):
                loss = tf.reduce_mean(tf.square(tf.reduce_sum(x * w, 1) - y))
                return {"loss": loss}

            optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)

            @tf.function(input_signature=[*dataset.element_spec])
            def train_step(x, y):
                with tf.GradientTape() as tape:
                    outputs = model(x, y)
                variables = tape.watched_variables()
                optimizer.apply_gradients(zip(tape.gradient(outputs["loss"], variables), variables))
                return outputs["loss"]

            for step in range(3):
                value = train_step(*iterator.get_next()).numpy()
        """
        self.assertCodemod(before, after, level="native")
        said = " ".join(e.message for e in self.applied(before, level="native").entries)
        assert "the batches in the records' order" in said, said

    def test_must_not_fire_on_queue_input_it_cannot_prove(self):
        cases = {
            # (a change of the queue part, the reason)
            ("string_input_producer(files)", "string_input_producer(files, num_epochs=2)"): (
                "tf.train.string_input_producer(num_epochs=...): the rule converts the default epochs (no epoch counter)"
            ),
            ("_, raw = tf.TFRecordReader()", "key, raw = tf.TFRecordReader()"): None,  # (key unused: converts)
            ("[label, label * 2]", "[label, label * 2], enqueue_many=True"): (
                "tf.train.shuffle_batch(enqueue_many=...), which the rule does not convert"
            ),
            (
                "labels, doubled = tf.train.shuffle_batch([label, label * 2]",
                "labels = tf.train.shuffle_batch([label]",
            ): ("tf.train.shuffle_batch of other than a list of two or more tensors unpacked into names"),
            ('label = features["label"]', 'label = tf.random.shuffle(features["label"])'): (
                "tf.random.shuffle in a record's statement, which a pipeline traces: graph and eager op seeds differ"
            ),
            ("tf.TFRecordReader()", "tf.TFRecordReader(options=opts)"): "a tf.TFRecordReader with options",
        }
        for (old, new), why in cases.items():
            source = (QUEUE + RUN).replace(old, new, 1)
            with self.subTest(new=new):
                if why is None:
                    self.assertNotEqual(self.apply_native(source), textwrap.dedent(source))
                else:
                    self.assertEqual(self.refused(source), [why])
        runs = {
            RUN.replace("            threads = tf.train.start_queue_runners(sess=sess, coord=coord)\n", ""): (
                "a sess.run taking a batch with the queue runners not started (TF1 waits for the queue forever)"
            ),
            RUN + "            print(sess.run(labels))\n": (
                "a sess.run taking a batch with the queue runners stopped (TF1 waits for the queue forever)"
            ),
            RUN.replace("sess.run(labels)", "sess.run(labels), coord.should_stop()"): (
                "`coord` is used outside a sess.run call the rule reads"
            ),
            RUN + "            print(label)\n": "`label` is used outside a sess.run call the rule reads",
        }
        for run, why in runs.items():
            with self.subTest(run=run):
                self.assertEqual(self.refused(QUEUE + run), [why])
        after = QUEUE + "        total = label + 1\n" + RUN  # (the record read again after its batch: another record)
        self.assertEqual(self.refused(after), ["`label`, a record before batching, is read after the batch"])

    def apply_native(self, source: str) -> str:
        return self.applied(source, level="native").module.code


def _records(folder: str) -> None:
    """Two TFRecord files of 6 examples each: x (3 floats) and y, their sum."""
    import numpy as np
    import tensorflow as tf

    rng = np.random.RandomState(0)
    for part in range(2):
        with tf.io.TFRecordWriter(os.path.join(folder, f"part-{part}")) as writer:
            for _ in range(6):
                x = rng.rand(3).astype(np.float32)
                feature = {
                    "x": tf.train.Feature(float_list=tf.train.FloatList(value=x)),
                    "y": tf.train.Feature(float_list=tf.train.FloatList(value=[float(x.sum())])),
                }
                example = tf.train.Example(features=tf.train.Features(feature=feature))
                writer.write(example.SerializeToString())


# files in order, one reader, tf.train.batch with one thread: TF1's batches in the records' order, as tf.data's;
# 5 steps of 4 take 20 records of 12: across the files and into the second epoch
TRAINING = """
    import os

    import tensorflow as tf

    files = sorted(tf.gfile.Glob(os.path.join(os.environ["DATA"], "part-*")))
    queue = tf.train.string_input_producer(files, shuffle=False)
    _, raw = tf.TFRecordReader().read(queue)
    parsed = tf.parse_single_example(raw, {"x": tf.FixedLenFeature([3], tf.float32), "y": tf.FixedLenFeature([1], tf.float32)})
    x, y = tf.train.batch([parsed["x"], parsed["y"]], batch_size=4)
    w = tf.Variable(tf.zeros([3, 1]))
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
    train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        for step in range(5):
            _, value = sess.run([train_op, loss])
            print("step", step, value)
        coord.request_stop()
        coord.join(threads)
"""


def test_the_native_port_of_a_queue_input_trains_like_the_safe_port_on_the_same_batches(tmp_path, monkeypatch):
    # (shuffle_batch's port is run by bench/native.py on the corpus' session_queue_runners, its shuffles off in both)
    data = tmp_path / "data"
    data.mkdir()
    _records(str(data))
    monkeypatch.setenv("DATA", str(data))
    script = tmp_path / "queue_training.py"
    script.write_text(textwrap.dedent(TRAINING))
    ported = {
        level: native.migrate([str(script)], str(tmp_path / level), level, in_process=True)
        for level in ("safe", "native")
    }
    assert [os.path.basename(p) for p in native.converted(ported["native"])] == [script.name]
    files = {level: native.ported_file(str(tmp_path / level), script.name, script.name) for level in ported}
    with open(files["native"], encoding="utf-8") as handle:
        assert native.references(handle.read())[1] == 0  # no tf.* reference through tf.compat.v1
    folder = tmp_path / "runs"
    folder.mkdir()
    row = native.equivalence(script.name, files["safe"], files["native"], [], str(folder))
    assert row["equal"] and row["steps"] == 5 and row["max_diff"] == 0 and row["loaded"] == "1/1", row
