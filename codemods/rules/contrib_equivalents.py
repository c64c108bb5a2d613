"""tf.contrib pieces with an equivalent in compat: HParams -> compat.hparams, learn.RunConfig -> compat.learn.

The names come from compat/tf1_names.py, the table `uai-run` resolves with, in their `tensorflow.`
and `tensorflow.compat.v1.` spellings: `tf.contrib.training.HParams` -> `compat.hparams.HParams`,
`GreedyLoadBalancingStrategy` -> `compat.devices`, `tf.contrib.learn`'s RunConfig, Experiment and
`learn_runner` -> `compat.learn`, `tensorflow.examples.tutorials.mnist` -> `compat.tutorials.mnist`.
compat.learn.RunConfig is tf.estimator.RunConfig with tf.contrib.learn's constructor and `uid()`, so
every call and subclass of tf.contrib.learn.RunConfig keeps working.

The table's tf-slim homes go the same way (tf.contrib.training's create_train_op -> tf_slim.training.training,
tf.contrib.layers.summaries -> tf_slim.layers.summaries), a tf-slim submodule imported from its package
(`from tf_slim.training import training`, as every move rule writes it: `_moves._from_package`).

The names of a contrib module of that table with a TensorFlow home Python cannot import by name
(`tf.compat.v1.estimator.tpu`, `tf.distribute.cluster_resolver`: attributes, which compat attaches
on TF 2.21) go to the home `tf-upgrade` gives them: `tf.contrib.tpu.TPUEstimator` ->
`tf.compat.v1.estimator.tpu.TPUEstimator`, and `from tensorflow.contrib.tpu import TPUEstimator` ->
`TPUEstimator = tf.compat.v1.estimator.tpu.TPUEstimator`; so do the `tf.compat.v1.contrib.` spellings
of every contrib name `tf-upgrade` converts.
"""

from typing import TYPE_CHECKING, cast

import libcst as cst

from codemods.engine.syntax import OutermostChain
from codemods.rule_description import Example
from codemods.rules import _shared, _tf
from codemods.rules._moves import ModuleMoveRule
from compat import tf1_names

if TYPE_CHECKING:
    from codemods.engine.rule import FileState


def _compat_target(target: str) -> tuple[str, str | None] | None:
    """compat/tf1_names.py's `compat.module:attr` target as a MOVES value; None for TensorFlow's own homes."""
    module, attr = tf1_names.split(target)
    return (module, attr) if module == "compat" or module.startswith("compat.") else None


def _library_target(target: str) -> tuple[str, str | None] | None:
    """A SYMBOLS target in compat or tf-slim (contrib.layers.summaries: tf_slim.layers.summaries) as a MOVES value."""
    module, attr = tf1_names.split(target)
    return (module, attr) if module.startswith("tf_slim.") else _compat_target(target)


def _table_moves() -> dict:
    """compat/tf1_names.py's contrib names whose home is compat (the table uai-run resolves with)."""
    moves = {
        old: _library_target(target)
        for old, target in tf1_names.SYMBOLS.items()
        if old.startswith("tensorflow.contrib.") and _library_target(target)
    }
    upgraded = _shared.upgrade_table()  # (the names a TensorFlow home of the module provides: tf-upgrade's)
    slim_modules = _tf.api()["slim_modules"]
    for old, targets in tf1_names.MODULES.items():
        if not old.startswith("tensorflow.contrib."):
            continue
        for target in targets:
            home = _compat_target(target)
            if home and home[1] is None:
                for name in _tf.compat_exports(home[0]):
                    new = (f"{home[0]}.{name}", None) if _tf.compat_has(f"{home[0]}.{name}") else (home[0], name)
                    moves.setdefault(f"{old}.{name}", new)
            # a tf-slim module's names where no earlier home has them (uai-run looks the module's targets up in order)
            for name in slim_modules.get(target, ()):
                full = f"{old}.{name}"
                if full[len(tf1_names.TF) + 1 :] not in upgraded and full not in _shared.slim_moves():
                    moves.setdefault(full, (target, name))
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


class ContribEquivalentsRule(OutermostChain, ModuleMoveRule):
    ID = "contrib-equivalents"
    DESCRIPTION = (
        "tf.contrib names compat provides (HParams, GreedyLoadBalancingStrategy, learn.Experiment, learn_runner, "
        "RunConfig, tutorials' mnist) -> compat."
    )
    ORDER = 80
    EXAMPLE = Example(
        why="These tf.contrib names have a drop-in replacement, so no person needs to look at them.",
        before="import tensorflow as tf\nhparams = tf.contrib.training.HParams(learning_rate=0.1)\n",
        after="import compat\nimport tensorflow as tf\nimport compat.hparams as compat_hparams\n\n"
        "hparams = compat_hparams.HParams(learning_rate=0.1)\n",
    )
    MOVES = tf1_names.with_v1_twins(_table_moves())
    # tf-upgrade leaves the names this rule takes to it (the contrib-removed reporter too)
    EXTRA_CLAIMS = frozenset(_shared.attribute_homes())
    PACKAGES = tf1_names.with_v1_twins(
        {
            old: new
            for old, new in tf1_names.PACKAGES.items()
            if old.startswith(("tensorflow.contrib.", "tensorflow.examples.")) and new.startswith("compat.")
        }
    )
    ALIASES = _aliases(MOVES)

    def begin_file(self, state: "FileState") -> None:
        super().begin_file(state)
        self._homes = _shared.attribute_homes()
        self._home_names = frozenset(self._homes)

    def _home(self, name: str) -> str | None:
        """The TensorFlow home (relative to `tensorflow`) of a name taken from tf-upgrade."""
        new = self._homes.get(name)
        if new is not None and new.startswith(_shared.NEEDS_COMPAT):
            _tf.ensure_compat(self)
        return new

    def _assign_homes(self, stmt: cst.ImportFrom) -> list[cst.BaseSmallStatement] | None:
        """`from <contrib module> import A, B as b` -> `A = tf.<home of A>` ... for the names with a home;
        None unless one of them is ours."""
        if stmt.relative or isinstance(stmt.names, cst.ImportStar) or stmt.module is None:
            return None
        module = _tf.full_name(stmt.module)
        names = {alias: f"{module}.{_tf.full_name(alias.name)}" for alias in stmt.names}
        if self._home_names.isdisjoint(names.values()):
            return None
        homes = {
            # (a contrib name: TensorFlow's)
            alias: self._home(name) or _shared.upgrade_lookup(cast(str, _tf.tf_path(tf1_names.tf1_name(name))))
            for alias, name in names.items()
        }
        kept = [alias for alias, new in homes.items() if new is None]
        if kept:  # contrib-removed reports them
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        out: list[cst.BaseSmallStatement] = [stmt.with_changes(names=kept, lpar=None, rpar=None)] if kept else []
        tf = _tf.tf_alias(self)
        for alias, new in homes.items():
            if new is not None:
                bound = alias.evaluated_alias or _tf.full_name(alias.name)
                self._note(stmt, f"from {module} import {_tf.full_name(alias.name)}", f"tf.{new}")
                out.append(cst.Assign(targets=[cst.AssignTarget(cst.Name(bound))], value=_tf.dotted(f"{tf}.{new}")))
        return out

    def _rewrite_import(self, stmt: cst.Import | cst.ImportFrom) -> list[cst.BaseSmallStatement] | None:
        """A module below a moved package that compat does not have (`contrib.learn.python.learn.preprocessing`),
        or a name imported from one compat lacks, stays, reported with its closest replacement."""
        if isinstance(stmt, cst.ImportFrom):
            assigned = self._assign_homes(stmt)
            if assigned is not None:
                return assigned
        if isinstance(stmt, cst.ImportFrom) and not stmt.relative and stmt.module is not None:
            modules = [_tf.full_name(stmt.module)]
        elif isinstance(stmt, cst.Import):
            modules = [_tf.full_name(alias.name) for alias in stmt.names]
        else:
            modules = []
        for module in modules:
            new = self._package_move(module)
            if new and not _tf.compat_has(new) and not self._moved_on_their_own(stmt, module):
                self._keep(stmt, module, new)
                return None
        new = self._package_move(modules[0]) if isinstance(stmt, cst.ImportFrom) and modules else None
        new = None if modules and self._moved_on_their_own(stmt, modules[0]) else new
        if new and not isinstance(stmt.names, cst.ImportStar):
            # `from contrib.learn.python.learn import preprocessing`: compat.learn is there, preprocessing is not
            for name in (_tf.full_name(alias.name) for alias in stmt.names):
                if not _tf.compat_provides(new, name):
                    self._keep(stmt, f"{modules[0]}.{name}", f"{new}.{name}")
                    return None
        return super()._rewrite_import(stmt)

    def _moved_on_their_own(self, stmt: cst.Import | cst.ImportFrom, module: str) -> bool:
        """`from contrib.learn.python.learn.datasets import mnist`: every name imported from `module` (a package
        compat lacks) is a module the table moves itself (SYMBOLS: compat.tutorials.mnist.input_data)."""
        if not isinstance(stmt, cst.ImportFrom) or isinstance(stmt.names, cst.ImportStar):
            return False
        return all(f"{module}.{_tf.full_name(alias.name)}" in self.MOVES for alias in stmt.names)

    def _keep(self, stmt: cst.Import | cst.ImportFrom, name: str, new: str) -> None:
        """An import of `name`, which compat does not have as `new`: kept (contrib-removed reports what reads it)."""
        message = f"{name} has no automatic conversion (compat has no {new})"
        self.report(stmt, message, severity="error", manual=tf1_names.manual_for(name))

    def _unconverted_read(self, node: cst.Attribute) -> None:
        """A chain read below a private package this rule claims (`tf.contrib.learn.python.learn.preprocessing.
        VocabularyProcessor`) from `tf` is written as it was: the error contrib-removed gives an unclaimed
        contrib name."""
        name = self.match_prefix(node, self._PRIVATE)
        # (a name an import bound below such a package is that import's: moved, or kept and reported there)
        if name is not None and name not in self._PRIVATE and self.match_prefix(_tf.head(node), self._PRIVATE) is None:
            self.report(node, f"{name} has no automatic conversion", "error", tf1_names.manual_for(name))

    def _note(self, node: cst.CSTNode, old: str, new: str) -> None:
        _tf.ensure_compat(self)  # compat.learn's Estimator needs compat on TF 2.21; compat.hparams needs compat anyway
        super()._note(node, old, new)

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        old = None if self.in_import else self.match(original_node, self._home_names)
        if old is None:
            new = super().leave_Attribute(original_node, updated_node)
            if new is updated_node and not self.in_import and self.outermost(original_node):
                self._unconverted_read(original_node)
            return new
        self._forget_dead_import(original_node, old)
        home = cast(str, self._home(old))  # (one of `_home_names`: it has a home)
        path = cast(str, _tf.tf_path(tf1_names.tf1_name(old)))  # (a contrib name: TensorFlow's)
        return _shared.rename(self, original_node, path, home)
