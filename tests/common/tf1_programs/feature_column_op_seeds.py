"""Seeded draws made by and after tf.feature_column's columns (input_layer, linear_model), as written for TF 1.x
(runs on TF 1.15 and under uai-run).

TF 1.15's op seed is the graph's op count. Its identity column checked its ids with two asserts, and its sparse
embedding lookup gathered the unique ids before averaging them; TF 2 builds neither, so an embedding column of an
identity column started from other weights and every draw after an embedding column was another. Prints
`RESULT {case: {name: values}}`, each case in its own seeded graph: the column's output, a random_normal and a
glorot get_variable made after it, for "wide and deep" three Adagrad steps' losses, and for "census estimator" a
canned DNNLinearCombinedClassifier's four losses and its evaluation. Its output on real
TensorFlow 1.15 is tests/common/golden/tf115_feature_column_seeds.json (written by `python3 dev.py tf115`:
tests/common/golden/make_tf115_goldens.py).
"""

import json
import shutil
import tempfile

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


def census():
    """The TF 1.x census tutorial's shape in miniature: a canned DNNLinearCombinedClassifier over bucketized,
    vocabulary, hash-bucket, crossed, identity and embedding columns, seeded by its RunConfig, 4 steps."""
    rng = np.random.RandomState(0)
    data = {
        "age": rng.randint(18, 70, size=(64, 1)).astype(np.float32),
        "education": rng.choice(["bachelors", "masters", "hs"], size=(64, 1)),
        "occupation": rng.choice(["tech", "sales", "craft", "admin"], size=(64, 1)),
        "hours": rng.randint(0, 4, size=(64, 1)).astype(np.int64),
    }
    labels = (data["age"][:, 0] > 40).astype(np.int32)
    age = fc.numeric_column("age")
    education = fc.categorical_column_with_vocabulary_list("education", ["bachelors", "masters", "hs"])
    occupation = fc.categorical_column_with_hash_bucket("occupation", 10)
    hours = fc.categorical_column_with_identity("hours", 4)
    wide = [fc.bucketized_column(age, [25, 35, 45, 55]), education, occupation]
    wide.append(fc.crossed_column(["education", "occupation"], 20))
    deep = [age, fc.indicator_column(education), fc.embedding_column(occupation, 4), fc.embedding_column(hours, 3)]
    losses = []

    class Losses(tf.train.SessionRunHook):
        def before_run(self, run_context):
            return tf.train.SessionRunArgs(tf.get_collection(tf.GraphKeys.LOSSES))

        def after_run(self, run_context, run_values):
            losses.append(float(run_values.results[0]))

    def input_fn():
        return tf.data.Dataset.from_tensor_slices((data, labels)).batch(16).repeat()

    model_dir = tempfile.mkdtemp()
    try:
        config = tf.estimator.RunConfig(tf_random_seed=1, model_dir=model_dir)
        estimator = tf.estimator.DNNLinearCombinedClassifier(
            linear_feature_columns=wide, dnn_feature_columns=deep, dnn_hidden_units=[8, 4], config=config
        )
        estimator.train(input_fn, steps=4, hooks=[Losses()])
        evaluation = estimator.evaluate(input_fn, steps=2)
    finally:
        shutil.rmtree(model_dir)
    keys = ("accuracy", "auc", "average_loss", "loss", "prediction/mean")
    return {"losses": np.round(losses, 6).tolist(), "evaluation": [round(float(evaluation[k]), 6) for k in keys]}


if __name__ == "__main__":
    results = {name: draws_after(build) for name, build in CASES.items()}
    results["wide and deep"] = trained()
    results["census estimator"] = census()
    print("RESULT " + json.dumps(results, sort_keys=True))
