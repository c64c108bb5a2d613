"""One table, two consumers: what uai-migrate writes for a name of compat/tf1_names.py is what uai-run gives.

For every name the table resolves (each moved symbol, each public name of a module's targets, each
module below a moved package), written as TF1 code wrote it (`tf.<path>`, `from <module> import
<name>`, and the `tf.compat.v1.<path>` spelling of TF 1.13+ code for contrib and flags), wherever
uai-migrate rewrites the name, the rewritten code evaluates to the very object uai-run's TF1 face
answers for it. Names uai-migrate leaves (and reports) are not compared: the rule tests cover them.
"""

import ast
import functools
import importlib
import inspect
import pkgutil
import textwrap

import pytest

from codemods import rules
from compat import tf1_names as names
from compat.errors import CompatError
from tests.support.rule_test import apply
from uai_run import _tf1_modules

# `tf.compat.v1.contrib.X` / `tf.compat.v1.flags` is TF1's own spelling of `tf.contrib.X` / `tf.flags`
# in code written for TF 1.13+ (seen in tflearn): both consumers must read it as the TF1 name
V1_TWINS = ("tensorflow.contrib.", "tensorflow.app.", "tensorflow.flags")


def _runtime(name: str):
    """What uai-run's face of the parent module answers for `name`."""
    parent, _, attr = name.rpartition(".")
    return getattr(_tf1_modules.Face(parent), attr)


def _table_names() -> dict[str, bool]:
    """{TF1 name compat/tf1_names.py resolves to an object: also written as an attribute chain?}.

    Not the root `tensorflow` -> tf.compat.v1 entry (the tf1-api rule's, name for name); not module-valued
    names of a module's targets (`compat.slim.compat` is an import of compat.slim, no TF1 name); modules
    below a moved package in their import form only when they were contrib's internal layout (`python.`).
    """
    found = dict.fromkeys(names.SYMBOLS, True)
    for module in names.MODULES.keys() - {names.TF}:
        for _, target in _tf1_modules.Face(module)._targets():
            for name in dir(target):
                if not name.startswith("_") and not inspect.ismodule(getattr(target, name)):
                    found.setdefault(f"{module}.{name}", True)
    for package, new in names.PACKAGES.items():
        path = getattr(importlib.import_module(new), "__path__", ())
        for info in pkgutil.iter_modules(path):
            if not info.name.startswith("_") and not info.name.endswith("_test"):  # tf-slim's tests need nose
                found.setdefault(f"{package}.{info.name}", ".python." not in package + ".")
    return {
        name: attribute
        for name, attribute in found.items()
        if name in names.SYMBOLS or not (name in names.MODULES or names.has_entries_below(name))
    }


def _spellings(name: str, attribute: bool) -> list[tuple[str, str]]:
    """(statement binding `{var}`, its TF1 form) for the ways TF1 code wrote `name`."""
    module, _, attr = name.rpartition(".")
    rest = name[len(names.TF) + 1 :]
    forms = [(f"from {module} import {attr} as {{var}}", "import")]
    if attribute:
        forms.append((f"{{var}} = tf.{rest}", "attribute"))
    if attribute and name.startswith(V1_TWINS):
        forms.append((f"{{var}} = tf.compat.v1.{rest}", "tf.compat.v1 attribute"))
    return forms


@functools.cache
def _migrated():
    """({variable: (TF1 name, spelling)}, the TF1 statements, the migrated module's statements,
    {variable: rule ids of its rewrite}) for every spelling of every name."""
    lines, wanted = ["import tensorflow as tf"], {}
    for name, attribute in sorted(_table_names().items()):
        for statement, form in _spellings(name, attribute):
            var = f"v{len(wanted)}"
            wanted[var] = (name, form)
            lines.append(statement.format(var=var))
    source = "\n".join(lines) + "\n"
    applied = apply(source, *rules.RULES)
    reported = {}  # the rules whose rewrite of a variable's line the report names (variable `vN` is line N + 2)
    for entry in applied.entries:
        if entry.severity == "info":
            reported.setdefault(f"v{entry.line - 2}", set()).add(entry.rule)
    return wanted, {ast.unparse(s) for s in ast.parse(source).body}, ast.parse(applied.module.code).body, reported


def _disagreements() -> dict[str, list[str]]:
    """{TF1 name: what differs, per spelling} over the whole table: the object, or the rule named for it."""
    wanted, original, statements, reported = _migrated()
    namespace, rewritten, found = {}, set(), {}
    for statement in statements:
        kept = ast.unparse(statement) in original  # left as it was (and reported): not compared
        bound = {n.id for n in ast.walk(statement) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        bound.update(alias.asname or alias.name for n in ast.walk(statement) for alias in getattr(n, "names", ()))
        try:
            exec(compile(ast.Module([statement], []), "<migrated>", "exec"), namespace)  # noqa: S102
        except Exception as error:  # noqa: BLE001 - every failure of a rewritten statement is a finding
            if kept:
                continue
            for var in bound & wanted.keys():
                found.setdefault(wanted[var][0], []).append(f"{ast.unparse(statement)}: {error!r}")
            continue
        if not kept:
            rewritten |= bound & wanted.keys()
    for var in sorted(rewritten):
        name, form = wanted[var]
        try:
            expected = _runtime(name)
        except CompatError as error:
            found.setdefault(name, []).append(f"{form}: uai-migrate rewrites it, uai-run says {error}")
            continue
        # a callable uai-run serves taking TF1's arguments stands for TF 2's, whose calls uai-migrate rewrites
        expected = getattr(expected, "_tf1_adapts", expected)
        if namespace[var] is not expected:
            found.setdefault(name, []).append(f"{form}: uai-migrate gives {namespace[var]!r}, uai-run {expected!r}")
        # uai-run's --explain names the rule whose rewrite an alias stands for (its tf.compat.v1 spellings
        # have no alias at run time)
        if not form.startswith("tf.compat.v1") and names.rule_for(name) not in reported.get(var, ()):
            found.setdefault(name, []).append(
                f"{form}: rewritten by {reported.get(var)}, uai-run names {names.rule_for(name)}"
            )
    assert len(rewritten) > len(wanted) // 2, (len(rewritten), len(wanted))  # the comparison compares something
    return found


# Disagreements in the tf-upgrade rule's derived table (codemods/rules/upgrade.py, codemods/tables), known
# and listed so that a new one, or a fixed one still listed here, fails this test.
KNOWN = {
    # tf_upgrade_v2 renames these to their TF2 functions, which return TF2 datasets (no
    # make_one_shot_iterator()); uai-run gives tf.compat.v1.data.experimental's TF1 ones
    **dict.fromkeys(
        (
            f"tensorflow.contrib.data.{name}"
            for name in (
                "Counter",
                "choose_from_datasets",
                "make_batched_features_dataset",
                "make_csv_dataset",
                "sample_from_datasets",
            )
        ),
        "tf-upgrade prefers tf_upgrade_v2's TF2 function to compat's TF1 table",
    ),
    # `from tensorflow.distribute import CrossDeviceOps` imports TensorFlow's own package of that name,
    # which is not the API module tf.distribute
    "tensorflow.contrib.distribute.CrossDeviceOps": "tf-upgrade writes an import of a module that lacks the name",
    # tensorflow-estimator's tpu_estimator module (contrib's tpu_estimator forwarded to it) imports six's
    # xrange; the python2 rule renames any imported `xrange` to `range`, which that module lacks
    "tensorflow.contrib.tpu.python.tpu.tpu_estimator.xrange": "python2 renames an imported xrange",
    # contrib-slim and tf-upgrade claim the same name and both rewrite it: tf.recompute_grad wins
    "tensorflow.contrib.layers.recompute_grad": "contrib-slim and tf-upgrade both rewrite it",
    # tf-upgrade rewrites their calls to TF 2's summary functions (a step, record_if's condition, TF 2's
    # parameters); uai-run serves compat.summary's functions, which take TF1's calls and call the same ones
    **dict.fromkeys(
        (
            f"tensorflow.contrib.summary.{name}"
            for name in ("audio", "generic", "histogram", "image", "scalar")
            + ("always_record_summaries", "never_record_summaries")
        ),
        "tf-upgrade rewrites the call for TF 2's function, uai-run adapts it",
    ),
}


def test_every_table_name_uai_migrate_rewrites_is_the_object_uai_run_gives():
    found = _disagreements()
    new = {name: found[name] for name in found.keys() - KNOWN.keys()}
    assert not new, "\n".join(f"{name}: {'; '.join(what)}" for name, what in sorted(new.items()))
    assert sorted(KNOWN.keys() - found.keys()) == [], "fixed: remove them from KNOWN"


@pytest.mark.parametrize(
    "statement, expected",
    [
        ("value = tf.contrib.learn.RunConfig", "compat.learn:RunConfig"),
        ("from tensorflow.contrib.learn import RunConfig as value", "compat.learn:RunConfig"),
        ("value = tf.compat.v1.contrib.layers.xavier_initializer", "compat.slim:xavier_initializer"),
        ("value = tf.contrib.tpu.TPUEstimator", f"{names.V1}:estimator.tpu.TPUEstimator"),
        ("from tensorflow.contrib.tpu import TPUEstimator as value", f"{names.V1}:estimator.tpu.TPUEstimator"),
        ("from tensorflow.contrib.tpu import RunConfig as value", f"{names.V1}:estimator.tpu.RunConfig"),
        # contrib.training's internal modules (left as errors by both tools)
        ("from tensorflow.contrib.training.python.training.hparam import HParams as value", "compat.hparams:HParams"),
        (
            "from tensorflow.contrib.training.python.training.evaluation import checkpoints_iterator as value",
            "tf_slim.training.evaluation:checkpoints_iterator",
        ),
        (
            "value = tf.contrib.training.python.training.training.create_train_op",
            "tf_slim.training.training:create_train_op",
        ),
    ],
)
def test_the_names_the_two_consumers_disagreed_on(statement, expected):
    """Each once converted by uai-migrate to another home than uai-run's, or left as an error."""
    namespace = {}
    exec(apply(f"import tensorflow as tf\n{statement}\n", *rules.RULES).module.code, namespace)  # noqa: S102
    assert namespace["value"] is names.resolve(expected)


@pytest.mark.parametrize("name", sorted(names.PRIVATE))
def test_a_private_name_tf2_renamed_or_changed_is_the_tf1_object_in_both_consumers(name):
    """compat.tf1_names.PRIVATE (framework.device.DeviceSpec is TF1's, with merge_from): tf-private's
    rewrite of each TF1 spelling is the object uai-run serves for it."""
    module, _, attr = name.rpartition(".")
    package, _, short = module.rpartition(".")
    spellings = {
        "import": f"from {module} import {attr} as value",
        "module": f"from {package} import {short} as private\nvalue = private.{attr}",
        "module import": f"import {module} as private\nvalue = private.{attr}",
    }
    expected = names.resolve(names.PRIVATE[name])
    assert _runtime(name) is expected
    for form, statement in spellings.items():
        applied = apply(f"import tensorflow as tf\n{statement}\n", *rules.RULES)
        # no longer read from the private module
        assert f"private.{attr}" not in applied.module.code and f"{module} import" not in applied.module.code, form
        namespace = {}
        exec(applied.module.code, namespace)  # noqa: S102
        assert namespace["value"] is expected, (form, applied.module.code)


def test_a_migrated_run_config_subclass_keeps_uid_and_tf_contrib_learns_arguments(tmp_path, monkeypatch):
    """cifar10_estimator's RunConfig subclass, as uai-migrate writes it, runs as under uai-run."""
    monkeypatch.delenv("TF_CONFIG", raising=False)
    source = textwrap.dedent(f"""
        import tensorflow as tf

        class RunConfig(tf.contrib.learn.RunConfig):
            pass

        config = RunConfig("grpc://m:2222", gpu_memory_fraction=0.5, model_dir={str(tmp_path)!r})
        uid = config.uid()
    """)
    namespace = {}
    exec(apply(source, *rules.RULES).module.code, namespace)  # noqa: S102
    config = namespace["config"]
    assert isinstance(config, names.resolve("compat.learn:RunConfig")) and config.master == "grpc://m:2222"
    assert f"_model_dir={str(tmp_path)!r}" in namespace["uid"]
    assert config.session_config.gpu_options.per_process_gpu_memory_fraction == 0.5
