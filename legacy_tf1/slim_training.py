"""The TensorFlow half of `legacy_tf1.slim_main`: slim's clones and training op, the cluster's server, the session.

Imported by the program once its flags, TF_CONFIG and input paths are checked; it imports TensorFlow (after
`compat.install()`, as the program did).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

import compat

compat.install()

import tensorflow as tf  # noqa: E402

import compat.flags as flags  # noqa: E402
import compat.slim as slim  # noqa: E402
from compat import devices, tf_config  # noqa: E402
from legacy_tf1 import model_deploy, slim_finetune, v1_optimizers  # noqa: E402
from trainlib.models import slim_zoo  # noqa: E402
from trainlib.training import slim_data  # noqa: E402

if TYPE_CHECKING:
    from compat.tf_config import ClusterConfig

v1: Any = tf.compat.v1  # (Any: a base class below is read from it)
# At the end of synchronous training the chief's queue runner waits for gradients of workers
# that have already stopped: give up on it after 5 s, not the default 2 minutes. Closing the
# session then cancels its step, and TensorFlow prints that thread's CancelledError (harmless).
SYNC_STOP_GRACE_SECS = 5

FLAGS = flags.FLAGS  # parsed by legacy_tf1.slim_main before it imports this module


# -- the model and its training op ---------------------------------------------------------
def clone_fn(
    iterator: Any, network: Callable[[tf.Tensor], tuple[tf.Tensor, dict[str, tf.Tensor]]], num_classes: int
) -> dict[str, tf.Tensor]:
    """One clone: a batch, the net, cross-entropy losses (aux logits weighted 0.4) in tf.losses."""
    images, labels = iterator.get_next()
    logits, end_points = network(images)
    onehot = tf.one_hot(labels, num_classes)
    if "AuxLogits" in end_points:
        v1.losses.softmax_cross_entropy(
            onehot, end_points["AuxLogits"], label_smoothing=FLAGS.label_smoothing, weights=0.4, scope="aux_loss"
        )
    v1.losses.softmax_cross_entropy(onehot, logits, label_smoothing=FLAGS.label_smoothing, weights=1.0)
    return end_points


def add_summaries(clones: Sequence[model_deploy.Clone], total_loss: tf.Tensor, learning_rate: tf.Tensor) -> None:
    for clone in clones:
        for loss in model_deploy.clone_losses(clone):
            v1.summary.scalar(f"losses/{loss.op.name}", loss)
    for variable in slim.get_model_variables():
        v1.summary.histogram(variable.op.name, variable)
    v1.summary.scalar("total_loss", total_loss)
    v1.summary.scalar("learning_rate", learning_rate)


def build_training(
    deploy: model_deploy.DeploymentConfig, files: list[str], distributed: bool
) -> tuple[tf.Tensor, tf.Tensor, tf.compat.v1.train.Optimizer]:
    """(train tensor: the loss after the update, global step after the update, optimizer)."""
    with devices.device(deploy.variables_device()):
        global_step = v1.train.get_or_create_global_step()
    model_classes = slim_data.num_classes(FLAGS) - FLAGS.labels_offset
    image_size = FLAGS.train_image_size or slim_zoo.default_image_size(FLAGS.model_name)
    with tf.device(deploy.inputs_device()):
        batches = slim_data.dataset(FLAGS, FLAGS.dataset_split_name, FLAGS.batch_size, image_size)
        iterator = v1.data.make_one_shot_iterator(batches)
    network = slim_zoo.get_network_fn(
        FLAGS.model_name, model_classes, is_training=True, weight_decay=FLAGS.weight_decay
    )
    clones = model_deploy.create_clones(deploy, clone_fn, (iterator, network, model_classes))

    averages, averaged = None, None
    if FLAGS.moving_average_decay:
        averaged = slim.get_model_variables()
        averages = v1.train.ExponentialMovingAverage(FLAGS.moving_average_decay, global_step)
    with tf.device(deploy.optimizer_device()):
        learning_rate = v1_optimizers.learning_rate(FLAGS, slim_data.samples_per_epoch(FLAGS, files), global_step)
        optimizer = v1_optimizers.optimizer(FLAGS, learning_rate)
    update_ops = list(model_deploy.first_clone_update_ops(clones))
    if FLAGS.sync_replicas and distributed:
        optimizer = v1.train.SyncReplicasOptimizer(
            optimizer,
            replicas_to_aggregate=FLAGS.replicas_to_aggregate,
            total_num_replicas=deploy.num_replicas,
            variable_averages=averages,
            variables_to_average=averaged,
        )
    elif averages is not None:
        with tf.device(deploy.optimizer_device()):
            update_ops.append(averages.apply(averaged))

    total_loss, gradients = model_deploy.optimize_clones(
        clones, optimizer, var_list=slim_finetune.variables_to_train(FLAGS.trainable_scopes)
    )
    add_summaries(clones, total_loss, learning_rate)
    update_ops.append(optimizer.apply_gradients(gradients, global_step=global_step))
    with tf.control_dependencies([tf.group(*update_ops)]):
        return tf.identity(total_loss, name="train_op"), global_step.read_value(), optimizer


# -- the cluster ----------------------------------------------------------------------------
def start_server(cluster: ClusterConfig, session_config: tf.compat.v1.ConfigProto) -> tf.distribute.Server:
    """This task's tf.distribute.Server: job `worker` (master first, as worker 0) or `ps`."""
    jobs = {"worker": list(cluster.worker_addresses)}
    if cluster.num_ps:
        jobs["ps"] = list(cluster.addresses(tf_config.PS))
    job, index = ("ps", cluster.task_index) if cluster.is_ps else ("worker", cluster.global_worker_id)
    return tf.distribute.Server(tf.train.ClusterSpec(jobs), job_name=job, task_index=index, config=session_config)


def deployment(cluster: ClusterConfig) -> model_deploy.DeploymentConfig:
    if cluster.is_distributed:
        replica, replicas, ps_tasks = cluster.global_worker_id, cluster.num_workers, cluster.num_ps
    else:
        replica, replicas, ps_tasks = FLAGS.task, FLAGS.worker_replicas, FLAGS.num_ps_tasks
    return model_deploy.DeploymentConfig(
        num_clones=FLAGS.num_clones,
        clone_on_cpu=FLAGS.clone_on_cpu,
        replica_id=replica,
        num_replicas=replicas,
        num_ps_tasks=ps_tasks,
    )


def wait_for_chief(master: str, session_config: tf.compat.v1.ConfigProto, poll_secs: float = 0.5) -> None:
    """Block until the chief has initialised the variables.

    MonitoredTrainingSession's own wait polls every 30 s; a worker that checks just before the
    chief is ready would idle that long.
    """
    not_ready = v1.report_uninitialized_variables()
    with v1.Session(master, config=session_config) as session:
        while session.run(not_ready).size:
            time.sleep(poll_secs)


def scaffold() -> tf.compat.v1.train.Scaffold:
    restore = slim_finetune.restore_fn(
        FLAGS.checkpoint_path, FLAGS.checkpoint_exclude_scopes, FLAGS.train_dir, FLAGS.ignore_missing_vars
    )
    return v1.train.Scaffold(init_fn=(lambda _, session: restore(session)) if restore else None)


class FinishReport(v1.train.SessionRunHook):
    """Prints the global step when training ends (with other replicas stepping, our last fetch may lag
    it) and the steps this replica ran; before the session closes, so no thread it stops prints into it."""

    def __init__(self, global_step: tf.Tensor) -> None:
        self.global_step, self.steps = global_step, 0

    def after_run(self, run_context: Any, run_values: Any) -> None:
        self.steps += 1

    def end(self, session: Any) -> None:
        step = int(session.run(self.global_step))
        print(f"finished training at global step {step} after {self.steps} steps here", flush=True)


# -- the program ------------------------------------------------------------------------------
def train(
    deploy: model_deploy.DeploymentConfig,
    master: str,
    is_chief: bool,
    session_config: tf.compat.v1.ConfigProto,
    files: list[str],
    distributed: bool,
) -> None:
    with tf.Graph().as_default():
        train_tensor, global_step, optimizer = build_training(deploy, files, distributed)
        hooks = []
        if FLAGS.max_number_of_steps:
            hooks.append(v1.train.StopAtStepHook(last_step=FLAGS.max_number_of_steps))
        sync = isinstance(optimizer, v1.train.SyncReplicasOptimizer)
        if sync:
            hooks.append(optimizer.make_session_run_hook(is_chief))
        train_scaffold = scaffold()
        if not is_chief:
            wait_for_chief(master, session_config)
        hooks.append(FinishReport(v1.train.get_global_step()))
        with v1.train.MonitoredTrainingSession(
            master=master,
            is_chief=is_chief,
            checkpoint_dir=FLAGS.train_dir,
            scaffold=train_scaffold,
            hooks=hooks,
            save_checkpoint_secs=FLAGS.save_interval_secs,
            save_summaries_secs=FLAGS.save_summaries_secs,
            log_step_count_steps=FLAGS.log_every_n_steps,
            config=session_config,
            stop_grace_period_secs=SYNC_STOP_GRACE_SECS if sync else 120,
        ) as session:
            while not session.should_stop():
                started = time.time()
                loss, step = session.run([train_tensor, global_step])
                if step % FLAGS.log_every_n_steps == 0:
                    print(f"global step {step}: loss = {loss:.4f} ({time.time() - started:.3f} sec/step)", flush=True)


def run(cluster: ClusterConfig) -> int:
    """Serve (a ps task) or train as `legacy_tf1.slim_main` was asked to, its input checked so far."""
    deploy = deployment(cluster)
    session_config = deploy.session_config()
    files = None
    if not cluster.is_ps:  # bad input fails here, in one line, before any server or graph exists
        if FLAGS.checkpoint_path:
            slim_finetune.checkpoint_file(FLAGS.checkpoint_path, "--checkpoint_path")
        files = slim_data.files(FLAGS)
    master = FLAGS.master
    if cluster.is_distributed:
        if cluster.num_ps and not cluster.is_ps:
            # A worker talks to the ps tasks and itself only: it neither waits for nor depends on other workers.
            session_config.device_filters.extend(["/job:ps", f"/job:worker/task:{deploy.replica_id}"])
        server = start_server(cluster, session_config)
        if cluster.is_ps:
            print(f"ps task {cluster.task_index} serving at {server.target}", flush=True)
            server.join()
            return 0
        master = server.target
    # (a ps task has returned above: `files` is set)
    train(deploy, master, deploy.replica_id == 0, session_config, cast("list[str]", files), cluster.is_distributed)
    return 0
