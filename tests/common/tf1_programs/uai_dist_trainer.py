"""samples/tf1/train_slim_classifier.py's cluster part, with plain ops for its net and input (its tf-slim ResNet and
TFRecord input are another conversion's): asynchronous parameter-server training when the platform sets TF_CONFIG
(the master is worker 0, a ps task joins its server), a local MonitoredTrainingSession otherwise, writing checkpoints
to --output_dir. The input is the graph's first op, a seeded normal draw, so each step reads new numbers.
"""
import tensorflow as tf
from uaitrain.arch.tensorflow import uai_dist

tf.app.flags.DEFINE_string("output_dir", "", "checkpoints")
tf.app.flags.DEFINE_integer("max_step", 4, "last step")
FLAGS = tf.app.flags.FLAGS


def build_train_op():
    images = tf.random_normal([8, 4])
    weights = tf.Variable(tf.zeros([4, 1]))
    total_loss = tf.reduce_mean(tf.square(tf.matmul(images, weights) - 1.0))
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
                print("step %d loss %.4f" % (step, loss))


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
    device_fn = tf.train.replica_device_setter(worker_device="/job:worker/task:%d" % dist.get_task_id(), cluster=cluster)
    train(server.target, dist.get_task_id() == 0, device_fn)


if __name__ == "__main__":
    tf.app.run()
