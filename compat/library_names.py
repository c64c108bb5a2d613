"""Names that libraries TF1-era programs used have since removed, and what they are now: one table,
read by `uai-run` (served at import time, uai_run/_libraries.py) and by uai-migrate's rule `library-names`
(rewritten).

  RENAMED  {module: {old name: new qualified name}}  the new name is the object the old one was, or one
           that behaves the same; `builtins.X` is Python's own `X`
  CHANGED_CALLS {call: ChangedCall}  a keyword a release reads otherwise (NumPy 2's `copy=False`), and the call
           that keeps the old meaning (uai-migrate rewrites to it)
  RULE     the uai-migrate rule whose rewrite uai-run's alias stands for
  REMOVED_IN {module: the release that removed its old names}

- Pillow 10 removed the resampling aliases `Image.ANTIALIAS` / `LINEAR` / `CUBIC`; Pillow 2.7 to 9.5
  define each as the filter it maps to. TF1-era input pipelines resize with them (tflearn 0.5.0's
  data_utils does), and the Pillow TF 2.21's tensorboard installs has none of them.
- Python 3.10 removed the aliases of `collections.abc`'s classes in `collections` (`from collections import
  Mapping`: tensorpack 0.9.8's dataflow). Python 3.3 to 3.9 served each as the class of `collections.abc`.
- NumPy 1.24 removed `np.bool`, `np.int`, `np.float`, `np.complex`, `np.object`, `np.str` (and earlier
  `np.long`, `np.unicode`): NumPy 1.20 to 1.23 defined each as Python's builtin of that name (stable-baselines
  2.10.2 reads `np.bool`). NumPy 2.0 removed aliases of its own types and functions (`np.float_` was
  `np.float64`, `np.NaN` was `np.nan`, `np.product` called `np.prod`): TF 2.21's environment has NumPy 2.
  NumPy 2 has `np.bool` again, as its own boolean type (`np.bool_`): a NumPy that has a name keeps it.
"""

from typing import NamedTuple

# the classes Python 3.3-3.9 also served from `collections` (3.9's `_collections_abc.__all__`)
_COLLECTIONS_ABC = (
    "Awaitable",
    "Coroutine",
    "AsyncIterable",
    "AsyncIterator",
    "AsyncGenerator",
    "Hashable",
    "Iterable",
    "Iterator",
    "Generator",
    "Reversible",
    "Sized",
    "Container",
    "Callable",
    "Collection",
    "Set",
    "MutableSet",
    "Mapping",
    "MutableMapping",
    "MappingView",
    "KeysView",
    "ItemsView",
    "ValuesView",
    "Sequence",
    "MutableSequence",
    "ByteString",
)
# NumPy 1.20-1.23's deprecated aliases of Python's builtins (Python 3: `long` is int, `unicode` is str)
_NUMPY_BUILTINS = {
    "bool": "bool",
    "int": "int",
    "float": "float",
    "complex": "complex",
    "object": "object",
    "str": "str",
    "long": "int",
    "unicode": "str",
}
# NumPy 2.0's removed aliases, each the NumPy name its 1.x alias stood for
_NUMPY_2_RENAMED = {
    "float_": "float64",
    "complex_": "complex128",
    "cfloat": "complex128",
    "singlecomplex": "complex64",
    "longfloat": "longdouble",
    "longcomplex": "clongdouble",
    "clongfloat": "clongdouble",
    "unicode_": "str_",
    "string_": "bytes_",
    "Inf": "inf",
    "Infinity": "inf",
    "PINF": "inf",
    "infty": "inf",
    "NaN": "nan",
    "NAN": "nan",
    "alltrue": "all",
    "sometrue": "any",
    "product": "prod",
    "cumproduct": "cumprod",
    "round_": "round",
    "mat": "asmatrix",
}

RENAMED = {
    "PIL.Image": {"ANTIALIAS": "PIL.Image.LANCZOS", "LINEAR": "PIL.Image.BILINEAR", "CUBIC": "PIL.Image.BICUBIC"},
    "collections": {name: f"collections.abc.{name}" for name in _COLLECTIONS_ABC},
    "numpy": {
        **{old: f"builtins.{new}" for old, new in _NUMPY_BUILTINS.items()},
        **{old: f"numpy.{new}" for old, new in _NUMPY_2_RENAMED.items()},
    },
}


class ChangedCall(NamedTuple):
    """A call whose keyword a library release reads otherwise, and how code keeps the old meaning."""

    keyword: str  # the keyword whose meaning changed
    value: str  # its value, as written
    now: str  # the call that means what the old one did on every release (uai-migrate writes it)
    takes: tuple[str, ...]  # the keywords `now` takes besides the object (any other: the call stays, warned about)
    subok: str  # `now` when the call also asks `subok=True`
    new_value: str  # how the changed release spells the old meaning (uai-run passes it there)
    distribution: str  # the library, as pip names it
    since: tuple[int, int]  # its first release with the new meaning
    release: str  # that release, as people name it


# NumPy 1's `np.array(x, copy=False)` copied only where needed (a list, another dtype); NumPy 2.0's never
# copies and raises ValueError there (stable-baselines 2.10.2's replay buffer: `np.array(action,
# copy=False)` of a Python int). Both NumPys spell NumPy 1's meaning `np.asarray(x)`; NumPy 2 also spells it
# `copy=None`, an error on NumPy 1.
CHANGED_CALLS = {
    "numpy.array": ChangedCall(
        keyword="copy",
        value="False",
        now="numpy.asarray",
        takes=("dtype", "order", "like"),
        subok="numpy.asanyarray",
        new_value="None",
        distribution="numpy",
        since=(2, 0),
        release="NumPy 2.0",
    ),
}


def changed_here(change: ChangedCall) -> bool:
    """Whether the installed library reads the call the new way (False when it is not installed)."""
    import re
    from importlib import metadata

    try:
        installed = re.match(r"(\d+)\.(\d+)", metadata.version(change.distribution))
    except metadata.PackageNotFoundError:
        return False
    return installed is not None and (int(installed[1]), int(installed[2])) >= change.since


RULE = "library-names"
# what removed each module's old names, for the rule's report
REMOVED_IN = {"PIL.Image": "Pillow 10", "collections": "Python 3.10", "numpy": "NumPy 1.24 or 2.0"}


def split(qualified: str) -> tuple[str, str]:
    """`numpy.float64` -> ("numpy", "float64"): the module to import and the name it holds."""
    module, _, name = qualified.rpartition(".")
    return module, name


def spelled(qualified: str) -> str:
    """How code writes the new name: Python's builtins by their bare name (`bool`), the rest qualified."""
    module, name = split(qualified)
    return name if module == "builtins" else qualified
