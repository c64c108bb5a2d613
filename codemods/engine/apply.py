"""One pass over a module applying every active rule, then the scheduled import edits once."""

import ast
import collections
import dataclasses
import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import cast

import libcst as cst
from libcst.codemod import Codemod, CodemodContext

from codemods._report import Entry
from codemods.engine import imports as _imports
from codemods.engine import names as _names
from codemods.engine import positions as _positions
from codemods.engine.rule import Claims, FileState, Rule


class _Dispatcher(cst.CSTTransformer):
    """Calls each rule's own visit_<Node>/leave_<Node> methods, in registry order."""

    def __init__(self, rules: Sequence[Rule], state: FileState, skip: frozenset[int] = frozenset()) -> None:
        super().__init__()
        self._state, self._depth, self._skip = state, 0, skip
        self._visit: collections.defaultdict[str, list[Callable[..., object]]] = collections.defaultdict(list)
        self._leave: collections.defaultdict[str, list[Callable[..., object]]] = collections.defaultdict(list)
        for rule in rules:
            for name in _own_methods(type(rule)):
                kind, _, node_type = name.partition("_")
                if kind in ("visit", "leave") and node_type and "_" not in node_type:
                    getattr(self, "_" + kind)[node_type].append(getattr(rule, name))

    def on_visit(self, node: cst.CSTNode) -> bool:
        if self._depth == 1 and isinstance(node, cst.BaseStatement):
            self._state.top += 1  # entering the next top-level statement (for report positions)
            if self._state.top in self._skip:
                return False  # nor its leave: no rule sees any of it
        self._depth += 1
        for method in self._visit.get(type(node).__name__, ()):
            method(node)
        return True

    # Rules have no visit_<Node>_<field> methods: skip libcst's per-field lookups (a third of a pass).
    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        pass

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        pass

    def on_leave(self, original_node, updated_node):  # (libcst's generic signature)
        if self._depth == 1 and isinstance(original_node, cst.BaseStatement):
            return updated_node  # a skipped top-level statement (the others are left at depth 2)
        self._depth -= 1
        for method in self._leave.get(type(original_node).__name__, ()):
            updated_node = method(original_node, updated_node)
            if type(updated_node) is not type(original_node):
                break  # removed, flattened or replaced: later rules would not recognise it
        return updated_node


def _own_methods(cls: type[Rule]) -> list[str]:
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass is Rule:
            break
        names.update(klass.__dict__)
    return sorted(names)


@dataclasses.dataclass
class Applied:
    module: cst.Module
    entries: list[Entry]


_WORD = re.compile(r"\w+")
# Python's tokenizer ends lines at these only (str.splitlines also splits at form feeds, \x1c ...)
_LINE_END = re.compile(r"\r\n|\r|\n")
# A backslash-newline inside a string literal joins its two halves into one word ("TF_\<newline>CONFIG").
_CONTINUATION = re.compile(r"\\(?:\r\n|\r|\n)")
# Escapes that can spell a word character in a string literal ("TF_\x43ONFIG" is "TF_CONFIG").
_WORD_ESCAPE = re.compile(r"\\(?:[0-7xuU]|N\{)")


def _words(text: str) -> set[str] | None:
    """The words a rule may find in `text`, or None when a string literal there may spell any word."""
    words = set(_WORD.findall(text))
    if "\\" in text:
        if _WORD_ESCAPE.search(text):
            return None
        words.update(_WORD.findall(_CONTINUATION.sub("", text)))
    if not text.isascii():
        # identifiers: the ast (so the module's table) has them NFKC-normalised, libcst as written
        words.update(_WORD.findall(unicodedata.normalize("NFKC", text)))
    return words


def _quiet_statements(rules: Sequence[Rule], table: _names.NameTable, tree: ast.Module, source: str) -> frozenset[int]:
    """The top-level statements no active rule can act on: their source (strings and comments too)
    has none of the rules' WORDS and no name the module binds to TensorFlow, the platform SDK or
    the rules' ROOTS."""
    words = [type(rule).WORDS for rule in rules]
    if any(w is None for w in words) or table.star:
        return frozenset()  # (after `from tensorflow import *` any bare name may be TensorFlow's)
    roots: frozenset[str] = frozenset().union(*(type(rule).ROOTS for rule in rules))
    keys: frozenset[str] = frozenset().union(*cast("list[frozenset[str]]", words), table.watched_names(roots))
    starts = [0, *(match.end() for match in _LINE_END.finditer(source)), len(source)]
    quiet: set[int] = set()
    for top, group in enumerate(_positions._groups(tree)):
        first = min([group[0].lineno, *(d.lineno for d in getattr(group[0], "decorator_list", ()))])
        last = cast(int, group[-1].end_lineno)  # (set on every parsed statement)
        found = _words(source[starts[first - 1] : starts[last]])
        if found is not None and keys.isdisjoint(found):
            quiet.add(top)
    return frozenset(quiet)


@functools.cache
def claims_of(rules: tuple[type[Rule], ...]) -> Claims:
    """The Claims of a tuple of rule classes (the same few tuples for every file of a run)."""
    return Claims(prefix for rule in rules for prefix in rule.CLAIMS)


def apply_rules(
    module: cst.Module,
    rules: Sequence[Rule],
    claims: Claims,
    table: _names.NameTable | None = None,
    tree: ast.Module | None = None,
    source: str | None = None,
    remove_imports: Callable[[cst.Module, CodemodContext], cst.Module] = _imports.remove_unused_imports,
    context: CodemodContext | None = None,
) -> Applied:
    """Run `rules` over `module` in one pass; return the new module and the entries.

    `claims` are the qualified-name prefixes the whole active rule set rewrites (`claims_of`): the
    catch-all rules leave those names to their owners, so a rule run alone says which it assumes.
    `source` is the module's text and `tree` its `ast`, which the engine has already (else both
    are made here); `table` is the module's NameTable (else scanned from `tree`). `remove_imports`
    drops the imports the rules scheduled for removal (tests compare it with libcst's visitor).
    `context` receives the imports the rules schedule (a new one if None).
    """
    if source is None:
        source = module.code
    if tree is None:
        tree = ast.parse(source)
    if table is None:
        table = _names.scan([tree])
    context = CodemodContext() if context is None else context
    state = FileState(names=_names.resolver(module, table), table=table, claims=claims, context=context)
    for rule in rules:
        rule.begin_file(state)
    new = module.visit(_Dispatcher(rules, state, _quiet_statements(rules, table, tree, source)))
    new = _imports.add_plain_imports(new, context, needs_compat=state.needs_compat)
    new = _imports.add_other_imports(new, context)
    new = remove_imports(new, context)
    return Applied(new, _positions.positioned(module, tree, source, state.reports))


def as_codemod(rule: type[Rule], assuming: Iterable[type[Rule]] = ()) -> type[Codemod]:
    """`rule` as a libcst Codemod class (for libcst's CodemodTest and codemod tooling): its
    transform_module runs the engine with that one rule, and the claims of `rule` and of the
    rules it is `assuming` active (the names a rule leaves to others depend on which others run).

    The class takes (context, level="safe"); each report entry is also a libcst warning on the
    context, as `line:col severity: message`.
    """
    claims = claims_of(tuple(dict.fromkeys((rule, *assuming))))

    class RuleCodemod(Codemod):
        DESCRIPTION = rule.DESCRIPTION

        def __init__(self, context: CodemodContext, level: str = "safe") -> None:
            super().__init__(context)
            self.rule = rule(level)
            self.entries: list[Entry] = []

        def transform_module_impl(self, tree: cst.Module) -> cst.Module:
            applied = apply_rules(tree, [self.rule], claims, context=self.context)
            self.entries = applied.entries
            for entry in applied.entries:
                self.warn(f"{entry.line}:{entry.col} {entry.severity}: {entry.message}")
            return applied.module

    RuleCodemod.__name__ = RuleCodemod.__qualname__ = f"{rule.__name__}Codemod"
    return RuleCodemod
