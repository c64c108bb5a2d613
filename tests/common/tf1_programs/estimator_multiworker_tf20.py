"""Multi-worker training with Estimator, as TensorFlow 2.0's tutorial had users write it.

    python estimator_multiworker_tf20.py --data_dir=DIR --model_dir=DIR [--train_steps=N]

An Estimator whose RunConfig gets a distribution strategy (`train_distribute`): MirroredStrategy on
one machine, MultiWorkerMirroredStrategy when TF_CONFIG describes a cluster. The cluster's scheduler
starts a chief and workers; this program makes its only worker the evaluator (chief + evaluator:
the chief trains, the evaluator evaluates its checkpoints), rewriting TF_CONFIG before TensorFlow
reads it. Reads the CIFAR-10-format TFRecords (train.tfrecords, eval.tfrecords: 8x8x3 uint8 images).
"""

import argparse
import json
import os

import tensorflow as tf

HEIGHT, WIDTH, DEPTH, NUM_CLASSES = 8, 8, 3, 4
BATCH_SIZE = 8
LEARNING_RATE = 0.1
SEED = 5


def make_the_only_worker_the_evaluator():
    """TF_CONFIG with a chief and one worker -> chief + evaluator; returns this task's type."""
    tf_config = json.loads(os.environ.get("TF_CONFIG") or "{}")
    cluster, task = tf_config.get("cluster", {}), tf_config.get("task", {})
    if "chief" in cluster and len(cluster.get("worker", [])) == 1:
        cluster["evaluator"] = cluster.pop("worker")
        if task.get("type") == "worker":
            tf_config["task"] = {"type": "evaluator", "index": 0}
        os.environ["TF_CONFIG"] = json.dumps(tf_config)
    return tf_config.get("task", {}).get("type", "chief"), bool(cluster)


def parse(serialized):
    features = tf.io.parse_single_example(
        serialized,
        {
            "image": tf.io.FixedLenFeature([], tf.string),
            "label": tf.io.FixedLenFeature([], tf.int64),
        },
    )
    image = tf.io.decode_raw(features["image"], tf.uint8)
    image = tf.cast(tf.reshape(image, [HEIGHT, WIDTH, DEPTH]), tf.float32) / 255.0
    return image, tf.cast(features["label"], tf.int32)


def input_fn(data_dir, subset):
    def make_dataset():
        dataset = tf.data.TFRecordDataset(os.path.join(data_dir, subset + ".tfrecords"))
        dataset = dataset.map(parse, num_parallel_calls=tf.data.experimental.AUTOTUNE)
        if subset == "train":
            dataset = dataset.shuffle(64, seed=SEED).repeat()
        return dataset.batch(BATCH_SIZE, drop_remainder=True).prefetch(1)

    return make_dataset


def model_fn(features, labels, mode):
    model = tf.keras.Sequential(
        [
            tf.keras.layers.Conv2D(8, 3, activation="relu", input_shape=(HEIGHT, WIDTH, DEPTH)),
            tf.keras.layers.MaxPooling2D(),
            tf.keras.layers.Flatten(),
            tf.keras.layers.Dense(16, activation="relu"),
            tf.keras.layers.Dense(NUM_CLASSES),
        ]
    )
    logits = model(features, training=False)

    if mode == tf.estimator.ModeKeys.PREDICT:
        predictions = {"logits": logits}
        return tf.estimator.EstimatorSpec(mode=mode, predictions=predictions)

    optimizer = tf.compat.v1.train.GradientDescentOptimizer(learning_rate=LEARNING_RATE)
    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction=tf.keras.losses.Reduction.NONE)(
        labels, logits
    )
    loss = tf.reduce_sum(loss) * (1.0 / BATCH_SIZE)
    if mode == tf.estimator.ModeKeys.EVAL:
        accuracy = tf.compat.v1.metrics.accuracy(labels, tf.argmax(logits, axis=1))
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={"accuracy": accuracy})

    return tf.estimator.EstimatorSpec(
        mode=mode, loss=loss, train_op=optimizer.minimize(loss, tf.compat.v1.train.get_or_create_global_step())
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--data_dir", required=True)
    parser.add_argument("--model_dir", required=True)
    parser.add_argument("--train_steps", type=int, default=3)
    args = parser.parse_args()

    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.INFO)
    task_type, in_cluster = make_the_only_worker_the_evaluator()
    if in_cluster:
        strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
    else:
        strategy = tf.distribute.MirroredStrategy()
    config = tf.estimator.RunConfig(train_distribute=strategy, tf_random_seed=SEED, log_step_count_steps=1)
    classifier = tf.estimator.Estimator(model_fn=model_fn, model_dir=args.model_dir, config=config)
    results = tf.estimator.train_and_evaluate(
        classifier,
        train_spec=tf.estimator.TrainSpec(input_fn=input_fn(args.data_dir, "train"), max_steps=args.train_steps),
        eval_spec=tf.estimator.EvalSpec(
            input_fn=input_fn(args.data_dir, "eval"), steps=1, start_delay_secs=0, throttle_secs=1
        ),
    )
    # the chief of a cluster gets no evaluation back (the evaluator makes them): the step it saved last
    metrics = results[0] if results else {"global_step": classifier.get_variable_value("global_step")}
    print("RESULT " + json.dumps({"task": task_type, "global_step": int(metrics["global_step"])}), flush=True)


if __name__ == "__main__":
    main()
