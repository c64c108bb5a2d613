"""The TF1 face of TensorFlow: module objects that answer `tf.X` the way TensorFlow 1 did.

A face stands for one TF1 module path (`tensorflow`, `tensorflow.contrib.slim`, ...): a
`compat.tf1_modules.TF1Module`, the object uai-migrate's ports bind for a contrib module read as a value.
Reading a name from it asks `compat.tf1_names`, in order (`compat.tf1_modules.find`): a moved symbol, a
face of a submodule the table knows, then the targets of the module (`tf.compat.v1` first for
`tensorflow`). The answer is the real object, cached on the face, and noted for `--explain`. A name
nothing provides raises a one-line `MissingTF1Name` naming the user's file and line and uai-migrate's
manual step. A name only TF 2 has, read off a real module the face served (`tf.keras.losses.Reduction`
off TF1's Keras), fails as python's AttributeError; uai-run turns it into a one-line `TF2Name`.
A call TF 2 would refuse (the table's CALL_KEYWORDS and TRANSFORMATIONS) is given TF1's signature:
the face serves a function or class taking TF1's arguments (compat.tf1_calls), and a class whose methods do.
"""

import functools
import importlib
import re
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any

from compat import tf1_calls
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
        value = tf1_calls.serve(full, with_tf1_signature(full, value), functools.partial(_explain.note, "tf1-calls"))
        if source is not None and not _same_in_tf2(full, value):
            _explain.note(names.rule_for(full), f"{short(full)} -> {source}")
        return value

    def _tf1_missing(self, full: str) -> Exception:
        return MissingTF1Name(full)


def _same_in_tf2(full: str, value: object) -> bool:
    """True when TF 2's own `tf.<name>` is this very object: nothing was aliased."""
    if not full.startswith(names.TF + ".") or full.startswith(names.TF + ".contrib"):
        return False
    return _in_tf2(full) is value


def _in_tf2(full: str) -> object:
    """TF 2's own `tf.<name>` (the real `tensorflow`'s), or _MISSING."""
    real: object = sys.modules.get(names.TF, _MISSING)
    for part in full.split(".")[1:]:
        if real is _MISSING:
            break
        real = getattr(real, part, _MISSING)
    return real


# -- a TF 2 name read off a module the face served (TF 2.0-era code: `tf.keras.losses.Reduction`)

# the real modules of TF1's API the face serves below `tf`: tf.compat.v1's (`tensorflow._api.v2.compat.v1.nn`),
# Keras's and the Estimator's v1 API (`tf_keras.api._v1.keras.losses`); the rest is the path below `tf`
_V1_API = re.compile(r"\.(?:api\._v1|compat\.v1)\.(?P<path>.+)$")


class TF2Name(CompatError, AttributeError):
    """A name TF 2's module has and TF1's, which the face served the program, lacks: the program is TF 2 code,
    or reads TF 2's name as TF1 code does (`tf.compat.v2.<path>`)."""

    def __init__(self, name: str, path: str, line: int, tf2_code: bool) -> None:
        self.tf1_name, self.path, self.line = name, path, line
        self.problem = f"{short(name)} is TF 2's, not in the TF1 API uai-run gives the program"
        self.rule = names.removed_rule_for(name)
        if tf2_code:
            self.manual = "the program is TF 2 code: run it with `uai-run --auto`, which runs TF 2 code as it is"
        else:
            self.manual = f"TF1 code reads it as {short(names.TF + '.compat.v2' + name[len(names.TF) :])}"
        super().__init__(f"{self.problem} ({path}:{line}); {self.manual}")


class GoneTF1Name(CompatError, AttributeError):
    """A TF1 name read off a real module the face served that TF 2 dropped, with a closest replacement the table
    knows (`tf.keras.utils.multi_gpu_model`: compat.tf1_names.KERAS_GONE)."""

    def __init__(self, name: str, path: str, line: int) -> None:
        self.tf1_name, self.path, self.line = name, path, line
        self.problem = f"{short(name)} is not available on this TensorFlow"
        self.manual = names.manual_for(name)
        self.rule = names.removed_rule_for(name)
        super().__init__(f"{self.problem} ({path}:{line}); uai-migrate: {self.manual}")


def tf2_name(error: BaseException, tf2_code: Callable[[], bool]) -> TF2Name | GoneTF1Name | None:
    """The one-line stop for `error` when the user's line read a name off a module of TF1's API that TF 2's
    module of the same path has (`tf2_code()`: does the program name nothing only TF1 had?), or that TF 2 dropped
    and the table names a replacement for; else None."""
    at_hand: BaseException | None = error
    seen = 0
    # autograph (a model_fn under a distribution strategy) re-raises the read's error as a new one of its type
    while isinstance(at_hand, AttributeError) and seen < 8:
        error = at_hand
        module = error.obj if isinstance(error.name, str) else None
        found = _V1_API.search(module.__name__) if isinstance(module, ModuleType) else None
        if found is not None:
            name, at = f"{names.TF}.{found['path']}.{error.name}", _raised_at(error)
            if at is None:
                return None  # not the user's own read (a library's is its own business)
            if _in_tf2(name) is not _MISSING:
                return TF2Name(name, *at, tf2_code())
            # TF 2 lacks it too: python's error, unless the table knows what replaced it
            return GoneTF1Name(name, *at) if name in names.KERAS_GONE else None
        at_hand, seen = error.__cause__ or error.__context__, seen + 1
    return None


def _raised_at(error: BaseException) -> tuple[str, int] | None:
    """(file, line) of the user's code that raised `error`, or None when the innermost frame is not the user's.
    Code autograph converted runs as a generated file: its metadata maps the frames back to the user's source."""
    stack = getattr(getattr(error, "ag_error_metadata", None), "translated_stack", ())
    if stack:
        at = (stack[0].filename, stack[0].lineno)  # innermost first
    else:
        last = error.__traceback__
        while last is not None and last.tb_next is not None:
            last = last.tb_next
        at = (last.tb_frame.f_code.co_filename, last.tb_lineno) if last is not None else ("", 0)
    return at if _code_owner.is_user(at[0]) else None


# -- TF 1.x call signatures (compat.tf1_names.CALL_KEYWORDS, TRANSFORMATIONS)


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
            setattr(
                cls, method, tf1_calls.method(name, original, keywords, functools.partial(_explain.note, "tf1-calls"))
            )


def with_tf1_signature(name: str, value: Any) -> Any:
    """What the face serves for TF1 name `name`: `value`, after the classes of its module take TF1's keywords."""
    _adapt_methods(name.rpartition(".")[0])
    return value
