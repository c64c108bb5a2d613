"""Which TensorFlow is installed, found without importing it (an import costs ~3 s)."""

import functools
import sys
from importlib import metadata

_DISTRIBUTIONS = ("tensorflow-cpu", "tensorflow", "tf-nightly-cpu", "tf-nightly", "tensorflow-macos")


def _parse(version: str) -> tuple[int, ...]:
    parts = []
    for piece in version.split(".")[:2]:
        digits = "".join(ch for ch in piece if ch.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


@functools.cache
def tf_version() -> tuple[int, ...] | None:
    """(major, minor) of the installed TensorFlow, or None when there is none."""
    loaded = sys.modules.get("tensorflow")
    if loaded is not None and getattr(loaded, "__version__", None):
        return _parse(loaded.__version__)
    for dist in _DISTRIBUTIONS:
        try:
            return _parse(metadata.version(dist))
        except metadata.PackageNotFoundError:
            continue
    return None


def has_keras3() -> bool:
    """True on TF >= 2.16, where `tf.keras` is Keras 3 unless TF_USE_LEGACY_KERAS=1."""
    version = tf_version()
    return version is not None and version >= (2, 16)


def has_builtin_estimator() -> bool:
    """True on TF <= 2.15, whose tensorflow-estimator package imports as released."""
    version = tf_version()
    return version is not None and version < (2, 16)
