"""Report every tf.contrib name no rule rewrites: contrib is gone from TensorFlow 2.

No import of tf.contrib reaches the migrated file unreported, whatever uses it has: an import the
other rules left in place fails as the module runs. So once the pass is over, each one still there is
removed when nothing in the migrated module reads the name it binds, and is an error entry at its
line otherwise (the module itself used as a value, a name no rule converts, `import *`).

An import in a `try` whose `except` catches its ImportError is the program's TF 1 check, not a use
(tensor2tensor's `is_tf2`): left as written it fails on TF 2 and the program's own TF 2 branch runs,
so it is neither removed nor an error. When another rule rewrote it (`from tensorflow.contrib import
slim` -> `compat.slim`), the check now answers TF 1: the program takes its TF 1 branch, which is the
code uai-migrate converted and what uai-run runs. That choice is kept, and said in a warning entry.
A `try` and `except` that only import (`except ImportError: import tf_slim as slim`) are a fallback,
not a check: nothing branches on which one ran, and the entry is an info.
"""

import ast
import collections
from collections.abc import Sequence
from typing import cast

import libcst as cst

from codemods.engine.names import bindings, dotted
from codemods.engine.rule import FileState, Rule
from codemods.engine.syntax import InsideImport, OutermostChain
from codemods.rule_description import Example
from codemods.rules import _shared, _tf
from compat import tf1_names

# what an `except` names when it catches the ImportError of a missing module
_CATCH_IMPORT_ERROR = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})
FLIPPED = (
    "the program's TF 1 check (a `try` importing tf.contrib, its `except` catching the ImportError) now finds "
    "TF 1: after the rewrite the import succeeds, so the `try` branch runs on TF 2"
)
FLIPPED_MANUAL = (
    "the program takes its TF 1 branch, as under uai-run: the code uai-migrate converted (its report lists what "
    "is left there); the `except` branch, the program's own TF 2 path, no longer runs. To run that path instead, "
    "replace the check by its TF 2 answer"
)


# (contrib name, module, object or "*" or None, alias): one name an import takes from tf.contrib
_Imported = tuple[str, str, str | None, str | None]


def _catches_import_error(handler: cst.ExceptHandler) -> bool:
    kind = handler.type
    kinds = [element.value for element in kind.elements] if isinstance(kind, cst.Tuple) else [kind]
    return kind is None or any(
        isinstance(k, (cst.Name, cst.Attribute)) and _tf.full_name(k).rpartition(".")[2] in _CATCH_IMPORT_ERROR
        for k in kinds
    )


def _lines(suite: cst.BaseSuite) -> Sequence[cst.BaseStatement | cst.SimpleStatementSuite]:
    return suite.body if isinstance(suite, cst.IndentedBlock) else [cast(cst.SimpleStatementSuite, suite)]


def _only_imports(suite: cst.BaseSuite) -> bool:
    """Does the block only import (or pass)? Then a `try` around it is a fallback import, not a check."""
    return all(
        isinstance(line, (cst.SimpleStatementLine, cst.SimpleStatementSuite))
        and all(isinstance(small, (cst.Import, cst.ImportFrom, cst.Pass)) for small in line.body)
        for line in _lines(suite)
    )


def _is_contrib(name: str) -> bool:
    return name in _shared.CONTRIBS or name.startswith(_shared.CONTRIB_BELOW)


def _taken(module: str | None, aliases: list[tuple[str, str | None]]) -> list[_Imported]:
    """What `from module import name as alias, ...` (`import name as alias, ...` when `module` is None)
    takes from tf.contrib."""
    found: list[_Imported] = []
    for name, alias in aliases:
        full = name if module is None else module if name == "*" else f"{module}.{name}"
        if _is_contrib(full):
            found.append((full, name, None, alias) if module is None else (full, module, name, alias))
    return found


def _contrib_names(node: cst.Import | cst.ImportFrom) -> list[_Imported]:
    """The names the import statement `node` takes from tf.contrib."""
    if isinstance(node, cst.Import):
        return _taken(None, [(_tf.full_name(a.name), a.evaluated_alias) for a in node.names])
    if node.relative or node.module is None:
        return []
    aliases: list[tuple[str, str | None]] = [("*", None)]
    if not isinstance(node.names, cst.ImportStar):
        aliases = [(a.evaluated_name, a.evaluated_alias) for a in node.names]
    return _taken(_tf.full_name(node.module), aliases)


# the nodes an import statement can be inside (expressions cannot hold one)
_HOLDERS = (
    cst.BaseCompoundStatement,
    cst.BaseSuite,
    cst.SimpleStatementLine,
    cst.Else,
    cst.ExceptHandler,
    cst.ExceptStarHandler,
    cst.Finally,
    cst.MatchCase,
)


def _contrib_imports(module: cst.Module) -> collections.Counter[_Imported]:
    """The names the module's imports take from tf.contrib (as `_contrib_names` gives them), counted.
    Statements only: far cheaper than printing the module, which only a file that keeps one needs."""
    found: collections.Counter[_Imported] = collections.Counter()
    stack: list[cst.CSTNode] = list(module.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            for small in node.body:
                if isinstance(small, (cst.Import, cst.ImportFrom)):
                    found.update(_contrib_names(small))
        else:
            stack.extend(child for child in node.children if isinstance(child, _HOLDERS))
    return found


def _reads(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(the names the module reads, or names in its strings as `__all__` does; the dotted chains it reads)"""
    names: set[str] = set()
    chains: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            chains.add(dotted(node) or "")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value.partition(".")[0])
    return names, chains


class ContribRule(OutermostChain, InsideImport, Rule):
    ID = "contrib-removed"
    DESCRIPTION = "Report uses of tensorflow.contrib that no other rule converts, with the manual step."
    ORDER = 180  # the catch-all reporter: last
    EXAMPLE = Example(
        why="Most of tf.contrib has no automatic TF2 equivalent: each use is reported (an error, with the "
        "manual step) rather than guessed; the code is left as it is. An import of tf.contrib left in place "
        "fails as the module runs: it is removed when nothing reads it, else reported.",
        before="import tensorflow as tf\ncell = tf.contrib.rnn.LSTMBlockCell(64)\n",
        after="import tensorflow as tf\ncell = tf.contrib.rnn.LSTMBlockCell(64)\n",
    )

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        # the imports taking names from tf.contrib, in source order: (import, its top-level statement, names)
        self._imports: list[tuple[cst.Import | cst.ImportFrom, int, list[_Imported]]] = []
        self._unconverted: set[tuple[int, str]] = set()  # (import node id, name) that no rule converts any of
        # ids of the imports in a `try` that catches their ImportError (see the module docstring): does the
        # program branch on it (True: a TF 1 check), or only import something else instead (False: a fallback)?
        self._checks: dict[int, bool] = {}
        # ids of `tf.contrib.<module>` values bound to an alias, which contrib-module-values converts
        self._aliased: set[int] = set()

    def _unclaimed(self, name: str) -> bool:
        return _is_contrib(name) and not self.state.claims.covering(name)

    def _partly_claimed(self, module: str) -> bool:
        """A contrib module some of whose names other rules convert: its import is reported if a use stays."""
        return self.state.claims.has_below(module)

    def _flag(self, node: cst.CSTNode, name: str, statement: int | None = None) -> None:
        manual = tf1_names.manual_for(name)
        self.report(node, f"{name} has no automatic conversion", severity="error", manual=manual, statement=statement)

    def visit_Try(self, node: cst.Try) -> None:
        if any(_catches_import_error(handler) for handler in node.handlers):
            branches = not all(_only_imports(suite) for suite in [node.body, *(h.body for h in node.handlers)])
            for line in _lines(node.body):
                if isinstance(line, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
                    for small in line.body:
                        if isinstance(small, (cst.Import, cst.ImportFrom)):
                            self._checks[id(small)] = branches

    def _record(self, node: cst.Import | cst.ImportFrom) -> None:
        names = _contrib_names(node)
        if names:
            self._imports.append((node, self.state.top, names))

    def visit_Import(self, node: cst.Import) -> None:
        super().visit_Import(node)
        self._record(node)
        for alias in node.names:
            name = _tf.full_name(alias.name)
            if self._unclaimed(name) and not self._partly_claimed(name):
                self._unconverted.add((id(node), name))

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        super().visit_ImportFrom(node)
        self._record(node)
        if node.relative or node.module is None:
            return
        module = _tf.full_name(node.module)
        if isinstance(node.names, cst.ImportStar):
            names = [module]
        else:
            names = [f"{module}.{_tf.full_name(alias.name)}" for alias in node.names]
            names = [name for name in names if not self._partly_claimed(name)]
        self._unconverted.update((id(node), name) for name in names if self._unclaimed(name))

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        # what the other rules left of each import shows in the migrated module only (a rule may rewrite
        # an import at its statement, split it, or move a name out of it): matched by what it imports,
        # in source order
        if not self._imports:
            return updated_node
        left = _contrib_imports(updated_node)
        names, chains = _reads(ast.parse(updated_node.code)) if left else (set(), set())
        for node, statement, imported in self._imports:
            stays = [item for item in imported if left[item] > 0]
            for item in stays:
                left[item] -= 1
            if id(node) in self._checks:
                self._check(node, statement, imported[0][0], bool(stays), self._checks[id(node)])
                continue
            for name, module, obj, asname in stays:
                if obj == "*":
                    used = True
                elif obj is not None or asname is not None:
                    used = (asname or obj) in names
                else:  # `import a.b.c`: read as that chain
                    used = any(chain == module or chain.startswith(module + ".") for chain in chains)
                self._stays(node, statement, name, module, obj, asname, used or not self._whole_namespace())
        return updated_node

    def _whole_namespace(self) -> bool:
        """Does this module hold every binding of its namespace? A notebook's cells share one, and each is
        migrated apart (the table is scanned from them all): another cell may read what this one imports,
        so an import this cell does not read is not proven unused. (A cell among others that bind nothing
        is taken for a whole module.)"""
        own = {name for name, _ in bindings(self.state.syntax)}
        return self.state.table.bound <= own

    def _check(self, node: cst.Import | cst.ImportFrom, statement: int, name: str, stays: bool, branches: bool) -> None:
        if stays:
            message = f"{name}: kept, a TF 1 check that fails on TF 2 into its `except` branch"
            self.report(node, message, statement=statement)
        elif branches:
            self.report(node, f"{name}: {FLIPPED}", severity="warning", manual=FLIPPED_MANUAL, statement=statement)
        else:
            message = f"{name}: rewritten, so the `except` branch's import of a fallback no longer runs on TF 2"
            self.report(node, message, statement=statement)

    def _stays(
        self,
        node: cst.Import | cst.ImportFrom,
        statement: int,
        name: str,
        module: str,
        obj: str | None,
        asname: str | None,
        used: bool,
    ) -> None:
        """An import of `name` the migrated module still holds: removed if nothing reads it, else an error."""
        if not used:
            self.remove_unused_import(module, obj, asname)
            self.report(node, f"{name}: nothing reads it after the rewrites, import removed", statement=statement)
            return
        if (id(node), name) in self._unconverted:
            self._flag(node, name, statement)
        else:
            message = f"{name} stays imported for its unconverted uses, and is no module on TF 2.21"
            self.report(node, message, severity="error", manual=tf1_names.manual_for(name), statement=statement)

    def visit_Assign(self, node: cst.Assign) -> None:
        if _tf.contrib_module_alias(self, node) is not None:
            self._aliased.add(id(node.value))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        # Bare names are not checked: the import that bound them is reported, and a Name can be
        # an attribute or keyword.
        if not self.in_import and self.outermost(node) and id(node) not in self._aliased:
            names = [n for n in self.qualified_names(node) if self._unclaimed(n)]
            if names:
                self._flag(node, min(names))
        super().visit_Attribute(node)
