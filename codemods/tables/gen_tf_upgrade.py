"""Derive the renames tf_upgrade_v2 knows, and the homes of the contrib names, from the installed TensorFlow:
`python -m codemods.tables.gen_tf_upgrade`.

Run it in the `tf2` environment; it writes `codemods/tables/tf_upgrade.json`, which the `tf-upgrade`
rule reads (so migrating never imports TensorFlow). Every target is kept only if it resolves on
this TensorFlow with `import compat` (tf.compat.v1.estimator is an attribute compat attaches on 2.21):
  renames   {TF1 path: target path} for the TF1 names TF 2.21 lacks, paths relative to `tensorflow`: TensorFlow's own
            `tensorflow.tools.compatibility` tables (`all_renames_v2.symbol_renames`, its manual
            renames, contrib included), so uai-migrate converts everything tf_upgrade_v2 converts, but the names
            compat's table (SYMBOLS) homes outside TensorFlow, which contrib-equivalents moves there;
  contrib   {contrib path: target path}: for each `tensorflow.contrib.<module>` of compat's TF1 name
            table (compat/tf1_names.py, what `uai-run` resolves at run time) every name of its
            TensorFlow targets, the first target having the name winning, as the runtime looks them up;
  keywords  tf_upgrade_v2's keyword renames {TF1 path: {old keyword: new keyword}} (None: dropped);
  contrib_calls  the contrib functions whose calls tf_upgrade_v2 rewrites by code (tf.contrib.summary's):
            {TF1 path: {"tf1": its parameters in order, "tf2": its target's, "step": add the global step
            when no step is given, "condition": the argument `record_if` gets (or null)}};
  estimator_v1_only  names of tf.compat.v1.estimator that TF2's tf.estimator lacks (`inputs`): TF1
            code reaches them as `tf.estimator.<name>`, which is `tf.compat.v1.estimator.<name>` now;
  modules   the targets' modules Python can import (`from tensorflow.<module> import name` works):
            `tensorflow.distribute.cluster_resolver` is an attribute only, for one (Keras modules never count).
"""

import importlib
from collections.abc import Iterable, Iterator
from typing import Any

from codemods.tables import TF_UPGRADE
from codemods.tables._generate import write_table

OUT = TF_UPGRADE
TF = "tensorflow"


def resolve(root: Any, path: str) -> Any:
    """The object at `path` below `root` (attribute by attribute), or None."""
    obj = root
    for part in path.split("."):
        try:
            obj = getattr(obj, part)
        except Exception:  # noqa: BLE001 - lazily loaded parts that do not import here count as missing
            return None
    return obj


def _strip(name: str) -> str | None:
    return name[3:] if name.startswith("tf.") else None


def _library_symbol(path: str) -> bool:
    """Does compat's TF1 table give contrib name `tensorflow.<path>` a home outside TensorFlow (SYMBOLS: tf-slim's
    checkpoints_iterator, TF 1.15's, where tf_upgrade_v2 names TF 2's, which behaves otherwise)?"""
    from compat import tf1_names

    target = tf1_names.SYMBOLS.get(f"{TF}.{path}")
    return path.startswith("contrib.") and target is not None and not tf1_names.split(target)[0].startswith(TF)


def renames(tf: Any) -> dict:
    from tensorflow.tools.compatibility import all_renames_v2

    found = {}
    for table in (all_renames_v2.symbol_renames, all_renames_v2.manual_symbol_renames):
        for old, new in table.items():
            old, new = _strip(old), _strip(new)
            # `contrib_data.x` keys are for a direct `import tensorflow.contrib.data as contrib_data`;
            # a name TF 2.21 still has stays (the tf1-api rule judges it), or a second run would rename
            # what the first wrote (`tf.manip.space_to_batch_nd` -> `tf.space_to_batch_nd` -> `tf.space_to_batch`);
            # a name compat's table homes in a library is contrib-equivalents' (uai-run serves that home)
            if old and new and resolve(tf, new) is not None and resolve(tf, old) is None and not _library_symbol(old):
                found[old] = new
    return found


def _tf_targets(targets: Iterable[str]) -> Iterator[str]:
    """compat/tf1_names.py's `module:attr` targets that are TensorFlow, as paths relative to `tensorflow`."""
    for target in targets:
        module, _, attr = target.partition(":")
        full = f"{module}.{attr}" if attr else module
        if full.startswith(TF + ".") and not full.startswith(TF + ".python."):
            yield full[len(TF) + 1 :]


def contrib(tf: Any) -> dict:
    from compat import tf1_names

    found: dict[str, Any] = {}
    for old, targets in tf1_names.MODULES.items():
        if not old.startswith(TF + ".contrib."):
            continue
        base = old[len(TF) + 1 :]
        for path in _tf_targets(targets):
            module = resolve(tf, path)
            for name in dir(module) if module is not None else ():
                # submodules too: `tf.contrib.keras.layers` is `tf.compat.v1.keras.layers`
                if not name.startswith("_"):
                    found.setdefault(f"{base}.{name}", f"{path}.{name}")
    for old, target in tf1_names.SYMBOLS.items():
        if not old.startswith(TF + ".contrib."):
            continue
        # a symbol's own entry wins over its module's targets, as uai-run reads them (compat's home included)
        found.pop(old[len(TF) + 1 :], None)
        for path in _tf_targets([target]):
            if resolve(tf, path) is not None:
                found[old[len(TF) + 1 :]] = path
    return found


def keywords() -> dict:
    from tensorflow.tools.compatibility import tf_upgrade_v2

    spec = tf_upgrade_v2.TFAPIChangeSpec()
    return {_strip(name): dict(renames) for name, renames in spec.function_keyword_renames.items() if _strip(name)}


def contrib_calls(tf: Any, renames: dict) -> dict:
    import inspect

    from tensorflow.tools.compatibility import tf_upgrade_v2

    spec = tf_upgrade_v2.TFAPIChangeSpec()
    found = {}
    for name, transformer in spec.function_transformers.items():
        path, kind = _strip(name), getattr(transformer, "func", transformer).__name__
        if path not in renames or kind not in (
            "_add_summary_step_transformer",
            "_add_summary_recording_cond_transformer",
        ):
            continue
        condition = getattr(transformer, "keywords", {}).get("cond")
        found[path] = {
            "tf1": spec.manual_function_reorders.get(name, []),
            "tf2": list(inspect.signature(resolve(tf, renames[path])).parameters),
            "step": condition is None,
            "condition": condition,
        }
    for name, order in spec.manual_function_reorders.items():
        path = _strip(name)
        if path in renames and path not in found:
            target = list(inspect.signature(resolve(tf, renames[path])).parameters)
            found[path] = {"tf1": order, "tf2": target, "step": False, "condition": None}
    return found


def importable(modules: Iterable[str]) -> list:
    """The API modules (paths relative to `tensorflow`) of `modules` that Python can import."""
    found = set()
    for module in set(modules):
        if "keras" in module.split("."):
            continue  # whether these import depends on the order Keras was loaded in: written as attributes
        try:
            importlib.import_module(f"{TF}.{module}")
        except ImportError:
            continue
        found.add(module)
    return sorted(found)


def estimator_v1_only(tf: Any) -> list:
    return sorted(
        name for name in dir(tf.compat.v1.estimator) if not name.startswith("_") and not hasattr(tf.estimator, name)
    )


def build(tf: Any) -> dict:
    table: dict[str, Any] = {
        "renames": renames(tf),
        "contrib": contrib(tf),
        "keywords": keywords(),
        "estimator_v1_only": estimator_v1_only(tf),
    }
    table["contrib_calls"] = contrib_calls(tf, table["renames"])
    targets = [*table["renames"].values(), *table["contrib"].values()]
    table["modules"] = importable(path.rpartition(".")[0] for path in targets)
    return table


def main() -> None:
    write_table(
        build,
        OUT,
        lambda table: (
            f"{len(table['renames'])} renames, {len(table['contrib'])} contrib names, "
            f"{len(table['keywords'])} keyword renames"
        ),
    )


if __name__ == "__main__":
    main()
