"""Derive the TF1 -> TF2 symbol table from the installed TensorFlow: `python -m codemods.tables.gen_tf_api`.

Run it in the `tf2` environment; it writes `codemods/tables/tf_api.json`, which the `tf1-api` and
`tf-private` rules read (so migrating never imports TensorFlow). For every public name of
`tf.compat.v1` (Estimator, Keras and compat itself left to their own rules) it records:
  moved     the TF2 API has the very same object under another name (`tf.log` -> `tf.math.log`);
  v1_only   TF2 has nothing under that name or elsewhere: it stays TF1 code, as `tf.compat.v1.<name>`;
  differs   both APIs have the name with different objects: classes always differ in behaviour,
            functions only when a call uses a parameter the TF2 one lacks, places positionally
            an argument the TF2 one reads as something else, or lacks one TF2 requires
            (`draw_bounding_boxes` without `colors`), so their parameters are kept;
  private   for every `tensorflow.python.*` module loaded with TensorFlow (and those TF1 examples
            imported), each object it shares with the public API by identity: its public name (TF2
            first, else `compat.v1.*`) and its `compat.v1.*` name; a name of `compat.tf1_names.PRIVATE`
            (renamed, dropped or given TF 2's meaning) gets the names of the TF1 object uai-run serves;
  private_by_name  the same for the names all those modules agree on, for a name TF 2.21 keeps
            in another private module than TF 1.x did;
  private_modules  every `tensorflow.python.*` module this TensorFlow ships (read on disk), so a
            private module TF 2.21 no longer has is reported, not passed over;
  slim      tf-slim's own public names (what `compat.slim` offers): tf_slim is tf.contrib.slim with
            the contrib.layers and contrib.framework pieces it was built on, so a `tf.contrib.layers`
            or `tf.contrib.framework` name found here moves to `compat.slim` unchanged;
  v2_only   the names TF 2's API has and tf.compat.v1 lacks (`summary.create_file_writer`), modules aside, and
            the attributes a TF 2 class of a `differs` name has and its TF 1 class lacks
            (`lite.TFLiteConverter.from_keras_model`): no TF1 program could name one, so a file naming one and
            nothing TF 2 lacks is TF 2 code, whose names tf1-api leaves as written (codemods/_tf2_code.py);
  estimator `differs`: the names of tf.estimator whose TF 2 object is not TF 1's (the canned
            estimators and their parse-spec helpers), which the `tf-estimator` rule ports to
            `tf.compat.v1.estimator`; `v1_module`: the module TF 1's names can be imported from.
"""

import ast
import importlib.machinery
import inspect
import os
import sys
import types
from typing import Any

from codemods.tables import TF_API
from codemods.tables._generate import write_table
from compat import tf1_names

OUT = TF_API
API = ("tensorflow._api.", "tensorflow.compat.", "tf_keras.api.", "keras.api.")
SKIP = ("compat", "keras", "estimator", "raw_ops", "contrib")
# TF1 examples' private imports (the seeds' device setters, hooks, training_util, logging ...).
PRIVATE = (
    "tensorflow.python.training.device_setter",
    "tensorflow.python.training.training_util",
    "tensorflow.python.training.session_run_hook",
    "tensorflow.python.training.basic_session_run_hooks",
    "tensorflow.python.training.monitored_session",
    "tensorflow.python.training.saver",
    "tensorflow.python.training.server_lib",
    "tensorflow.python.training.optimizer",
    "tensorflow.python.training.training",
    "tensorflow.python.platform.tf_logging",
    "tensorflow.python.platform.gfile",
    "tensorflow.python.framework.ops",
    "tensorflow.python.framework.dtypes",
    "tensorflow.python.framework.tensor_shape",
    "tensorflow.python.framework.constant_op",
    "tensorflow.python.ops.array_ops",
    "tensorflow.python.ops.math_ops",
    "tensorflow.python.ops.nn_ops",
    "tensorflow.python.ops.init_ops",
    "tensorflow.python.ops.variable_scope",
    "tensorflow.python.ops.variables",
    "tensorflow.python.ops.control_flow_ops",
    "tensorflow.python.ops.state_ops",
    "tensorflow.python.summary.summary",
    "tensorflow.python.client.session",
    "tensorflow.python.framework.device",
    "tensorflow.python.framework.graph_util",
    "tensorflow.python.ops.data_flow_ops",
    "tensorflow.python.pywrap_tensorflow",
    "tensorflow.python.util.nest",
)
# Module-level loop variables left holding the last of a set's functions: another one on every run
# (`for operator in Tensor.OVERLOADABLE_OPERATORS: tensor_oper = ...` in weak_tensor_ops).
LOOP_LEFTOVERS = frozenset({"tensor_oper"})
# Same name, same parameters, different behaviour: v2 summaries need a default writer and a step.
BEHAVIOUR_DIFFERS = ("summary.",)


def _is_api(module: types.ModuleType) -> bool:
    """A module of TensorFlow's public API: Keras 3, which TF 2.21 imports with TensorFlow, imports
    `tensorflow.experimental`, which replaces `tf.experimental` by a copy of the same API file named
    outside `tensorflow._api` (so whether the name alone says "API" depends on what was imported)."""
    file = getattr(module, "__file__", None) or ""
    return module.__name__.startswith(API) or f"{os.sep}_api{os.sep}" in file


def _walk(module: types.ModuleType, prefix: str, out: dict[str, Any], seen: set[int]) -> dict[str, Any]:
    for name in dir(module):
        if name.startswith("_") or (not prefix and name in SKIP):
            continue
        try:
            obj = getattr(module, name)
        except Exception:  # lazily loaded parts that do not import on this runtime
            continue
        path = prefix + name
        out[path] = obj
        # not into implementation modules leaking through the API namespace (tf.dtensor.python ...)
        if isinstance(obj, types.ModuleType) and _is_api(obj) and id(obj) not in seen:
            seen.add(id(obj))
            _walk(obj, path + ".", out, seen)
    return out


def _rank(path: str) -> tuple[int, bool, str]:
    return (path.count("."), "experimental" in path, path)


def _params(func: Any) -> tuple[list[str], list[str], list[str]] | None:
    """(positional parameter names, every parameter name, the names without a default) or None when not inspectable."""
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):
        return None
    kinds: tuple[inspect._ParameterKind, ...] = (
        inspect.Parameter.POSITIONAL_ONLY,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
    )
    positional = [p.name for p in signature.parameters.values() if p.kind in kinds]
    names = [p.name for p in signature.parameters.values() if p.kind != inspect.Parameter.VAR_KEYWORD]
    if any(p.kind == inspect.Parameter.VAR_KEYWORD for p in signature.parameters.values()):
        names.append("**")
    kinds += (inspect.Parameter.KEYWORD_ONLY,)
    required = [
        p.name for p in signature.parameters.values() if p.kind in kinds and p.default is inspect.Parameter.empty
    ]
    return positional, names, required


def _identity(obj: object) -> bool:
    return callable(obj) or isinstance(obj, types.ModuleType)


def _add_constants(module: types.ModuleType, names: dict[str, list[Any]], tf: Any) -> None:
    """Constants (`tf_logging.INFO`) live where the module's functions went, under the same name and value."""
    homes = {path.rpartition(".")[0] for path, _ in names.values() if "." in path}
    if len(homes) != 1:
        return
    home = homes.pop()
    public = tf
    for part in home.split("."):
        public = getattr(public, part)
    for name in dir(module):
        value = getattr(module, name)
        if name in names or name.startswith("_") or not isinstance(value, (int, float, str)):
            continue
        if getattr(public, name, object()) == value:
            path = f"{home}.{name}"
            names[name] = [path, path if path.startswith("compat.v1.") else None]


def slim_names() -> list[str]:
    """tf-slim's public functions and classes defined by tf-slim itself (not the TF modules it re-exports)."""
    import tf_slim

    import compat.slim  # noqa: F401 - tf_slim needs compat's fix to import on current TensorFlow

    names: list[str] = []
    for name in dir(tf_slim):
        obj = getattr(tf_slim, name)
        if not name.startswith("_") and _identity(obj) and not isinstance(obj, types.ModuleType):
            defined = getattr(obj, "func", obj)  # `relu` is a functools.partial of fully_connected
            if getattr(defined, "__module__", "").startswith("tf_slim."):
                names.append(name)
    return sorted(names)


def slim_module_names() -> dict[str, list[str]]:
    """{tf-slim module a contrib module's names are looked up in (compat/tf1_names.py MODULES): its public
    functions and classes defined by tf-slim}, so uai-migrate moves them there as uai-run serves them."""
    import importlib

    import compat.slim  # noqa: F401 - tf_slim needs compat's fix to import on current TensorFlow
    from compat import tf1_names

    found: dict[str, list[str]] = {}
    for targets in tf1_names.MODULES.values():
        for target in targets:
            if target.startswith("tf_slim.") and target not in found:
                module = importlib.import_module(target)
                # a module's `__all__` is what it serves, TensorFlow's objects it re-exports included
                # (tf_slim.training.evaluation's evaluate_once is TensorFlow's private _evaluate_once)
                listed = getattr(module, "__all__", None)
                found[target] = sorted(
                    name
                    for name in dir(module)
                    if not name.startswith("_")
                    and _identity(getattr(module, name))
                    and not isinstance(getattr(module, name), types.ModuleType)
                    and (
                        name in listed
                        if listed is not None
                        else getattr(getattr(module, name), "__module__", "").startswith("tf_slim.")
                    )
                )
    return dict(sorted(found.items()))


def _named(obj: object) -> bool:
    """Objects a private module shares with the public API by identity: functions, classes, modules and
    instances such as `dtypes.float32` (not plain values, which are equal by chance)."""
    return _identity(obj) or not isinstance(
        obj, (int, float, complex, str, bytes, bool, type(None), tuple, list, dict, set)
    )


def _exported_as(obj: Any, v1: dict[str, Any], v2: dict[str, Any]) -> list[str] | None:
    """The public names TensorFlow's export decorator recorded on `obj` (`math_ops.maximum` is the function
    `tf.maximum` wraps for dispatch: another object, the same API), those that exist on this TensorFlow."""
    try:
        # a class's own names only: it inherits its base's (Keras' Dense would be tf.Module)
        names = vars(obj) if inspect.isclass(obj) else obj.__dict__
        v2_names = names.get("_tf_api_names", ()) or ()
        v1_names = names.get("_tf_api_names_v1", ()) or ()
    except Exception:  # noqa: BLE001 - lazy loaders raise on any attribute
        return None
    paths = [p for p in v2_names if isinstance(p, str) and p in v2]
    paths += ["compat.v1." + p for p in v1_names if isinstance(p, str) and p in v1]
    return paths or None


def _private(
    tf: Any, homes: dict[int, list[str]], v1: dict[str, Any], v2: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """For every loaded `tensorflow.python.*` module, {name: [public name, its tf.compat.v1 name]} of each
    object it shares with the public API; and {name: [public name, v1 name]} for the names every module
    agrees on, which is where a name TF 1.x had in one module and TF 2.21 keeps in another goes
    (`control_flow_ops.cond` is `cond.cond` now: tf.compat.v1.cond either way)."""
    for path, obj in [*v2.items(), *(("compat.v1." + p, o) for p, o in v1.items())]:
        if _named(obj) and not _identity(obj):
            homes.setdefault(id(obj), []).append(path)
    private: dict[str, Any] = {}
    candidates: dict[str, Any] = {}
    modules = sorted(
        name
        for name, module in list(sys.modules.items())
        if name.startswith("tensorflow.python.") and isinstance(module, types.ModuleType)
    )
    for module_name in (*PRIVATE, *(name.rpartition(".")[0] for name in tf1_names.PRIVATE), *modules):
        module = sys.modules.get(module_name) or __import__(module_name, fromlist=["_"])
        names = {}
        for name, obj in list(vars(module).items()):
            paths = homes.get(id(obj)) if not name.startswith("__") and _named(obj) else None
            if not paths and not name.startswith("__") and callable(obj) and name not in LOOP_LEFTOVERS:
                paths = _exported_as(obj, v1, v2)
            if paths:
                names[name] = _public_names(paths)
        # Private names TF 2.x renamed, dropped or gave TF 2's meaning, which identity cannot find: the
        # public names of the TF1 object uai-run serves for them (`nest.is_sequence` -> tf.nest.is_nested)
        for private_name, target in tf1_names.PRIVATE.items():
            owner, _, name = private_name.rpartition(".")
            paths = homes.get(id(tf1_names.resolve(target))) if owner == module_name else None
            if owner == module_name and not paths:
                raise ValueError(f"compat.tf1_names.PRIVATE: {target} has no public name on the installed TensorFlow")
            if paths:
                names[name] = _public_names(paths)
        _add_constants(module, names, tf)
        if names:
            private[module_name] = names
            for name, found in names.items():
                if not name.startswith("_"):
                    candidates.setdefault(name, set()).add(tuple(found))
    by_name = {name: list(found.pop()) for name, found in sorted(candidates.items()) if len(found) == 1}
    return private, by_name


def _public_names(paths: list) -> list:
    """[the public name (TF2 first), its tf.compat.v1 name for `from tensorflow.compat.v1.<module> import x`]."""
    v1_paths = [p for p in paths if p.startswith("compat.v1.")]
    best = min(paths, key=lambda p: (p.startswith("compat."), *_rank(p)))
    return [best, min(v1_paths, key=_rank) if v1_paths else None]


def _bound(body: list) -> list:
    """The names a list of statements binds at its own level (if/try/with bodies included)."""
    names = []
    for node in body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names += [(alias.asname or alias.name).split(".")[0] for alias in node.names]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names += [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
        for block in ("body", "orelse", "finalbody") if isinstance(node, (ast.If, ast.Try, ast.With)) else ():
            names += _bound(getattr(node, block, []))
        for handler in getattr(node, "handlers", []):
            names += _bound(handler.body)
    return names


def _binds_public_names(init: str) -> bool:
    """Does a package's `__init__.py` bind public names (its submodules aside, which are listed anyway)?"""
    with open(init, encoding="utf-8") as handle:
        return any(not name.startswith("_") for name in _bound(ast.parse(handle.read()).body))


def private_modules(tf: Any) -> dict:
    """Every `tensorflow.python.*` module this TensorFlow ships, found on disk without importing it:
    {name: "module" | "package" | "package with names"}. A name that is not a submodule of a
    "package" is no attribute of it either (its `__init__` binds none), so an import of it fails:
    how a module TF 2.21 no longer has (`tensorflow.python.training.training_ops`) is told apart."""
    root = os.path.dirname(tf.__file__)
    suffixes = tuple(importlib.machinery.all_suffixes())
    found = {}
    for folder, dirs, files in os.walk(os.path.join(root, "python")):
        if "__init__.py" not in files:
            dirs[:] = []  # data folders, __pycache__
            continue
        package = "tensorflow." + os.path.relpath(folder, root).replace(os.sep, ".")
        opened = _binds_public_names(os.path.join(folder, "__init__.py"))
        found[package] = "package with names" if opened else "package"
        for file in files:
            suffix = next((s for s in suffixes if file.endswith(s)), None)
            if suffix and file != "__init__.py":
                found.setdefault(f"{package}.{file[: -len(suffix)].split('.')[0]}", "module")
    return dict(sorted(found.items()))


def estimator(tf: Any) -> dict:
    """TF 2's tf.estimator against TF 1's (tf.compat.v1.estimator). A TF 2 class derived from TF 1's is
    left out: EstimatorV2 only hides the deprecated `export_savedmodel` (an AttributeError, no other
    behaviour), where the canned estimators are other classes (loss averaged over the batch instead
    of summed, Keras optimizers)."""
    v1, v2 = tf.compat.v1.estimator, tf.estimator
    differs = []
    for name in dir(v2):
        old, new = getattr(v1, name, None), getattr(v2, name)
        if name.startswith("_") or old is None or old is new or isinstance(new, types.ModuleType):
            continue
        if inspect.isclass(new) and inspect.isclass(old) and issubclass(new, old):
            continue
        differs.append(name)
    return {"differs": differs, "v1_module": v1.__name__}


def _v2_only_attributes(v1: dict[str, Any], v2: dict[str, Any], differs: dict[str, Any]) -> list[str]:
    """`<class>.<attribute>` for each public attribute the TF 2 class of a `differs` name has and its TF 1 class
    lacks (`lite.TFLiteConverter.from_keras_model`, `train.Checkpoint.read`)."""
    found = []
    for path in differs:
        old, new = v1[path], v2[path]
        if inspect.isclass(old) and inspect.isclass(new):
            found += [f"{path}.{name}" for name in set(dir(new)) - set(dir(old)) if not name.startswith("_")]
    return found


def build(tf: Any) -> dict:
    v1 = _walk(tf.compat.v1, "", {}, set())
    v2 = _walk(tf, "", {}, set())
    homes: dict[int, list[str]] = {}
    for path, obj in v2.items():
        if _identity(obj):
            homes.setdefault(id(obj), []).append(path)
    for v1_path, obj in v1.items():
        if _identity(obj):
            homes.setdefault(id(obj), []).append("compat.v1." + v1_path)
    moved: dict[str, Any] = {}
    v1_only: list[str] = []
    differs: dict[str, Any] = {}
    for path, obj in sorted(v1.items()):
        if path in v2:
            if v2[path] is obj or isinstance(obj, types.ModuleType):
                continue
            if inspect.isclass(obj) or path.startswith(BEHAVIOUR_DIFFERS) or not callable(obj):
                differs[path] = None
                continue
            old, new = _params(obj), _params(v2[path])
            differs[path] = (
                None
                if old is None or new is None
                else {"v1": old[0], "v2": new[0], "v2_names": new[1], "v2_required": new[2]}
            )
            continue
        public = [p for p in homes.get(id(obj), ()) if not p.startswith("compat.")] if _identity(obj) else []
        if public:
            moved[path] = min(public, key=_rank)
        else:
            v1_only.append(path)
    private, by_name = _private(tf, homes, v1, v2)
    # v1-only modules: a whole `tf.<module>` chain becomes `tf.compat.v1.<module>`
    modules = sorted(p for p in v1_only if isinstance(v1[p], types.ModuleType))
    return {
        "moved": moved,
        "v1_only": v1_only,
        "v1_only_modules": modules,
        "differs": differs,
        "v2_only": sorted(
            [p for p, obj in v2.items() if p not in v1 and not isinstance(obj, types.ModuleType)]
            + _v2_only_attributes(v1, v2, differs)
        ),
        "private": private,
        "private_by_name": by_name,
        "private_modules": private_modules(tf),
        "slim": slim_names(),
        "slim_modules": slim_module_names(),
        "estimator": estimator(tf),
    }


def main() -> None:
    write_table(
        build,
        OUT,
        lambda table: (
            f"{len(table['moved'])} moved, {len(table['v1_only'])} v1 only, {len(table['differs'])} differing"
        ),
    )


if __name__ == "__main__":
    main()
