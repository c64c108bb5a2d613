"""tf.contrib pieces with an equivalent outside tf-slim: HParams -> compat.hparams, learn.RunConfig -> tf.estimator.

`tf.contrib.training.HParams` -> `compat.hparams.HParams` (same API, written for compat).
`tf.contrib.learn.RunConfig` -> `tf.estimator.RunConfig`, which reads the same TF_CONFIG (master
dialect included) and has the same properties; through `import compat` it runs on TF 2.21. Its
constructor lost some arguments, and its first positional one was `master`, not `model_dir`:
such a call is left as it is and reported with the manual step.
"""

from codemods.rules import _tf
from codemods.rules._moves import ModuleMoveRule

RUN_CONFIG = "tensorflow.contrib.learn.RunConfig"
# the arguments tf.contrib.learn.RunConfig shares with tf.estimator.RunConfig
RUN_CONFIG_SHARED = frozenset({
    "tf_random_seed", "save_summary_steps", "save_checkpoints_secs", "save_checkpoints_steps", "keep_checkpoint_max",
    "keep_checkpoint_every_n_hours", "log_step_count_steps", "protocol", "model_dir", "session_config",
    "session_creation_timeout_secs",
})
RUN_CONFIG_MANUAL = (
    "tf.estimator.RunConfig has no master/num_cores/gpu_memory_fraction/log_device_placement/evaluation_master "
    "arguments and takes none positionally: pass the rest by keyword, and session options as "
    "session_config=tf.compat.v1.ConfigProto(...)"
)


class ContribEquivalentsRule(ModuleMoveRule):
    ID = "contrib-equivalents"
    DESCRIPTION = "tf.contrib.training.HParams -> compat.hparams.HParams; tf.contrib.learn.RunConfig -> tf.estimator.RunConfig."
    # `from tensorflow.contrib.learn import RunConfig` -> `from compat.estimator import RunConfig`
    # (on TF 2.21 `tensorflow.estimator` is no module to import from); `<tf>.contrib.learn.RunConfig` ->
    # `<tf>.estimator.RunConfig`.
    MOVES = {
        "tensorflow.contrib.training.HParams": ("compat.hparams", "HParams"),
        RUN_CONFIG: ("compat.estimator", "RunConfig"),
    }
    ALIASES = {"compat.hparams": ("compat_hparams", "uai_hparams")}

    def begin_file(self, state):
        super().begin_file(state)
        self._left = set()  # RunConfig calls that cannot move

    def _note(self, node, old, new):
        _tf.ensure_compat(self)  # tf.estimator needs compat on TF 2.21; compat.hparams needs compat anyway
        super()._note(node, old, new)

    def visit_Call(self, node):
        if not self.match(node.func, {RUN_CONFIG}):
            return
        lost = [a.keyword.value if a.keyword else (a.star or "a positional argument") for a in node.args
                if a.keyword is None or a.keyword.value not in RUN_CONFIG_SHARED]
        if lost:
            self._left.add(id(node.func))
            self.report(node, f"tf.contrib.learn.RunConfig({', '.join(lost)}) has no tf.estimator.RunConfig form",
                        severity="error", manual=RUN_CONFIG_MANUAL)

    def leave_Attribute(self, original_node, updated_node):
        if id(original_node) in self._left or self.in_import:
            return updated_node
        if self.match(original_node, {RUN_CONFIG}):
            new = f"{_tf.tf_alias(self, original_node)}.estimator.RunConfig"
            self._note(original_node, _tf.full_name(original_node), new)
            return _tf.dotted(new)
        return super().leave_Attribute(original_node, updated_node)
