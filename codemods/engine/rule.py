"""The base class of every migration rule (the contract: docs/adding.md, "How to add a rule")."""

import ast
import dataclasses
from collections.abc import Collection, Iterable
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, ClassVar, cast

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor

from codemods._report import Entry
from codemods.rule_description import Example

if TYPE_CHECKING:
    from codemods.engine.names import NameTable, ScopeNames, TableNames
    from codemods.engine.tree import Context

LEVELS = ("safe", "native")


class Claims:
    """The qualified-name prefixes the active rules rewrite, looked up by a name's own prefixes.

    A rule asks for every dotted name it meets; with the tables' hundreds of claims a scan of
    them all per name would cost more than the rules' work.
    """

    def __init__(self, prefixes: Iterable[str]) -> None:
        self.prefixes = frozenset(prefixes)
        self._ancestors = frozenset(p.rsplit(".", k)[0] for p in self.prefixes for k in range(1, p.count(".") + 1))

    def covering(self, name: str) -> list[str]:
        """The claimed prefixes of `name`, itself included."""
        parts = name.split(".")
        return [p for p in (".".join(parts[:i]) for i in range(1, len(parts) + 1)) if p in self.prefixes]

    def has_below(self, name: str) -> bool:
        """Is some name under `name` (but not `name` itself) claimed?"""
        return name in self._ancestors


@dataclasses.dataclass
class FileState:
    """What the rules of one file share during its single pass."""

    names: "TableNames | ScopeNames"
    table: "NameTable"
    source: str  # the module's text: a rule tests it for a word before searching the whole tree
    syntax: ast.Module  # the module's `ast`, which the engine parsed once for every rule (a notebook: its cells joined)
    claims: Claims  # qualified-name prefixes rewritten by the active rules
    # the imports the rules schedule (libcst's AddImportsVisitor / RemoveImportsVisitor keys in its scratch)
    context: CodemodContext = dataclasses.field(default_factory=CodemodContext)
    # (top-level statement index, original node, Entry)
    reports: list[tuple[int, cst.CSTNode, Entry]] = dataclasses.field(default_factory=list)
    top: int = -1  # index of the top-level statement being visited (the engine's, rules only read it)
    taken: set[str] = dataclasses.field(default_factory=set)  # aliases the rules have chosen so far
    # some rule wrote code that needs `import compat` before TensorFlow loads (the engine adds it once)
    needs_compat: bool = False
    # what the rest of the tree tells this file (None: migrated alone), and what the rules tell the
    # tree pass of it (codemods/engine/tree.py)
    tree: "Context | None" = None
    signals: set[str] = dataclasses.field(default_factory=set)


class Rule:
    """Subclass with ID, DESCRIPTION, LEVEL, ORDER, EXAMPLE and `visit_<Node>`/`leave_<Node>` methods.

    A plain class, not a libcst transformer: all active rules of a file run in ONE libcst pass
    (codemods.engine.apply.apply_rules dispatches each node to them, in ORDER), so a rule has no
    `self.module` or metadata of its own. It asks `qualified_names(node)`, which is scope-correct,
    schedules imports with `add_needed_import` / `remove_unused_import`, and reports with `report`.
    To run one rule as a libcst Codemod (libcst's CodemodTest): codemods.engine.apply.as_codemod.
    """

    ID: ClassVar[str] = ""  # kebab-case: what --select, --ignore and --explain take
    DESCRIPTION: ClassVar[str] = ""  # one line, for --help and the SARIF report
    LEVEL: ClassVar[str] = "safe"  # the lowest --level at which the rule runs
    # Its place in the pass (codemods/rules/__init__.py sorts the rules by it): it matters only between
    # rules acting on the same node. Every rule sets its own; no two rules share one.
    ORDER: ClassVar[int]
    EXAMPLE: ClassVar[Example]  # what --explain shows; its `before` must migrate to its `after`
    # Qualified-name prefixes this rule rewrites, so the catch-all rules do not also report them.
    # A tuple or a frozenset.
    CLAIMS: ClassVar[Collection[str]] = ()
    # The words (identifiers, or text in strings or comments) besides the names the module binds to
    # TensorFlow or the platform SDK whose presence in a statement's source (at any depth) can make
    # this rule act there. When every active rule names its words, the engine skips the statements
    # that mention none (codemods/engine/quiet.py). None: every statement.
    WORDS: ClassVar[frozenset[str] | None] = None
    # Top-level packages besides TensorFlow and the platform SDK whose names this rule acts on: the
    # names a module binds to them (`import tf_slim as slim` binds `slim`) count as its words too.
    ROOTS: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, level: str = "safe") -> None:
        if level not in LEVELS:
            raise ValueError(f"level must be one of {LEVELS}, not {level!r}")
        self.level = level
        # None until the engine calls begin_file, which it does before the rule visits any node
        self.state: FileState = cast(FileState, None)

    # -- called by the engine
    def begin_file(self, state: FileState) -> None:
        """A new file: a rule resets its per-file attributes here (one instance serves many files)."""
        self.state = state

    # -- for rule bodies
    def qualified_names(self, node: cst.CSTNode) -> frozenset[str]:
        return self.state.names.qualified(node, self.state.top)

    def match(self, node: cst.CSTNode, names: AbstractSet[str]) -> str | None:
        """The qualified name of `node` if it is one of `names` (a set), else None."""
        found = self.qualified_names(node) & names
        return min(found) if found else None

    def match_prefix(self, node: cst.CSTNode, prefixes: Iterable[str]) -> str | None:
        for name in self.qualified_names(node):
            if any(name == p or name.startswith(p + ".") for p in prefixes):
                return name
        return None

    def free_name(self, preferred: str, fallback: str) -> str:
        """An alias for a new import: `preferred` unless the module already binds it otherwise."""
        for name in (preferred, fallback):
            if name in self.state.taken or name not in self.state.table.bound:
                self.state.taken.add(name)
                return name
        raise ValueError(f"both {preferred!r} and {fallback!r} are bound in this module")

    def add_needed_import(
        self, module: str, obj: str | None = None, asname: str | None = None, relative: int = 0
    ) -> None:
        """`import module [as asname]` / `from module import obj [as asname]`, added once when the pass ends
        (as libcst's AddImportsVisitor.add_needed_import)."""
        AddImportsVisitor.add_needed_import(self.state.context, module, obj, asname, relative)

    def remove_unused_import(self, module: str, obj: str | None = None, asname: str | None = None) -> None:
        """Drop this import when the pass ends if nothing uses it any more (as libcst's
        RemoveImportsVisitor.remove_unused_import)."""
        RemoveImportsVisitor.remove_unused_import(self.state.context, module, obj, asname)

    def report(
        self,
        node: cst.CSTNode,
        message: str,
        severity: str = "info",
        manual: str | None = None,
        native: bool = False,
        statement: int | None = None,
    ) -> None:
        """An entry at `node`, which is in the top-level statement being visited, or in `statement`
        (its index in the original module: for a node reported after the pass has left it)."""
        entry = Entry(
            rule=self.ID, message=message, severity=severity, manual=manual, level="native" if native else "safe"
        )
        self.state.reports.append((self.state.top if statement is None else statement, node, entry))
