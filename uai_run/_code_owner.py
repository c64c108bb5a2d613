"""Whose code is this: the user's (sees the TF1 face) or a library's (sees the real TensorFlow)?

A file is the user's when it lies outside the standard library, outside every site-/dist-packages
folder and outside the packages that must see TensorFlow as it is: this project's packages (`compat`, `trainlib`, the tools),
TensorFlow itself, tf_slim, tensorflow_estimator and the Keras packages TF's `tf.keras` loads.
"""

import functools
import importlib.machinery
import os
import sys
import sysconfig
from types import FrameType

# Packages written against TF 2's `tensorflow`; the face would break them even with --tf1-everywhere.
# uai-compat's own packages included: they are written against TF 2 as the shims are.
INTERNAL_PACKAGES = (
    "compat",
    "trainlib",
    "uai_run",
    "uai_launch",
    "tensorflow",
    "tf_slim",
    "tensorflow_estimator",
    "tf_keras",
    "keras",
)


def _package_dirs(packages: tuple[str, ...]) -> tuple[str, ...]:
    dirs: list[str] = []
    for package in packages:
        if package in sys.modules:  # where it was loaded from, whatever sys.path says now
            locations = getattr(sys.modules[package], "__path__", [])
        else:
            # PathFinder, not importlib.util.find_spec: that would run import hooks
            spec = importlib.machinery.PathFinder.find_spec(package)
            locations = spec.submodule_search_locations or [] if spec is not None else []
        dirs.extend(os.path.realpath(d) + os.sep for d in locations)
    return tuple(dirs)


@functools.cache
def _internal_dirs() -> tuple[str, ...]:
    return _package_dirs(INTERNAL_PACKAGES)


@functools.cache
def _library_dirs() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    roots = {paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib") if key in paths}
    return tuple(os.path.realpath(r) + os.sep for r in roots)


@functools.lru_cache(maxsize=4096)
def is_internal(filename: str) -> bool:
    return os.path.realpath(filename).startswith(_internal_dirs())


@functools.lru_cache(maxsize=4096)
def is_user(filename: str | None) -> bool:
    """Is `filename` (a code object's or module's file) the user's own code?"""
    if not filename or filename.startswith("<"):
        return False  # frozen import machinery, exec'd strings
    installed = (os.sep + "site-packages" + os.sep, os.sep + "dist-packages" + os.sep)
    if any(folder in filename for folder in installed):
        return False  # most files asked about: no file-system call
    real = os.path.realpath(filename)
    if any(folder in real for folder in installed):
        return False
    return not real.startswith(_library_dirs()) and not is_internal(filename)


def user_frame(frame: FrameType | None = None) -> FrameType:
    """The innermost frame running the user's code, from `frame` (the caller) outwards; `frame` itself if none is."""
    frame = frame or sys._getframe(1)
    first = frame
    while frame is not None:
        if is_user(frame.f_code.co_filename):
            return frame
        frame = frame.f_back
    return first
