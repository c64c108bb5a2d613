"""Pillow's resampling aliases that Pillow 10 removed: `Image.ANTIALIAS` -> `Image.LANCZOS`,
`Image.LINEAR` -> `Image.BILINEAR`, `Image.CUBIC` -> `Image.BICUBIC`.

The table is compat.library_names (uai-run serves the same names at run time; it says why the rewrite
keeps the behaviour). Rewritten by qualified name only: a module's own `ANTIALIAS` or another module
named `Image` stay.
"""

from collections.abc import Mapping
from typing import cast

import libcst as cst
from libcst.helpers import get_full_name_for_node

from codemods.engine.rule import Rule
from codemods.engine.syntax import InsideImport, head_name, renamed_keeping_local_names
from codemods.rule_description import Example
from compat import library_names

MODULE = "PIL.Image"
RENAMED = library_names.RENAMED[MODULE]
OLD_NAMES = frozenset(f"{MODULE}.{old}" for old in RENAMED)


class PillowRule(InsideImport, Rule):
    ID = library_names.RULES[MODULE]
    DESCRIPTION = "Pillow's aliases removed in Pillow 10: Image.ANTIALIAS/LINEAR/CUBIC -> LANCZOS/BILINEAR/BICUBIC."
    ORDER = 20
    EXAMPLE = Example(
        why="TF1-era input pipelines resize with Pillow's ANTIALIAS, LINEAR and CUBIC, which Pillow 10 removed "
        "(TensorFlow 2.21 comes with a newer Pillow); each was the filter it is rewritten to.",
        before="import tensorflow as tf\nfrom PIL import Image\nsmall = image.resize((64, 64), Image.ANTIALIAS)\n",
        after="import tensorflow as tf\nfrom PIL import Image\nsmall = image.resize((64, 64), Image.LANCZOS)\n",
    )
    # Every statement that uses an old name spells it (an alias comes from an import that does), so
    # the names bound to Pillow need not be words: no ROOTS.
    WORDS = frozenset(RENAMED)

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        if self.in_import or original_node.attr.value not in RENAMED:
            return updated_node
        new = RENAMED[original_node.attr.value]
        name = self.match(original_node, OLD_NAMES)
        if name is not None:
            self.report(original_node, f"{name} -> {MODULE}.{new} (removed in Pillow 10)")
            return updated_node.with_changes(attr=cst.Name(new))
        dotted = get_full_name_for_node(original_node)
        if dotted is not None and self._maybe_pillow(original_node, dotted):
            self.report(
                original_node,
                f"{dotted}: its first name is bound to Pillow and to something else in this module",
                severity="warning",
                manual=f"if this is Pillow's, write {dotted.rpartition('.')[0]}.{new} "
                f"(Pillow 10 removed {original_node.attr.value})",
            )
        return updated_node

    def _maybe_pillow(self, node: cst.Attribute, dotted: str) -> bool:
        """Could `node` be an old name through an import of a name the module also binds otherwise
        (the import table then resolves neither binding)?"""
        rest = dotted.partition(".")[2]
        imported = cast("Mapping[str | None, frozenset[str]]", self.state.table.imported)  # (None: no entry)
        imports = imported.get(head_name(node), ())
        return any(f"{qualified}.{rest}" in OLD_NAMES for qualified in imports)

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.FlattenSentinel[cst.BaseSmallStatement] | cst.RemovalSentinel:
        # (the mixins return the node itself)
        updated_node = cast(cst.ImportFrom, super().leave_ImportFrom(original_node, updated_node))
        if (
            updated_node.relative
            or updated_node.module is None
            or get_full_name_for_node(updated_node.module) != MODULE
            or isinstance(updated_node.names, cst.ImportStar)
        ):
            return updated_node
        # `from PIL.Image import LANCZOS as ANTIALIAS`: the module's uses of its name stay as written
        names = renamed_keeping_local_names(
            updated_node.names,
            RENAMED,
            lambda old: self.report(original_node, f"{MODULE}.{old} -> {MODULE}.{RENAMED[old]} (removed in Pillow 10)"),
        )
        return updated_node.with_changes(names=names)
