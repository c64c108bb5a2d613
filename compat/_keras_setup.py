"""Choose legacy Keras (tf-keras) on TF >= 2.16 before TensorFlow reads the choice.

TF reads TF_USE_LEGACY_KERAS lazily: each Keras entry point of the TF API (`tf.keras`,
`tf.compat.v1.layers`, ...) is a loader that resolves the variable on its first use. So
setting it at `import compat` works even after `import tensorflow`, as long as nothing used
Keras yet. Measured on TF 2.21 when a script used Keras before importing compat:
  - `tf.compat.v1.layers.dense` had raised "not available with Keras 3": its loader stays
    in place, so we reset it and it resolves again, now to tf-keras (`repair_loaded_tensorflow`);
  - `tf.keras.<anything>` had bound `tf.keras` to the Keras 3 module itself: that cannot be
    undone in the process, so `compat.install()` fails with one line saying what to move.
On TF 2.15 the variable makes `tf.keras` look for the tf_keras package (and fail when
absent): we set it only where Keras 3 is the default.

A graph seed fixes Keras 2's unseeded initializers again (`seed_keras_from_graph`). Migrated
graph-mode code keeps TF2 behaviour, under which `tf.compat.v1.layers` (and Keras layers) get
the default `glorot_uniform` as Keras' TF2 initializer: an unseeded stateless draw whose seed
is Python's `random.randint`, so, measured on TF 2.15 and 2.21, `set_random_seed(1)` and
`tf.compat.v1.layers.dense` gave a new kernel in every process. TF 1.x (and
`disable_v2_behavior`) used TF's stateful random ops, whose op seed comes from the graph seed.
"""

import importlib.util
import os
import sys
import types
from collections.abc import Iterable, MutableMapping
from typing import Any

from compat import _import_hook
from compat._version import has_keras3
from compat.errors import KerasSetupError

_API_MODULES = ("tensorflow", "tensorflow._api.v2.compat.v1", "tensorflow._api.v2.compat.v2")
# Where Keras 2 keeps the RandomGenerator of its initializers: tf-keras (TF >= 2.16), Keras 2.15 (TF 2.15).
_KERAS2_BACKENDS = ("tf_keras.src.backend", "keras.src.backend")


_chose = {"legacy": False}  # did this process set TF_USE_LEGACY_KERAS in os.environ (not the user)?


def prefer_legacy_keras(environ: MutableMapping[str, str] | None = None) -> bool:
    """Set TF_USE_LEGACY_KERAS=1 when TF >= 2.16 and tf-keras is installed; respect an explicit user value."""
    environ = os.environ if environ is None else environ
    if "TF_USE_LEGACY_KERAS" in environ or not has_keras3():
        return False
    if importlib.util.find_spec("tf_keras") is None:
        return False
    environ["TF_USE_LEGACY_KERAS"] = "1"
    _chose["legacy"] = _chose["legacy"] or environ is os.environ
    return True


def user_environment() -> dict[str, str]:
    """os.environ as the user set it: without the Keras choice compat made (for a program run without compat)."""
    environ = dict(os.environ)
    if _chose["legacy"]:
        environ.pop("TF_USE_LEGACY_KERAS", None)
    return environ


def _wants_legacy() -> bool:
    return os.environ.get("TF_USE_LEGACY_KERAS") in ("1", "true", "True")


def _api_namespaces() -> Iterable[dict[str, Any]]:
    """The dicts of TF's API modules (and of their deprecation wrappers) holding Keras loaders."""
    tf = sys.modules["tensorflow"]
    modules = [tf, getattr(getattr(tf, "compat", None), "v1", None), getattr(getattr(tf, "compat", None), "v2", None)]
    modules += [sys.modules.get(name) for name in _API_MODULES]
    namespaces: dict[int, dict[str, Any]] = {}
    for module in filter(None, modules):
        for candidate in (module, getattr(module, "_tfmw_wrapped_module", None)):
            if candidate is not None:
                namespaces[id(candidate)] = vars(candidate)
    return namespaces.values()


def repair_loaded_tensorflow() -> list[str]:
    """Re-resolve Keras loaders that chose Keras 3 before legacy Keras was selected; return their names."""
    if "tensorflow" not in sys.modules or not has_keras3() or not _wants_legacy():
        return []
    repaired = []
    for namespace in _api_namespaces():
        for name, value in list(namespace.items()):
            # vars(), not hasattr: reading an attribute of a lazy module (the estimator API) loads it
            state = getattr(value, "__dict__", {})
            if "_tfll_name" not in state:
                continue
            if state.get("_tfll_initialized") and state.get("_tfll_keras_version") == "keras_3":
                state["_tfll_initialized"] = False
                repaired.append(name)
    return repaired


def check_loaded_tensorflow() -> None:
    """Repair what can be repaired; raise KerasSetupError (one line) if `tf.keras` is already Keras 3."""
    repair_loaded_tensorflow()
    if "tensorflow" not in sys.modules or not has_keras3() or not _wants_legacy():
        return
    for namespace in _api_namespaces():
        bound = namespace.get("keras")
        if getattr(bound, "__name__", "").startswith("keras.") and not hasattr(bound, "_tfll_name"):
            raise KerasSetupError(
                "tf.keras was used before `import compat` and is bound to Keras 3, so tf.compat.v1.layers and "
                "tf-slim cannot use legacy Keras: move `import compat` above the first use of tf.keras "
                "(or set TF_USE_LEGACY_KERAS=1 before starting Python)"
            )


def _graph_seeded() -> bool:
    """True in graph mode (eager disabled or a tf.Graph being built) when the graph has a seed."""
    import tensorflow as tf

    return not tf.compat.v1.executing_eagerly_outside_functions() and tf.compat.v1.get_default_graph().seed is not None


def _seed_from_graph(backend: types.ModuleType) -> None:
    """Let an unseeded stateless Keras RandomGenerator fall back to TF's stateful ops when the graph is seeded."""
    generator = getattr(backend, "RandomGenerator", None)  # Keras 3's keras.src.backend has none
    original = getattr(generator, "_maybe_init", None)
    if generator is None or original is None or getattr(original, "seeds_from_graph", False):
        return

    def _maybe_init(self: Any) -> None:
        # Keras would draw the stateless seed from Python's `random`; the legacy stateful ops it
        # uses in graph mode for seedless stateful generators take their op seed from the graph
        # seed and the op count, as every TF 1.x initializer did. Unseeded graphs keep Keras' draw.
        if not self._built and self._seed is None and self._rng_type == self.RNG_STATELESS and _graph_seeded():
            self._rng_type = self.RNG_LEGACY_STATEFUL
        original(self)

    _maybe_init.seeds_from_graph = True  # type: ignore[attr-defined]
    generator._maybe_init = _maybe_init


def _seed_loaded_keras() -> None:
    for name in _KERAS2_BACKENDS:
        if name in sys.modules:
            _seed_from_graph(sys.modules[name])


def seed_keras_from_graph() -> None:
    """Make Keras 2's unseeded initializers follow the graph seed, now or when Keras gets imported."""
    _seed_loaded_keras()
    for name in _KERAS2_BACKENDS:
        _import_hook.on_import(name, after=_seed_loaded_keras)
