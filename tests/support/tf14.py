"""The TF 1.4 contrib.data program both tools are tested on (tests/common/test_uai_run_tf14.py runs it
unmodified under uai-run, tests/codemods/test_rule_tf1_calls.py after uai-migrate), and what it must print."""

import json
import textwrap

RECORDS = 7  # x = 0 .. 6, each once per epoch
EPOCHS = 2
SCALE = 10  # the parser's x * SCALE: the map ran

SCRIPT = textwrap.dedent(
    f"""
    import json
    import os

    import tensorflow as tf

    tf.app.flags.DEFINE_integer("batch_size", 4, "examples per batch")
    tf.app.flags.DEFINE_string("out", "/tmp", "where the records are written")
    FLAGS = tf.app.flags.FLAGS
    unparsed = FLAGS._parse_flags()
    settings = {{name: value for name, value in FLAGS.__flags.items() if name in ("batch_size", "out")}}

    path = os.path.join(FLAGS.out, "train.tfrecords")
    with tf.python_io.TFRecordWriter(path) as writer:
        for x in range({RECORDS}):
            feature = {{"x": tf.train.Feature(int64_list=tf.train.Int64List(value=[x]))}}
            writer.write(tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString())


    def parser(record):
        features = tf.parse_single_example(record, {{"x": tf.FixedLenFeature([], tf.int64)}})
        return features["x"] * {SCALE}


    def read(dataset):
        element = dataset.make_one_shot_iterator().get_next()
        found = []
        with tf.Session() as sess:
            while True:
                try:
                    found.append(sess.run(element).tolist())
                except tf.errors.OutOfRangeError:
                    return found


    # cifar10_estimator's TF 1.4 input_fn: repeat, then a parallel map with an output buffer
    dataset = tf.contrib.data.TFRecordDataset([path]).repeat({EPOCHS})
    dataset = dataset.map(parser, num_threads=FLAGS.batch_size, output_buffer_size=2 * FLAGS.batch_size)
    batches = read(dataset.apply(tf.contrib.data.batch_and_drop_remainder(FLAGS.batch_size)))

    lengths = tf.contrib.data.Dataset.range(1, {RECORDS} + 1).map(lambda n: tf.fill([n], n), num_threads=2)
    padded = read(lengths.apply(tf.contrib.data.padded_batch_and_drop_remainder(2, [None])))

    modes = [tf.contrib.learn.ModeKeys.TRAIN, tf.contrib.learn.ModeKeys.EVAL, tf.contrib.learn.ModeKeys.INFER]
    estimator_modes = [tf.estimator.ModeKeys.TRAIN, tf.estimator.ModeKeys.EVAL, tf.estimator.ModeKeys.PREDICT]
    print(json.dumps({{"unparsed": unparsed, "settings": settings, "batches": batches, "padded": padded,
                      "modes": modes, "estimator_modes": estimator_modes}}))
    """
)


def expected(out: str, batch_size: int) -> dict:
    """What TF 1.4 printed: whole batches only (drop_remainder), padded to each batch's longest row."""
    values = [x * SCALE for x in range(RECORDS)] * EPOCHS
    whole = len(values) - len(values) % batch_size
    rows = [[n] * n for n in range(1, RECORDS + 1)]
    rows = rows[: len(rows) - len(rows) % 2]
    pairs = [rows[i : i + 2] for i in range(0, len(rows), 2)]
    width = [max(map(len, pair)) for pair in pairs]
    return {
        "unparsed": ["--keep=1"],
        "settings": {"batch_size": batch_size, "out": out},
        "batches": [values[i : i + batch_size] for i in range(0, whole, batch_size)],
        "padded": [[row + [0] * (w - len(row)) for row in pair] for pair, w in zip(pairs, width, strict=True)],
    }


def arguments(out) -> list[str]:
    return [f"--out={out}", "--batch-size=3", "--keep=1"]


def printed(result) -> dict:
    """What the script read; its tf.contrib.learn.ModeKeys (TRAIN, EVAL, INFER) checked against the run's own
    tf.estimator.ModeKeys (TRAIN, EVAL, PREDICT), whose values TF 1's were."""
    assert result.returncode == 0, result.stderr[-3000:]
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert found.pop("modes") == found.pop("estimator_modes")
    return found
