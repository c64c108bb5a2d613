"""What tf_upgrade_v2 renames, and the contrib names compat's TF1 table homes -> their TF 2.21 spelling.

TensorFlow 0.x names (`tf.pack`, `tf.image_summary`), which TF 2.21's tables no longer know, come
from the short hand-kept `compat.tf1_names.PRE_1_0`, the table uai-run serves them from.

The table (`python -m codemods.tables.gen_tf_upgrade`) holds TensorFlow's own TF1 -> TF2 renames
(`tensorflow.tools.compatibility`, contrib included: `tf.contrib.rnn.BasicLSTMCell` ->
`tf.compat.v1.nn.rnn_cell.BasicLSTMCell`) and, for the contrib modules `uai-run` resolves at run time
(compat/tf1_names.py), every name of their TensorFlow homes (`tf.contrib.tpu.TPUEstimator` ->
`tf.compat.v1.estimator.tpu.TPUEstimator`); every target there resolves on TF 2.21. This rule takes
the names the `tf1-api` rule does not know (TF1 names that `tf.compat.v1` no longer has, and contrib),
so uai-migrate converts at least what tf_upgrade_v2 converts, and writes each target as `tf1-api`
would read it, so a second run changes nothing.
"""

from typing import cast

import libcst as cst

from codemods import tables
from codemods.engine.rule import FileState, Rule
from codemods.engine.syntax import InnerDecides, InsideImport, OutermostChain, dotted, head_name
from codemods.rule_description import Example
from codemods.rules import _shared, _tf
from compat import tf1_names

_EQUAL = cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))

# what a dropped argument of a contrib.summary call becomes by hand (tf_upgrade_v2's own warnings say the same)
_DROPPED = {
    "family": "put the call under tf.name_scope(family) if the summary's tag should keep the family prefix",
    "name": "reuse the writer object yourself: TF 2's create_file_writer opens a new file for each call",
}


class UpgradeRule(InnerDecides, OutermostChain, InsideImport, Rule):
    ID = "tf-upgrade"
    DESCRIPTION = "TF1 names tf_upgrade_v2 renames and contrib names with a TF 2.21 home -> that home (derived tables)."
    ORDER = 110  # the names tf1-api does not know: before it
    EXAMPLE = Example(
        why="TensorFlow's own tf_upgrade_v2 tables, and compat's homes of tf.contrib modules, name these homes.",
        before="import tensorflow as tf\ncell = tf.contrib.rnn.BasicLSTMCell(64)\n",
        after="import compat\nimport tensorflow as tf\ncell = tf.compat.v1.nn.rnn_cell.BasicLSTMCell(64)\n",
    )
    # (not the contrib names contrib-equivalents writes from this table: both rules would act on them)
    CLAIMS = (
        frozenset(f"{_tf.TF}.{path}" for path in _shared.upgrade_table()) - _shared.attribute_homes().keys()
    ) | _shared.internal_prefixes()

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._table = _shared.upgrade_table()
        self._names = frozenset(f"{_tf.TF}.{path}" for path in self._table)
        self._internal = tuple(_shared.internal_prefixes())

    def _unconverted(self, node: cst.CSTNode, name: str, severity: str = "error") -> None:
        self.report(node, f"{name} has no automatic conversion", severity=severity, manual=tf1_names.manual_for(name))

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        if self.in_import:
            return updated_node
        if self.decided(original_node):
            return updated_node
        qualified = self.match(original_node, self._names) or self.match_prefix(original_node, self._internal)
        if qualified is None or _tf.claimed_by_others(self, qualified):
            return updated_node
        path = cast(str, _tf.tf_path(qualified))  # (a name of the tables: TensorFlow's)
        new = _shared.upgrade_lookup(path)
        if new is None:
            if self.outermost(original_node):
                self._unconverted(original_node, qualified)
            return updated_node
        if new.startswith(_shared.NEEDS_COMPAT):
            _tf.ensure_compat(self)
        self.rewritten(original_node)
        self._drop_import(original_node)
        return _shared.rename(self, original_node, path, new)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        """A call of a rewritten name is judged as its new name's call will be by a second run (tf1-api's
        rewrite_call): `tf.contrib.data.X(...)` keeps TF1's function when TF 2's reads the call otherwise."""
        func = original_node.func
        if self.in_import or not isinstance(func, cst.Attribute):
            return updated_node
        qualified = self.match(func, self._names) or self.match_prefix(func, self._internal)
        new = (
            _shared.upgrade_lookup(cast(str, _tf.tf_path(qualified)))  # (TensorFlow's, as above)
            if qualified and not _tf.claimed_by_others(self, qualified)
            else None
        )
        if new is None:
            return updated_node
        path = cast(str, _tf.tf_path(cast(str, qualified)))  # (new is not None: qualified is TensorFlow's)
        if path in tables.tf_upgrade()["contrib_calls"]:
            return self._contrib_call(original_node, updated_node, path)
        if new.startswith("compat.v1.") or not _tf.api()["differs"].get(new):
            return updated_node
        return _shared.rewrite_call(self, original_node, updated_node, new)

    def _contrib_call(self, original_node: cst.Call, updated_node: cst.Call, path: str) -> cst.Call:
        """A call tf_upgrade_v2 rewrites by code (codemods/tables/gen_tf_upgrade.py, contrib_calls): TF 2's
        `record_if` needs its condition; TF 2's summary writers read the arguments by TF 2's parameters
        (`tensor=` is `data=`, no `family`) and need a step, where contrib's wrote at the global step."""
        spec = tables.tf_upgrade()["contrib_calls"][path]
        if spec["condition"] is not None:
            if updated_node.args:
                return updated_node
            self.report(original_node, f"tf.{path}() -> record_if({spec['condition']})")
            return updated_node.with_changes(args=[cst.Arg(cst.Name(spec["condition"]))])
        renames = tables.tf_upgrade()["keywords"].get(path, {})
        args: list[cst.Arg] = []
        names: list[str] = []  # TF 2's parameter of each argument written
        for index, arg in enumerate(updated_node.args):
            old = _shared.keyword_of(arg) or (spec["tf1"][index] if index < len(spec["tf1"]) and not arg.star else "")
            new = renames.get(old, old)
            if new is None:
                self.report(
                    original_node,
                    f"tf.{path}: {old}= dropped (TF 2's function has no such parameter)",
                    severity="warning",
                    manual=_DROPPED.get(old, f"check that TF 2's tf.summary does without {old}="),
                )
                continue
            if new not in spec["tf2"] and old in spec["tf2"]:
                new = old  # tf_upgrade_v2 renames `generic`'s tensor= to data=, which TF 2's `write` does not take
            if new not in spec["tf2"]:
                self.report(
                    original_node,
                    f"tf.{path}: an argument TF 2's function cannot take",
                    severity="error",
                    manual="pass TF 2's parameters by keyword",
                )
                return updated_node
            at = len(names)  # the position it would take in TF 2's call
            if (
                arg.keyword is None
                and at < len(spec["tf2"])
                and spec["tf2"][at] == new
                and not any(a.keyword for a in args)
            ):
                args.append(arg)
            else:
                args.append(arg.with_changes(keyword=cst.Name(new), equal=_EQUAL))
            names.append(new)
        if spec["step"] and "step" not in names:
            alias = _tf.tf_alias(self, original_node.func)
            step = _tf.dotted(f"{alias}.compat.v1.train.get_or_create_global_step")
            if args and args[-1].comma == cst.MaybeSentinel.DEFAULT:
                args[-1] = args[-1].with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            args.append(cst.Arg(cst.Call(func=step), keyword=cst.Name("step"), equal=_EQUAL))
            self.report(
                original_node, f"tf.{path}: step=tf.compat.v1.train.get_or_create_global_step() (contrib's default)"
            )
        if args and len(args) < len(updated_node.args) and updated_node.args[-1].comma == cst.MaybeSentinel.DEFAULT:
            args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)  # (a dropped argument was last)
        return updated_node.with_changes(args=args)

    def _drop_import(self, node: cst.BaseExpression) -> None:
        """`from tensorflow.contrib import rnn` is dead once `rnn.LSTMCell` is rewritten: drop it if unused."""
        bound = head_name(node)
        source = self.state.table.imports.get(bound) if bound else None
        if source and source.startswith(_tf.TF + ".contrib"):
            parent, _, obj = source.rpartition(".")
            self.remove_unused_import(parent, obj, bound if bound != obj else None)
            self.remove_unused_import(source, None, bound)

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.FlattenSentinel[cst.BaseSmallStatement] | cst.RemovalSentinel:
        """`from tensorflow.contrib.rnn import LSTMCell` -> `from tensorflow.compat.v1.nn.rnn_cell import LSTMCell`
        when every name's home is one module Python can import; else each name is reported with its home."""
        # (the mixins return the node itself)
        updated_node = cast(cst.ImportFrom, super().leave_ImportFrom(original_node, updated_node))
        if original_node.relative or original_node.module is None or isinstance(original_node.names, cst.ImportStar):
            return updated_node
        module = _tf.full_name(original_node.module)
        base = _tf.tf_path(module)
        if base is None:
            return updated_node
        homes: dict[cst.ImportAlias, str] = {}
        for alias in original_node.names:
            name = _tf.full_name(alias.name)
            path = f"{base}.{name}"
            if _shared.upgrade_lookup(path) is None or _tf.claimed_by_others(self, f"{module}.{name}"):
                if module.startswith(self._internal) and not _tf.claimed_by_others(self, module):
                    # ours to report: a name without a home, or a module whose names are converted at their uses
                    self._unconverted(original_node, f"{module}.{name}", severity="warning")
                return updated_node  # a module imported by name (`from tensorflow.contrib import rnn`), or not ours
            homes[alias] = cast(str, _shared.upgrade_lookup(path))  # (not None: checked above)
        parents = {new.rpartition(".")[0] for new in homes.values()}
        if len(parents) != 1 or parents & set(tables.tf_upgrade()["modules"]) != parents:
            for alias, new in homes.items():
                self.report(
                    original_node,
                    f"{module}.{_tf.full_name(alias.name)} is tf.{new} now, which "
                    "cannot be imported by name on TF 2.21",
                    severity="error",
                    manual=f"import tensorflow as tf and write tf.{new}",
                )
            return updated_node
        if any(new.startswith(_shared.NEEDS_COMPAT) for new in homes.values()):
            _tf.ensure_compat(self)
        parent = parents.pop()
        names = []
        for alias, new in homes.items():
            bound = alias.evaluated_alias or _tf.full_name(alias.name)
            attr = new.rpartition(".")[2]
            asname = cst.AsName(name=cst.Name(bound)) if bound != attr else None
            names.append(alias.with_changes(name=cst.Name(attr), asname=asname))
        self.report(original_node, f"from {module} import ... -> from tensorflow.{parent} import ...")
        return updated_node.with_changes(module=dotted(f"{_tf.TF}.{parent}"), names=names)
