"""Adding `import a.b as c` lines the rules scheduled, without AddImportsVisitor's per-file cost.

AddImportsVisitor builds a matcher-decorated import gatherer for every file (about 30 ms, more
than a whole small file takes to migrate). The plain `import module [as alias]` imports our rules
schedule are inserted here, after the module's leading imports, with the same result (`import compat`
earlier: before the first import that may load TensorFlow); anything
else scheduled through `add_needed_import` (from-imports, relative ones) is left in the scratch for
AddImportsVisitor to do.
"""

import ast
import collections
import functools
import symtable
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from typing import Any, ClassVar, cast

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor
from libcst.helpers import get_full_name_for_node

from codemods.engine import names as _names
from codemods.engine.syntax import after_leading_imports, before_third_party_imports, is_import_line


class FastInit:
    """Mixin for libcst's import visitors, built once per file that schedules imports.

    MatcherDecoratableTransformer.__init__ inspects every name in dir(self) for matcher
    decorators: with libcst's ~1,500 inherited visit_*/leave_* no-ops that costs about 35 ms per
    instance, more than migrating a small file. Concrete visit_*/leave_* methods can never carry
    those decorators (libcst rejects it), so hiding them from dir() loses nothing.
    """

    _dir_cache: ClassVar[dict[type, list[str]]] = {}

    def __dir__(self) -> list[str]:
        # per class, once: filtering ~1,700 names costs ~0.7 ms
        cls = type(self)
        if cls not in FastInit._dir_cache:
            FastInit._dir_cache[cls] = [n for n in dir(cls) if not n.startswith(("visit_", "leave_"))]
        return [*FastInit._dir_cache[cls], *vars(self)]


class _AddImports(FastInit, AddImportsVisitor):
    pass


def add_other_imports(module: cst.Module, context: CodemodContext) -> cst.Module:
    """The imports scheduled that `add_plain_imports` left (from-imports, relative ones), by libcst's visitor."""
    if not context.scratch.get(AddImportsVisitor.CONTEXT_KEY):
        return module
    return _AddImports(context).transform_module(module)


def _present(module: cst.Module) -> set[tuple[str | None, str | None]]:
    """(module, alias or None) of every top-level `import` in the module."""
    found: set[tuple[str | None, str | None]] = set()
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Import):
                    found.update((get_full_name_for_node(a.name), a.evaluated_alias) for a in small.names)
    return found


COMPAT = "compat"
# what a module's body holds
_Statement = cst.SimpleStatementLine | cst.BaseCompoundStatement


def _binds(present: AbstractSet[tuple[str | None, str | None]], name: str) -> bool:
    """Do the module's (or the scheduled) `import x` lines bind `name` (`import name` or `import name.sub`)?"""
    return any(alias is None and (module or "").split(".")[0] == name for module, alias in present)


def add_plain_imports(module: cst.Module, context: CodemodContext, needs_compat: bool = False) -> cst.Module:
    """Insert the plain imports the rules scheduled, and `import compat` when a rule needs it.

    Rules may write `compat.<name>` once they ask for compat, so it is skipped only when the file
    (or another scheduled import) binds the name `compat` already.
    """
    scheduled = context.scratch.get(AddImportsVisitor.CONTEXT_KEY, [])
    plain = [imp for imp in scheduled if imp.obj_name is None and not imp.relative]
    context.scratch[AddImportsVisitor.CONTEXT_KEY] = [imp for imp in scheduled if imp not in plain]
    wanted = [(imp.module_name, imp.alias if imp.alias != imp.module_name else None) for imp in plain]
    present = _present(module)
    if needs_compat and not _binds(present | set(wanted), COMPAT):
        wanted.insert(0, (COMPAT, None))
    # those binding `compat` run its set-up, which must come before TensorFlow loads; the others go with the imports
    lines: dict[bool, list[cst.SimpleStatementLine]] = {True: [], False: []}
    for key in wanted:
        if key in present:
            continue
        present.add(key)
        alias = cst.AsName(name=cst.Name(key[1])) if key[1] else None
        module_name = cast("cst.Attribute | cst.Name", cst.parse_expression(key[0]))  # (a dotted name)
        name = cst.ImportAlias(name=module_name, asname=alias)
        line = cst.SimpleStatementLine(body=[cst.Import(names=[name])])
        lines[_binds({key}, COMPAT)].append(line)
    body = list(module.body)
    body = _insert(body, before_third_party_imports(body), lines[True])
    body = _insert(body, after_leading_imports(body), lines[False])
    return module.with_changes(body=body)


def _insert(body: list[_Statement], at: int, lines: list[cst.SimpleStatementLine]) -> list[_Statement]:
    if not lines:
        return body
    if at < len(body) and not body[at].leading_lines and not is_import_line(body[at]):
        # keep the imports apart from the code as AddImportsVisitor does
        body[at] = body[at].with_changes(leading_lines=[cst.EmptyLine()])
    return body[:at] + lines + body[at:]


# -- removing the imports the rules made unused, without RemoveImportsVisitor's scope analysis


class _Undecided(Exception):
    """The module's names alone cannot say what libcst's scope analysis would: ask it."""


def _strings(node: ast.AST) -> list[str]:
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _targets_all(node: ast.Assign | ast.AugAssign | ast.AnnAssign) -> bool:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    return any(isinstance(n, ast.Name) and n.id == "__all__" for t in targets for n in ast.walk(t))


class _Reads(ast.NodeVisitor):
    """Where each name is read: the lines of reads that run as the module runs, and the names read in
    function bodies (which run later, so they may read an import that comes after them)."""

    def __init__(self) -> None:
        self.now: collections.defaultdict[str, list[int]] = collections.defaultdict(list)
        self.later: set[str] = set()
        self.deleted: set[str] = set()
        self._deferred = 0

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            if self._deferred:
                self.later.add(node.id)
            else:
                self.now[node.id].append(node.lineno)
        elif isinstance(node.ctx, ast.Del):
            self.deleted.add(node.id)

    def _body_later(self, node: ast.AST, body: ast.AST | list[ast.stmt]) -> None:
        for field, value in ast.iter_fields(node):
            if field != "body":
                self.generic_visit_value(value)
        self._deferred += 1
        for child in body if isinstance(body, list) else [body]:
            self.visit(child)
        self._deferred -= 1

    def generic_visit_value(self, value: object) -> None:
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, ast.AST):
                self.visit(item)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._body_later(node, node.body)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._body_later(node, node.body)


class _Uses:
    """What the module's `ast` says about its names: how often each is bound (and by which import line),
    where each is read, and the strings libcst also counts as uses (`__all__` entries, string
    annotations, `TypeVar` arguments)."""

    def __init__(self, tree: ast.Module, source: str) -> None:
        self.tree, self.source = tree, source
        self.bindings = collections.Counter(name for name, _ in _names.bindings(tree))
        self.reads = _Reads()
        self.reads.visit(tree)
        self.imported_at: dict[str, int] = {}
        self.declared: set[str] = set()
        quoted: list[str] = []
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    self.imported_at[alias.asname or alias.name] = cast(int, node.end_lineno)  # (set when parsed)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                self.declared.update(node.names)
            elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and _targets_all(node):
                quoted.extend(_strings(node))
            elif isinstance(node, ast.Call) and (_names.dotted(node.func) or "").endswith("TypeVar"):
                quoted.extend(_strings(node))
            if isinstance(node, ast.arg) and node.annotation:
                quoted.extend(_strings(node.annotation))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns:
                quoted.extend(_strings(node.returns))
            elif isinstance(node, ast.AnnAssign):
                quoted.extend(_strings(node.annotation))
        self.quoted = "\0".join(quoted)

    def unused(self, name: str, module_level: bool) -> bool:
        """Does libcst's GatherUnusedImportsVisitor find the import binding `name` unused?"""
        if "." in name or name in self.declared or name in self.quoted or name in self.reads.deleted:
            raise _Undecided(name)
        now = self.reads.now.get(name, ())
        if not now and name not in self.reads.later:
            return True  # nothing reads it anywhere, whatever else binds it
        if not module_level:
            raise _Undecided(name)
        read_after = any(line > self.imported_at[name] for line in now)
        if self.bindings[name] == 1:
            # bound nowhere else: a read in a function, or one after the import, is of this global
            if name in self.reads.later or read_after:
                return False
            raise _Undecided(name)
        # Bound in functions too (a local of the same name): the compiler's symbol table says which
        # functions read the global. Bound more than once in the module's scope: by imports alone, libcst
        # counts each of them used when any is read (GatherUnusedImportsVisitor.is_in_use), so a read
        # after the first counts, whichever import it reads (graph-mode imports `tf` a second time).
        global_reads, class_reads = self._read_as_global
        imports = self._module_imports.get(name, [])
        if not imports or len(imports) != self._module_bindings[name] or name in class_reads:
            raise _Undecided(name)
        if name in global_reads or any(line > min(imports) for line in now):
            return False
        if now:
            raise _Undecided(name)  # read only above the imports
        return True

    @functools.cached_property
    def _module_imports(self) -> dict[str, list[int]]:
        """The last lines of the imports binding each name in the module's scope, outside classes too
        (`import a.b`, which binds `a` and more for libcst, left out)."""
        found = collections.defaultdict[str, list[int]](list)
        stack: list[ast.AST] = [self.tree]
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    if alias.asname or "." not in alias.name:
                        found[alias.asname or alias.name].append(cast(int, node.end_lineno))  # (set when parsed)
            elif not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.expr)):
                stack.extend(ast.iter_child_nodes(node))
        return found

    @functools.cached_property
    def _module_bindings(self) -> collections.Counter[str]:
        """How often each name is bound in the module's own scope (class bodies and comprehensions
        counted too, which can only make a name look bound more often)."""
        return collections.Counter(name for name, _ in _names.bindings_among(_module_scope(self.tree)))

    @functools.cached_property
    def _read_as_global(self) -> tuple[set[str], set[str]]:
        """(the names some function, lambda or class body reads as the module's global, the names a class
        body both binds and reads: such a read before the binding reads the global)."""
        found: tuple[set[str], set[str]] = set(), set()
        try:
            tables = list(symtable.symtable(self.source, "<module>", "exec").get_children())
        except SyntaxError as err:  # what ast takes and the compiler does not (a name used before its `global`)
            raise _Undecided(str(err)) from None
        while tables:
            table = tables.pop()
            tables.extend(table.get_children())
            for symbol in table.get_symbols():
                if symbol.is_referenced() and symbol.is_global():
                    found[0].add(symbol.get_name())
                elif symbol.is_referenced() and symbol.is_local() and table.get_type() == "class":
                    found[1].add(symbol.get_name())
        return found


def _module_scope(tree: ast.Module) -> Iterator[ast.AST]:
    """The nodes that run in the module's own scope: all but the parameters and bodies of functions and
    lambdas (a def's name, decorators, defaults and annotations run there)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            arguments = node.args
            parameters = [
                *arguments.posonlyargs,
                *arguments.args,
                arguments.vararg,
                *arguments.kwonlyargs,
                arguments.kwarg,
            ]
            stack.extend(filter(None, [*arguments.defaults, *arguments.kw_defaults]))
            stack.extend(p.annotation for p in parameters if p is not None and p.annotation is not None)
            if not isinstance(node, ast.Lambda):
                stack.extend(filter(None, [*node.decorator_list, node.returns]))
        else:
            stack.extend(ast.iter_child_nodes(node))


# the nodes an import statement can be inside
_HOLDS_IMPORTS = (
    cst.Module,
    cst.BaseCompoundStatement,
    cst.SimpleStatementLine,
    cst.SimpleStatementSuite,
    cst.IndentedBlock,
    cst.ExceptHandler,
    cst.ExceptStarHandler,
    cst.Else,
    cst.Finally,
    cst.MatchCase,
)
_VISITED = (cst.Import, cst.ImportFrom, *_HOLDS_IMPORTS)


class _LibcstRemoveImports(FastInit, RemoveImportsVisitor):
    pass


class _RemoveImports(_LibcstRemoveImports):
    """RemoveImportsVisitor's edits, with the unused imports decided by `_Uses` instead of scopes.

    It visits statements only: no expression holds an import.
    """

    # libcst declares this `Tuple[ProviderT]` (one provider), where any tuple of them is meant
    METADATA_DEPENDENCIES = ()  # type: ignore[misc, assignment]

    def __init__(self, context: CodemodContext, uses: _Uses) -> None:
        super().__init__(context)
        self._uses, self._nested = uses, 0
        # the names the scheduled removals may unbind (the alias, else the object or module imported)
        self._wanted = {alias or obj or module for module, obj, alias in self._get_imports_from_context(context)}

    def visit_Module(self, node: cst.Module) -> None:
        pass  # the unused imports are decided as each import is reached

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, (cst.Import, cst.ImportFrom)):
            if not isinstance(node.names, cst.ImportStar):
                for alias in node.names:
                    name = alias.evaluated_alias or alias.evaluated_name
                    if name in self._wanted and self._uses.unused(name, module_level=self._nested == 0):
                        self._unused_imports[alias] = node
            super().on_visit(node)
            return False  # leave_Import/leave_ImportFrom read the names from the node itself
        if not isinstance(node, _HOLDS_IMPORTS):
            return False
        if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            self._nested += 1
        return super().on_visit(node)

    def on_leave(self, original_node: cst.CSTNode, updated_node: cst.CSTNode) -> Any:  # (libcst's: generic)
        if not isinstance(original_node, _VISITED):
            return updated_node
        if isinstance(original_node, (cst.FunctionDef, cst.ClassDef)):
            self._nested -= 1
        return super().on_leave(original_node, updated_node)

    def on_visit_attribute(self, node: cst.CSTNode, attribute: str) -> None:
        pass

    def on_leave_attribute(self, original_node: cst.CSTNode, attribute: str) -> None:
        pass


def remove_unused_imports(module: cst.Module, context: CodemodContext) -> cst.Module:
    """Drop the imports scheduled by `remove_unused_import` that nothing uses any more, as
    RemoveImportsVisitor does; its scope analysis (several times a parse) only where the module's names
    alone cannot say (a name bound in the module's scope other than by imports, and read; declared
    global; quoted where libcst reads names from strings)."""
    if not context.scratch.get(RemoveImportsVisitor.CONTEXT_KEY):
        return module
    try:
        code = module.code
        return module.visit(_RemoveImports(context, _Uses(ast.parse(code), code)))
    except _Undecided:
        return _LibcstRemoveImports(context).transform_module(module)
