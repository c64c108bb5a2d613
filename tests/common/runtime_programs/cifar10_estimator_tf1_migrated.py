# TF 1.4-era user code, and uai-migrate's output for it, which the tests compare byte for byte: not
# this project's style, so neither formatted nor linted here.
# fmt: off
# ruff: noqa
"""CIFAR-10 ResNet with towers over GPUs, as the TF 1.4 tutorials' cifar10_estimator trained it (TF 1.4 code).

Written the way that example's users wrote their programs on TensorFlow 1.4: tf.contrib.learn's
Experiment and learn_runner, tf.contrib.training's HParams and GreedyLoadBalancingStrategy,
tf.contrib.data's TFRecordDataset with TF 1.4's `map(num_threads=, output_buffer_size=)`, tf.app.flags,
tf.layers, private TensorFlow modules for the hooks and the device setter.
cifar10_estimator_tf1.py is that program; cifar10_estimator_tf1_migrated.py is what
`uai-migrate --write` makes of it, reviewed. The ResNet is cut to one conv + batch norm + dense on 8x8 images so that a few steps
take seconds. TFRecords: `image` (raw uint8 bytes, HEIGHT x WIDTH x DEPTH) and `label` (int64).

    python cifar10_estimator_tf1.py --data_dir=D --job_dir=J --num_gpus=2 --variable_strategy=GPU
"""

import collections
import functools
import itertools
import json
import os
import compat.devices

import six
import tensorflow as tf
from compat.learn import run_config
from tensorflow.core.framework import node_def_pb2
import compat.flags as flags
import compat.learn as compat_learn
import compat.devices as compat_devices
import compat.learn.learn_runner as learn_runner
import compat.hparams as compat_hparams

HEIGHT, WIDTH, DEPTH, NUM_CLASSES = 8, 8, 3, 4
EXAMPLES_PER_EPOCH = {"train": 64, "eval": 16}

flags.DEFINE_string("data_dir", "", "The directory where the CIFAR-10 input data is stored.")
flags.DEFINE_string("job_dir", "", "The directory where the model will be stored.")
flags.DEFINE_string("variable_strategy", "CPU", "Where to locate variable operations: CPU or GPU.")
flags.DEFINE_integer("num_gpus", 1, "The number of gpus used. Uses only CPU if set to 0.")
flags.DEFINE_integer("train_steps", 6, "The number of steps to use for training.")
flags.DEFINE_integer("train_batch_size", 8, "Batch size for training.")
flags.DEFINE_integer("eval_batch_size", 8, "Batch size for validation.")
flags.DEFINE_float("momentum", 0.9, "Momentum for MomentumOptimizer.")
flags.DEFINE_float("weight_decay", 2e-4, "Weight decay for convolutions.")
flags.DEFINE_float("learning_rate", 0.1, "Initial learning rate.")
flags.DEFINE_float("batch_norm_decay", 0.997, "Decay for batch norm.")
flags.DEFINE_boolean("log_device_placement", False, "Whether to log device placement.")
FLAGS = flags.FLAGS


# -- cifar10_utils.py ------------------------------------------------------------------------
class RunConfig(compat_learn.RunConfig):
    def uid(self, whitelist=None):
        """Generates a 'Unique Identifier' from the config's fields, leaving out the whitelisted ones.

        learn_runner compares the uid of the Estimator's config with the one it was given: the
        fields that may differ between two runs of one model (seeds, checkpoint and summary
        frequencies, the session config) are not part of it.
        """
        if whitelist is None:
            whitelist = run_config._DEFAULT_UID_WHITE_LIST

        state = {k: v for k, v in self.__dict__.items() if not k.startswith("__")}
        for k in whitelist:
            state.pop("_" + k, None)

        ordered_state = collections.OrderedDict(sorted(state.items(), key=lambda t: t[0]))
        # ClusterSpec has no repr of its own: compare its jobs and addresses
        if "_cluster_spec" in ordered_state:
            ordered_state["_cluster_spec"] = collections.OrderedDict(
                sorted(ordered_state["_cluster_spec"].as_dict().items(), key=lambda t: t[0])
            )
        return ", ".join("%s=%r" % (k, v) for (k, v) in six.iteritems(ordered_state))


class ExamplesPerSecondHook(tf.compat.v1.train.SessionRunHook):
    """Logs the number of examples trained per second, every N steps."""

    def __init__(self, batch_size, every_n_steps=100, every_n_secs=None):
        if (every_n_steps is None) == (every_n_secs is None):
            raise ValueError("exactly one of every_n_steps and every_n_secs should be provided.")
        self._timer = tf.compat.v1.train.SecondOrStepTimer(every_steps=every_n_steps, every_secs=every_n_secs)
        self._step_train_time = 0
        self._total_steps = 0
        self._batch_size = batch_size

    def begin(self):
        self._global_step_tensor = tf.compat.v1.train.get_global_step()
        if self._global_step_tensor is None:
            raise RuntimeError("Global step should be created to use ExamplesPerSecondHook.")

    def before_run(self, run_context):
        return tf.compat.v1.train.SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        global_step = run_values.results
        if self._timer.should_trigger_for_step(global_step):
            elapsed_time, elapsed_steps = self._timer.update_last_triggered_step(global_step)
            if elapsed_time is not None:
                self._step_train_time += elapsed_time
                self._total_steps += elapsed_steps
                average_examples_per_sec = self._batch_size * (self._total_steps / self._step_train_time)
                current_examples_per_sec = self._batch_size * (elapsed_steps / elapsed_time)
                tf.compat.v1.logging.info(
                    "Average examples/sec: %g (%g), step = %g",
                    average_examples_per_sec,
                    current_examples_per_sec,
                    self._total_steps,
                )


def local_device_setter(num_devices=1, ps_device_type="cpu", worker_device="/cpu:0", ps_ops=None, ps_strategy=None):
    """A device function for one machine: variables on the `ps_device_type` devices `ps_strategy` picks, ops on `worker_device`."""
    if ps_ops is None:
        ps_ops = ["Variable", "VariableV2", "VarHandleOp"]

    if ps_strategy is None:
        ps_strategy = compat.devices.RoundRobin(range(num_devices))
    if not six.callable(ps_strategy):
        raise TypeError("ps_strategy must be callable")

    def _local_device_chooser(op):
        current_device = tf.compat.v1.DeviceSpec.from_string(op.device or "")

        node_def = op if isinstance(op, node_def_pb2.NodeDef) else op.node_def
        if node_def.op in ps_ops:
            ps_device_spec = tf.compat.v1.DeviceSpec.from_string("/{}:{}".format(ps_device_type, ps_strategy(op)))
            ps_device_spec.merge_from(current_device)
            return ps_device_spec.to_string()
        else:
            worker_device_spec = tf.compat.v1.DeviceSpec.from_string(worker_device or "")
            worker_device_spec.merge_from(current_device)
            return worker_device_spec.to_string()

    return _local_device_chooser


# -- cifar10.py ------------------------------------------------------------------------------
class Cifar10DataSet(object):
    """The CIFAR-10 records of one subset (train, eval)."""

    def __init__(self, data_dir, subset="train"):
        self.data_dir = data_dir
        self.subset = subset

    def get_filenames(self):
        if self.subset in ["train", "eval"]:
            return [os.path.join(self.data_dir, self.subset + ".tfrecords")]
        raise ValueError('Invalid data subset "%s"' % self.subset)

    def parser(self, serialized_example):
        """Parses a single tf.Example into image and label tensors."""
        features = tf.compat.v1.parse_single_example(
            serialized_example,
            features={
                "image": tf.io.FixedLenFeature([], tf.string),
                "label": tf.io.FixedLenFeature([], tf.int64),
            },
        )
        image = tf.compat.v1.decode_raw(features["image"], tf.uint8)
        image.set_shape([DEPTH * HEIGHT * WIDTH])
        image = tf.cast(tf.reshape(image, [HEIGHT, WIDTH, DEPTH]), tf.float32) / 255.0
        label = tf.cast(features["label"], tf.int32)
        return image, label

    def make_batch(self, batch_size):
        """Read the images and labels from 'filenames'."""
        filenames = self.get_filenames()
        # Repeat infinitely.
        dataset = tf.compat.v1.data.TFRecordDataset(filenames).repeat()
        # Parse records.
        dataset = dataset.map(self.parser, num_parallel_calls=batch_size).prefetch(2 * batch_size)
        # Batch it up.
        dataset = dataset.batch(batch_size)
        iterator = dataset.make_one_shot_iterator()
        image_batch, label_batch = iterator.get_next()
        return image_batch, label_batch

    @staticmethod
    def num_examples_per_epoch(subset="train"):
        return EXAMPLES_PER_EPOCH[subset]


# -- cifar10_main.py -------------------------------------------------------------------------
def get_model_fn(num_gpus, variable_strategy, num_workers):
    """Returns a function that will build the resnet model."""

    def _resnet_model_fn(features, labels, mode, params):
        """Resnet model body: one tower per GPU, gradients averaged on the consolidation device."""
        is_training = mode == tf.estimator.ModeKeys.TRAIN
        weight_decay = params.weight_decay
        momentum = params.momentum

        tower_features = features
        tower_labels = labels
        tower_losses = []
        tower_gradvars = []
        tower_preds = []

        if num_gpus == 0:
            num_devices = 1
            device_type = "cpu"
        else:
            num_devices = num_gpus
            device_type = "gpu"

        for i in range(num_devices):
            worker_device = "/{}:{}".format(device_type, i)
            if variable_strategy == "CPU":
                device_setter = local_device_setter(worker_device=worker_device)
            elif variable_strategy == "GPU":
                device_setter = local_device_setter(
                    ps_device_type="gpu",
                    worker_device=worker_device,
                    ps_strategy=compat_devices.GreedyLoadBalancingStrategy(
                        num_gpus, compat_devices.byte_size_load_fn
                    ),
                )
            with tf.compat.v1.variable_scope("resnet", reuse=bool(i != 0)):
                with tf.compat.v1.name_scope("tower_%d" % i) as name_scope:
                    with compat.device(device_setter):
                        loss, gradvars, preds = _tower_fn(
                            is_training,
                            weight_decay,
                            tower_features[i],
                            tower_labels[i],
                            params.batch_norm_decay,
                        )
                        tower_losses.append(loss)
                        tower_gradvars.append(gradvars)
                        tower_preds.append(preds)
                        if i == 0:
                            # Only the batch norm updates of the first tower: the towers see the same statistics.
                            update_ops = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS, name_scope)

        # Now compute global loss and gradients.
        gradvars = []
        with tf.compat.v1.name_scope("gradient_averaging"):
            all_grads = {}
            for grad, var in itertools.chain(*tower_gradvars):
                if grad is not None:
                    all_grads.setdefault(var, []).append(grad)
            for var, grads in six.iteritems(all_grads):
                # Average gradients on the same device as the variables to which they apply.
                with compat.device(var.device):
                    if len(grads) == 1:
                        avg_grad = grads[0]
                    else:
                        avg_grad = tf.multiply(tf.add_n(grads), 1.0 / len(grads))
                gradvars.append((avg_grad, var))

        # Device that runs the ops to apply global gradient updates.
        consolidation_device = "/gpu:0" if variable_strategy == "GPU" else "/cpu:0"
        with compat.device(consolidation_device):
            num_batches_per_epoch = Cifar10DataSet.num_examples_per_epoch("train") // (
                params.train_batch_size * num_workers
            )
            boundaries = [num_batches_per_epoch * x for x in (82, 123, 300)]
            staged_lr = [params.learning_rate * x for x in [1, 0.1, 0.01, 0.002]]

            learning_rate = tf.compat.v1.train.piecewise_constant(tf.compat.v1.train.get_global_step(), boundaries, staged_lr)

            loss = tf.reduce_mean(tower_losses, name="loss")

            examples_sec_hook = ExamplesPerSecondHook(params.train_batch_size, every_n_steps=2)

            tensors_to_log = {"learning_rate": learning_rate, "loss": loss}
            logging_hook = tf.compat.v1.train.LoggingTensorHook(tensors=tensors_to_log, every_n_iter=2)

            train_hooks = [logging_hook, examples_sec_hook]

            optimizer = tf.compat.v1.train.MomentumOptimizer(learning_rate=learning_rate, momentum=momentum)

            # Create single grouped train op
            train_op = [optimizer.apply_gradients(gradvars, global_step=tf.compat.v1.train.get_global_step())]
            train_op.extend(update_ops)
            train_op = tf.group(*train_op)

            predictions = {
                "classes": tf.concat([p["classes"] for p in tower_preds], axis=0),
                "probabilities": tf.concat([p["probabilities"] for p in tower_preds], axis=0),
            }
            stacked_labels = tf.concat(labels, axis=0)
            metrics = {"accuracy": tf.compat.v1.metrics.accuracy(stacked_labels, predictions["classes"])}

        return tf.estimator.EstimatorSpec(
            mode=mode,
            predictions=predictions,
            loss=loss,
            train_op=train_op,
            training_hooks=train_hooks,
            eval_metric_ops=metrics,
        )

    return _resnet_model_fn


def _tower_fn(is_training, weight_decay, feature, label, batch_norm_decay):
    """Build the computation tower: a conv + batch norm + dense network, its loss and gradients."""
    net = tf.compat.v1.layers.conv2d(feature, 8, 3, padding="same", use_bias=False, name="conv")
    net = tf.compat.v1.layers.batch_normalization(net, momentum=batch_norm_decay, training=is_training, name="bn")
    net = tf.nn.relu(net)
    logits = tf.compat.v1.layers.dense(tf.reduce_mean(net, axis=[1, 2]), NUM_CLASSES, name="logits")

    tower_pred = {
        "classes": tf.argmax(input=logits, axis=1),
        "probabilities": tf.nn.softmax(logits),
    }

    tower_loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(logits=logits, labels=label)
    tower_loss = tf.reduce_mean(tower_loss)

    model_params = tf.compat.v1.trainable_variables()
    tower_loss += weight_decay * tf.add_n([tf.nn.l2_loss(v) for v in model_params])

    tower_grad = tf.gradients(tower_loss, model_params)

    return tower_loss, zip(tower_grad, model_params), tower_pred


def input_fn(data_dir, subset, num_shards, batch_size):
    """Create input graph for model: the batch, split into one shard per tower."""
    with tf.device("/cpu:0"):
        dataset = Cifar10DataSet(data_dir, subset)
        image_batch, label_batch = dataset.make_batch(batch_size)
        if num_shards <= 1:
            # No GPU available or only 1 GPU.
            return [image_batch], [label_batch]

        # Note that passing num=batch_size is safe here, even though
        # dataset.batch(batch_size) can, in some cases, return fewer than batch_size
        # examples. This is because it does so only when repeating for a limited
        # number of epochs, but our dataset repeats forever.
        image_batch = tf.unstack(image_batch, num=batch_size, axis=0)
        label_batch = tf.unstack(label_batch, num=batch_size, axis=0)
        feature_shards = [[] for i in range(num_shards)]
        label_shards = [[] for i in range(num_shards)]
        for i in range(batch_size):
            idx = i % num_shards
            feature_shards[idx].append(image_batch[i])
            label_shards[idx].append(label_batch[i])
        feature_shards = [tf.parallel_stack(x) for x in feature_shards]
        label_shards = [tf.parallel_stack(x) for x in label_shards]
        return feature_shards, label_shards


def get_experiment_fn(data_dir, num_gpus, variable_strategy):
    """Returns an Experiment function, called by learn_runner with the run config and the hparams."""

    def _experiment_fn(run_config, hparams):
        """Returns an Experiment."""
        train_input_fn = functools.partial(
            input_fn, data_dir, subset="train", num_shards=num_gpus, batch_size=hparams.train_batch_size
        )
        eval_input_fn = functools.partial(
            input_fn, data_dir, subset="eval", batch_size=hparams.eval_batch_size, num_shards=num_gpus
        )

        num_eval_examples = Cifar10DataSet.num_examples_per_epoch("eval")
        if num_eval_examples % hparams.eval_batch_size != 0:
            raise ValueError("validation set size must be multiple of eval_batch_size")

        train_steps = hparams.train_steps
        eval_steps = num_eval_examples // hparams.eval_batch_size

        classifier = tf.estimator.Estimator(
            model_fn=get_model_fn(num_gpus, variable_strategy, run_config.num_worker_replicas or 1),
            config=run_config,
            params=hparams,
        )

        # Create experiment.
        return compat_learn.Experiment(
            classifier,
            train_input_fn=train_input_fn,
            eval_input_fn=eval_input_fn,
            train_steps=train_steps,
            eval_steps=eval_steps,
        )

    return _experiment_fn


def main(_):
    if FLAGS.num_gpus > 0 and FLAGS.train_batch_size % FLAGS.num_gpus != 0:
        raise ValueError("--train_batch_size must be multiple of --num_gpus.")
    # Soft placement lets the GPU towers run where there is no GPU.
    sess_config = tf.compat.v1.ConfigProto(
        allow_soft_placement=True,
        log_device_placement=FLAGS.log_device_placement,
        gpu_options=tf.compat.v1.GPUOptions(force_gpu_compatible=True),
    )
    config = RunConfig(
        session_config=sess_config,
        model_dir=FLAGS.job_dir,
        save_checkpoints_steps=FLAGS.train_steps,
        tf_random_seed=1,
    )
    hparams = dict(
        train_steps=FLAGS.train_steps,
        train_batch_size=FLAGS.train_batch_size,
        eval_batch_size=FLAGS.eval_batch_size,
        momentum=FLAGS.momentum,
        weight_decay=FLAGS.weight_decay,
        learning_rate=FLAGS.learning_rate,
        batch_norm_decay=FLAGS.batch_norm_decay,
    )
    result = learn_runner.run(
        get_experiment_fn(FLAGS.data_dir, FLAGS.num_gpus, FLAGS.variable_strategy),
        run_config=config,
        hparams=compat_hparams.HParams(is_chief=config.is_chief, **hparams),
    )
    # What the tests read: the task this process played and the evaluation it made (master only).
    metrics = result[0] if isinstance(result, tuple) else None
    print(
        "RESULT "
        + json.dumps(
            {
                "task": config.task_type,
                "is_chief": config.is_chief,
                "metrics": {k: float(v) for k, v in six.iteritems(metrics or {})} or None,
            }
        )
    )


if __name__ == "__main__":
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.INFO)
    flags.run()
