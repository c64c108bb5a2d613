"""samples/tf1/train_slim_classifier.py's cluster part, with plain ops for its net (its tf-slim ResNet is another
conversion's) and a tf.data input of NumPy arrays for its TFRecords: asynchronous parameter-server training when the
platform sets TF_CONFIG (the master is worker 0, a ps task joins its server), a local MonitoredTrainingSession
otherwise, writing checkpoints to --output_dir.
"""

import numpy as np
import tensorflow as tf
from uaitrain.arch.tensorflow import uai_dist

tf.app.flags.DEFINE_string("output_dir", "", "checkpoints")
tf.app.flags.DEFINE_integer("max_step", 4, "last step")
FLAGS = tf.app.flags.FLAGS


def load_batch():
    rng = np.random.RandomState(0)
    features = rng.rand(64, 4).astype(np.float32)
    targets = rng.rand(64, 1).astype(np.float32)
    dataset = tf.data.Dataset.from_tensor_slices((features, targets)).repeat().batch(8, drop_remainder=True)
    return dataset.make_one_shot_iterator().get_next()


def build_train_op():
    images, labels = load_batch()
    weights = tf.Variable(tf.zeros([4, 1]))
    total_loss = tf.reduce_mean(tf.square(tf.matmul(images, weights) - labels))
    tf.summary.scalar("total_loss", total_loss)
    global_step = tf.train.get_or_create_global_step()
    return tf.train.GradientDescentOptimizer(0.1).minimize(total_loss, global_step), total_loss


def train(master, is_chief, device_fn):
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        with tf.device(device_fn):
            train_op, total_loss = build_train_op()
        hooks = [tf.train.StopAtStepHook(last_step=FLAGS.max_step or 5)]
        with tf.train.MonitoredTrainingSession(
            master=master, is_chief=is_chief, checkpoint_dir=FLAGS.output_dir, hooks=hooks, save_summaries_steps=None
        ) as sess:
            step = 0
            while not sess.should_stop():
                loss = sess.run([train_op, total_loss])[1]
                step += 1
                print(f"step {step} loss {loss:.4f}")


def main(_):
    dist = uai_dist.UAITensorFlowDistRunConfigParser()
    if not dist.is_dist():
        train("", True, None)
        return
    dist.load_cluster_config()
    cluster = tf.train.ClusterSpec({"ps": dist.get_ps_list(), "worker": dist.get_worker_list()})
    job = "ps" if dist.is_ps() else "worker"
    server = tf.train.Server(cluster, job_name=job, task_index=dist.get_task_id())
    if dist.is_ps():
        server.join()
        return
    device_fn = tf.train.replica_device_setter(worker_device=f"/job:worker/task:{dist.get_task_id()}", cluster=cluster)
    train(server.target, dist.get_task_id() == 0, device_fn)


if __name__ == "__main__":
    tf.app.run()
