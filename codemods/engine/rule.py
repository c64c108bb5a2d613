"""The base class of every migration rule: a libcst codemod with an id, a level and report entries."""

import dataclasses
from collections.abc import Collection, Iterable
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, ClassVar, cast

import libcst as cst
from libcst.codemod import CodemodContext, VisitorBasedCodemodCommand

from codemods._report import Entry

if TYPE_CHECKING:
    from codemods.engine.names import NameTable, ScopeNames, TableNames

LEVELS = ("safe", "native")


class FastInit:
    """Mixin for libcst transformers built once per file.

    MatcherDecoratableTransformer.__init__ inspects every name in dir(self) for matcher
    decorators: with libcst's ~1,500 inherited visit_*/leave_* no-ops that costs about 35 ms per
    instance, more than migrating a small file. Concrete visit_*/leave_* methods can never carry
    those decorators (libcst rejects it), so hiding them from dir() loses nothing.
    """

    _dir_cache: ClassVar[dict[type, list[str]]] = {}

    def __dir__(self) -> list[str]:
        # per class, once: every file builds the import visitors afresh, and filtering ~1,700 names costs ~0.7 ms
        cls = type(self)
        if cls not in FastInit._dir_cache:
            FastInit._dir_cache[cls] = [n for n in dir(cls) if not n.startswith(("visit_", "leave_"))]
        return [*FastInit._dir_cache[cls], *vars(self)]


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
    claims: Claims  # qualified-name prefixes rewritten by the active rules
    # (top-level statement index, original node, Entry)
    reports: list[tuple[int, cst.CSTNode, Entry]] = dataclasses.field(default_factory=list)
    top: int = -1  # index of the top-level statement being visited (the engine's, rules only read it)
    taken: set[str] = dataclasses.field(default_factory=set)  # aliases the rules have chosen so far
    # some rule wrote code that needs `import compat` before TensorFlow loads (the engine adds it once)
    needs_compat: bool = False


class Rule(FastInit, VisitorBasedCodemodCommand):
    """Subclass with ID, DESCRIPTION, LEVEL and `visit_*`/`leave_*` methods (no matcher decorators).

    All active rules of a file run in ONE pass (codemods.engine.apply.apply_rules dispatches each node
    to them), so a rule must not rely on `self.module` or metadata of its own: ask
    `qualified_names(node)`, which is scope-correct; schedule imports with `add_needed_import` /
    `remove_unused_import`. A rule is never run on its own by libcst's `transform_module`: tests run
    it through `apply_rules` too, with the claims they name (tests/codemods/rule_test.py).
    """

    ID: ClassVar[str] = ""
    LEVEL: ClassVar[str] = "safe"  # the lowest --level at which the rule runs
    # Qualified-name prefixes this rule rewrites, so the catch-all rules do not also report them.
    # A tuple or a frozenset.
    CLAIMS: ClassVar[Collection[str]] = ()
    # The words (identifiers, or text in strings or comments) besides the names the module binds to
    # TensorFlow or the platform SDK whose presence in a top-level statement's source can make this
    # rule act there. When every active rule names its words, the engine skips the statements that
    # mention none (libcst's visit of a statement costs about twice its parse). None: every statement.
    WORDS: ClassVar[frozenset[str] | None] = None
    # Top-level packages besides TensorFlow and the platform SDK whose names this rule acts on: the
    # names a module binds to them (`import tf_slim as slim` binds `slim`) count as its words too.
    ROOTS: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, context: CodemodContext, level: str = "safe") -> None:
        super().__init__(context)
        if level not in LEVELS:
            raise ValueError(f"level must be one of {LEVELS}, not {level!r}")
        self.level = level
        # None until the engine calls begin_file, which it does before the rule visits any node
        self.state: FileState = cast(FileState, None)

    # -- called by the engine
    def begin_file(self, state: FileState) -> None:
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

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        raise TypeError(
            f"{type(self).__name__} runs through codemods.engine.apply.apply_rules (with the active rules' claims)"
        )
