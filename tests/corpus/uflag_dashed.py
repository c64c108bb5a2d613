"""Flags the platform passes with dashes (--train-batch-size) next to underscore ones."""
import tensorflow as tf
from uaitrain.arch.tensorflow import uflag

uflag.DEFINE_integer("train_batch_size", 128, "global batch")
uflag.DEFINE_integer("resnet_size", 50, "depth")
uflag.DEFINE_float("weight_decay", 1e-4, "")
FLAGS = uflag.FLAGS


def main(_):
    print("batch", FLAGS.train_batch_size, "size", FLAGS.resnet_size, "decay", FLAGS.weight_decay)


if __name__ == "__main__":
    tf.app.run()
