"""Defines log_dir itself (absl defines it too): crashed with DuplicateFlagError on TF 2.x."""
import tensorflow as tf

tf.app.flags.DEFINE_string("log_dir", "/data/output", "TensorBoard logs")
tf.app.flags.DEFINE_string("data_dir", "/data/data", "")
FLAGS = tf.app.flags.FLAGS

if __name__ == "__main__":
    tf.app.flags.FLAGS(["prog", "--log_dir=/tmp/logs"])
    print("log_dir", FLAGS.log_dir)
