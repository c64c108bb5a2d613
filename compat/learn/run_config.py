"""`from compat.learn import run_config`: what tf.contrib.learn's run_config module offered scripts.

`RunConfig` is tf.contrib.learn.RunConfig on the Estimator's (`tf.estimator.RunConfig`): the same
constructor (its positional order starts with `master`; `num_cores`, `log_device_placement` and
`gpu_memory_fraction` make the session config, `master` / `evaluation_master` override TF_CONFIG's)
and `uid()`, which `learn_runner.run` compares; `_DEFAULT_UID_WHITE_LIST` names the fields uid()
leaves out (TF 1.x code such as cifar10_estimator reads it to override uid()). uai-migrate and
uai-run both turn tf.contrib.learn.RunConfig into this class.
"""

import collections
from collections.abc import Iterable
from typing import Any

import tensorflow as tf

from compat.estimator import RunConfig as _EstimatorRunConfig

# The fields tf.contrib.learn's uid() ignored: they may differ between two configs of one model.
_DEFAULT_UID_WHITE_LIST = [
    "tf_random_seed",
    "save_summary_steps",
    "save_checkpoints_steps",
    "save_checkpoints_secs",
    "session_config",
    "keep_checkpoint_max",
    "keep_checkpoint_every_n_hours",
    "log_step_count_steps",
]
_USE_DEFAULT = object()


class RunConfig(_EstimatorRunConfig):
    """tf.estimator.RunConfig with tf.contrib.learn.RunConfig's constructor and `uid()`.

    Any tf.estimator.RunConfig argument (`train_distribute`, `device_fn` ...) is accepted by keyword.
    """

    def __init__(
        self,
        master: str | None = None,
        num_cores: int = 0,
        log_device_placement: bool = False,
        gpu_memory_fraction: float = 1,
        tf_random_seed: int | None = None,
        save_summary_steps: int = 100,
        save_checkpoints_secs: float | None | object = _USE_DEFAULT,
        save_checkpoints_steps: int | None = None,
        keep_checkpoint_max: int = 5,
        keep_checkpoint_every_n_hours: float = 10000,
        log_step_count_steps: int = 100,
        protocol: str | None = None,
        evaluation_master: str = "",
        model_dir: str | None = None,
        session_config: Any = None,  # a tf.compat.v1.ConfigProto (TensorFlow has no stubs)
        session_creation_timeout_secs: int = 7200,
        **estimator_args: Any,
    ) -> None:
        if save_checkpoints_secs is _USE_DEFAULT:  # tf.contrib's default: every 600 s unless steps are given
            save_checkpoints_secs = 600 if save_checkpoints_steps is None else None
        gpu_options = tf.compat.v1.GPUOptions(per_process_gpu_memory_fraction=gpu_memory_fraction)
        self._tf_config = tf.compat.v1.ConfigProto(
            log_device_placement=log_device_placement,
            inter_op_parallelism_threads=num_cores,
            intra_op_parallelism_threads=num_cores,
            gpu_options=gpu_options,
        )
        # tf.contrib's own Estimators ran their sessions with this config; tf.estimator's read only
        # session_config, so the session options given here become it (an explicit one wins)
        if session_config is None and (num_cores, log_device_placement, gpu_memory_fraction) != (0, False, 1):
            session_config = self._tf_config
        super().__init__(
            model_dir=model_dir,
            tf_random_seed=tf_random_seed,
            save_summary_steps=save_summary_steps,
            save_checkpoints_steps=save_checkpoints_steps,
            save_checkpoints_secs=save_checkpoints_secs,
            session_config=session_config,
            keep_checkpoint_max=keep_checkpoint_max,
            keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours,
            log_step_count_steps=log_step_count_steps,
            protocol=protocol,
            session_creation_timeout_secs=session_creation_timeout_secs,
            **estimator_args,
        )
        if master is not None:
            self._master = master
        if evaluation_master:
            self._evaluation_master = evaluation_master

    @property
    def tf_config(self) -> Any:
        """The session options tf.contrib.learn made of num_cores, log_device_placement and gpu_memory_fraction."""
        return self._tf_config

    def uid(self, whitelist: Iterable[str] | None = None) -> str:
        """A string identifying the configuration, without the `whitelist` fields (default: the list above)."""
        whitelist = _DEFAULT_UID_WHITE_LIST if whitelist is None else whitelist
        state = {key: value for key, value in vars(self).items() if not key.startswith("__")}
        for key in whitelist:
            state.pop("_" + key, None)
        ordered = collections.OrderedDict(sorted(state.items()))
        if "_cluster_spec" in ordered:  # no repr of its own: it would print its address
            ordered["_cluster_spec"] = collections.OrderedDict(sorted(ordered["_cluster_spec"].as_dict().items()))
        return ", ".join(f"{key}={value!r}" for key, value in ordered.items())
