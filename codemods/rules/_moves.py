"""Base of the rules that move a TF1 module (or a name in it) to a new home, in every import form.

A subclass only fills tables:
    MOVES     {old qualified name: (new module, new attribute or None)}
              e.g. "tensorflow.app.flags": ("compat.flags", None), "tensorflow.app.run": ("compat.flags", "run")
    PACKAGES  {old package: new package} for names imported from below it (`from old.sub import x`)
    ALIASES   {new module: (preferred alias, fallback alias)} for uses that need a new import
    RUNTIME   a module to import for its side effects when a PACKAGES rewrite happened (or None)
and gets, keeping the user's own alias:
    import old as a / from old_parent import old [as a] / a = <old expression>  ->  import new as a
                                 (a tf-slim submodule: from new_package import last as a, see `_from_package`)
    from old_parent import moved_function [as f]                             ->  from new import attr [as f]
    from old.sub import x                                                    ->  from new_package.sub import x
    <expression resolving to old>                                            ->  alias[.attr]
"""

from collections.abc import Iterable
from typing import ClassVar, cast

import libcst as cst
from libcst.helpers import get_full_name_for_node

from codemods.engine.rule import FileState, Rule
from codemods.engine.syntax import InsideImport, dotted
from codemods.rules import _tf
from compat import tf1_names


def _from_package(module: str) -> tuple[str, str] | None:
    """(package, submodule) for a tf-slim submodule `import <module> as m` cannot bind, else None.

    `import tf_slim.ops.variables as v` raises ImportError: it reads attribute `ops` of tf_slim, which tf_slim's
    `__init__` rebinds (`tf_slim.training` to its training submodule, `tf_slim.layers` to layers.layers,
    `tf_slim.ops` to TensorFlow's ops), so the module is imported from its package: `from tf_slim.ops import variables
    as v`."""
    if module.startswith("tf_slim.") and module.count(".") > 1:
        package, _, last = module.rpartition(".")
        return package, last
    return None


def _import(module: str, asname: str | None) -> cst.Import | cst.ImportFrom:
    found = _from_package(module) if asname else None
    if found is not None:
        return _import_from(found[0], [(found[1], cast(str, asname))])
    alias = cst.AsName(name=cst.Name(asname)) if asname and asname != module else None
    return cst.Import(names=[cst.ImportAlias(name=dotted(module), asname=alias)])


def _import_from(module: str, names: Iterable[tuple[str, str]]) -> cst.ImportFrom:
    aliases = [
        cst.ImportAlias(name=cst.Name(name), asname=cst.AsName(name=cst.Name(asname)) if asname != name else None)
        for name, asname in names
    ]
    return cst.ImportFrom(module=dotted(module), names=aliases)


class ModuleMoveRule(InsideImport, Rule):
    # every name it moves is TensorFlow's or the platform SDK's (tests/codemods/test_engine_skip.py checks the tables)
    WORDS: ClassVar[frozenset[str] | None] = frozenset()
    MOVES: ClassVar[dict[str, tuple[str, str | None]]] = {}
    PACKAGES: ClassVar[dict[str, str]] = {}
    ALIASES: ClassVar[dict[str, tuple[str, str]]] = {}
    RUNTIME: ClassVar[str | None] = None
    EXTRA_CLAIMS: ClassVar[frozenset[str]] = frozenset()  # names the rule rewrites by other means than MOVES
    # set for each subclass by __init_subclass__
    _OLD_NAMES: ClassVar[frozenset[str]]
    _MODULE_MOVES: ClassVar[frozenset[str]]
    # PACKAGES' internal (`.python.`) packages: their names move only through imports
    _PRIVATE: ClassVar[tuple[str, ...]]

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.CLAIMS = frozenset(cls.MOVES) | frozenset(cls.PACKAGES) | cls.EXTRA_CLAIMS
        # looked up for every attribute and assignment of every file: built once
        cls._OLD_NAMES = frozenset(cls.MOVES)
        cls._MODULE_MOVES = frozenset(old for old, (_, attr) in cls.MOVES.items() if attr is None)
        cls._PRIVATE = tuple(old for old in cls.PACKAGES if ".python." in old + ".")

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._aliases: dict[str, str] = {}  # new module -> the alias this file imports it under
        self._imported: set[str] = set()  # new modules this file now imports under an alias
        self._need_runtime = False
        self._assigned: set[int] = set()  # `a = <old module>` values: the statement is rewritten, not the expression
        # A user's alias of the old module is reused for a moved name only where it is bound already when
        # the use runs: below its binding at module level, or anywhere in a def or lambda (run later).
        self._deferred = 0  # depth of defs and lambdas around the node being visited
        self._bound_above: set[str] = set()  # module-level names bound by the statements passed

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._deferred += 1

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef) -> cst.FunctionDef:
        self._deferred -= 1
        return updated_node

    def visit_Lambda(self, node: cst.Lambda) -> None:
        self._deferred += 1

    def leave_Lambda(self, original_node: cst.Lambda, updated_node: cst.Lambda) -> cst.Lambda:
        self._deferred -= 1
        return updated_node

    # -- the move of one name
    def _package_move(self, name: str) -> str | None:
        return tf1_names.move_package(name, self.PACKAGES)

    def _note(self, node: cst.CSTNode, old: str, new: str) -> None:
        self.report(node, f"{old} -> {new}")

    def _rewrite_import(self, stmt: cst.Import | cst.ImportFrom) -> list[cst.BaseSmallStatement] | None:
        """The statements replacing one import statement, or None to keep it."""
        out: list[cst.BaseSmallStatement] = []
        kept: list[cst.ImportAlias] = []
        moved_from: dict[str, list[tuple[str, str]]] = {}
        if isinstance(stmt, cst.Import):
            for alias in stmt.names:
                full = cast(str, get_full_name_for_node(alias.name))  # (an imported module: a dotted name)
                asname = alias.evaluated_alias
                target = self.MOVES.get(full)
                package = self._package_move(full)
                if target and target[1] is None and asname:
                    out.append(_import(target[0], asname))
                    self._imported.add(target[0])
                    self._note(stmt, f"import {full}", target[0])
                elif package and asname:
                    out.append(_import(package, asname))
                    self._need_runtime = True
                    self._note(stmt, f"import {full}", package)
                elif target or package or (not asname and "." in full and full in tf1_names.MODULES):
                    # `import old.module` binds only the top package; uses are rewritten as expressions (and a TF1
                    # module compat/tf1_names.py serves elsewhere is not there to import: TF 2 has no tensorflow.app)
                    out.append(_import(full.split(".")[0], None))
                else:
                    kept.append(alias)
            if len(kept) == len(stmt.names):
                return None
            if kept:
                kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                out.insert(0, stmt.with_changes(names=kept))
            return out
        if stmt.relative or isinstance(stmt.names, cst.ImportStar) or stmt.module is None:
            return None
        module = cast(str, get_full_name_for_node(stmt.module))  # (a dotted name)
        package = self._package_move(module)
        for alias in stmt.names:
            name = cast(str, get_full_name_for_node(alias.name))  # (a name)
            bound = alias.evaluated_alias or name
            target = self.MOVES.get(f"{module}.{name}")
            if target and target[1] is None:
                out.append(_import(target[0], bound))
                self._imported.add(target[0])
                self._note(stmt, f"from {module} import {name}", target[0])
            elif target:
                attribute = cast(str, target[1])  # (not None: that case is the branch above)
                moved_from.setdefault(target[0], []).append((attribute, bound))
                self._note(stmt, f"from {module} import {name}", f"{target[0]}.{target[1]}")
            elif package:
                moved_from.setdefault(package, []).append((name, bound))
                self._need_runtime = True
                self._note(stmt, f"from {module} import {name}", f"{package}.{name}")
            else:
                kept.append(alias)
        if len(kept) == len(stmt.names):
            return None
        out.extend(_import_from(new, names) for new, names in moved_from.items())
        if kept:
            kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            out.insert(0, stmt.with_changes(names=kept, lpar=None, rpar=None))
        return out

    def visit_Assign(self, node: cst.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0].target, cst.Name):
            if self.match(node.value, self._MODULE_MOVES):
                self._assigned.add(id(node.value))

    def _rewrite_assignment(self, stmt: cst.BaseSmallStatement) -> list[cst.BaseSmallStatement] | None:
        """`a = <old module expression>` -> `import new as a` (keeps the user's alias, drops a dead module)."""
        if not (isinstance(stmt, cst.Assign) and len(stmt.targets) == 1):
            return None
        target = stmt.targets[0].target
        if not isinstance(target, cst.Name):
            return None
        old = self.match(stmt.value, self._MODULE_MOVES)
        if old is None:
            return None
        new = self.MOVES[old][0]
        self._imported.add(new)
        self._note(stmt, f"{target.value} = {old}", f"import {new} as {target.value}")
        return [_import(new, target.value)]

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if not self._deferred:
            self._bound_above.update(_bound_names(original_node))
        lines: list[cst.BaseSmallStatement] = []
        changed = False
        for original, updated in zip(original_node.body, updated_node.body):
            if isinstance(original, (cst.Import, cst.ImportFrom)):
                new = self._rewrite_import(original)
            else:
                new = self._rewrite_assignment(original)
            changed |= new is not None
            lines.extend(new if new is not None else [updated])
        if not changed:
            return updated_node
        first = updated_node.with_changes(body=[lines[0].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)])
        rest = [
            cst.SimpleStatementLine(body=[stmt.with_changes(semicolon=cst.MaybeSentinel.DEFAULT)]) for stmt in lines[1:]
        ]
        return cst.FlattenSentinel([first, *rest]) if rest else first

    # -- expressions
    def _alias_for(self, module: str, old_names: Iterable[str]) -> str:
        """The user's alias of the old module where it is bound when this use runs, else an import of
        the new module under a free name (one per module and file)."""
        existing = [
            n
            for n, q in self.state.table.toplevel.items()
            if q in old_names and (self._deferred or n in self._bound_above)
        ]
        if existing:
            return existing[0]  # the first binding in source order
        if module not in self._aliases:
            self._aliases[module] = alias = self.free_name(*self.ALIASES[module])
            found = _from_package(module)
            if found is None:
                self.add_needed_import(module, asname=alias)
            else:
                self.add_needed_import(found[0], found[1], None if alias == found[1] else alias)
        return self._aliases[module]

    def _forget_dead_import(self, node: cst.Attribute, old: str) -> None:
        """`from tensorflow import app` / `import tensorflow.contrib.layers as layers` become dead once
        `app.flags` / `layers.conv2d` are rewritten: drop them if unused (whichever form bound the name)."""
        head = cast(str, get_full_name_for_node(node)).split(".")[0]  # (it matched: a dotted name)
        source = self.state.table.imports.get(head)
        if source and "." in source and old.startswith(source + ".") and source not in self.MOVES:
            parent, _, obj = source.rpartition(".")
            # tf1-api may have moved the import already (`from tensorflow.compat.v1 import app`): it visits the
            # import before this rule reaches the use, so the statement left dead is in either spelling
            for spelling in {parent, _tf.v1_spelling(parent)}:
                self.remove_unused_import(spelling, obj, head if head != obj else None)
            self.remove_unused_import(source, None, head)

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        if self.in_import or id(original_node) in self._assigned:
            return updated_node
        old = self.match(original_node, self._OLD_NAMES)
        if old is None:
            return updated_node
        module, attr = self.MOVES[old]
        alias = self._alias_for(module, {k for k, (m, a) in self.MOVES.items() if m == module and a is None})
        self._forget_dead_import(original_node, old)
        new = cst.Name(alias) if attr is None else cst.Attribute(value=cst.Name(alias), attr=cst.Name(attr))
        dotted_name = cast(str, get_full_name_for_node(original_node))  # (it matched: a dotted name)
        self._note(original_node, dotted_name, f"{alias}.{attr}" if attr else alias)
        return new

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if self._need_runtime and self.RUNTIME and self.RUNTIME not in self._imported:
            self.add_needed_import(self.RUNTIME)
        return updated_node


def _bound_names(line: cst.SimpleStatementLine) -> set[str]:
    """The names a statement line binds: plain assignment targets and imports."""
    names: set[str] = set()
    for small in line.body:
        if isinstance(small, cst.Assign):
            names.update(t.target.value for t in small.targets if isinstance(t.target, cst.Name))
        elif isinstance(small, (cst.AnnAssign, cst.AugAssign)) and isinstance(small.target, cst.Name):
            names.add(small.target.value)
        elif isinstance(small, (cst.Import, cst.ImportFrom)) and not isinstance(small.names, cst.ImportStar):
            for alias in small.names:
                names.add(alias.evaluated_alias or alias.evaluated_name.split(".")[0])
    return names
