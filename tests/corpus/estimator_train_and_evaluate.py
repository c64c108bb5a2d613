"""tf.estimator.train_and_evaluate with a linear model on synthetic numpy data."""
import numpy as np
import tensorflow as tf
from tensorflow.estimator import EvalSpec, TrainSpec

flags = tf.flags
flags.DEFINE_string("model_dir", "/tmp/tae", "")
flags.DEFINE_integer("steps", 3, "")
FLAGS = flags.FLAGS


def input_fn():
    x = np.random.RandomState(0).rand(64, 4).astype(np.float32)
    y = (x.sum(axis=1) > 2).astype(np.int32)
    return tf.data.Dataset.from_tensor_slices(({"x": x}, y)).repeat().batch(16)


def main(argv):
    columns = [tf.feature_column.numeric_column("x", shape=[4])]
    est = tf.estimator.LinearClassifier(columns, model_dir=FLAGS.model_dir)
    train = TrainSpec(input_fn, max_steps=FLAGS.steps)
    evaluate = EvalSpec(input_fn, steps=1, throttle_secs=0)
    tf.estimator.train_and_evaluate(est, train, evaluate)
    print("global step", est.get_variable_value("global_step"))


if __name__ == "__main__":
    tf.app.run(main)
