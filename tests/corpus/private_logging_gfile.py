"""Private logging and gfile modules, used by many TF1 utilities."""
import tensorflow as tf
from tensorflow.python.platform import gfile
from tensorflow.python.platform import tf_logging as logging

tf.app.flags.DEFINE_string("output_dir", "/tmp/out", "")
FLAGS = tf.app.flags.FLAGS


def main(_):
    logging.set_verbosity(logging.INFO)
    if not gfile.Exists(FLAGS.output_dir):
        gfile.MakeDirs(FLAGS.output_dir)
    logging.info("output dir %s exists: %s", FLAGS.output_dir, gfile.Exists(FLAGS.output_dir))
    print("listed", gfile.ListDirectory(FLAGS.output_dir))


if __name__ == "__main__":
    tf.app.run()
