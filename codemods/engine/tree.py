"""What one file's migration learns from the rest of its tree: the knowledge no single file holds.

A TF1 graph library (graph-mode's verdict on a module that uses Session, placeholders or queue
runners only inside functions and has no `__main__` block) needs the graph-mode switches, but they
belong in the program that imports it, which the library does not show. Nor does a library that asks
`tensorflow.python.tf2.enabled()` (TF 1.x answered False, TF 2 answers True) show which answer its
program wants. In a tree, the programs are there. So a run over several files:

1. migrates the files, each outcome carrying the file's `Facts` (its imports, whether it has a
   `__main__` block, and what the rules signalled about its own code: a graph library, a program
   running in TF 1's graph mode, a `tf2.enabled()` read, an input_fn returning its dataset). They
   depend on the file's bytes only, whatever Context it was migrated with, so the cache keeps them
   with the outcome;
2. `plan` reads the facts of the whole tree: an entry script (a `__main__` block) that imports a
   graph library, directly or through other modules of the tree (a package's `__init__` included, as
   Python runs it), is a TF1 graph program and gets the switches (before its imports of the tree's
   modules, whose code runs on import: codemods/rules/graph_mode.py); a module that reads `tf2.enabled()`
   and is imported by such a program (or by one the rule already switched) gets the answer of the
   program that runs it (compat.graph_mode.tf2_enabled: False in TF 1's graph mode, as TF 1.x answered);
   a file whose Estimator input_fns return their datasets at --level native (proven from the file alone:
   codemods/rules/_native_input_fns.py) gets the tree's modules that import it, which may call them and
   read the one-shot element: such a file keeps its input_fns;
3. migrates the files `plan` gave a `Context` with it; the Context is part of their cache key.
   Not every file twice: a run migrates the entry scripts after the other files, each once with the
   Context `plan` gives it from the other files' Facts and its own imports, then the files that may
   read `tf2.enabled()` (they name it) with the answer of the programs now known, and again only a
   file whose Context the whole tree's Facts change (a program with graph code of its own, a file
   whose input_fns the tree imports: codemods/_migrate_tree.py). Over tensor2tensor 1.15.7 (444 files
   naming TensorFlow) that is 463 migrations instead of 549, 3 to 4 s of CPU less (-j1, no cache:
   about 44 s, 32 with no tree pass): most of the pass's cost is the migrations with a Context
   themselves, about 4 times a program's migration alone (40 of them: 5.4 s against 1.3), mostly
   the removal of unused imports falling back to libcst's scope analysis (codemods/engine/imports.py).

Imports anywhere in a file count (a function's import runs when the program calls it). An absolute
import is looked up as Python would find it if the importing file's folder, or the nearest folder
above it holding the import's first name, were on sys.path (a program's folder is); a relative one
from the file's package. Notebooks are neither modules nor entry scripts here. A file migrated alone
gets no Context: it is migrated as before.
"""

import ast
import collections
import dataclasses
import posixpath
from collections.abc import Callable, Iterable, Mapping

# What a rule tells the tree pass about the file it migrated (FileState.signals)
GRAPH_LIBRARY = "graph-library"  # graph code whose switches belong in the program importing it
GRAPH_PROGRAM = "graph-program"  # runs in TF 1's graph mode: the switches are written, or were there
TF2_PROBE = "tf2-probe"  # reads tensorflow.python.tf2.enabled()
INPUT_FN = "input-fn"  # an Estimator input_fn returning its dataset, proven from the file alone (--level native)
EAGER_PROGRAM = "eager-program"  # a program proven eager from the file alone, its calls converted (--level native)
_IMPORTED = frozenset({INPUT_FN, EAGER_PROGRAM})  # what a module of the tree importing the file may undo
_CROSSING = frozenset({GRAPH_LIBRARY, TF2_PROBE, *_IMPORTED})  # the signals another file's migration may depend on

# (level, module, names) of one import: `from ..a import b, c` is (2, "a", ("b", "c")), `import a.b` (0, "a.b", ())
Import = tuple[int, str, tuple[str, ...]]


@dataclasses.dataclass(frozen=True)
class Facts:
    """What the tree pass needs to know of one Python file: a function of its bytes."""

    imports: tuple[Import, ...] = ()
    entry: bool = False  # a top-level `if __name__ == "__main__":` block
    signals: frozenset[str] = frozenset()

    def to_dict(self) -> dict:
        return {
            "imports": [[level, module, list(names)] for level, module, names in self.imports],
            "entry": self.entry,
            "signals": sorted(self.signals),
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Facts":
        imports = tuple((int(level), str(module), tuple(map(str, names))) for level, module, names in data["imports"])
        return cls(imports, bool(data["entry"]), frozenset(map(str, data["signals"])))


@dataclasses.dataclass(frozen=True)
class Context:
    """What the tree tells a file's migration (None for a file migrated alone)."""

    # an entry script reaching a graph library: (the module it imports that leads there, the library's path)
    graph_library: tuple[str, str] | None = None
    # and the modules it imports that are the tree's, as written (`..a.b` for `from ..a.b import c`)
    tree_imports: tuple[str, ...] = ()
    # a module reading tf2.enabled(): the path of a program of the tree that runs it in TF 1's graph mode
    tf1_program: str | None = None
    # a file whose input_fns return their datasets, or a program proven eager: the tree's modules importing it
    # (which may call the input_fns, or run its code in a graph)
    importers: tuple[str, ...] = ()

    def key(self) -> str:
        """Its part of the file's cache key."""
        return repr(dataclasses.astuple(self))


NOTEBOOK = ".ipynb"


def is_main_guard(stmt: ast.stmt) -> bool:
    """`if __name__ == "__main__":` (either way round)."""
    if not isinstance(stmt, ast.If) or not isinstance(stmt.test, ast.Compare) or len(stmt.test.comparators) != 1:
        return False
    if not isinstance(stmt.test.ops[0], ast.Eq):
        return False
    sides = [stmt.test.left, stmt.test.comparators[0]]
    texts = {s.id if isinstance(s, ast.Name) else s.value if isinstance(s, ast.Constant) else None for s in sides}
    return texts == {"__name__", "__main__"}


# the fields of a node holding statements, in the order of the nodes' _fields (`try`: body, handlers, orelse, finalbody)
_BLOCKS = ("body", "handlers", "orelse", "finalbody", "cases")


def facts_of(tree: ast.Module, signals: Iterable[str] = ()) -> Facts:
    """The Facts of a parsed file, with what its rules signalled."""
    imports: list[Import] = []
    # ast.walk's order over the statements alone: an import is a statement, and no expression holds one (walking
    # every node was 2% of a migration's CPU)
    queue: collections.deque[ast.AST] = collections.deque([tree])
    while queue:
        node = queue.popleft()
        if isinstance(node, ast.Import):
            imports.extend((0, alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imports.append((node.level, node.module or "", tuple(alias.name for alias in node.names)))
        for field in _BLOCKS:
            queue.extend(getattr(node, field, ()))
    entry = any(is_main_guard(stmt) for stmt in tree.body)
    return Facts(tuple(imports), entry, frozenset(signals))


class _Modules:
    """The tree's Python files, and which of them an import statement of one of them runs."""

    def __init__(self, paths: Iterable[str]) -> None:
        self.paths = frozenset(p for p in paths if not p.endswith(NOTEBOOK))  # (a notebook imports, is not imported)
        self.folders = set()  # every folder holding a Python file, at any depth
        for path in self.paths:
            while path:
                path = posixpath.dirname(path)
                self.folders.add(path)

    def _module(self, folder: str, parts: list[str]) -> str | None:
        base = posixpath.join(folder, *parts)
        for path in (base + ".py", posixpath.join(base, "__init__.py")):
            if path in self.paths:
                return path
        return None

    def loaded(self, path: str, spec: Import) -> list[tuple[str, str]]:
        """[(the import as written, path)] of the tree's files an import statement in `path` runs, the
        packages on the way included. An absolute import is looked up from the importing file's folder
        up to the tree's root (where the program's folder, on sys.path, may be)."""
        level, module, names = spec
        parts = module.split(".") if module else []
        if level:
            folder = posixpath.dirname(path)
            for _ in range(level - 1):
                if not folder:
                    return []
                folder = posixpath.dirname(folder)
            roots = [folder]
        else:
            folder, roots = posixpath.dirname(path), []
            while True:
                roots.append(folder)
                if not folder:
                    break
                folder = posixpath.dirname(folder)
            roots = [r for r in roots if self._module(r, parts[:1]) or posixpath.join(r, parts[0]) in self.folders][:1]
        found = []
        for root in roots:
            chain = [parts[:i] for i in range(1, len(parts) + 1)]
            chain += [[*parts, name] for name in names if name != "*"]
            for target in chain:
                where = self._module(root, target)
                if where is not None and where != path:
                    found.append(("." * level + ".".join(target), where))
        return found


def plan(facts: Mapping[str, Facts | None], fill: Callable[[str], Facts | None] | None = None) -> dict[str, Context]:
    """{path: Context} for the files of a tree whose migration depends on the rest of it.

    `facts`: the Facts of each Python file and notebook (by '/'-separated path relative to the tree's root), None
    where the file was not parsed (it mentions no TensorFlow); `fill(path)` gives those, and is asked
    only when the tree holds a graph library, a tf2.enabled() read or an input_fn returning its dataset (else
    nothing crosses files)."""
    known = dict(facts)
    if not any(f and not _CROSSING.isdisjoint(f.signals) for f in known.values()):
        return {}
    if fill is not None:
        known.update({path: fill(path) for path, found in sorted(known.items()) if found is None})
    modules = _Modules(known)
    edges = {
        path: [loaded for spec in (found.imports if found else ()) for loaded in modules.loaded(path, spec)]
        for path, found in known.items()
    }

    def reached(start: str) -> dict[str, str]:
        """{path: the module `start` imports that leads there} of every module `start` loads, in order."""
        via: dict[str, str] = {}
        queue = collections.deque((path, name) for name, path in edges[start])
        while queue:
            path, first = queue.popleft()
            if path in via or path == start:
                continue
            via[path] = first
            queue.extend((nxt, first) for _, nxt in edges[path])
        return via

    def signalled(path: str, signal: str) -> bool:
        found = known.get(path)
        return bool(found and signal in found.signals)

    contexts: dict[str, Context] = {}
    programs = [path for path in sorted(known) if signalled(path, GRAPH_PROGRAM)]
    for path in sorted(known):
        found = known[path]
        if not found or not found.entry or signalled(path, GRAPH_PROGRAM):
            continue
        libraries = [(lib, first) for lib, first in reached(path).items() if signalled(lib, GRAPH_LIBRARY)]
        if libraries:
            library, first = libraries[0]
            written = {
                "." * level + module
                for level, module, names in found.imports
                if modules.loaded(path, (level, module, names))
            }
            contexts[path] = Context(graph_library=(first, library), tree_imports=tuple(sorted(written)))
            programs.append(path)
    for program in sorted(programs):
        for path in [program, *reached(program)]:
            if signalled(path, TF2_PROBE) and (path not in contexts or contexts[path].tf1_program is None):
                contexts[path] = dataclasses.replace(contexts.get(path, Context()), tf1_program=program)
    for path in sorted(known):
        if any(signalled(path, signal) for signal in _IMPORTED):
            importers = tuple(sorted(other for other, loads in edges.items() if any(p == path for _, p in loads)))
            if importers:
                contexts[path] = dataclasses.replace(contexts.get(path, Context()), importers=importers)
    return contexts
