"""TF1 module paths as module objects: `tensorflow.contrib.opt` read as a value, its names resolved on first read.

TF1 code hands contrib modules around as values (tensor2tensor's `utils/contrib.py`: `from tensorflow.contrib
import opt as contrib_opt; return contrib_opt`), so no rewrite of names can port it. uai-migrate binds
`tf1_module("tensorflow.contrib.opt")` there instead. Reading a name from it asks `compat.tf1_names`, the
table uai-run's TF1 face reads, in the same order (`find`): a moved symbol, the object of a submodule the
table knows, then the targets of the module, then a module its package moved to. A name nothing provides
raises `MissingTF1Name`, one line naming it, the reading line and uai-migrate's manual step.

A function or class whose TF1 keywords TF 2 rejects is served taking them (compat.tf1_calls). uai-run's face
(uai_run/_tf1_modules.py) is a `TF1Module` too: it also serves TF1 methods' keywords and notes what it aliased
for `--explain`.
"""

import importlib
import importlib.machinery
import sys
import types
from collections.abc import Callable
from typing import Any

from compat import tf1_calls
from compat import tf1_names as names
from compat.errors import CompatError, MissingRuntimePiece

MISSING = object()  # `find`'s answer for a name nothing provides
_DUNDERS = ("__version__", "__git_version__", "__compiler_version__")


def short(name: str) -> str:
    """`tensorflow.contrib.rnn` -> `tf.contrib.rnn`, as people write it."""
    return "tf" + name[len(names.TF) :] if name.startswith(names.TF) else name


def target_name(target: str) -> str:
    """`module:attribute.path` as people read it: `tf.compat.v1.nn.rnn_cell`."""
    return short(target.replace(":", "."))


def targets_of(path: str) -> tuple:
    """Where the names of TF1 module `path` are looked up, in order."""
    if path in names.MODULES:
        return names.MODULES[path]
    moved = names.move_package(path)
    if moved:
        return (moved,)
    if path.startswith(names.TF + ".contrib"):
        return ()
    rest = path[len(names.TF) + 1 :]
    return (f"{names.V1}:{rest}", path)


def resolved_targets(path: str) -> list[tuple[str, Any]]:
    """(target, its object) for each target of `path` that this TensorFlow has. Raises `MissingRuntimePiece`
    (its pip line) when none resolves and no table entry lies below `path` because a piece of the runtime is not
    installed (`tf_slim` for tf.contrib.slim.nets): the module is not gone, the environment lacks what serves it."""
    found = []
    for target in targets_of(path):
        try:
            found.append((target, names.resolve(target)))
        except (ImportError, AttributeError):
            continue  # e.g. a real `tensorflow.<path>` module that TF 2 lacks: the next target
    if not found and not names.has_entries_below(path):
        piece = absent_piece(path)
        if piece is not None:
            raise piece
    return found


def absent_piece(path: str) -> MissingRuntimePiece | None:
    """The missing runtime piece a target of TF1 module `path` needs (its one line and pip line), or None."""
    for target in targets_of(path):
        try:
            names.resolve(target)
        except ModuleNotFoundError as err:
            piece = _missing_piece(err)
            if piece is not None:
                return piece
        except (ImportError, AttributeError):
            continue
    return None


# TF1 modules compat serves from a runtime piece itself, not through the table: tf.estimator on TF >= 2.16
# (compat._estimator_support, from the tensorflow_estimator package)
_SERVED_BY = {f"{names.TF}.estimator": "tensorflow_estimator"}


def _missing_piece(err: ModuleNotFoundError) -> MissingRuntimePiece | None:
    """The one line naming the runtime piece whose absence `err` reports, and its pip line; None: not a piece."""
    from compat import doctor  # TensorFlow-free; only needed on a failure

    line = doctor.missing_piece(err)
    return MissingRuntimePiece(line) if line is not None else None


def served_piece_missing(name: str) -> MissingRuntimePiece | None:
    """For TF1 name `name` that nothing provides: the missing runtime piece that would serve it, or None."""
    package = _SERVED_BY.get(names.tf1_name(name))
    if package is None or importlib.machinery.PathFinder.find_spec(package) is not None:
        return None
    try:
        importlib.import_module(package)
    except ModuleNotFoundError as err:
        return _missing_piece(err)
    return None


def find(
    path: str, attr: str, targets: list[tuple[str, Any]], submodule: Callable[[str], Any]
) -> tuple[Any, str | None]:
    """(the object TF1 name `<path>.<attr>` stands for, where it came from as people read it, or None when
    nothing was aliased), or (MISSING, None). `targets` are `resolved_targets(path)`; `submodule(name)` gives
    the module object of a TF1 submodule the table knows."""
    full = f"{path}.{attr}"
    if full in names.SYMBOLS:
        target = names.SYMBOLS[full]
        return names.resolve(target), target_name(target)
    if full in names.MODULES or names.has_entries_below(full):
        return submodule(full), None
    for target, module in targets:
        value = getattr(module, attr, MISSING)
        if value is not MISSING:
            # the real module of this very name (`tensorflow.python.util.nest.flatten`): nothing aliased
            return value, None if target == path else f"{target_name(target)}.{attr}"
    moved = names.move_package(full)
    if moved:
        try:  # a submodule its new package does not import itself
            return importlib.import_module(moved), moved
        except ImportError:
            pass
    return MISSING, None


def transformation(name: str, note: Callable[[str], None] | None = None) -> Callable[..., Callable[[Any], Any]]:
    """A TF1 tf.contrib.data transformation TF 2 writes as a Dataset method (TRANSFORMATIONS): `f(*args)`
    returns what `dataset.apply` calls, `lambda dataset: dataset.<method>(*args, <keywords>)`. `note(text)`
    hears of each call."""
    method, fixed = names.TRANSFORMATIONS[name]

    def make(*args: Any, **kwargs: Any) -> Callable[[Any], Any]:
        if note is not None:
            added = ", ".join(f"{k}={v!r}" for k, v in fixed.items())
            note(f"{short(name)}(...) -> dataset.{method}(..., {added})")
        return lambda dataset: getattr(dataset, method)(*args, **kwargs, **fixed)

    make.__name__ = make.__qualname__ = name.rpartition(".")[2]
    return make


class MissingTF1Name(CompatError, AttributeError):
    """A name read from a TF1 module object that neither TensorFlow nor compat provides any more."""

    def __init__(self, name: str, where: str) -> None:
        self.tf1_name = name
        super().__init__(
            f"{short(name)} is not available on this TensorFlow ({where}); uai-migrate: {names.manual_for(name)}"
        )


class TF1Module(types.ModuleType):
    """TF1 module `path`; attributes resolve on first read (see the module docstring) and are kept."""

    def __init__(self, path: str, name: str | None = None, doc: str | None = None) -> None:
        super().__init__(name or path, doc or f"TF1 module {path}, its names resolved by compat.tf1_names")
        self._tf1_path = path
        self._tf1_targets: list[tuple[str, Any]] | None = None

    def _targets(self) -> list[tuple[str, Any]]:
        if self._tf1_targets is None:
            self._tf1_targets = resolved_targets(self._tf1_path)
        return self._tf1_targets

    # -- what a subclass (uai-run's face) serves otherwise
    def _tf1_find(self, attr: str) -> tuple[Any, str | None]:
        full = f"{self._tf1_path}.{attr}"
        if full in names.TRANSFORMATIONS:
            return transformation(full), None
        return find(self._tf1_path, attr, self._targets(), tf1_module)

    def _tf1_serve(self, full: str, value: Any, source: str | None) -> Any:
        """The object read as TF1 name `full` (found `value`, aliased from `source`): one taking TF1's arguments
        where TF 2's does not (compat.tf1_calls)."""
        return tf1_calls.serve(full, value)

    def _tf1_missing(self, full: str) -> Exception:
        frame = sys._getframe(2)  # the code reading the name (past __getattr__)
        return MissingTF1Name(full, f"{frame.f_code.co_filename}:{frame.f_lineno}")

    def __getattr__(self, attr: str) -> Any:
        if attr == "__all__":  # `from tensorflow import *`: TF1's public names
            return sorted({n for _, module in self._targets() for n in dir(module) if not n.startswith("_")})
        if (attr.startswith("__") and attr not in _DUNDERS) or attr.startswith("_tf1_"):
            raise AttributeError(attr)
        full = f"{self._tf1_path}.{attr}"
        value, source = self._tf1_find(attr)
        if value is MISSING:
            raise served_piece_missing(full) or absent_piece(self._tf1_path) or self._tf1_missing(full)
        value = self._tf1_serve(full, value, source)
        setattr(self, attr, value)
        return value

    def __dir__(self) -> list[str]:
        found = set(super().__dir__())
        for _, module in self._targets():
            found.update(dir(module))
        return sorted(found)


_MODULES: dict[str, TF1Module] = {}


def tf1_module(path: str) -> TF1Module:
    """The module object of TF1 module `path` (`tensorflow.contrib.opt`): one per path."""
    if path not in _MODULES:
        _MODULES[path] = TF1Module(path)
    return _MODULES[path]
