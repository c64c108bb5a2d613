"""Trains a classification model on a slim data set, over clones and (between-graph) replicas."""

import json
import os
import compat.graph_ops

import tensorflow as tf
from datasets import dataset_factory
from deployment import model_deploy
from nets import nets_factory
from preprocessing import preprocessing_factory

import compat.slim as slim
import compat.flags as flags

flags.DEFINE_string("master", "", "The address of the TensorFlow master to use.")
flags.DEFINE_string("train_dir", "/tmp/tfmodel/", "Where checkpoints and event logs are written to.")
flags.DEFINE_integer("num_clones", 1, "Number of model clones to deploy.")
flags.DEFINE_boolean("clone_on_cpu", False, "Use CPUs to deploy clones.")
flags.DEFINE_integer("worker_replicas", 1, "Number of worker replicas.")
flags.DEFINE_integer("num_ps_tasks", 0, "The number of parameter servers. 0: parameters are handled locally.")
flags.DEFINE_integer("num_readers", 4, "The number of parallel readers that read data from the dataset.")
flags.DEFINE_integer("num_preprocessing_threads", 4, "The number of threads used to create the batches.")
flags.DEFINE_integer("log_every_n_steps", 10, "The frequency with which logs are printed.")
flags.DEFINE_integer("save_summaries_secs", 600, "The frequency with which summaries are saved, in seconds.")
flags.DEFINE_integer("save_interval_secs", 600, "The frequency with which the model is saved, in seconds.")
flags.DEFINE_integer("task", 0, "Task id of the replica running the training.")
flags.DEFINE_integer("random_seed", None, "The graph-level random seed, if any.")
flags.DEFINE_boolean("shuffle_input", True, "Whether the data provider shuffles the records it reads.")

# Optimization flags.
flags.DEFINE_float("weight_decay", 0.00004, "The weight decay on the model weights.")
flags.DEFINE_string(
    "optimizer",
    "rmsprop",
    'The name of the optimizer, one of "adadelta", "adagrad", "adam", "ftrl", "momentum", "sgd" or "rmsprop".',
)
flags.DEFINE_float("adadelta_rho", 0.95, "The decay rate for adadelta.")
flags.DEFINE_float("adagrad_initial_accumulator_value", 0.1, "Starting value for the AdaGrad accumulators.")
flags.DEFINE_float("adam_beta1", 0.9, "The exponential decay rate for the 1st moment estimates.")
flags.DEFINE_float("adam_beta2", 0.999, "The exponential decay rate for the 2nd moment estimates.")
flags.DEFINE_float("opt_epsilon", 1.0, "Epsilon term for the optimizer.")
flags.DEFINE_float("ftrl_learning_rate_power", -0.5, "The learning rate power.")
flags.DEFINE_float("ftrl_initial_accumulator_value", 0.1, "Starting value for the FTRL accumulators.")
flags.DEFINE_float("ftrl_l1", 0.0, "The FTRL l1 regularization strength.")
flags.DEFINE_float("ftrl_l2", 0.0, "The FTRL l2 regularization strength.")
flags.DEFINE_float("momentum", 0.9, "The momentum for the MomentumOptimizer and RMSPropOptimizer.")
flags.DEFINE_float("rmsprop_momentum", 0.9, "Momentum.")
flags.DEFINE_float("rmsprop_decay", 0.9, "Decay term for RMSProp.")

# Learning rate flags.
flags.DEFINE_string(
    "learning_rate_decay_type",
    "exponential",
    'Specifies how the learning rate is decayed. One of "fixed", "exponential", or "polynomial"',
)
flags.DEFINE_float("learning_rate", 0.01, "Initial learning rate.")
flags.DEFINE_float("end_learning_rate", 0.0001, "The minimal end learning rate used by a polynomial decay.")
flags.DEFINE_float("label_smoothing", 0.0, "The amount of label smoothing.")
flags.DEFINE_float("learning_rate_decay_factor", 0.94, "Learning rate decay factor.")
flags.DEFINE_float("num_epochs_per_decay", 2.0, "Number of epochs after which learning rate decays.")
flags.DEFINE_bool("sync_replicas", False, "Whether or not to synchronize the replicas during training.")
flags.DEFINE_integer("replicas_to_aggregate", 1, "The number of gradients to collect before updating params.")
flags.DEFINE_float(
    "moving_average_decay", None, "The decay to use for the moving average. If left as None, no moving average."
)

# Dataset flags.
flags.DEFINE_string("dataset_name", "tiny_shapes", "The name of the dataset to load.")
flags.DEFINE_string("dataset_split_name", "train", "The name of the train/test split.")
flags.DEFINE_string("dataset_dir", None, "The directory where the dataset files are stored.")
flags.DEFINE_integer(
    "labels_offset", 0, "An offset for the labels in the dataset: 1 for a model whose class 0 is background."
)
flags.DEFINE_string("model_name", "tinynet", "The name of the architecture to train.")
flags.DEFINE_string(
    "preprocessing_name", None, "The name of the preprocessing to use. If left as None, then the model_name is used."
)
flags.DEFINE_integer("batch_size", 32, "The number of samples in each batch.")
flags.DEFINE_integer("train_image_size", None, "Train image size")
flags.DEFINE_integer("max_number_of_steps", None, "The maximum number of training steps.")

# Fine-tuning flags.
flags.DEFINE_string("checkpoint_path", None, "The path to a checkpoint from which to fine-tune.")
flags.DEFINE_string(
    "checkpoint_exclude_scopes", None, "Comma-separated list of scopes of variables to exclude when restoring."
)
flags.DEFINE_string(
    "trainable_scopes", None, "Comma-separated list of scopes to filter the set of variables to train."
)
flags.DEFINE_boolean("ignore_missing_vars", False, "When restoring a checkpoint would ignore missing variables.")

FLAGS = flags.FLAGS


def _configure_learning_rate(num_samples_per_epoch, global_step):
    """The learning rate tensor, decayed as --learning_rate_decay_type says."""
    decay_steps = int(num_samples_per_epoch / FLAGS.batch_size * FLAGS.num_epochs_per_decay)
    if FLAGS.sync_replicas:
        decay_steps /= FLAGS.replicas_to_aggregate

    if FLAGS.learning_rate_decay_type == "exponential":
        return tf.compat.v1.train.exponential_decay(
            FLAGS.learning_rate,
            global_step,
            decay_steps,
            FLAGS.learning_rate_decay_factor,
            staircase=True,
            name="exponential_decay_learning_rate",
        )
    elif FLAGS.learning_rate_decay_type == "fixed":
        return tf.constant(FLAGS.learning_rate, name="fixed_learning_rate")
    elif FLAGS.learning_rate_decay_type == "polynomial":
        return tf.compat.v1.train.polynomial_decay(
            FLAGS.learning_rate,
            global_step,
            decay_steps,
            FLAGS.end_learning_rate,
            power=1.0,
            cycle=False,
            name="polynomial_decay_learning_rate",
        )
    else:
        raise ValueError(f"learning_rate_decay_type [{FLAGS.learning_rate_decay_type}] was not recognized")


def _configure_optimizer(learning_rate):
    """The optimizer --optimizer names, with its flags."""
    if FLAGS.optimizer == "adadelta":
        optimizer = tf.compat.v1.train.AdadeltaOptimizer(learning_rate, rho=FLAGS.adadelta_rho, epsilon=FLAGS.opt_epsilon)
    elif FLAGS.optimizer == "adagrad":
        optimizer = tf.compat.v1.train.AdagradOptimizer(
            learning_rate, initial_accumulator_value=FLAGS.adagrad_initial_accumulator_value
        )
    elif FLAGS.optimizer == "adam":
        optimizer = tf.compat.v1.train.AdamOptimizer(
            learning_rate, beta1=FLAGS.adam_beta1, beta2=FLAGS.adam_beta2, epsilon=FLAGS.opt_epsilon
        )
    elif FLAGS.optimizer == "ftrl":
        optimizer = tf.compat.v1.train.FtrlOptimizer(
            learning_rate,
            learning_rate_power=FLAGS.ftrl_learning_rate_power,
            initial_accumulator_value=FLAGS.ftrl_initial_accumulator_value,
            l1_regularization_strength=FLAGS.ftrl_l1,
            l2_regularization_strength=FLAGS.ftrl_l2,
        )
    elif FLAGS.optimizer == "momentum":
        optimizer = tf.compat.v1.train.MomentumOptimizer(learning_rate, momentum=FLAGS.momentum, name="Momentum")
    elif FLAGS.optimizer == "rmsprop":
        optimizer = tf.compat.v1.train.RMSPropOptimizer(
            learning_rate, decay=FLAGS.rmsprop_decay, momentum=FLAGS.rmsprop_momentum, epsilon=FLAGS.opt_epsilon
        )
    elif FLAGS.optimizer == "sgd":
        optimizer = tf.compat.v1.train.GradientDescentOptimizer(learning_rate)
    else:
        raise ValueError(f"Optimizer [{FLAGS.optimizer}] was not recognized")
    return optimizer


def _get_init_fn():
    """The function restoring --checkpoint_path (but --checkpoint_exclude_scopes) before training, if fine-tuning."""
    if FLAGS.checkpoint_path is None:
        return None

    # A checkpoint in train_dir means training restarts: the Supervisor restores it instead.
    if tf.train.latest_checkpoint(FLAGS.train_dir):
        tf.compat.v1.logging.info(f"Ignoring --checkpoint_path because a checkpoint already exists in {FLAGS.train_dir}")
        return None

    exclusions = []
    if FLAGS.checkpoint_exclude_scopes:
        exclusions = [scope.strip() for scope in FLAGS.checkpoint_exclude_scopes.split(",")]

    variables_to_restore = []
    for var in slim.get_model_variables():
        if not any(var.op.name.startswith(exclusion) for exclusion in exclusions):
            variables_to_restore.append(var)

    if tf.compat.v1.gfile.IsDirectory(FLAGS.checkpoint_path):
        checkpoint_path = tf.train.latest_checkpoint(FLAGS.checkpoint_path)
    else:
        checkpoint_path = FLAGS.checkpoint_path

    tf.compat.v1.logging.info(f"Fine-tuning from {checkpoint_path}")

    return slim.assign_from_checkpoint_fn(
        checkpoint_path, variables_to_restore, ignore_missing_vars=FLAGS.ignore_missing_vars
    )


def _get_variables_to_train():
    """The trainable variables under --trainable_scopes (all of them without it)."""
    if FLAGS.trainable_scopes is None:
        return tf.compat.v1.trainable_variables()
    scopes = [scope.strip() for scope in FLAGS.trainable_scopes.split(",")]

    variables_to_train = []
    for scope in scopes:
        variables = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.TRAINABLE_VARIABLES, scope)
        variables_to_train.extend(variables)
    return variables_to_train


def _cluster_from_tf_config():
    """The platform's TF_CONFIG (a master, workers and ps tasks) as the flags a replica needs.

    The ps tasks serve until they are stopped; the others start their own server and train
    through it, the master being the chief (task 0).
    """
    tf_config = json.loads(os.environ.get("TF_CONFIG") or "{}")
    cluster = tf_config.get("cluster")
    if not cluster:
        return None
    job_name = tf_config["task"]["type"]
    task_index = tf_config["task"]["index"]
    server = tf.distribute.Server(tf.train.ClusterSpec(cluster), job_name=job_name, task_index=task_index)
    if job_name == "ps":
        tf.compat.v1.logging.info(f"ps task {task_index} serving at {server.target}")
        server.join()
    FLAGS.master = server.target
    FLAGS.task = task_index + (len(cluster.get("master", [])) if job_name == "worker" else 0)
    FLAGS.worker_replicas = len(cluster.get("master", [])) + len(cluster.get("worker", []))
    FLAGS.num_ps_tasks = len(cluster.get("ps", []))
    return job_name, task_index


def main(_):
    if not FLAGS.dataset_dir:
        raise ValueError("You must supply the dataset directory with --dataset_dir")

    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.INFO)
    job = _cluster_from_tf_config()
    worker_job_name, replica_id = job if job else ("worker", FLAGS.task)
    with tf.Graph().as_default():
        if FLAGS.random_seed is not None:
            tf.compat.v1.set_random_seed(FLAGS.random_seed)

        #######################
        # Config model_deploy #
        #######################
        deploy_config = model_deploy.DeploymentConfig(
            num_clones=FLAGS.num_clones,
            clone_on_cpu=FLAGS.clone_on_cpu,
            replica_id=replica_id,
            num_replicas=FLAGS.worker_replicas,
            num_ps_tasks=FLAGS.num_ps_tasks,
            worker_job_name=worker_job_name,
        )

        # Create global_step
        with compat.device(deploy_config.variables_device()):
            global_step = slim.create_global_step()

        ######################
        # Select the dataset #
        ######################
        dataset = dataset_factory.get_dataset(FLAGS.dataset_name, FLAGS.dataset_split_name, FLAGS.dataset_dir)

        ######################
        # Select the network #
        ######################
        network_fn = nets_factory.get_network_fn(
            FLAGS.model_name,
            num_classes=(dataset.num_classes - FLAGS.labels_offset),
            weight_decay=FLAGS.weight_decay,
            is_training=True,
        )

        #####################################
        # Select the preprocessing function #
        #####################################
        preprocessing_name = FLAGS.preprocessing_name or FLAGS.model_name
        image_preprocessing_fn = preprocessing_factory.get_preprocessing(preprocessing_name, is_training=True)

        ##############################################################
        # Create a dataset provider that loads data from the dataset #
        ##############################################################
        with compat.device(deploy_config.inputs_device()):
            provider = slim.dataset_data_provider.DatasetDataProvider(
                dataset,
                num_readers=FLAGS.num_readers,
                shuffle=FLAGS.shuffle_input,
                common_queue_capacity=20 * FLAGS.batch_size,
                common_queue_min=10 * FLAGS.batch_size,
            )
            [image, label] = provider.get(["image", "label"])
            label -= FLAGS.labels_offset

            train_image_size = FLAGS.train_image_size or network_fn.default_image_size

            image = image_preprocessing_fn(image, train_image_size, train_image_size)

            images, labels = tf.compat.v1.train.batch(
                [image, label],
                batch_size=FLAGS.batch_size,
                num_threads=FLAGS.num_preprocessing_threads,
                capacity=5 * FLAGS.batch_size,
            )
            labels = slim.one_hot_encoding(labels, dataset.num_classes - FLAGS.labels_offset)
            batch_queue = slim.prefetch_queue.prefetch_queue([images, labels], capacity=2 * deploy_config.num_clones)

        ####################
        # Define the model #
        ####################
        def clone_fn(batch_queue):
            """Allows data parallelism by creating multiple clones of network_fn."""
            images, labels = batch_queue.dequeue()
            logits, end_points = network_fn(images)

            #############################
            # Specify the loss function #
            #############################
            if "AuxLogits" in end_points:
                slim.losses.softmax_cross_entropy(
                    end_points["AuxLogits"],
                    labels,
                    label_smoothing=FLAGS.label_smoothing,
                    weights=0.4,
                    scope="aux_loss",
                )
            slim.losses.softmax_cross_entropy(logits, labels, label_smoothing=FLAGS.label_smoothing, weights=1.0)
            return end_points

        # Gather initial summaries.
        summaries = set(tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.SUMMARIES))

        clones = model_deploy.create_clones(deploy_config, clone_fn, [batch_queue])
        first_clone_scope = deploy_config.clone_scope(0)
        # Gather update_ops from the first clone. These contain, for example,
        # the updates for the batch_norm variables created by network_fn.
        update_ops = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS, first_clone_scope)

        # Add summaries for end_points.
        end_points = clones[0].outputs
        for end_point in end_points:
            x = end_points[end_point]
            summaries.add(tf.compat.v1.summary.histogram("activations/" + end_point, x))
            summaries.add(tf.compat.v1.summary.scalar("sparsity/" + end_point, tf.nn.zero_fraction(x)))

        # Add summaries for losses.
        for loss in tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.LOSSES, first_clone_scope):
            summaries.add(tf.compat.v1.summary.scalar(f"losses/{loss.op.name}", loss))

        # Add summaries for variables.
        for variable in slim.get_model_variables():
            summaries.add(tf.compat.v1.summary.histogram(variable.op.name, variable))

        #################################
        # Configure the moving averages #
        #################################
        if FLAGS.moving_average_decay:
            moving_average_variables = slim.get_model_variables()
            variable_averages = tf.train.ExponentialMovingAverage(FLAGS.moving_average_decay, global_step)
        else:
            moving_average_variables, variable_averages = None, None

        #########################################
        # Configure the optimization procedure. #
        #########################################
        with compat.device(deploy_config.optimizer_device()):
            learning_rate = _configure_learning_rate(dataset.num_samples, global_step)
            optimizer = _configure_optimizer(learning_rate)
            summaries.add(tf.compat.v1.summary.scalar("learning_rate", learning_rate))

        if FLAGS.sync_replicas:
            # If sync_replicas is enabled, the averaging will be done in the chief
            # queue runner.
            optimizer = tf.compat.v1.train.SyncReplicasOptimizer(
                opt=optimizer,
                replicas_to_aggregate=FLAGS.replicas_to_aggregate,
                total_num_replicas=FLAGS.worker_replicas,
                variable_averages=variable_averages,
                variables_to_average=moving_average_variables,
            )
        elif FLAGS.moving_average_decay:
            # Update ops executed locally by trainer.
            update_ops.append(variable_averages.apply(moving_average_variables))

        # Variables to train.
        variables_to_train = _get_variables_to_train()

        #  and returns a train_tensor and summary_op
        total_loss, clones_gradients = model_deploy.optimize_clones(clones, optimizer, var_list=variables_to_train)
        # Add total_loss to summary.
        summaries.add(tf.compat.v1.summary.scalar("total_loss", total_loss))

        # Create gradient updates.
        grad_updates = optimizer.apply_gradients(clones_gradients, global_step=global_step)
        update_ops.append(grad_updates)

        update_op = tf.group(*update_ops)
        train_tensor = compat.graph_ops.with_dependencies([update_op], total_loss, name="train_op")

        # Add the summaries from the first clone. These contain the summaries
        # created by model_fn and either optimize_clones() or _gather_clone_loss().
        summaries |= set(tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.SUMMARIES, first_clone_scope))

        # Merge all summaries together.
        summary_op = tf.compat.v1.summary.merge(list(summaries), name="summary_op")

        ###########################
        # Kicks off the training. #
        ###########################
        slim.learning.train(
            train_tensor,
            logdir=FLAGS.train_dir,
            master=FLAGS.master,
            is_chief=(FLAGS.task == 0),
            init_fn=_get_init_fn(),
            summary_op=summary_op,
            number_of_steps=FLAGS.max_number_of_steps,
            log_every_n_steps=FLAGS.log_every_n_steps,
            save_summaries_secs=FLAGS.save_summaries_secs,
            save_interval_secs=FLAGS.save_interval_secs,
            sync_optimizer=optimizer if FLAGS.sync_replicas else None,
        )


if __name__ == "__main__":
    tf.compat.v1.disable_eager_execution()
    tf.compat.v1.disable_resource_variables()
    tf.compat.v1.disable_control_flow_v2()
    flags.run()
