"""BERT's run_classifier.py pattern as written for TensorFlow 1: TPUEstimator with use_tpu=False on CPU.

The model, data and RESULT line of runtime_programs/bert_style_tpu.py, written for TensorFlow 1
in the names BERT used: tf.flags, tf.contrib.tpu.* (TPUEstimator, TPUEstimatorSpec, RunConfig,
TPUConfig, InputPipelineConfig, CrossShardOptimizer when use_tpu), tf.contrib.data.map_and_batch,
tf.contrib.layers.layer_norm, tf.layers.dense, `x.shape[-1].value`, tf.nn.dropout's keep_prob,
tf.train.AdamOptimizer, tf.metrics, tf.train.LoggingTensorHook, tf.app.run. Every variable has an
explicit initializer, as BERT's create_initializer gives them: with the graph seed (tf_random_seed)
that makes a run repeatable under TF 1 semantics. The TF 1 form runs under `uai-run`;
bert_style_tpu_tf1_migrated.py is uai-migrate's output for it, run with plain `python`.
The training loss is logged every 4 steps ("loss = ...", tf.logging INFO on stderr).

    bert_style_tpu_tf1.py --output_dir DIR   -> one line: RESULT {"eval": {...}, "predictions": n, ...}
"""

import json
import math
import compat

import numpy as np
import tensorflow as tf

import compat.flags as flags
import compat.slim as slim

FLAGS = flags.FLAGS
flags.DEFINE_string("output_dir", None, "where checkpoints go")
flags.DEFINE_bool("use_tpu", False, "run on a TPU")
flags.DEFINE_string("tpu_name", None, "the TPU to use")

VOCAB, SEQ, HIDDEN, HEADS, CLASSES = 16, 8, 16, 2, 2
TRAIN_BATCH, EVAL_BATCH, PREDICT_BATCH, EXAMPLES, STEPS = 8, 8, 4, 64, 40


def generated_examples(seed):
    rng = np.random.RandomState(seed)
    ids = rng.randint(2, VOCAB, size=[EXAMPLES, SEQ]).astype("int32")
    ids[:, 0] = 0  # [CLS]
    with_one = rng.rand(EXAMPLES) < 0.5
    ids[with_one, rng.randint(1, SEQ, size=with_one.sum())] = 1
    mask = np.ones_like(ids)
    return ids, mask, with_one.astype("int32")


def input_fn_builder(seed, is_training, drop_remainder):
    ids, mask, labels = generated_examples(seed)

    def input_fn(params):
        batch_size = params["batch_size"]
        d = tf.compat.v1.data.Dataset.from_tensor_slices({"input_ids": ids, "input_mask": mask, "label_ids": labels})
        if is_training:
            d = d.repeat().shuffle(buffer_size=EXAMPLES, seed=seed)
        return d.apply(
            tf.data.experimental.map_and_batch(lambda record: record, batch_size=batch_size, drop_remainder=drop_remainder)
        )

    return input_fn


def layer_norm(input_tensor, name=None):
    return slim.layer_norm(inputs=input_tensor, begin_norm_axis=-1, begin_params_axis=-1, scope=name)


def attention_layer(x, mask, is_training):
    size = tf.compat.dimension_value(x.shape[-1]) // HEADS

    def heads(t):
        return tf.transpose(tf.reshape(t, [-1, SEQ, HEADS, size]), [0, 2, 1, 3])

    init = tf.compat.v1.truncated_normal_initializer(stddev=0.02)
    query = heads(tf.compat.v1.layers.dense(x, HIDDEN, name="query", kernel_initializer=init))
    key = heads(tf.compat.v1.layers.dense(x, HIDDEN, name="key", kernel_initializer=init))
    value = heads(tf.compat.v1.layers.dense(x, HIDDEN, name="value", kernel_initializer=init))
    scores = tf.matmul(query, key, transpose_b=True) / math.sqrt(size)
    scores += (1.0 - tf.cast(mask[:, None, None, :], tf.float32)) * -10000.0
    probs = tf.nn.softmax(scores)
    if is_training:
        probs = tf.nn.dropout(probs, rate=1 - (1.0 - 0.1))
    context = tf.reshape(tf.transpose(tf.matmul(probs, value), [0, 2, 1, 3]), [-1, SEQ, HIDDEN])
    return layer_norm(tf.compat.v1.layers.dense(context, HIDDEN, kernel_initializer=init) + x, name="attention_norm")


def create_model(is_training, input_ids, input_mask, labels):
    with tf.compat.v1.variable_scope("bert"):
        with tf.compat.v1.variable_scope("embeddings"):
            table = tf.compat.v1.get_variable(
                "word_embeddings", [VOCAB, HIDDEN], initializer=tf.compat.v1.truncated_normal_initializer(stddev=0.02)
            )
            positions = tf.compat.v1.get_variable(
                "position_embeddings", [SEQ, HIDDEN], initializer=tf.compat.v1.truncated_normal_initializer(stddev=0.02)
            )
            x = layer_norm(tf.nn.embedding_lookup(table, input_ids) + positions[None], name="LayerNorm")
        with tf.compat.v1.variable_scope("encoder/layer_0/attention"):
            x = attention_layer(x, input_mask, is_training)
        with tf.compat.v1.variable_scope("pooler"):
            pooled = tf.compat.v1.layers.dense(
                x[:, 0], HIDDEN, activation=tf.tanh, kernel_initializer=tf.compat.v1.truncated_normal_initializer(stddev=0.02)
            )
    logits = tf.compat.v1.layers.dense(
        pooled, CLASSES, name="output", kernel_initializer=tf.compat.v1.truncated_normal_initializer(stddev=0.02)
    )
    log_probs = tf.nn.log_softmax(logits, axis=-1)
    per_example_loss = -tf.reduce_sum(tf.one_hot(labels, CLASSES) * log_probs, axis=-1)
    return tf.reduce_mean(per_example_loss), per_example_loss, logits


def create_optimizer(loss, learning_rate, use_tpu):
    global_step = tf.compat.v1.train.get_or_create_global_step()
    optimizer = tf.compat.v1.train.AdamOptimizer(learning_rate)
    if use_tpu:
        optimizer = tf.compat.v1.tpu.CrossShardOptimizer(optimizer)
    grads, tvars = zip(*optimizer.compute_gradients(loss))
    grads, _ = tf.clip_by_global_norm(grads, clip_norm=1.0)
    return optimizer.apply_gradients(zip(grads, tvars), global_step=global_step)


def model_fn_builder(learning_rate, use_tpu):
    def model_fn(features, labels, mode, params):
        is_training = mode == tf.estimator.ModeKeys.TRAIN
        total_loss, per_example_loss, logits = create_model(
            is_training, features["input_ids"], features["input_mask"], features["label_ids"]
        )
        if mode == tf.estimator.ModeKeys.TRAIN:
            train_op = create_optimizer(total_loss, learning_rate, use_tpu)
            logged = tf.compat.v1.train.LoggingTensorHook({"loss": total_loss}, every_n_iter=4)
            return tf.compat.v1.estimator.tpu.TPUEstimatorSpec(
                mode=mode, loss=total_loss, train_op=train_op, training_hooks=[logged], scaffold_fn=None
            )
        if mode == tf.estimator.ModeKeys.EVAL:

            def metric_fn(per_example_loss, label_ids, logits):
                predictions = tf.argmax(logits, axis=-1, output_type=tf.int32)
                return {
                    "eval_accuracy": tf.compat.v1.metrics.accuracy(label_ids, predictions),
                    "eval_loss": tf.compat.v1.metrics.mean(per_example_loss),
                }

            return tf.compat.v1.estimator.tpu.TPUEstimatorSpec(
                mode=mode, loss=total_loss, eval_metrics=(metric_fn, [per_example_loss, features["label_ids"], logits])
            )
        return tf.compat.v1.estimator.tpu.TPUEstimatorSpec(mode=mode, predictions={"probabilities": tf.nn.softmax(logits)})

    return model_fn


def main(_):
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.INFO)
    tpu_cluster_resolver = None
    if FLAGS.use_tpu and FLAGS.tpu_name:
        tpu_cluster_resolver = tf.distribute.cluster_resolver.TPUClusterResolver(FLAGS.tpu_name)
    is_per_host = tf.compat.v1.estimator.tpu.InputPipelineConfig.PER_HOST_V2
    run_config = tf.compat.v1.estimator.tpu.RunConfig(
        cluster=tpu_cluster_resolver,
        master=None,
        model_dir=FLAGS.output_dir,
        save_checkpoints_steps=STEPS,
        tf_random_seed=1,
        tpu_config=tf.compat.v1.estimator.tpu.TPUConfig(
            iterations_per_loop=10, num_shards=8, per_host_input_for_training=is_per_host
        ),
    )
    estimator = tf.compat.v1.estimator.tpu.TPUEstimator(
        use_tpu=FLAGS.use_tpu,
        model_fn=model_fn_builder(5e-3, FLAGS.use_tpu),
        config=run_config,
        train_batch_size=TRAIN_BATCH,
        eval_batch_size=EVAL_BATCH,
        predict_batch_size=PREDICT_BATCH,
    )
    estimator.train(input_fn_builder(1, is_training=True, drop_remainder=True), max_steps=STEPS)
    evaluated = estimator.evaluate(
        input_fn_builder(2, is_training=False, drop_remainder=True), steps=EXAMPLES // EVAL_BATCH
    )
    predictions = list(estimator.predict(input_fn_builder(2, is_training=False, drop_remainder=False)))
    print(
        "RESULT "
        + json.dumps(
            {
                "eval": {key: float(value) for key, value in evaluated.items()},
                "predictions": len(predictions),
                "probability_sums": sorted({round(float(p["probabilities"].sum()), 4) for p in predictions}),
                "estimator": type(estimator).__name__,
            }
        )
    )


if __name__ == "__main__":
    flags.mark_flag_as_required("output_dir")
    flags.run()
