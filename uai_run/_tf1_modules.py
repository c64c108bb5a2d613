"""The TF1 face of TensorFlow: module objects that answer `tf.X` the way TensorFlow 1 did.

A face stands for one TF1 module path (`tensorflow`, `tensorflow.contrib.slim`, ...): a
`compat.tf1_modules.TF1Module`, the object uai-migrate's ports bind for a contrib module read as a value.
Reading a name from it asks `compat.tf1_names`, in order (`compat.tf1_modules.find`): a moved symbol, a
face of a submodule the table knows, then the targets of the module (`tf.compat.v1` first for
`tensorflow`). The answer is the real object, cached on the face, and noted for `--explain`. A name
nothing provides raises a one-line `MissingTF1Name` naming the user's file and line and uai-migrate's
manual step.
A call TF 2 would refuse (the table's CALL_KEYWORDS and TRANSFORMATIONS) is given TF1's signature:
the face serves a function taking TF1's arguments, and a class whose methods do.
"""

import functools
import importlib
import sys
from collections.abc import Callable
from typing import Any

from compat import tf1_names as names
from compat.errors import CompatError
from compat.tf1_modules import TF1Module, find, transformation
from compat.tf1_modules import short as short
from compat.tf1_modules import target_name as target_name
from compat.tf1_modules import targets_of as targets_of
from uai_run import _code_owner, _explain

PREFIX = "uai_run.tf1."  # faces live in sys.modules as uai_run.tf1.<TF1 module path>
_MISSING = object()


class _Missing:
    """What both errors know: the TF1 name, where the user's code used it, and what to do instead."""

    # set by _describe
    tf1_name: str
    path: str | None  # (always set here; typed as ImportError's, a base of MissingTF1Module)
    line: int
    problem: str
    manual: str
    rule: str

    def _describe(self, name: str) -> str:
        self.tf1_name = name
        frame = _code_owner.user_frame(sys._getframe(2))
        self.path, self.line = (frame.f_code.co_filename, frame.f_lineno) if frame is not None else ("?", 0)
        self.problem = f"{short(name)} is not available on this TensorFlow"
        self.manual = names.manual_for(name)
        self.rule = names.removed_rule_for(name)
        return f"{self.problem} ({self.path}:{self.line}); uai-migrate: {self.manual}"


class MissingTF1Name(_Missing, CompatError, AttributeError):
    """A TF1 name that neither TensorFlow nor compat provides any more."""

    def __init__(self, name: str) -> None:
        super().__init__(self._describe(name))


class MissingTF1Module(_Missing, CompatError, ModuleNotFoundError):
    """A TF1 module that neither TensorFlow nor compat provides any more."""

    def __init__(self, name: str) -> None:
        super().__init__(self._describe(name))
        # not the name being imported: `from a import b` would otherwise swallow it and say "cannot import name"
        self.name = None


def needs_face(name: str) -> bool:
    """Must `import <name>` (a `tensorflow...` module) give the TF1 face rather than the real module?"""
    if name == names.TF or names.has_entries_below(name) or names.move_package(name):
        return True
    return not name.startswith(names.PASS_THROUGH)


class Face(TF1Module):
    """One TF1 module; attributes resolve on first read (see the module docstring)."""

    def __init__(self, path: str) -> None:
        super().__init__(path, PREFIX + path, f"TF1 face of {path} (uai_run)")
        self.__path__: list[str] = []  # a package: submodule imports come to uai_run's finder

    def _tf1_find(self, attr: str) -> tuple[Any, str | None]:
        full = f"{self._tf1_path}.{attr}"
        if full in names.TRANSFORMATIONS:  # noted when called, at the user's line
            return transformation(full, functools.partial(_explain.note, "tf1-calls")), None
        return find(self._tf1_path, attr, self._targets(), lambda path: importlib.import_module(PREFIX + path))

    def _tf1_serve(self, full: str, value: Any, source: str | None) -> Any:
        value = with_tf1_signature(full, value)
        if source is not None and not _same_in_tf2(full, value):
            _explain.note(names.rule_for(full), f"{short(full)} -> {source}")
        return value

    def _tf1_missing(self, full: str) -> Exception:
        return MissingTF1Name(full)


def _same_in_tf2(full: str, value: object) -> bool:
    """True when TF 2's own `tf.<name>` is this very object: nothing was aliased."""
    if not full.startswith(names.TF + ".") or full.startswith(names.TF + ".contrib"):
        return False
    real: object = sys.modules.get(names.TF)
    for part in full.split(".")[1:]:
        real = getattr(real, part, _MISSING)
        if real is _MISSING:
            return False
    return real is value


# -- TF 1.x call signatures (compat.tf1_names.CALL_KEYWORDS, TRANSFORMATIONS)


def tf1_call(name: str, function: Callable[..., Any], keywords: dict[str, str]) -> Callable[..., Any]:
    """The method `function` taking the TF1 keywords of `name`, passed on as CALL_KEYWORDS spells them."""

    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        given = {keyword: kwargs.pop(keyword) for keyword in keywords if keyword in kwargs}
        if not given:
            return function(*args, **kwargs)
        then = []
        for keyword, value in given.items():
            new = keywords[keyword]
            if value is None:
                continue  # TF1's default: nothing to pass
            if new.startswith("."):
                then.append((new[1:], value))
            else:
                kwargs[new] = value  # TF 1.4's map preferred num_threads to num_parallel_calls
        _explain.note("tf1-calls", f"{short(name)}: " + ", ".join(f"{k}= -> {_spelled(keywords[k])}" for k in given))
        result = function(*args, **kwargs)
        for method, value in then:
            result = getattr(result, method)(value)
        return result

    call._tf1_keywords = keywords  # type: ignore[attr-defined]  # adapted once: a second face finds it done
    return call


def _spelled(new: str) -> str:
    """A CALL_KEYWORDS spelling as code: `num_parallel_calls=`, `.prefetch()`."""
    return f"{new}()" if new.startswith(".") else f"{new}="


def _adapt_methods(path: str) -> None:
    """Give the classes the face of module `path` serves their TF1 methods' keywords (CALL_KEYWORDS).

    The class's own method is replaced: TF 1.4's contrib Dataset wrapped every dataset derived from it
    (`TFRecordDataset(...).repeat().map(f, num_threads=4)`), and TF 1 programs are handed tf.data's TF1
    classes, whose methods return TF 1 datasets of the base class. TF 2's method refuses these keywords,
    so no call that worked before changes.
    """
    for name, keywords in names.CALL_KEYWORDS.items():
        owner, _, method = name.rpartition(".")
        if owner.rpartition(".")[0] != path or owner not in names.SYMBOLS:
            continue
        cls = names.resolve(names.SYMBOLS[owner])
        original = cls.__dict__.get(method, getattr(cls, method))
        if not hasattr(original, "_tf1_keywords"):
            setattr(cls, method, tf1_call(name, original, keywords))


def with_tf1_signature(name: str, value: Any) -> Any:
    """What the face serves for TF1 name `name`: `value`, after the classes of its module take TF1's keywords."""
    _adapt_methods(name.rpartition(".")[0])
    return value
