"""Seeded draws made by and after tf.feature_column's columns (input_layer, linear_model), as written for TF 1.x
(runs on TF 1.15 and under uai-run).

TF 1.15's op seed is the graph's op count. Its identity column checked its ids with two asserts, and its sparse
embedding lookup gathered the unique ids before averaging them; TF 2 builds neither, so an embedding column of an
identity column started from other weights and every draw after an embedding column was another. Prints
`RESULT {case: {name: values}}`, each case in its own seeded graph: the column's output, a random_normal and a
glorot get_variable made after it, and for "wide and deep" three Adagrad steps' losses. Its output on real
TensorFlow 1.15 is tests/common/golden/tf115_feature_column_seeds.json (written by `python3 dev.py tf115`:
tests/common/golden/make_tf115_goldens.py).
"""

import json

import numpy as np
import tensorflow as tf

fc = tf.feature_column


def features():
    return {
        "id": tf.constant([[1], [3], [0]], tf.int64),
        "word": tf.constant([["cat"], ["dog"], ["cat"]]),
        "age": tf.constant([[21.0], [47.0], [35.0]]),
    }


def draws_after(build):
    """{name: values}: what `build` returns fetched, then a random_normal and a glorot get_variable made after it."""
    with tf.Graph().as_default():
        tf.set_random_seed(5)
        fetches = dict(build())
        fetches["random_normal after"] = tf.random_normal([3])
        fetches["variable after"] = tf.get_variable("after", [2, 2])
        with tf.Session() as session:
            session.run([tf.global_variables_initializer(), tf.tables_initializer()])
            return {name: np.round(np.asarray(v, np.float64), 6).tolist() for name, v in session.run(fetches).items()}


def embedding_of_identity():
    column = fc.embedding_column(fc.categorical_column_with_identity("id", 4), 3)
    return {"input layer": fc.input_layer(features(), [column])}


def embedding_of_hash_bucket():
    column = fc.embedding_column(fc.categorical_column_with_hash_bucket("word", 7), 2, combiner="sqrtn")
    return {"input layer": fc.input_layer(features(), [column])}


def embedding_of_vocabulary():
    words = fc.categorical_column_with_vocabulary_list("word", ["cat", "dog"], num_oov_buckets=1)
    return {"input layer": fc.input_layer(features(), [fc.embedding_column(words, 2, combiner="sum")])}


def indicator_and_numeric():
    columns = [fc.indicator_column(fc.categorical_column_with_identity("id", 4)), fc.numeric_column("age")]
    return {"input layer": fc.input_layer(features(), columns)}


def linear_model_of_identity():
    return {"linear model": fc.linear_model(features(), [fc.categorical_column_with_identity("id", 4)])}


def wide_and_deep():
    """Three Adagrad steps of a linear part over the identity column and a dense part over an embedding."""
    identity = fc.categorical_column_with_identity("id", 4)
    deep = tf.layers.dense(fc.input_layer(features(), [fc.embedding_column(identity, 3), fc.numeric_column("age")]), 1)
    logits = fc.linear_model(features(), [identity]) + deep
    loss = tf.reduce_mean(tf.square(logits - 1.0))
    train = tf.train.AdagradOptimizer(0.1).minimize(loss)
    with tf.control_dependencies([train]):
        after = tf.identity(loss)
    return {"loss": loss, "step": after}


CASES = {
    "embedding of identity": embedding_of_identity,
    "embedding of hash bucket": embedding_of_hash_bucket,
    "embedding of vocabulary": embedding_of_vocabulary,
    "indicator and numeric": indicator_and_numeric,
    "linear model of identity": linear_model_of_identity,
}


def trained():
    """{"losses": three Adagrad steps' losses} of wide_and_deep, in its own seeded graph."""
    with tf.Graph().as_default():
        tf.set_random_seed(5)
        fetches = wide_and_deep()
        with tf.Session() as session:
            session.run([tf.global_variables_initializer(), tf.tables_initializer()])
            losses = [float(session.run(fetches)["loss"]) for _ in range(3)]
    return {"losses": np.round(losses, 6).tolist()}


if __name__ == "__main__":
    results = {name: draws_after(build) for name, build in CASES.items()}
    results["wide and deep"] = trained()
    print("RESULT " + json.dumps(results, sort_keys=True))
