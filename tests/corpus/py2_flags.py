"""Python 2 flags script with print >>, long and unicode."""
import sys

import tensorflow as tf

tf.app.flags.DEFINE_integer("epochs", 2, "")
FLAGS = tf.app.flags.FLAGS


def main(unused):
    total = long(FLAGS.epochs) * 1000
    name = unicode("model")
    print >>sys.stderr, "training", name
    print "total steps", total


if __name__ == "__main__":
    tf.app.run()
