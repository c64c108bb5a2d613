"""Estimator with a custom SessionRunHook built on TF's private modules, as TF 1.x examples did."""
import numpy as np
import tensorflow as tf
from tensorflow.python.training import session_run_hook, training_util
from tensorflow.python.training.basic_session_run_hooks import LoggingTensorHook

tf.app.flags.DEFINE_string("model_dir", "/tmp/hooks", "")
FLAGS = tf.app.flags.FLAGS


class StepCounter(session_run_hook.SessionRunHook):
    def begin(self):
        self.step = training_util.get_global_step()
        self.runs = 0

    def before_run(self, run_context):
        return session_run_hook.SessionRunArgs(self.step)

    def after_run(self, run_context, run_values):
        # the step read races the train op's increment: count the runs, print what was seen
        self.runs += 1
        print("hook saw step", run_values.results)

    def end(self, session):
        print("hook ran", self.runs, "times")


def model_fn(features, labels, mode):
    w = tf.get_variable("w", [3, 1])
    loss = tf.reduce_mean(tf.square(tf.matmul(features, w) - labels))
    step = tf.train.get_or_create_global_step()
    train_op = tf.train.AdamOptimizer(0.1).minimize(loss, step)
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op,
                                      training_hooks=[LoggingTensorHook({"loss": loss}, every_n_iter=1)])


def input_fn():
    x = np.ones((8, 3), np.float32)
    return tf.data.Dataset.from_tensors((x, np.ones((8, 1), np.float32))).repeat()


def main(_):
    tf.estimator.Estimator(model_fn, FLAGS.model_dir, config=tf.estimator.RunConfig(tf_random_seed=1)).train(input_fn, steps=3, hooks=[StepCounter()])


if __name__ == "__main__":
    tf.app.run()
