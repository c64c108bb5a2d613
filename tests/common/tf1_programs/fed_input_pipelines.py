"""TF 1.x input pipelines fed at run time: a seeded shuffle repeated a fed number of epochs (the count a
placeholder, as programs passing `num_epochs` through feed_dict did), made initializable and re-initialized,
`Dataset.from_generator`, a reinitializable iterator (`Iterator.from_structure`) and a feedable one
(`Iterator.from_string_handle`), as written for TF 1.x (runs on TF 1.15 and under uai-run).

Prints `RESULT {case: elements}`. TF 1.15 applied its static optimizations when the iterator was initialized,
the fed count then known: `shuffle().repeat(count)` was fused into one op drawing its first epoch from the seeds,
but a count of one dropped (noop_elimination: a plain shuffle's order), a constant one too. Its output on real TensorFlow 1.15 is
tests/common/golden/tf115_fed_input_pipelines.json (written by `python3 dev.py tf115`:
tests/common/golden/make_tf115_goldens.py).
"""

import json

import numpy as np
import tensorflow as tf


def drain(session, element):
    got = []
    try:
        while True:
            value = session.run(element)
            got.append([np.asarray(v).tolist() for v in value] if isinstance(value, tuple) else value.tolist())
    except tf.errors.OutOfRangeError:
        return got


def first_epoch(batches, size=6):
    """The first `size` elements of `batches` and how many there were (the later epochs' orders are TF 2's under
    uai-run: docs/traps.md)."""
    elements = [element for batch in batches for element in batch]
    return {"first epoch": elements[:size], "elements": len(elements)}


def generator():
    for i in range(7):
        yield np.full([2], i, np.float32), i % 3


if __name__ == "__main__":
    tf.set_random_seed(2)
    values = tf.placeholder(tf.float32, [None])
    epochs = tf.placeholder(tf.int64, [])
    shuffled = tf.data.Dataset.from_tensor_slices(values).shuffle(10, seed=4)
    fed_epochs = shuffled.repeat(epochs).batch(4).make_initializable_iterator()
    op_seeded = tf.data.Dataset.range(8).shuffle(8).repeat(epochs).make_initializable_iterator()
    fused = tf.data.experimental.shuffle_and_repeat(10, epochs, seed=4)
    fused_fed = tf.data.Dataset.from_tensor_slices(values).apply(fused).batch(4).make_initializable_iterator()
    # a constant count of one: TF 1.15's static optimizations dropped the repeat (noop_elimination) before fusing
    repeat_once = tf.data.Dataset.range(8).shuffle(8, seed=5).repeat(1).batch(8).make_one_shot_iterator()
    generated = tf.data.Dataset.from_generator(
        generator, (tf.float32, tf.int32), (tf.TensorShape([2]), tf.TensorShape([]))
    )
    generated = generated.map(lambda a, b: (a * 2.0, b)).batch(3).make_initializable_iterator()
    structure = tf.data.Iterator.from_structure(tf.float32, tf.TensorShape([None]))
    from_structure = structure.make_initializer(shuffled.batch(3))
    handle = tf.placeholder(tf.string, [])
    feedable = tf.data.Iterator.from_string_handle(handle, tf.int64, tf.TensorShape([]))
    training = tf.data.Dataset.range(3).repeat().make_one_shot_iterator()
    validation = tf.data.Dataset.range(10, 12).make_initializable_iterator()
    result = {}
    feed = {values: np.arange(6, dtype=np.float32)}
    with tf.Session() as session:
        for count in (2, 1, -1):
            session.run(fed_epochs.initializer, {**feed, epochs: count})
            batches = (
                drain(session, fed_epochs.get_next())
                if count >= 0
                else [session.run(fed_epochs.get_next()).tolist() for _ in range(4)]
            )
            result[f"shuffle repeat({count}) fed"] = first_epoch(batches)
        for count in (2, 1):
            session.run(fused_fed.initializer, {**feed, epochs: count})
            result[f"shuffle_and_repeat({count}) fed"] = first_epoch(drain(session, fused_fed.get_next()))
        result["shuffle repeat(1)"] = session.run(repeat_once.get_next()).tolist()
        session.run(op_seeded.initializer, {epochs: 1})
        result["op-seeded shuffle repeat(1) fed"] = drain(session, op_seeded.get_next())
        for run in ("first", "second"):
            session.run(generated.initializer)
            result[f"from_generator {run}"] = drain(session, generated.get_next())
        session.run(from_structure, feed)
        result["from_structure"] = drain(session, structure.get_next())
        training_handle, validation_handle = session.run([training.string_handle(), validation.string_handle()])
        session.run(validation.initializer)
        result["feedable"] = [int(session.run(feedable.get_next(), {handle: training_handle})) for _ in range(4)]
        result["feedable"].append(int(session.run(feedable.get_next(), {handle: validation_handle})))
    print("RESULT " + json.dumps(result, sort_keys=True))
