"""A platform job reading uflag's six flags."""
import tensorflow as tf
from uaitrain.arch.tensorflow import uflag

FLAGS = tf.app.flags.FLAGS


def main(_):
    print("data_dir", FLAGS.data_dir, "output_dir", FLAGS.output_dir, "num_gpus", FLAGS.num_gpus)
    print("log_dir", FLAGS.log_dir, "max_step", FLAGS.max_step, "work_dir", FLAGS.work_dir)


if __name__ == "__main__":
    tf.app.run()
