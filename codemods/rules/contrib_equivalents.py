"""tf.contrib pieces with an equivalent outside tf-slim: HParams -> compat.hparams, learn.RunConfig -> tf.estimator.

The contrib names whose home is compat come from compat/tf1_names.py, the table `uai-run` resolves
with: `tf.contrib.training.GreedyLoadBalancingStrategy` -> `compat.devices`, `tf.contrib.learn.Experiment`
and `learn_runner` -> `compat.learn`, `tensorflow.examples.tutorials.mnist` -> `compat.tutorials.mnist`.

`tf.contrib.training.HParams` -> `compat.hparams.HParams` (same API, written for compat).
`tf.contrib.learn.RunConfig` -> `tf.estimator.RunConfig`, which reads the same TF_CONFIG (master
dialect included) and has the same properties; through `import compat` it runs on TF 2.21. Its
constructor lost some arguments, and its first positional one was `master`, not `model_dir`:
such a call is left as it is and reported with the manual step.
"""

import importlib.util
import os

import libcst as cst

from codemods.rules import _tf, contrib
from codemods.rules._moves import ModuleMoveRule
from compat import tf1_names

RUN_CONFIG = "tensorflow.contrib.learn.RunConfig"
# the arguments tf.contrib.learn.RunConfig shares with tf.estimator.RunConfig
RUN_CONFIG_SHARED = frozenset(
    {
        "tf_random_seed",
        "save_summary_steps",
        "save_checkpoints_secs",
        "save_checkpoints_steps",
        "keep_checkpoint_max",
        "keep_checkpoint_every_n_hours",
        "log_step_count_steps",
        "protocol",
        "model_dir",
        "session_config",
        "session_creation_timeout_secs",
    }
)
RUN_CONFIG_MANUAL = (
    "tf.estimator.RunConfig has no master/num_cores/gpu_memory_fraction/log_device_placement/evaluation_master "
    "arguments and takes none positionally: pass the rest by keyword, and session options as "
    "session_config=tf.compat.v1.ConfigProto(...)"
)


def _compat_target(target: str) -> tuple[str, str | None] | None:
    """compat/tf1_names.py's `compat.module:attr` target as a MOVES value; None for TensorFlow's own homes."""
    module, _, attr = target.partition(":")
    return (module, attr or None) if module == "compat" or module.startswith("compat.") else None


def _is_module(module: str, name: str) -> bool:
    spec = importlib.util.find_spec(module)
    folder = os.path.dirname(spec.origin)
    return os.path.exists(os.path.join(folder, name + ".py")) or os.path.isdir(os.path.join(folder, name))


def _compat_has(module: str) -> bool:
    """Is there a compat module of that name? Read from the files: importing compat.learn imports TensorFlow."""
    package, _, name = module.rpartition(".")
    return _compat_has(package) and _is_module(package, name) if package else module == "compat"


def _table_moves() -> dict:
    """compat/tf1_names.py's contrib names whose home is compat (the table uai-run resolves with)."""
    moves = {
        old: _compat_target(target)
        for old, target in tf1_names.SYMBOLS.items()
        if old.startswith("tensorflow.contrib.") and _compat_target(target)
    }
    for old, targets in tf1_names.MODULES.items():
        for target in targets:
            home = _compat_target(target)
            if old.startswith("tensorflow.contrib.") and home and home[1] is None:
                for name in _tf.compat_exports(home[0]):
                    new = (f"{home[0]}.{name}", None) if _is_module(home[0], name) else (home[0], name)
                    moves.setdefault(f"{old}.{name}", new)
    return moves


def _aliases(moves: dict) -> dict:
    """`compat.learn.learn_runner` is written `learn_runner` (else `compat_learn_runner`) where a use needs an import."""
    modules = {module for module, _ in moves.values()}
    return {
        m: ("_".join(m.split(".")), "uai_" + m.rpartition(".")[2])
        if m.count(".") == 1
        else (m.rpartition(".")[2], "_".join(m.split(".")))
        for m in modules
    }


class ContribEquivalentsRule(ModuleMoveRule):
    ID = "contrib-equivalents"
    DESCRIPTION = (
        "tf.contrib names compat provides (HParams, GreedyLoadBalancingStrategy, learn.Experiment, learn_runner, "
        "tutorials' mnist) -> compat; tf.contrib.learn.RunConfig -> tf.estimator.RunConfig."
    )
    # `from tensorflow.contrib.learn import RunConfig` -> `from compat.estimator import RunConfig`
    # (on TF 2.21 `tensorflow.estimator` is no module to import from); `<tf>.contrib.learn.RunConfig` ->
    # `<tf>.estimator.RunConfig`.
    # The rest comes from compat's TF1 table: GreedyLoadBalancingStrategy -> compat.devices,
    # tf.contrib.learn's Experiment / learn_runner -> compat.learn, tf.examples.tutorials -> compat.tutorials.
    MOVES = {
        **_table_moves(),
        RUN_CONFIG: ("compat.estimator", "RunConfig"),
    }
    PACKAGES = {
        old: new
        for old, new in tf1_names.PACKAGES.items()
        if old.startswith(("tensorflow.contrib.", "tensorflow.examples.")) and new.startswith("compat.")
    }
    ALIASES = _aliases(MOVES)

    def begin_file(self, state):
        super().begin_file(state)
        self._left = set()  # RunConfig calls that cannot move

    def _rewrite_import(self, stmt):
        """A module below a moved package that compat does not have (`contrib.learn.python.learn.preprocessing`)
        stays, reported with its closest replacement."""
        if isinstance(stmt, cst.ImportFrom) and not stmt.relative and stmt.module is not None:
            modules = [_tf.full_name(stmt.module)]
        elif isinstance(stmt, cst.Import):
            modules = [_tf.full_name(alias.name) for alias in stmt.names]
        else:
            modules = []
        for module in modules:
            new = self._package_move(module)
            if new and not _compat_has(new):
                self.report(
                    stmt,
                    f"{module} has no automatic conversion (compat has no {new})",
                    severity="error",
                    manual=contrib.manual_for(module),
                )
                return None
        return super()._rewrite_import(stmt)

    def _note(self, node, old, new):
        _tf.ensure_compat(self)  # tf.estimator needs compat on TF 2.21; compat.hparams needs compat anyway
        super()._note(node, old, new)

    def visit_Call(self, node):
        if not self.match(node.func, {RUN_CONFIG}):
            return
        lost = [
            a.keyword.value if a.keyword else (a.star or "a positional argument")
            for a in node.args
            if a.keyword is None or a.keyword.value not in RUN_CONFIG_SHARED
        ]
        if lost:
            self._left.add(id(node.func))
            self.report(
                node,
                f"tf.contrib.learn.RunConfig({', '.join(lost)}) has no tf.estimator.RunConfig form",
                severity="error",
                manual=RUN_CONFIG_MANUAL,
            )

    def leave_Attribute(self, original_node, updated_node):
        if id(original_node) in self._left or self.in_import:
            return updated_node
        if self.match(original_node, {RUN_CONFIG}):
            new = f"{_tf.tf_alias(self, original_node)}.estimator.RunConfig"
            self._note(original_node, _tf.full_name(original_node), new)
            return _tf.dotted(new)
        return super().leave_Attribute(original_node, updated_node)
