"""`uai-run --auto`: is this program TF1 code (give it the TF1 face) or TF 2 code (run it as `python` would)?

The evidence is the program's own files (the script and the modules of its folder it imports, read
with `ast`, never run) checked against the installed TensorFlow itself: a TF1 program names something
TF 2's `tf` lacks and TF1 had (`tf.Session`, `tf.train.AdamOptimizer`, `tf.contrib.*`, `tf.app.flags`),
a name compat.tf1_names moves, or imports a TF1-only module. A program that only names what TF 2 has
(Keras, `tf.function`, or `import tensorflow.compat.v1 as tf`, which needs nothing from uai-run) is TF 2
code. TensorFlow's API is read from its generated files (uai_run._api_files), not imported: TF 2 code is
then handed to python, which imports TensorFlow once. Where the files cannot tell (an attribute TensorFlow
binds at run time), TensorFlow is imported before the program starts and asked, as the TF1 face needs it
anyway.

TF 2 code may still name something this TensorFlow lacks and compat provides (`tf.estimator` on TF >=
2.16): it runs with compat's runtime, without the TF1 face (`compat_evidence`). And TF 2 code may still
need TF1's graph mode (an Estimator with MultiWorkerMirroredStrategy, compat.graph_mode): it runs with
compat's runtime in graph mode, as uai-migrate's graph-mode rule ports it (`graph_evidence`).
"""

import ast
import importlib.machinery
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from types import ModuleType

from compat import graph_mode
from compat import tf1_names as names
from uai_run import _api_files, _code_owner, _source

MAX_FILES = 500  # a program's own modules; a folder with more is not read to the end
GRAPH_MODE = "run as TF 2 code with compat's runtime in TF1's graph mode, as uai-migrate ports it"


@dataclass(frozen=True)
class Evidence:
    """What makes the program TF1 code: where, and why (`tf.Session is TF1's`)."""

    path: str
    line: int
    why: str
    rule: str  # uai-migrate's rule for what was found


def program_files(script: str) -> Iterator[tuple[str, ast.Module | SyntaxError | None]]:
    """(path, its parse) for `script`, then for the user's modules it imports (found from its folder, as
    Python would), each once: the module, the SyntaxError Python 3 gave, or None when it cannot be read."""
    folder = os.path.dirname(os.path.abspath(script))
    pending, seen = [os.path.abspath(script)], set[str]()
    while pending and len(seen) < MAX_FILES:
        path = pending.pop(0)
        if path in seen:
            continue
        seen.add(path)
        tree = _parse(path)
        yield path, tree
        if not isinstance(tree, ast.Module):
            continue
        package = os.path.dirname(path)
        for module, level in _imported_modules(tree):
            found = _find(module, level, folder, package)
            if found is not None and found not in seen and _code_owner.is_user(found):
                pending.append(found)


def _parse(path: str) -> ast.Module | SyntaxError | None:
    try:
        with open(path, "rb") as handle:
            return ast.parse(handle.read(), path)
    except SyntaxError as error:
        return error
    except (OSError, ValueError):
        return None


def _imported_modules(tree: ast.Module) -> Iterator[tuple[str, int]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((alias.name, 0) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            yield base, node.level
            yield from ((f"{base}.{alias.name}".lstrip("."), node.level) for alias in node.names)


def _find(module: str, level: int, folder: str, package: str) -> str | None:
    """The file of `module` below the script's folder (or below the importing package for a relative import)."""
    root = package if level else folder
    for _ in range(max(level - 1, 0)):
        root = os.path.dirname(root)
    if not module:
        init = os.path.join(root, "__init__.py")
        return init if os.path.exists(init) else None
    return _file_of(module, [root])


def _file_of(module: str, roots: list[str]) -> str | None:
    """The source file of dotted `module` looked up from `roots` (no package is imported), else None."""
    parts = module.split(".")
    spec = importlib.machinery.PathFinder.find_spec(parts[0], roots)
    for part in parts[1:]:
        if spec is None or not spec.submodule_search_locations:
            return None
        spec = importlib.machinery.PathFinder.find_spec(f"{spec.name}.{part}", spec.submodule_search_locations)
    origin = getattr(spec, "origin", None)
    return origin if origin and origin.endswith(".py") else None


def module_file(module: str) -> str | None:
    """The file `python -m module` would run from the current folder, else None."""
    return _file_of(module, [os.getcwd(), *sys.path[1:]])


def tf1_evidence(
    files: Iterable[tuple[str, ast.Module | SyntaxError | None]],
    tensorflow: Callable[[], tuple],
    read_files: bool = True,
) -> Evidence | None:
    """The first name in `files` ((path, parse) pairs, as program_files gives them) that only TF1 has,
    else None. Each name is judged from TensorFlow's files (uai_run._api_files) where they tell, else by
    `tensorflow()`, which gives (TF 2's `tf`, `tf.compat.v1`): called once, and only when a file names
    TensorFlow that its files cannot judge (`read_files=False`: every name is judged on it).

    A file Python 3 cannot parse is evidence too: TF1-era Python 2 code, which the run with the TF1
    face reports in one line (python would print a traceback).
    """
    files = list(files)
    for path, tree in files:
        if isinstance(tree, SyntaxError):
            return Evidence(path, tree.lineno or 0, "Python 3 cannot parse it", _source.RULE)
    imported: tuple | None = None
    for path, line, name in _used_names(files):
        found = _tf1_only_by_files(name) if read_files else None
        if found is None:
            imported = imported or tensorflow()
            found = _tf1_only_imported(name, *imported)
        if found:
            short = "tf" + name[len(names.TF) :]
            return Evidence(path, line, f"{short} is TF1's", names.rule_for(name))
    return None


def compat_evidence(
    files: Iterable[tuple[str, ast.Module | SyntaxError | None]], provided: Callable[[], Iterable[str]]
) -> Evidence | None:
    """The first TensorFlow name in `files` (a TF 2 program's) that this TensorFlow lacks and compat
    provides, else None. `provided()` gives those names (`tensorflow.estimator`): asked once, and only
    when a file names TensorFlow."""
    used = _used_names(files)
    if not used:
        return None
    modules = tuple(provided())
    for path, line, name in used:
        module = next((m for m in modules if name == m or name.startswith(m + ".")), None)
        if module is not None:
            short = "tf" + module[len(names.TF) :]
            return Evidence(path, line, f"{short} is not in this TensorFlow, compat provides it", names.rule_for(name))
    return None


def graph_evidence(files: Iterable[tuple[str, ast.Module | SyntaxError | None]]) -> Evidence | None:
    """Where the TF 2 program of `files` needs TF1's graph mode: the first file naming an Estimator's RunConfig
    and a strategy the Estimator cannot deep-copy in eager mode (compat.graph_mode), at the strategy; else None."""
    for path, tree in files:
        if not isinstance(tree, ast.Module):
            continue
        used = list(_tensorflow_names(tree))
        if graph_mode.needs_graph_mode({name for _, name in used}):
            line, name = min((line, name) for line, name in used if name in graph_mode.EAGER_UNCOPIABLE)
            why = f"tf{name[len(names.TF) :]} in an Estimator's RunConfig needs graph mode"
            return Evidence(path, line, why, graph_mode.RULE)
    return None


def _used_names(files: Iterable[tuple[str, ast.Module | SyntaxError | None]]) -> list[tuple[str, int, str]]:
    """(path, line, `tensorflow.<path>`) for each TensorFlow name the parsed files of `files` name."""
    return [
        (path, line, name)
        for path, tree in files
        if isinstance(tree, ast.Module)
        for line, name in _tensorflow_names(tree)
    ]


def _compat_provides() -> tuple[str, ...]:
    """The TensorFlow names compat adds to this TensorFlow, which lacks them: decided by compat from the
    installed TensorFlow (`tf.estimator`, `tf.compat.v1.estimator` and `.v2`'s on TF >= 2.16)."""
    from compat import _estimator_support

    if not _estimator_support.needed():
        return ()
    return tuple(f"{module}.estimator" for module in _estimator_support.API_MODULES)


def _tensorflow_names(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """(line, `tensorflow.<path>`) for each TensorFlow name the module imports or reads as an attribute chain."""
    bound = {}  # local name -> the module it is bound to, for `tensorflow` and its submodules
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.partition(".")[0] == names.TF:
                    bound[alias.asname or names.TF] = alias.name if alias.asname else names.TF
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").partition(".")[0] == names.TF:
            for alias in node.names:
                if alias.name != "*":
                    bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
                    yield node.lineno, f"{node.module}.{alias.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            chain = _chain(node)
            if chain and chain[0] in bound:
                yield node.lineno, ".".join([bound[chain[0]], *chain[1:]])


def _chain(node: ast.Attribute) -> list[str] | None:
    parts = []
    value: ast.expr = node
    while isinstance(value, ast.Attribute):
        parts.append(value.attr)
        value = value.value
    return [value.id, *reversed(parts)] if isinstance(value, ast.Name) else None


def _tf1_only(name: str, here: bool | None, there: Callable[[], bool | None], same: Callable[[], bool]) -> bool | None:
    """Does TF1 code need the face for `name` (a `tensorflow.<path>`): TF 2 lacks it, or gave it TF 2's meaning?
    `here`: does `tf.<path>` resolve; `there()`: does `tf.compat.v1.<path>`; `same()`: do both reach one object
    (so they resolve alike). None where an answer it needs is None (unknown)."""
    if name in names.SYMBOLS:
        return True  # moved, or a private name TF 2 kept with another meaning (DeviceSpec)
    if here:
        return False  # TF 2 has it: `tf.keras`, `tf.function`, `tf.compat.v1.placeholder` run as they are
    tf1 = names.tf1_name(name)  # `tf.compat.v1.contrib.layers`, as TF 1.13+ code wrote tf.contrib.layers
    if tf1 in names.SYMBOLS or tf1.startswith((names.TF + ".contrib", names.TF + ".examples")):
        return None if here is None else True
    if tf1 != name:
        return False
    if here is False:
        return there()
    # TF 2's answer unknown: it does not matter where tf.compat.v1 lacks the name or has the same object
    return False if there() is False or same() else None


def _tf1_only_imported(name: str, tf: ModuleType, v1: ModuleType) -> bool:
    parts = name.split(".")[1:]
    return bool(_tf1_only(name, _resolves(tf, parts), lambda: _resolves(v1, parts), lambda: False))


def _tf1_only_by_files(name: str) -> bool | None:
    parts = name.split(".")[1:]
    v1 = ["compat", "v1", *parts]
    return _tf1_only(
        name, _api_files.resolves(parts), lambda: _api_files.resolves(v1), lambda: _api_files.same_object(parts, v1)
    )


def _resolves(module: ModuleType, parts: list[str]) -> bool:
    value = module
    for part in parts:
        try:
            value = getattr(value, part)
        except Exception:  # noqa: BLE001 - a lazy loader may raise anything: the name is not there
            return False
    return True


def evidence(files: Iterable[tuple[str, ast.Module | SyntaxError | None]]) -> Evidence | None:
    """Why the program of `files` (program_files') is TF1 code, or None for TF 2 code (may import
    TensorFlow, before the face exists)."""
    return tf1_evidence(files, _tensorflow)


def needs_compat(files: Iterable[tuple[str, ast.Module | SyntaxError | None]]) -> Evidence | None:
    """Why the TF 2 program of `files` needs compat's runtime here (a name this TensorFlow lacks and compat
    provides), or None: python runs it as it is."""
    return compat_evidence(files, _compat_provides)


def _tensorflow() -> tuple:
    import tensorflow as tf

    return tf, tf.compat.v1
