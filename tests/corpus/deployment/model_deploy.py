"""A trimmed copy-in-spirit of research/slim's model_deploy, as users vendored it next to their script."""
import collections

import tensorflow as tf

slim = tf.contrib.slim

Clone = collections.namedtuple("Clone", ["outputs", "scope", "device"])


class DeploymentConfig(object):
    def __init__(self, num_clones=1, clone_on_cpu=False, replica_id=0, num_replicas=1, num_ps_tasks=0,
                 worker_job_name="worker", ps_job_name="ps"):
        self.num_clones = max(num_clones, 1)
        self.clone_on_cpu = clone_on_cpu
        self.replica_id = replica_id
        self.num_ps_tasks = num_ps_tasks
        self.worker_device = "/job:%s" % worker_job_name if num_ps_tasks > 0 else ""
        self.ps_device = "/job:%s" % ps_job_name if num_ps_tasks > 0 else ""

    def clone_device(self, index):
        device = self.worker_device + ("/task:%d" % self.replica_id if self.num_ps_tasks > 0 else "")
        return device + ("/device:CPU:0" if self.clone_on_cpu else "/device:GPU:%d" % index)

    def clone_scope(self, index):
        return "clone_%d" % index if self.num_clones > 1 else ""

    def variables_device(self):
        if self.num_ps_tasks == 0:
            return "/device:CPU:0"
        strategy = tf.contrib.training.GreedyLoadBalancingStrategy
        return tf.train.replica_device_setter(self.num_ps_tasks, ps_device=self.ps_device)


def create_clones(config, model_fn, args=None):
    clones = []
    for i in range(config.num_clones):
        with tf.name_scope(config.clone_scope(i)) as scope:
            with tf.device(config.clone_device(i)):
                with slim.arg_scope([slim.model_variable, slim.variable], device=config.variables_device()):
                    with tf.variable_scope(tf.get_variable_scope(), reuse=i > 0):
                        outputs = model_fn(*(args or []))
                clones.append(Clone(outputs, scope, config.clone_device(i)))
    return clones
