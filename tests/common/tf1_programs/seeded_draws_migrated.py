"""Random draws of a seeded TF 1 program, as written for TF 1.x (runs on TF 1.15 and under uai-run).

Prints `RESULT {case: {name: values}}`. Each case builds its own graph, so a case that draws other
numbers does not shift the op count, and so the seeds, of the cases after it; the first case uses
the default graph, as most programs do. `python3 dev.py tf115` (tests/common/golden/make_tf115_goldens.py)
runs it on TF 1.15 to write tests/common/golden/tf115_random.json; tests/common/test_tf115_random.py runs
it under uai-run and compares.
"""

import json
import shutil
import tempfile
import compat

import numpy as np
import tensorflow as tf

import compat.slim as slim


def values(fetches):
    """Run the graph's initializers, then fetch each entry once: {name: nested list of floats}."""
    with tf.compat.v1.Session() as session:
        session.run(tf.compat.v1.global_variables_initializer())
        return {name: np.asarray(value).tolist() for name, value in session.run(fetches).items()}


def variables():
    return {v.op.name: v for v in tf.compat.v1.global_variables()}


def random_ops():
    tf.compat.v1.set_random_seed(0)
    fetches = {
        "random_normal": tf.random.normal([3]),
        "random_uniform": tf.random.uniform([2, 2]),
        "truncated_normal": tf.random.truncated_normal([4], stddev=0.5),
        "random_uniform_int": tf.random.uniform([4], maxval=100, dtype=tf.int32),
        "random_shuffle": tf.random.shuffle(tf.range(8)),
        "multinomial": tf.compat.v1.multinomial(tf.math.log([[0.1, 0.2, 0.7]]), 6),
        "random_gamma": tf.random.gamma([3], alpha=2.0),
        "op_seed": tf.random.normal([3], seed=7),
        "after_split": tf.split(tf.zeros([4, 2]), 2)[0][0] + tf.random.normal([2]),
        "uniform_tensor_range": tf.random.uniform([2], 0, tf.constant(5.0)),
    }
    return values(fetches)


def get_variable():
    tf.compat.v1.set_random_seed(1)
    tf.compat.v1.get_variable("default_init", [3, 4])
    tf.compat.v1.get_variable("normal", [2, 3], initializer=tf.compat.v1.random_normal_initializer())
    tf.compat.v1.get_variable("truncated", [2, 3], initializer=tf.compat.v1.truncated_normal_initializer(stddev=0.1))
    tf.compat.v1.get_variable("xavier", [3, 2], initializer=slim.xavier_initializer())
    tf.compat.v1.get_variable("variance_scaling", [3, 2], initializer=tf.compat.v1.variance_scaling_initializer())
    with tf.compat.v1.variable_scope("scoped", initializer=tf.compat.v1.random_uniform_initializer(-1.0, 1.0)):
        tf.compat.v1.get_variable("inherits", [2, 2])
    tf.compat.v1.Variable(tf.random.normal([2, 2]), name="variable")
    return values(variables())


def layers():
    tf.compat.v1.set_random_seed(2)
    images = tf.compat.v1.placeholder(tf.float32, [None, 4, 4, 1])
    net = tf.compat.v1.layers.conv2d(images, 2, 3)
    net = tf.compat.v1.layers.dense(tf.compat.v1.layers.flatten(net), 3)
    tf.compat.v1.layers.dense(net, 2, kernel_initializer=tf.compat.v1.truncated_normal_initializer(stddev=0.1))
    tf.compat.v1.layers.batch_normalization(net)
    return values(variables())


def contrib_layers():
    tf.compat.v1.set_random_seed(3)
    images = tf.compat.v1.placeholder(tf.float32, [None, 4, 4, 1])
    net = slim.conv2d(images, 2, [3, 3])
    net = slim.fully_connected(slim.flatten(net), 3)
    slim.fully_connected(net, 2)
    return values(variables())


def batch_norm():
    # a random op after each kind of batch normalization: the ones it builds shift the op seeds after it
    tf.compat.v1.set_random_seed(8)
    images = tf.compat.v1.placeholder(tf.float32, [None, 4, 4, 2])
    net = tf.compat.v1.layers.batch_normalization(images, training=True)
    net = tf.compat.v1.layers.conv2d(net, 2, 3, padding="same", name="after_training")
    net = tf.compat.v1.layers.batch_normalization(net, training=False)
    net = tf.compat.v1.layers.conv2d(net, 2, 3, padding="same", name="after_inference")
    net = slim.batch_norm(net, is_training=True)
    slim.conv2d(net, 2, [3, 3], scope="after_slim")
    return values(variables())


def dropout():
    tf.compat.v1.set_random_seed(4)
    ones = tf.ones([2, 8])
    fetches = {
        "nn_dropout_keep_prob": tf.nn.dropout(ones, rate=1 - 0.5),
        "layers_dropout": tf.compat.v1.layers.dropout(ones, rate=0.3, training=True),
        "slim_dropout": slim.dropout(ones, keep_prob=0.6, is_training=True),
    }
    # the stream: a second run of the same ops draws the next numbers
    draws = tf.nn.dropout(ones, rate=1 - 0.5)
    with tf.compat.v1.Session() as session:
        first = values(fetches)
        first["stream"] = [session.run(draws).tolist() for _ in range(3)]
    return first


def images():
    tf.compat.v1.set_random_seed(5)
    image = tf.reshape(tf.range(48, dtype=tf.float32), [4, 4, 3])
    fetches = {
        "random_crop": tf.image.random_crop(image, [2, 2, 3]),
        "flip_left_right": tf.image.random_flip_left_right(image),
        "flip_up_down": tf.image.random_flip_up_down(image),
        "brightness": tf.image.random_brightness(image, 0.5),
        "contrast": tf.image.random_contrast(image, 0.2, 1.8),
        "hue": tf.image.random_hue(image / 48.0, 0.2),
        "saturation": tf.image.random_saturation(image / 48.0, 0.5, 1.5),
    }
    return values(fetches)


def input_pipeline():
    tf.compat.v1.set_random_seed(6)
    dataset = tf.compat.v1.data.Dataset.range(12).shuffle(12).map(lambda i: (i, tf.random.uniform([])))
    batch = tf.compat.v1.data.make_one_shot_iterator(dataset.batch(12)).get_next()
    # a shuffle then a repeat (tensor2tensor's training input): TF 1.15's tf.data fused the two (its default
    # shuffle_and_repeat_fusion), and the fused op (also tf.data.experimental.shuffle_and_repeat's) drew the first
    # epoch's order from the seeds themselves
    epochs = {
        "shuffle_repeat": tf.compat.v1.data.Dataset.range(40).shuffle(16).repeat(),
        "shuffle_repeat_3": tf.compat.v1.data.Dataset.range(40).shuffle(16).repeat(3),
        "shuffle_and_repeat": tf.compat.v1.data.Dataset.range(40).apply(tf.data.experimental.shuffle_and_repeat(16)),
    }
    first_epochs = {
        name: tf.compat.v1.data.make_one_shot_iterator(d.batch(40)).get_next() for name, d in epochs.items()
    }
    # filled once, not by queue runners: tf.train.shuffle_batch's threads make its draws vary run to run on TF 1.15
    queue = tf.queue.RandomShuffleQueue(capacity=8, min_after_dequeue=0, dtypes=[tf.int32], shapes=[[]])
    enqueue, dequeue = queue.enqueue_many([tf.range(8)]), queue.dequeue_many(8)
    with tf.compat.v1.Session() as session:
        index, uniform = session.run(batch)
        orders = session.run(first_epochs)
        session.run(enqueue)
        shuffled = session.run(dequeue)
    return {
        "dataset_shuffle": index.tolist(),
        "map_uniform": uniform.tolist(),
        "random_shuffle_queue": shuffled.tolist(),
        **{f"{name} (first epoch)": order.tolist() for name, order in orders.items()},
    }


def iterators():
    # an Estimator's input: TF 1.15 applied the dataset's options when it made an initializable iterator,
    # as ops of the graph (OptimizeDataset, ModelDataset), before the model's first variable
    tf.compat.v1.set_random_seed(8)
    dataset = tf.compat.v1.data.Dataset.from_tensors(tf.ones([2])).repeat()
    dataset.make_initializable_iterator().get_next()
    first = tf.compat.v1.get_variable("first", [2, 3])
    tf.compat.v1.data.make_initializable_iterator(dataset.batch(2)).get_next()
    return values({"after_iterator": first, "after_second_iterator": tf.compat.v1.get_variable("second", [3])})


def tensordot():
    # a dense layer on a rank-3 input (BERT's) contracts with tf.tensordot: TF 1.15 transposed and reshaped
    # both sides whatever their shapes; a side of unknown shape (a batch of unknown size: tensor2tensor's
    # dense layers) took the dynamic path, the known kernel side the static one all the same
    tf.compat.v1.set_random_seed(11)
    tf.compat.v1.layers.dense(tf.ones([2, 3, 4]), 5)
    tf.tensordot(tf.ones([2, 3]), tf.ones([3, 2]), 1)
    after = tf.compat.v1.get_variable("after", [3])
    inputs = tf.compat.v1.placeholder(tf.float32, [None, 3, 4])
    tf.compat.v1.layers.dense(inputs, 5, name="unknown_batch")
    after_unknown = tf.compat.v1.get_variable("after_unknown", [3])
    # and its attention biases: ones/zeros of a shape holding tensors (1.15 asked numpy whether it was small)
    batch = tf.shape(inputs)[0]
    tf.ones([batch, batch]), tf.zeros([2, batch, 3]), tf.ones([batch])
    after_fill = tf.compat.v1.get_variable("after_fill", [3])
    return values({"after_tensordot": after, "after_unknown_batch": after_unknown, "after_fill": after_fill})


def embedding_lookup():
    # BERT's embeddings: a gather from a variable (a resource variable gathers with 1 op, a ref one with 2)
    tf.compat.v1.set_random_seed(12)
    table = tf.compat.v1.get_variable("table", [6, 2])
    tf.nn.embedding_lookup(table, tf.constant([1, 3]))
    return values({"after_lookup": tf.compat.v1.get_variable("after", [3])})


def resource_variables():
    # a variable asked for as a resource variable was one on TF 1.15 too (TPUEstimator's global step is)
    tf.compat.v1.set_random_seed(10)
    tf.compat.v1.get_variable("asked", [2], use_resource=True)
    return values({"after_resource_variable": tf.compat.v1.get_variable("after", [3])})


def estimator():
    # a whole Estimator graph: the global step and its read, the input iterator, then the model's variables
    # (a zero learning rate keeps them as they were initialized)
    def model_fn(features, labels, mode):
        dense = tf.compat.v1.layers.dense(features, 3, name="dense")
        loss = tf.reduce_mean(dense) + tf.reduce_sum(tf.compat.v1.get_variable("w", [2]))
        train_op = tf.compat.v1.train.GradientDescentOptimizer(0.0).minimize(loss, tf.compat.v1.train.get_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)

    def input_fn():
        return tf.compat.v1.data.Dataset.from_tensors((tf.ones([1, 2]), tf.zeros([1]))).repeat()

    model_dir = tempfile.mkdtemp()
    config = tf.estimator.RunConfig(model_dir=model_dir, tf_random_seed=9)
    trained = tf.estimator.Estimator(model_fn, config=config).train(input_fn, steps=1)
    found = {name: trained.get_variable_value(name).tolist() for name in ("w", "dense/kernel")}
    shutil.rmtree(model_dir)
    return found


def sampled():
    tf.compat.v1.set_random_seed(7)
    weights = tf.reshape(tf.range(40, dtype=tf.float32) / 40.0, [10, 4])
    inputs = tf.ones([2, 4])
    labels = tf.constant([[1], [3]], dtype=tf.int64)
    loss = tf.nn.sampled_softmax_loss(weights, tf.zeros([10]), labels, inputs, num_sampled=4, num_classes=10)
    candidates = tf.random.log_uniform_candidate_sampler(labels, 1, 5, True, 10)
    return values({"sampled_softmax_loss": loss, "log_uniform_candidates": candidates.sampled_candidates})


def session_classifier():
    # samples/tf1/session_classifier.py's graph: its initial weights, before any data
    tf.compat.v1.set_random_seed(0)
    x = tf.compat.v1.placeholder(tf.float32, [None, 16], name="x")
    hidden = tf.compat.v1.layers.dense(x, 32, activation=tf.nn.relu)
    hidden = tf.nn.dropout(hidden, rate=1 - 0.8)
    tf.compat.v1.layers.dense(hidden, 4)
    return values(variables())


def main():
    results = {"random_ops": random_ops()}  # the default graph
    cases = (
        get_variable,
        layers,
        contrib_layers,
        batch_norm,
        dropout,
        images,
        input_pipeline,
        iterators,
        tensordot,
        embedding_lookup,
        resource_variables,
        estimator,
        sampled,
        session_classifier,
    )
    for case in cases:
        with tf.Graph().as_default():
            results[case.__name__] = case()
    print("RESULT " + json.dumps(results, sort_keys=True))


if __name__ == "__main__":
    tf.compat.v1.disable_eager_execution()
    tf.compat.v1.disable_resource_variables()
    tf.compat.v1.disable_control_flow_v2()
    main()
