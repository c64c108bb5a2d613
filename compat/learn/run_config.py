"""`from compat.learn import run_config`: what tf.contrib.learn's run_config module offered scripts.

`RunConfig` is the Estimator's (`tf.estimator.RunConfig`) with tf.contrib's `uid()`, which
`learn_runner.run` compares; `_DEFAULT_UID_WHITE_LIST` names the fields uid() leaves out (TF 1.x
code such as cifar10_estimator reads it to override uid()).
"""

import collections

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


class RunConfig(_EstimatorRunConfig):
    """tf.estimator.RunConfig plus tf.contrib.learn.RunConfig's `uid()`."""

    def uid(self, whitelist=None) -> str:
        """A string identifying the configuration, without the `whitelist` fields (default: the list above)."""
        whitelist = _DEFAULT_UID_WHITE_LIST if whitelist is None else whitelist
        state = {key: value for key, value in vars(self).items() if not key.startswith("__")}
        for key in whitelist:
            state.pop("_" + key, None)
        ordered = collections.OrderedDict(sorted(state.items()))
        if "_cluster_spec" in ordered:  # no repr of its own: it would print its address
            ordered["_cluster_spec"] = collections.OrderedDict(sorted(ordered["_cluster_spec"].as_dict().items()))
        return ", ".join(f"{key}={value!r}" for key, value in ordered.items())
