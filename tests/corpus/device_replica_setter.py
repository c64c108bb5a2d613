"""Private device_setter import and replica_device_setter on a single machine."""
import tensorflow as tf
from tensorflow.python.training import device_setter

tf.app.flags.DEFINE_integer("ps_tasks", 0, "")
FLAGS = tf.app.flags.FLAGS


def main(_):
    setter = device_setter.replica_device_setter(ps_tasks=FLAGS.ps_tasks, ps_device="/cpu:0", worker_device="/cpu:0")
    with tf.device(setter):
        v = tf.Variable(3.0)
        doubled = v * 2
    with tf.train.MonitoredSession() as sess:
        print("doubled", sess.run(doubled))


if __name__ == "__main__":
    tf.app.run()
