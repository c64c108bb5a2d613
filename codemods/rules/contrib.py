"""Report every tf.contrib name no rule rewrites: contrib is gone from TensorFlow 2."""

import libcst as cst

from codemods.engine.rule import FileState, Rule
from codemods.engine.syntax import InsideImport, OutermostChain, head_name
from codemods.rule_description import Example
from codemods.rules import _shared, _tf


class ContribRule(OutermostChain, InsideImport, Rule):
    ID = "contrib-removed"
    DESCRIPTION = "Report uses of tensorflow.contrib that no other rule converts, with the manual step."
    ORDER = 180  # the catch-all reporter: last
    EXAMPLE = Example(
        why="Most of tf.contrib has no automatic TF2 equivalent: each use is reported (an error, with the "
        "manual step) rather than guessed; the code is left as it is.",
        before="import tensorflow as tf\ncell = tf.contrib.rnn.LSTMBlockCell(64)\n",
        after="import tensorflow as tf\ncell = tf.contrib.rnn.LSTMBlockCell(64)\n",
    )

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._kept: list[
            tuple[cst.CSTNode, int, str | None, str]
        ] = []  # (import node, its top-level statement, bound name, module) of partly converted modules
        self._heads: set[str | None] = set()  # names whose unconverted uses were reported

    def _keep(self, node: cst.Import | cst.ImportFrom, bound: str | None, name: str) -> None:
        if self._partly_claimed(name) and name.startswith(_shared.CONTRIB_BELOW):
            self._kept.append((node, self.state.top, bound, name))

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        # the import of a partly converted module stays while one use is left: it is where the file fails
        for node, statement, bound, name in self._kept:
            if bound in self._heads:
                self.report(
                    node,
                    f"{name} stays imported for its unconverted uses, and is no module on TF 2.21",
                    severity="error",
                    manual=_shared.contrib_manual(name),
                    statement=statement,
                )
        return updated_node

    def _unclaimed(self, name: str) -> bool:
        inside = name in _shared.CONTRIBS or name.startswith(_shared.CONTRIB_BELOW)
        return inside and not self.state.claims.covering(name)

    def _partly_claimed(self, module: str) -> bool:
        """A contrib module some of whose names other rules convert: its unconverted uses are reported, not its import."""
        return self.state.claims.has_below(module)

    def _flag(self, node: cst.CSTNode, name: str) -> None:
        self.report(node, f"{name} has no automatic conversion", severity="error", manual=_shared.contrib_manual(name))

    def visit_Import(self, node: cst.Import) -> None:
        super().visit_Import(node)
        for alias in node.names:
            name = _tf.full_name(alias.name)
            if self._unclaimed(name) and not self._partly_claimed(name):
                self._flag(node, name)
            elif alias.asname:
                self._keep(node, alias.evaluated_alias, name)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        super().visit_ImportFrom(node)
        if node.relative or node.module is None:
            return
        module = _tf.full_name(node.module)
        if isinstance(node.names, cst.ImportStar):
            names = [module]
        else:
            names = [f"{module}.{_tf.full_name(alias.name)}" for alias in node.names]
            for alias, name in zip(node.names, names):
                self._keep(node, alias.evaluated_alias or _tf.full_name(alias.name), name)
            names = [name for name in names if not self._partly_claimed(name)]
        for name in names:
            if self._unclaimed(name):
                self._flag(node, name)

    def visit_Attribute(self, node: cst.Attribute) -> None:
        # Bare names are not checked: the import that bound them is reported, and a Name can be
        # an attribute or keyword.
        if not self.in_import and self.outermost(node):
            names = [n for n in self.qualified_names(node) if self._unclaimed(n)]
            if names:
                self._flag(node, min(names))
                self._heads.add(head_name(node))
        super().visit_Attribute(node)
