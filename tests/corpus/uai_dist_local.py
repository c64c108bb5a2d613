"""uai_dist user: parameter-server training when TF_CONFIG is set, local MonitoredTrainingSession otherwise."""
import tensorflow as tf
from uaitrain.arch.tensorflow import uai_dist, uflag

FLAGS = tf.app.flags.FLAGS
tf.set_random_seed(1)


def build():
    x = tf.random_normal([8, 4])
    w = tf.Variable(tf.zeros([4, 1]))
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
    step = tf.train.get_or_create_global_step()
    return tf.train.GradientDescentOptimizer(0.1).minimize(loss, step), loss


def main(_):
    dist = uai_dist.UAITensorFlowDistRunConfigParser()
    target, is_chief, device = "", True, None
    if dist.is_dist():
        dist.load_cluster_config()
        cluster = tf.train.ClusterSpec({"ps": dist.get_ps_list(), "worker": dist.get_worker_list()})
        server = tf.train.Server(cluster, job_name="ps" if dist.is_ps() else "worker", task_index=dist.get_task_id())
        target, is_chief = server.target, dist.get_task_id() == 0
        device = tf.train.replica_device_setter(cluster=cluster)
    with tf.device(device):
        train_op, loss = build()
    hooks = [tf.train.StopAtStepHook(last_step=3)]
    with tf.train.MonitoredTrainingSession(master=target, is_chief=is_chief, hooks=hooks) as sess:
        while not sess.should_stop():
            print("loss", sess.run([train_op, loss])[1])


if __name__ == "__main__":
    tf.app.run()
