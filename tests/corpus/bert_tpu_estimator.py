"""A BERT-style fine-tuning script: TPUEstimator with use_tpu=False, tf.contrib.tpu / data / cluster_resolver,
a tiny embedding + attention model on generated data."""
import os

import numpy as np
import tensorflow as tf

flags = tf.flags
FLAGS = flags.FLAGS
flags.DEFINE_string("output_dir", "/tmp/bert_out", "where checkpoints go")
flags.DEFINE_bool("use_tpu", False, "run on a TPU")
flags.DEFINE_string("tpu_name", None, "the TPU to use")
flags.DEFINE_integer("train_steps", 3, "training steps")

VOCAB, LENGTH, WIDTH = 20, 6, 8


def write_records(path):
    rng = np.random.RandomState(0)
    with tf.python_io.TFRecordWriter(path) as writer:
        for _ in range(32):
            ids = rng.randint(0, VOCAB, LENGTH)
            label = int(ids.sum() % 2)
            features = {"input_ids": tf.train.Feature(int64_list=tf.train.Int64List(value=ids)),
                        "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[label]))}
            writer.write(tf.train.Example(features=tf.train.Features(feature=features)).SerializeToString())


def input_fn_builder(path, is_training):
    spec = {"input_ids": tf.FixedLenFeature([LENGTH], tf.int64), "label": tf.FixedLenFeature([], tf.int64)}

    def decode(record):
        example = tf.parse_single_example(record, spec)
        return {name: tf.to_int32(value) for name, value in example.items()}

    def input_fn(params):
        d = tf.data.TFRecordDataset(path)
        if is_training:
            d = d.repeat()
        return d.apply(tf.contrib.data.map_and_batch(decode, batch_size=params["batch_size"], drop_remainder=True))

    return input_fn


def attention(x):
    width = x.shape[-1].value
    scores = tf.matmul(x, x, transpose_b=True) / np.sqrt(width)
    return tf.matmul(tf.nn.softmax(scores), x)


def model_fn(features, labels, mode, params):
    embeddings = tf.get_variable("embeddings", [VOCAB, WIDTH], initializer=tf.truncated_normal_initializer(stddev=0.02))
    hidden = attention(tf.nn.embedding_lookup(embeddings, features["input_ids"]))
    logits = tf.layers.dense(tf.reduce_mean(hidden, axis=1), 2)
    loss = tf.losses.sparse_softmax_cross_entropy(features["label"], logits)
    if mode == tf.estimator.ModeKeys.TRAIN:
        optimizer = tf.train.AdamOptimizer(0.01)
        if params["use_tpu"]:
            optimizer = tf.contrib.tpu.CrossShardOptimizer(optimizer)
        train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
        return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, train_op=train_op)

    def metric_fn(label, logits):
        return {"accuracy": tf.metrics.accuracy(label, tf.argmax(logits, axis=-1))}

    return tf.contrib.tpu.TPUEstimatorSpec(mode=mode, loss=loss, eval_metrics=(metric_fn, [features["label"], logits]))


def main(_):
    tf.logging.set_verbosity(tf.logging.ERROR)
    tf.gfile.MakeDirs(FLAGS.output_dir)
    path = os.path.join(FLAGS.output_dir, "train.tfrecord")
    write_records(path)
    resolver = None
    if FLAGS.use_tpu and FLAGS.tpu_name:
        resolver = tf.contrib.cluster_resolver.TPUClusterResolver(FLAGS.tpu_name)
    config = tf.contrib.tpu.RunConfig(
        cluster=resolver, model_dir=FLAGS.output_dir, save_checkpoints_steps=100,
        tpu_config=tf.contrib.tpu.TPUConfig(iterations_per_loop=1, num_shards=1,
                                            per_host_input_for_training=tf.contrib.tpu.InputPipelineConfig.PER_HOST_V2))
    estimator = tf.contrib.tpu.TPUEstimator(use_tpu=FLAGS.use_tpu, model_fn=model_fn, config=config,
                                            train_batch_size=8, eval_batch_size=8, params={"use_tpu": FLAGS.use_tpu})
    estimator.train(input_fn=input_fn_builder(path, True), max_steps=FLAGS.train_steps)
    result = estimator.evaluate(input_fn=input_fn_builder(path, False), steps=2)
    print("trained to step", result["global_step"], "accuracy", "accuracy" in result)


if __name__ == "__main__":
    tf.app.run()
