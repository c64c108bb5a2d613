"""The distribution strategy, or the Estimator `RunConfig`, a cluster calls for: one call, any TF_CONFIG dialect.

    import compat
    strategy = compat.strategy()              # from TF_CONFIG (any dialect) and the local devices
    config = compat.run_config(model_dir=d, num_devices=2)      # Estimator code

Choice (`kind`): no cluster -> one device, or Mirrored over the local devices; a `ps` job ->
ParameterServer (the chief coordinates; ps and worker tasks serve); workers without ps ->
MultiWorkerMirrored; an evaluator task -> one device, evaluation only.

TF2 strategies reject a `master` job, so TF_CONFIG is rewritten in the `chief` dialect in
`os.environ` before TensorFlow reads it (`export`). Keras 3 `fit` fails under
MultiWorkerMirrored and ParameterServer; `import compat` selects tf-keras, whose `fit` works.

This module is itself callable: `compat.strategy(...)` is `compat.strategy.strategy(...)`.
"""

import os
import sys
import types
from collections.abc import MutableMapping
from typing import TYPE_CHECKING, Any

from compat import devices, tf_config
from compat.errors import DistConfigError
from compat.tf_config import ClusterConfig

if TYPE_CHECKING:
    import tensorflow as tf

ONE_DEVICE, MIRRORED, MULTI_WORKER, PARAMETER_SERVER, EVALUATOR = (
    "one_device",
    "mirrored",
    "multi_worker_mirrored",
    "parameter_server",
    "evaluator",
)
# why a cluster of a chief (or master) and ps tasks alone stops: its coordinator would have no task to run a step on
NO_WORKER = (
    "parameter-server training needs a worker task: this cluster has a chief (the platform's master) and ps tasks "
    "only, and TF 2's ParameterServerStrategy runs its steps on workers alone (TF1's master trained on the ps's "
    "variables itself); add a worker task, or run without ps tasks"
)


def _config(config: ClusterConfig | None) -> ClusterConfig:
    return tf_config.from_environment() if config is None else config


def kind(config: ClusterConfig | None = None, num_devices: int = 1) -> str:
    """Which strategy `config` and `num_devices` local devices call for (one of the constants above)."""
    config = _config(config)
    if config.is_evaluator:
        return EVALUATOR
    if not config.is_distributed:
        return MIRRORED if num_devices > 1 else ONE_DEVICE
    if config.num_ps:
        return PARAMETER_SERVER
    return MULTI_WORKER


def export(
    config: ClusterConfig | None = None, dialect: str = "chief", environ: MutableMapping[str, str] | None = None
) -> ClusterConfig:
    """Write `config` as TF_CONFIG in `dialect` into the environment TensorFlow reads; return it."""
    config = _config(config)
    environ = os.environ if environ is None else environ
    if config.is_distributed:
        environ["TF_CONFIG"] = tf_config.to_json(config, dialect)
    else:
        environ.pop("TF_CONFIG", None)
    return config


def local_devices(num_devices: int | None = None) -> list[str]:
    """Names of the devices one task trains on: its GPUs, else `num_devices` logical CPUs."""
    import tensorflow as tf

    gpus = tf.config.list_physical_devices("GPU")
    if gpus:
        return [f"/gpu:{i}" for i in range(num_devices or len(gpus))]
    # The configured split, read without initialising the runtime (MultiWorkerMirrored
    # must be created before that happens).
    configured = tf.config.get_logical_device_configuration(tf.config.list_physical_devices("CPU")[0])
    return devices.logical_cpus(num_devices or len(configured or [None]))


def serve(config: ClusterConfig | None = None) -> None:
    """Run this task's `tf.distribute.Server` until the process is stopped (ps and PS-strategy workers)."""
    import tensorflow as tf

    config = export(_config(config))
    spec = tf.train.ClusterSpec({job: list(addrs) for job, addrs in config.cluster.items()})
    server = tf.distribute.Server(spec, job_name=config.task_type, task_index=config.task_index, start=True)
    server.join()


def strategy(
    config: ClusterConfig | None = None, num_devices: int | None = None, join: bool = True
) -> "tf.distribute.Strategy":
    """The `tf.distribute` strategy for this task.

    Under parameter-server training only the chief gets a strategy; a ps or worker task
    serves: with `join=True` it blocks in `serve()` (as TF's own recipe does), else this
    raises `DistConfigError`.
    """
    config = _training_cluster(_config(config))
    if kind(config) == PARAMETER_SERVER and not config.num_tasks(tf_config.WORKER):
        raise DistConfigError(NO_WORKER)  # (before export: a refused cluster leaves TF_CONFIG as it was)
    config = export(config)
    import tensorflow as tf

    chosen = kind(config)
    if chosen in (ONE_DEVICE, MIRRORED, EVALUATOR):
        names = local_devices(num_devices)
        chosen = kind(config, len(names))
    if chosen == PARAMETER_SERVER:
        if not config.is_chief:
            if not join:
                raise DistConfigError(
                    f"{config.task} serves in parameter-server training; only the chief has a strategy"
                )
            serve(config)
        resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
        return tf.distribute.experimental.ParameterServerStrategy(resolver)
    if chosen == MULTI_WORKER:
        return tf.distribute.MultiWorkerMirroredStrategy()
    if chosen == MIRRORED:
        return tf.distribute.MirroredStrategy(names)
    return tf.distribute.OneDeviceStrategy(names[0])


def _training_cluster(config: ClusterConfig) -> ClusterConfig:
    """`config` as a training task must see it: without the evaluator.

    The evaluator only reads checkpoints and runs no server; a ParameterServer chief given a
    cluster that lists it waits for that server forever.
    """
    if config.is_evaluator or tf_config.EVALUATOR not in config.cluster:
        return config
    return config.replace(cluster={job: addrs for job, addrs in config.cluster.items() if job != tf_config.EVALUATOR})


def coordinator(
    parameter_server_strategy: "tf.distribute.experimental.ParameterServerStrategy",
) -> "tf.distribute.experimental.coordinator.ClusterCoordinator":
    """The `ClusterCoordinator` the chief schedules PS training with."""
    import tensorflow as tf

    return tf.distribute.experimental.coordinator.ClusterCoordinator(parameter_server_strategy)


def _estimator_strategy(config: ClusterConfig, num_devices: int) -> "tf.distribute.Strategy | None":
    """Estimator's (TF1-API) strategy for `config`, or None for plain between-graph replication."""
    import tensorflow as tf

    chosen = kind(config, num_devices)
    if chosen == MIRRORED:
        return tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(num_devices)])
    if chosen == PARAMETER_SERVER:
        return tf.compat.v1.distribute.experimental.ParameterServerStrategy()
    if chosen == MULTI_WORKER:
        return tf.compat.v1.distribute.experimental.MultiWorkerMirroredStrategy()
    return None


def run_config(
    config: ClusterConfig | None = None,
    num_devices: int = 1,
    train_distribute: "tf.distribute.Strategy | str | None" = None,
    session_config: "tf.compat.v1.ConfigProto | None" = None,
    **kwargs: Any,
) -> "tf.estimator.RunConfig":
    """`tf.estimator.RunConfig` for this task, from TF_CONFIG in any dialect.

    `train_distribute="auto"` picks the strategy from the cluster (`kind`); None keeps
    Estimator's classic between-graph replication. Estimator runs a cluster with a strategy
    only through the distribute coordinator, which needs the `chief` dialect; without one it
    takes either, and `chief` also expresses an evaluator, so TF_CONFIG is always exported as
    `chief`. `num_devices` CPU devices with soft placement go into the session config, without
    which a Mirrored Estimator over CPUs hangs.
    """
    import tensorflow as tf

    import compat._estimator_support as estimator_support

    estimator_support.activate()
    config = export(_config(config))
    if train_distribute == "auto":
        train_distribute = _estimator_strategy(config, num_devices)
    if session_config is None:
        session_config = devices.session_config(num_devices)
    return tf.compat.v1.estimator.RunConfig(train_distribute=train_distribute, session_config=session_config, **kwargs)


class _CallableModule(types.ModuleType):
    def __call__(self, *args: Any, **kwargs: Any) -> "tf.distribute.Strategy":
        return strategy(*args, **kwargs)


# `compat.strategy` is both this module (for `run_config`, `kind`, ...) and the function.
sys.modules[__name__].__class__ = _CallableModule
