"""Names other libraries removed since TF1 programs were written -> what they are now, from compat/library_names.py.

Pillow 10's resampling aliases (`Image.ANTIALIAS` -> `Image.LANCZOS`), Python 3.10's `collections` ABC
aliases (`from collections import Mapping` -> `from collections.abc import Mapping`), NumPy 1.24's aliases
of Python's builtins (`np.bool` -> `bool`) and NumPy 2.0's of its own names (`np.float_` -> `np.float64`);
and NumPy 2.0's new reading of `np.array(x, copy=False)` (never copy), written `np.asarray(x)`, which copies
only where needed on both NumPys, as NumPy 1's `copy=False` did.
The table is compat.library_names (uai-run serves the same names at run time; it says why each new name
keeps the behaviour). Rewritten by qualified name only: a module's own `ANTIALIAS` or another module
named `Image` stay; a builtin the module rebinds is written `builtins.<name>`.
"""

from collections.abc import Mapping
from typing import cast

import libcst as cst
from libcst.helpers import get_full_name_for_node

from codemods.engine.rule import Rule
from codemods.engine.syntax import InsideImport, head_name, renamed_keeping_local_names
from codemods.rule_description import Example
from codemods.rules import _tf
from compat import library_names

RENAMED = library_names.RENAMED
# qualified old name -> qualified new name
OLD_NAMES = {f"{module}.{old}": new for module, renamed in RENAMED.items() for old, new in renamed.items()}


def _spelling(dotted: str, old: str, new: str) -> str:
    """How `dotted` (code reading `old`) reads `new`: `Image.CUBIC` -> `Image.BICUBIC`, `np.bool` -> `bool`,
    `collections.Mapping` -> `collections.abc.Mapping`."""
    old_module, written = old.rpartition(".")[0], dotted.rpartition(".")[0]
    module, name = library_names.split(new)
    if module == "builtins":
        return name
    below = module[len(old_module) :] if module == old_module or module.startswith(old_module + ".") else None
    return f"{written}{below}.{name}" if below is not None else new


def _removed(old: str) -> str:
    module = old.rpartition(".")[0]
    return f"removed in {library_names.REMOVED_IN[module]}"


# the last part of every removed name: what an attribute must spell to be one (also the rule's WORDS)
_OLD_ATTRIBUTES = frozenset(old for renamed in RENAMED.values() for old in renamed)
CHANGED_CALLS = library_names.CHANGED_CALLS


class LibraryNamesRule(InsideImport, Rule):
    ID = library_names.RULE
    DESCRIPTION = (
        "Names Pillow 10, Python 3.10 and NumPy removed: Image.ANTIALIAS -> LANCZOS, collections.Mapping -> "
        "collections.abc.Mapping, np.bool -> bool, np.float_ -> np.float64, np.array(x, copy=False) -> np.asarray(x) ..."
    )
    ORDER = 20
    EXAMPLE = Example(
        why="TF1-era code reads names its libraries have since removed (Pillow 10, Python 3.10, NumPy 1.24 "
        "and 2.0); each was an alias of the name it is rewritten to.",
        before="import numpy as np\nmask = np.zeros(3, dtype=np.bool)\nx = np.float_(1.0)\n",
        after="import numpy as np\nmask = np.zeros(3, dtype=bool)\nx = np.float64(1.0)\n",
    )
    # Every statement that uses an old name spells it (an alias comes from an import that does), so
    # the names bound to the libraries need not be words: no ROOTS.
    WORDS = _OLD_ATTRIBUTES | {change.keyword for change in CHANGED_CALLS.values()}

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        """`np.array(x, copy=False)` -> `np.asarray(x)`: what NumPy 1 did, on NumPy 1 and 2 (compat.library_names)."""
        name = self.match(original_node.func, frozenset(CHANGED_CALLS))
        if name is None:
            return updated_node
        change = CHANGED_CALLS[name]
        changed = [arg for arg in updated_node.args if arg.keyword and arg.keyword.value == change.keyword]
        if not changed or not (isinstance(changed[0].value, cst.Name) and changed[0].value.value == change.value):
            return updated_node
        was = f"{name}(..., {change.keyword}={change.value})"
        rest = [arg for arg in updated_node.args if arg is not changed[0]]
        subok = [arg for arg in rest if arg.keyword and arg.keyword.value == "subok"]
        now = change.now
        if subok and isinstance(subok[0].value, cst.Name) and subok[0].value.value == "True":
            rest, now = [arg for arg in rest if arg is not subok[0]], change.subok
        keywords = [arg.keyword.value for arg in rest if arg.keyword]
        positional = [arg for arg in rest if not arg.keyword]
        # the object and a dtype by position; anything else (`ndmin`, `object=`) has no place in the new call
        if not 1 <= len(positional) <= 2 or any(arg.star for arg in rest) or not set(keywords) <= set(change.takes):
            self.report(
                original_node,
                f"{was} never copies on {change.release} (a ValueError where a copy is needed); before, it copied "
                "only where needed",
                severity="warning",
                manual=f"on {change.release} and later write {change.keyword}={change.new_value} for the old meaning",
            )
            return updated_node
        self.report(original_node, f"{was} -> {library_names.spelled(now)}(...) (its meaning before {change.release})")
        rest[-1] = rest[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(func=self._call_written(updated_node.func, name, now), args=rest)

    def _call_written(self, func: cst.BaseExpression, old: str, now: str) -> cst.BaseExpression:
        """`func` (`np.array`, or `array` imported from numpy: the call `old`) spelling the same module's `now`."""
        module, name = library_names.split(now)
        if isinstance(func, cst.Attribute):
            return func.with_changes(attr=cst.Name(name))
        self.add_needed_import(module, name)
        if isinstance(func, cst.Name):  # `from numpy import array`: gone once nothing else calls it
            imported = library_names.split(old)[1]
            self.remove_unused_import(module, imported, func.value if func.value != imported else None)
        return cst.Name(name)

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        if self.in_import or original_node.attr.value not in _OLD_ATTRIBUTES:
            return updated_node
        name = self.match(original_node, frozenset(OLD_NAMES))
        if name is not None:
            new = OLD_NAMES[name]
            self.report(original_node, f"{name} -> {library_names.spelled(new)} ({_removed(name)})")
            return self._written(name, new, updated_node)
        dotted = get_full_name_for_node(original_node)
        old = None if dotted is None else self._maybe_old(original_node, dotted)
        if dotted is not None and old is not None:
            self.report(
                original_node,
                f"{dotted}: its first name is bound to {old.rpartition('.')[0]} and to something else in this module",
                severity="warning",
                manual=f"if this is {old}, write {_spelling(dotted, old, OLD_NAMES[old])} ({_removed(old)})",
            )
        return updated_node

    def _written(self, name: str, new: str, node: cst.Attribute) -> cst.BaseExpression:
        """`node` (which reads `name`) rewritten to read `new`."""
        old_module = name.rpartition(".")[0]
        module, new_name = library_names.split(new)
        if module == old_module:
            return node.with_changes(attr=cst.Name(new_name))
        if module == "builtins":
            if new_name not in self.state.table.bound:
                return cst.Name(new_name)
            self.add_needed_import("builtins")
            return _tf.dotted(new)
        self.add_needed_import(module)
        if module.startswith(old_module + "."):  # a submodule: through the user's own name for the module
            below = module[len(old_module) + 1 :].split(".")
            value: cst.BaseExpression = node.value
            for part in below:
                value = cst.Attribute(value=value, attr=cst.Name(part))
            return cst.Attribute(value=value, attr=cst.Name(new_name))
        return _tf.dotted(new)

    def _maybe_old(self, node: cst.Attribute, dotted: str) -> str | None:
        """The old name `node` could be through an import of a name the module also binds otherwise
        (the import table then resolves neither binding), else None."""
        rest = dotted.partition(".")[2]
        imported = cast("Mapping[str | None, frozenset[str]]", self.state.table.imported)  # (None: no entry)
        imports = imported.get(head_name(node), ())
        return min((f"{q}.{rest}" for q in imports if f"{q}.{rest}" in OLD_NAMES), default=None)

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.FlattenSentinel[cst.BaseSmallStatement] | cst.RemovalSentinel:
        # (the mixins return the node itself)
        updated_node = cast(cst.ImportFrom, super().leave_ImportFrom(original_node, updated_node))
        if updated_node.relative or updated_node.module is None or isinstance(updated_node.names, cst.ImportStar):
            return updated_node
        module = get_full_name_for_node(updated_node.module)
        if module not in RENAMED:
            return updated_node
        renamed = RENAMED[module]

        def note(old: str) -> None:
            qualified = f"{module}.{old}"
            self.report(original_node, f"{qualified} -> {library_names.spelled(renamed[old])} ({_removed(qualified)})")

        # a name of the same module: `from PIL.Image import LANCZOS as ANTIALIAS`, the module's uses stay as written
        same = {
            old: library_names.split(new)[1] for old, new in renamed.items() if library_names.split(new)[0] == module
        }
        aliases = renamed_keeping_local_names(updated_node.names, same, note)
        kept = []
        for alias in aliases:
            old = alias.evaluated_name
            if old in same or old not in renamed:
                kept.append(alias)
                continue
            # another module's name: imported from there, bound as before (`from collections.abc import Mapping`)
            note(old)
            home, new_name = library_names.split(renamed[old])
            local = alias.evaluated_alias or old
            if not (home == "builtins" and local == new_name):
                self.add_needed_import(home, new_name, local if local != new_name else None)
        if not kept:
            return cst.RemovalSentinel.REMOVE
        kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated_node.with_changes(names=kept)
