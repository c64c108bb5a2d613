"""The TF 1.4 tutorials' multi-GPU `cifar10_estimator`, as it reads after uai-migrate, shrunk to run in seconds.

What the tutorial had (cifar10_main.py, cifar10_utils.py, cifar10.py), with its TF 1 pieces
replaced by their compat homes:
  - towers placed by the example's `local_device_setter`, variables spread over the tower devices
    by `compat.devices.GreedyLoadBalancingStrategy(n, compat.devices.byte_size_load_fn)`
    (was tf.contrib.training.*), entered through `compat.device` (tf.device refuses functions);
  - `compat.learn.Experiment` + `compat.learn.learn_runner.run` (was tf.contrib.learn.*), the
    schedule chosen by TF_CONFIG's task type: master, worker and ps of a cluster, or one process;
  - `compat.hparams.HParams` (was tf.contrib.training.HParams);
  - a RunConfig subclass overriding uid() with `run_config._DEFAULT_UID_WHITE_LIST`
    (was tf.contrib.learn.RunConfig and tensorflow.contrib.learn.python.learn.run_config).
The ResNet is cut to one conv + batch norm + dense on 8x8 images. TFRecords: `image` (raw uint8
bytes, HEIGHT x WIDTH x DEPTH) and `label` (int64), as the tutorial's generate_cifar10_tfrecords.py
wrote them. Towers run on logical CPUs when there are no GPUs.

    cifar10_estimator_style.py --data-dir D --job-dir J --num-gpus 2 --variable-strategy GPU --train-steps 6
"""

import argparse
import collections
import functools
import itertools
import json
import os

import tensorflow as tf
from tensorflow.core.framework import node_def_pb2

import compat
from compat import devices
from compat.hparams import HParams
from compat.learn import Experiment, learn_runner, run_config

HEIGHT, WIDTH, DEPTH, NUM_CLASSES = 8, 8, 3, 4
EXAMPLES_PER_EPOCH = {"train": 64, "eval": 16}


# -- cifar10_utils.py ------------------------------------------------------------------------
class RunConfig(tf.estimator.RunConfig):
    def uid(self, whitelist=None):
        """Generates a 'Unique Identifier' based on all internal fields, ignoring the whitelisted ones."""
        if whitelist is None:
            whitelist = run_config._DEFAULT_UID_WHITE_LIST
        state = {k: v for k, v in self.__dict__.items() if not k.startswith("__")}
        for k in whitelist:
            state.pop("_" + k, None)
        ordered_state = collections.OrderedDict(sorted(state.items(), key=lambda t: t[0]))
        if "_cluster_spec" in ordered_state:
            ordered_state["_cluster_spec"] = collections.OrderedDict(
                sorted(ordered_state["_cluster_spec"].as_dict().items(), key=lambda t: t[0])
            )
        return ", ".join("%s=%r" % (k, v) for (k, v) in ordered_state.items())


class ExamplesPerSecondHook(tf.estimator.SessionRunHook):
    """Logs examples per second every `every_n_steps` steps."""

    def __init__(self, batch_size, every_n_steps=2):
        self._timer = tf.estimator.SecondOrStepTimer(every_steps=every_n_steps)
        self._batch_size = batch_size
        self._total_steps = 0

    def begin(self):
        self._global_step_tensor = tf.compat.v1.train.get_global_step()

    def before_run(self, run_context):
        return tf.estimator.SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context, run_values):
        global_step = run_values.results
        if self._timer.should_trigger_for_step(global_step):
            elapsed_time, elapsed_steps = self._timer.update_last_triggered_step(global_step)
            if elapsed_time:
                self._total_steps += elapsed_steps
                tf.compat.v1.logging.info("examples/sec: %g", self._batch_size * elapsed_steps / elapsed_time)


def local_device_setter(num_devices=1, ps_device_type="cpu", worker_device="/cpu:0", ps_ops=None, ps_strategy=None):
    if ps_ops is None:
        ps_ops = ["Variable", "VariableV2", "VarHandleOp"]
    if ps_strategy is None:
        ps_strategy = devices.RoundRobin(range(num_devices))
    if not callable(ps_strategy):
        raise TypeError("ps_strategy must be callable")

    def _local_device_chooser(op):
        current_device = tf.compat.v1.DeviceSpec.from_string(op.device or "")
        node_def = op if isinstance(op, node_def_pb2.NodeDef) else op.node_def
        if node_def.op in ps_ops:
            ps_device_spec = tf.compat.v1.DeviceSpec.from_string(f"/{ps_device_type}:{ps_strategy(op)}")
            ps_device_spec.merge_from(current_device)
            return ps_device_spec.to_string()
        worker_device_spec = tf.compat.v1.DeviceSpec.from_string(worker_device or "")
        worker_device_spec.merge_from(current_device)
        return worker_device_spec.to_string()

    return _local_device_chooser


# -- cifar10.py ------------------------------------------------------------------------------
class Cifar10DataSet:
    def __init__(self, data_dir, subset="train"):
        self.data_dir = data_dir
        self.subset = subset

    def get_filenames(self):
        return [os.path.join(self.data_dir, self.subset + ".tfrecords")]

    def parser(self, serialized_example):
        features = tf.io.parse_single_example(
            serialized_example,
            features={"image": tf.io.FixedLenFeature([], tf.string), "label": tf.io.FixedLenFeature([], tf.int64)},
        )
        image = tf.io.decode_raw(features["image"], tf.uint8)
        image.set_shape([DEPTH * HEIGHT * WIDTH])
        image = tf.cast(tf.reshape(image, [HEIGHT, WIDTH, DEPTH]), tf.float32) / 255.0
        return image, tf.cast(features["label"], tf.int32)

    def make_batch(self, batch_size):
        dataset = tf.data.TFRecordDataset(self.get_filenames()).repeat()
        dataset = dataset.map(self.parser).batch(batch_size, drop_remainder=True)
        iterator = tf.compat.v1.data.make_one_shot_iterator(dataset)
        return iterator.get_next()

    @staticmethod
    def num_examples_per_epoch(subset="train"):
        return EXAMPLES_PER_EPOCH[subset]


# -- cifar10_main.py -------------------------------------------------------------------------
def get_model_fn(num_gpus, variable_strategy, num_workers):
    def _resnet_model_fn(features, labels, mode, params):
        is_training = mode == tf.estimator.ModeKeys.TRAIN
        tower_features, tower_labels = features, labels
        tower_losses, tower_gradvars, tower_preds = [], [], []
        num_devices = max(num_gpus, 1)
        device_type = "gpu" if num_gpus and tf.config.list_physical_devices("GPU") else "cpu"
        for i in range(num_devices):
            worker_device = f"/{device_type}:{i}"
            if variable_strategy == "CPU":
                device_setter = local_device_setter(worker_device=worker_device)
            else:
                device_setter = local_device_setter(
                    ps_device_type=device_type,
                    worker_device=worker_device,
                    ps_strategy=devices.GreedyLoadBalancingStrategy(num_devices, devices.byte_size_load_fn),
                )
            with tf.compat.v1.variable_scope("resnet", reuse=bool(i != 0)):
                with tf.name_scope("tower_%d" % i) as name_scope:
                    with compat.device(device_setter):
                        loss, gradvars, preds = _tower_fn(
                            is_training,
                            params.weight_decay,
                            tower_features[i],
                            tower_labels[i],
                            params.batch_norm_decay,
                        )
                        tower_losses.append(loss)
                        tower_gradvars.append(gradvars)
                        tower_preds.append(preds)
                        if i == 0:
                            update_ops = tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.UPDATE_OPS, name_scope)

        gradvars = []
        with tf.name_scope("gradient_averaging"):
            all_grads = {}
            for grad, var in itertools.chain(*tower_gradvars):
                if grad is not None:
                    all_grads.setdefault(var, []).append(grad)
            for var, grads in all_grads.items():
                with tf.device(var.device):
                    avg_grad = grads[0] if len(grads) == 1 else tf.multiply(tf.add_n(grads), 1.0 / len(grads))
                gradvars.append((avg_grad, var))

        consolidation_device = "/gpu:0" if variable_strategy == "GPU" and device_type == "gpu" else "/cpu:0"
        with tf.device(consolidation_device):
            num_batches_per_epoch = Cifar10DataSet.num_examples_per_epoch("train") // (
                params.train_batch_size * num_workers
            )
            boundaries = [num_batches_per_epoch * x for x in (82, 123, 300)]
            staged_lr = [params.learning_rate * x for x in [1, 0.1, 0.01, 0.002]]
            learning_rate = tf.compat.v1.train.piecewise_constant(
                tf.compat.v1.train.get_global_step(), boundaries, staged_lr
            )
            loss = tf.reduce_mean(tower_losses, name="loss")
            examples_sec_hook = ExamplesPerSecondHook(params.train_batch_size, every_n_steps=2)
            logging_hook = tf.estimator.LoggingTensorHook(
                tensors={"learning_rate": learning_rate, "loss": loss}, every_n_iter=2
            )
            train_hooks = [logging_hook, examples_sec_hook]
            optimizer = tf.compat.v1.train.MomentumOptimizer(learning_rate=learning_rate, momentum=params.momentum)
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
    layers = tf.compat.v1.layers
    net = layers.conv2d(feature, 8, 3, padding="same", use_bias=False, name="conv")
    net = layers.batch_normalization(net, momentum=batch_norm_decay, training=is_training, name="bn")
    net = tf.nn.relu(net)
    logits = layers.dense(tf.reduce_mean(net, axis=[1, 2]), NUM_CLASSES, name="logits")
    tower_pred = {"classes": tf.argmax(input=logits, axis=1), "probabilities": tf.nn.softmax(logits)}
    tower_loss = tf.compat.v1.losses.sparse_softmax_cross_entropy(logits=logits, labels=label)
    tower_loss = tf.reduce_mean(tower_loss)
    model_params = tf.compat.v1.trainable_variables()
    tower_loss += weight_decay * tf.add_n([tf.nn.l2_loss(v) for v in model_params])
    tower_grad = tf.gradients(tower_loss, model_params)
    return tower_loss, list(zip(tower_grad, model_params)), tower_pred


def input_fn(data_dir, subset, num_shards, batch_size):
    with tf.device("/cpu:0"):
        image_batch, label_batch = Cifar10DataSet(data_dir, subset).make_batch(batch_size)
        if num_shards <= 1:
            return [image_batch], [label_batch]
        image_batch = tf.unstack(image_batch, num=batch_size, axis=0)
        label_batch = tf.unstack(label_batch, num=batch_size, axis=0)
        feature_shards = [[] for _ in range(num_shards)]
        label_shards = [[] for _ in range(num_shards)]
        for i in range(batch_size):
            idx = i % num_shards
            feature_shards[idx].append(image_batch[i])
            label_shards[idx].append(label_batch[i])
        feature_shards = [tf.parallel_stack(x) for x in feature_shards]
        label_shards = [tf.parallel_stack(x) for x in label_shards]
        return feature_shards, label_shards


def get_experiment_fn(data_dir, num_gpus, variable_strategy):
    def _experiment_fn(run_config, hparams):
        train_input_fn = functools.partial(
            input_fn, data_dir, subset="train", num_shards=num_gpus, batch_size=hparams.train_batch_size
        )
        eval_input_fn = functools.partial(
            input_fn, data_dir, subset="eval", batch_size=hparams.eval_batch_size, num_shards=num_gpus
        )
        num_eval_examples = Cifar10DataSet.num_examples_per_epoch("eval")
        if num_eval_examples % hparams.eval_batch_size != 0:
            raise ValueError("validation set size must be multiple of eval_batch_size")
        eval_steps = num_eval_examples // hparams.eval_batch_size
        classifier = tf.estimator.Estimator(
            model_fn=get_model_fn(num_gpus, variable_strategy, run_config.num_worker_replicas or 1),
            config=run_config,
            params=hparams,
        )
        return Experiment(
            classifier,
            train_input_fn=train_input_fn,
            eval_input_fn=eval_input_fn,
            train_steps=hparams.train_steps,
            eval_steps=eval_steps,
        )

    return _experiment_fn


def main(job_dir, data_dir, num_gpus, variable_strategy, **hparams):
    sess_config = tf.compat.v1.ConfigProto(allow_soft_placement=True, device_count={"CPU": max(num_gpus, 1)})
    config = RunConfig(
        session_config=sess_config, model_dir=job_dir, save_checkpoints_steps=hparams["train_steps"], tf_random_seed=1
    )
    result = learn_runner.run(
        get_experiment_fn(data_dir, num_gpus, variable_strategy),
        run_config=config,
        hparams=HParams(is_chief=config.is_chief, **hparams),
    )
    metrics = result[0] if isinstance(result, tuple) else None
    print(
        "RESULT "
        + json.dumps(
            {
                "task": config.task_type,
                "is_chief": config.is_chief,
                "metrics": {k: float(v) for k, v in (metrics or {}).items()} or None,
            }
        )
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--job-dir", required=True)
    parser.add_argument("--variable-strategy", choices=["CPU", "GPU"], default="CPU")
    parser.add_argument("--num-gpus", type=int, default=1)
    parser.add_argument("--train-steps", type=int, default=6)
    parser.add_argument("--train-batch-size", type=int, default=8)
    parser.add_argument("--eval-batch-size", type=int, default=8)
    parser.add_argument("--momentum", type=float, default=0.9)
    parser.add_argument("--weight-decay", type=float, default=2e-4)
    parser.add_argument("--learning-rate", type=float, default=0.1)
    parser.add_argument("--batch-norm-decay", type=float, default=0.997)
    args = parser.parse_args()
    if args.num_gpus > 0 and args.train_batch_size % args.num_gpus != 0:
        raise ValueError("--train-batch-size must be multiple of --num-gpus.")
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.INFO)
    main(**vars(args))
