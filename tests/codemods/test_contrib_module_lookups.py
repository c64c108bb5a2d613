"""A tf.contrib module of compat/tf1_names.py MODULES finds its names where its targets hold them.

tf-slim's `tf_slim.training` package exports nothing (its `__init__` is empty): tf.contrib.training's functions
are in `tf_slim.training.training` and `tf_slim.training.evaluation`. Every target must export names of its own,
and each name TF 1.15's module exported (tests/common/golden/tf115_signatures.json) that a library target's
package lists in a submodule's `__all__` must be served: by uai-run's face and, through uai-migrate's rewrite, as
the very same object.
"""

import importlib
import inspect
import json
import pkgutil
import textwrap
import types

import pytest

from codemods import rules
from codemods.rules import _tf as rules_tf
from compat import tf1_names as names
from tests.support.goldens import tf115_values
from tests.support.processes import run_module
from tests.support.rule_test import apply
from uai_run import _tf1_modules

CONTRIB_MODULES = sorted(name for name in names.MODULES if name.startswith(f"{names.TF}.contrib."))
# tf.contrib.training's names tf-slim kept: {name: the tf-slim module whose `__all__` lists it}
TRAINING = {
    **dict.fromkeys(
        "add_gradients_summaries clip_gradient_norms clip_gradient_norms_fn create_train_op multiply_gradients "
        "train".split(),
        "tf_slim.training.training",
    ),
    **dict.fromkeys(
        "StopAfterNEvalsHook SummaryAtEndHook checkpoints_iterator evaluate_once evaluate_repeatedly "
        "get_or_create_eval_step wait_for_new_checkpoint".split(),
        "tf_slim.training.evaluation",
    ),
}

# TF 1.15's modules below contrib.training's internal package whose names tf-slim or compat kept (the `__all__` of
# training.py and evaluation.py; hparam.py had none, HParams is its class): {module: {name: the object's target}}
_INTERNAL = f"{names.TF}.contrib.training.python.training"
INTERNAL_TRAINING = {
    **{
        f"{_INTERNAL}.{module}": {n: f"{home}:{n}" for n, home in TRAINING.items() if home.endswith(f".{module}")}
        for module in ("training", "evaluation")
    },
    f"{_INTERNAL}.hparam": {"HParams": names.SYMBOLS[f"{names.TF}.contrib.training.HParams"]},
}


def _tf115_names(module: str) -> list[str]:
    """The functions and classes TF 1.15's `module` exported."""
    prefix = module + "."
    values = tf115_values("tf115_signatures.json")
    return sorted(n[len(prefix) :] for n in values if n.startswith(prefix) and "." not in n[len(prefix) :])


def _exports(module: types.ModuleType) -> set[str]:
    """Public names of `module` that are not modules."""
    return {n for n in dir(module) if not n.startswith("_") and not inspect.ismodule(getattr(module, n))}


def _submodule_lists(package: types.ModuleType) -> set[str]:
    """The names the `__all__` of a library package's submodules list (tf-slim's tests, which need nose, aside)."""
    found: set[str] = set()
    for info in pkgutil.iter_modules(getattr(package, "__path__", ())):
        if not info.name.startswith("_") and not info.name.endswith("_test"):
            found.update(getattr(importlib.import_module(f"{package.__name__}.{info.name}"), "__all__", ()))
    return found


@pytest.mark.parametrize("module", CONTRIB_MODULES)
def test_every_target_of_a_contrib_module_exports_names_of_its_own(module):
    empty = [target for target, value in _tf1_modules.Face(module)._targets() if not _exports(value)]
    assert not empty, f"{module}: targets that export nothing (their names are in submodules): {empty}"


@pytest.mark.parametrize("module", CONTRIB_MODULES)
def test_the_tf115_names_a_library_target_holds_are_served(module):
    face = _tf1_modules.Face(module)
    held: set[str] = set()
    for target, value in face._targets():
        if not target.startswith(names.TF):  # tf-slim's and compat's packages (TF's own: the derived tables)
            held |= _exports(value) | _submodule_lists(value)
    unserved = [name for name in _tf115_names(module) if name in held and not hasattr(face, name)]
    assert not unserved, f"{module}: {unserved}"


@pytest.fixture(scope="module")
def migrated() -> dict:
    """{(name, spelling): the object uai-migrate's rewrite of one program reading every TRAINING name gives}."""
    spellings = {
        "attribute": "tf.contrib.training.{name}",
        "tf.compat.v1 attribute": "tf.compat.v1.contrib.training.{name}",
        "import": "from tensorflow.contrib.training import {name} as {var}",
        "module alias": "{var} = contrib_training.{name}",
    }
    lines, wanted = ["import tensorflow as tf", "import tensorflow.contrib.training as contrib_training"], {}
    for name in sorted(TRAINING):
        for spelling, form in spellings.items():
            var = f"v{len(wanted)}"
            wanted[var] = (name, spelling)
            line = form.format(name=name, var=var)
            lines.append(line if " import " in line or line.startswith(var) else f"{var} = {line}")
    applied = apply("\n".join(lines) + "\n", *rules.RULES)
    namespace: dict = {}
    exec(applied.module.code, namespace)  # noqa: S102
    return {key: namespace[var] for var, key in wanted.items()}


@pytest.mark.parametrize("name", sorted(TRAINING))
def test_uai_run_and_uai_migrate_give_tf_slims_object_for_a_contrib_training_name(name, migrated):
    """tf-slim's object (uai-run's face reads it, uai-migrate rewrites to it), tf.train.checkpoints_iterator
    included: TF 2.21's asks timeout_fn after every checkpoint, tf-slim's (TF 1.15's code) after a timeout only."""
    expected = getattr(importlib.import_module(TRAINING[name]), name)
    assert getattr(_tf1_modules.Face(f"{names.TF}.contrib.training"), name) is expected
    for spelling in ("attribute", "tf.compat.v1 attribute", "import", "module alias"):
        assert migrated[name, spelling] is expected, spelling


def test_tf_contrib_layers_summaries_is_the_contrib_layers_module_not_slims():
    """TF 1.15's tf.contrib.layers.summaries was contrib/layers/python/layers/summaries.py (summarize_tensor ...),
    which PACKAGES moves to tf_slim.layers.summaries; compat.slim's own `summaries` is tf_slim.summaries (contrib.slim's
    module of that name, without summarize_tensor). Both consumers give the contrib.layers one, in every spelling."""
    expected = importlib.import_module(str(names.move_package(f"{names.TF}.contrib.layers.python.layers.summaries")))
    assert _tf1_modules.Face(f"{names.TF}.contrib.layers").summaries is expected
    source = """
        import tensorflow as tf
        from tensorflow.contrib.layers import summaries as imported

        attribute = tf.contrib.layers.summaries
        alias = tf.contrib.layers.summaries
        function = tf.contrib.layers.summaries.summarize_tensor
        called = alias.summarize_activations
    """
    namespace: dict = {}
    exec(apply(textwrap.dedent(source), *rules.RULES).module.code, namespace)  # noqa: S102
    assert namespace["imported"] is namespace["attribute"] is namespace["alias"] is expected
    assert namespace["function"] is expected.summarize_tensor and namespace["called"] is expected.summarize_activations


def test_tf_contrib_framework_nest_is_tensorflows_nest_module():
    """TF 1.15's tf.contrib.framework.nest was tensorflow.python.util.nest (map_structure_up_to, flatten_up_to ... with
    tf.nest's five), which TF 2 still ships; its is_sequence is is_nested now (compat.tf1_names.PRIVATE's). uai-run
    serves each as that module's, and uai-migrate's rewrites (tf_upgrade_v2's tf.nest five) give the same objects."""
    nest = importlib.import_module("tensorflow.python.util.nest")
    face = _tf1_modules.Face(f"{names.TF}.contrib.framework.nest")
    public = [n for n in dir(nest) if not n.startswith("_") and callable(getattr(nest, n))]
    assert [n for n in public if getattr(face, n, None) is not getattr(nest, n)] == []
    assert face.is_sequence is names.resolve(names.PRIVATE["tensorflow.python.util.nest.is_sequence"])
    lines = ["import tensorflow as tf"] + [f"{n} = tf.contrib.framework.nest.{n}" for n in ("map_structure", "flatten")]
    namespace: dict = {}
    exec(apply("\n".join(lines) + "\n", *rules.RULES).module.code, namespace)  # noqa: S102
    assert namespace["map_structure"] is nest.map_structure and namespace["flatten"] is nest.flatten


def test_contrib_learns_mnist_reader_is_the_tutorials_one():
    """TF 1.15's tensorflow.examples.tutorials.mnist.input_data.read_data_sets was contrib.learn's datasets.mnist's
    (input_data imported it): both its contrib paths are the module compat serves for input_data, in both tools."""
    expected = importlib.import_module(str(names.move_package(f"{names.TF}.examples.tutorials.mnist.input_data")))
    internal = f"{names.TF}.contrib.learn.python.learn.datasets"
    source = f"""
        import tensorflow as tf
        from tensorflow.contrib.learn.datasets import mnist as public
        from {internal}.mnist import read_data_sets, DataSet, dense_to_one_hot
        from {internal} import mnist as internal

        attribute = tf.contrib.learn.datasets.mnist.read_data_sets
        one_hot = tf.contrib.learn.datasets.mnist.dense_to_one_hot
    """
    namespace: dict = {}
    exec(apply(textwrap.dedent(source), *rules.RULES).module.code, namespace)  # noqa: S102
    assert namespace["public"] is namespace["internal"] is expected
    assert namespace["attribute"] is namespace["read_data_sets"] is expected.read_data_sets
    assert namespace["DataSet"] is expected.DataSet
    assert namespace["one_hot"] is namespace["dense_to_one_hot"] is expected.dense_to_one_hot
    face = _tf1_modules.Face(f"{names.TF}.contrib.learn.datasets")
    assert face.mnist.read_data_sets is expected.read_data_sets
    assert face.mnist.dense_to_one_hot is expected.dense_to_one_hot


def test_contrib_trainings_internal_modules_are_served_by_both_tools_as_the_same_objects():
    """`from tensorflow.contrib.training.python.training.evaluation import checkpoints_iterator`, `import
    ...hparam as hparam` and the attribute chains: uai-run's face and uai-migrate's rewrite give tf-slim's and
    compat's objects, those of the public contrib.training."""
    lines, expected = ["import tensorflow as tf"], {}
    for module, found in INTERNAL_TRAINING.items():
        alias = f"m{len(expected)}"
        lines.append(f"import {module} as {alias}")
        for name, target in sorted(found.items()):
            assert getattr(_tf1_modules.Face(module), name) is names.resolve(target), (module, name)
            for statement in (
                f"from {module} import {name} as {{var}}",
                f"{{var}} = {alias}.{name}",
                f"{{var}} = tf.{module[len(names.TF) + 1 :]}.{name}",
            ):
                var = f"v{len(expected)}"
                expected[var] = (statement, names.resolve(target))
                lines.append(statement.format(var=var))
    code = apply("\n".join(lines) + "\n", *rules.RULES).module.code
    namespace: dict = {}
    exec(code, namespace)  # noqa: S102
    wrong = [statement for var, (statement, value) in expected.items() if namespace[var] is not value]
    assert not wrong, code


def test_uai_run_imports_contrib_trainings_internal_modules(tmp_path):
    """The import forms through uai-run's finder (a real process): each name is the object of its target."""
    program = ["import importlib, json", "import compat"]
    checks = []
    for number, (module, found) in enumerate(INTERNAL_TRAINING.items()):
        program.append(f"import {module} as m{number}")
        for name, target in sorted(found.items()):
            home, _, attr = target.partition(":")
            program.append(f"from {module} import {name} as n{number}_{name}")
            checks.append(
                f"{module}.{name}: m{number}.{name} is n{number}_{name} is getattr(importlib.import_module({home!r}), "
                f"{attr!r})"
            )
    program.append(
        "print('RESULT', json.dumps({" + ", ".join(f"{c.split(': ')[0]!r}: {c.split(': ')[1]}" for c in checks) + "}))"
    )
    script = tmp_path / "internal_training.py"
    script.write_text("\n".join(program) + "\n")
    ran = run_module("uai_run", [str(script)], cwd=tmp_path, timeout=120)
    assert ran.returncode == 0, ran.stderr[-2000:]
    result = json.loads(next(line for line in ran.stdout.splitlines() if line.startswith("RESULT "))[7:])
    assert result and all(result.values()), result


def test_contrib_learns_datasets_base_is_compats_csv_loaders():
    """tf.contrib.learn.datasets.base (TF 1.0's iris tutorial's load_csv_with_header) and its internal path are
    compat.learn.datasets.base in both tools."""
    expected = importlib.import_module("compat.learn.datasets.base")
    internal = f"{names.TF}.contrib.learn.python.learn.datasets"
    source = f"""
        import tensorflow as tf
        from tensorflow.contrib.learn.datasets import base as public
        from {internal} import base as internal
        from {internal}.base import load_csv_without_header, Dataset
        import {internal}.base as aliased

        attribute = tf.contrib.learn.datasets.base.load_csv_with_header
    """
    namespace: dict = {}
    exec(apply(textwrap.dedent(source), *rules.RULES).module.code, namespace)  # noqa: S102
    assert namespace["public"] is namespace["internal"] is namespace["aliased"] is expected
    assert namespace["attribute"] is expected.load_csv_with_header
    assert namespace["load_csv_without_header"] is expected.load_csv_without_header
    assert namespace["Dataset"] is expected.Dataset
    assert _tf1_modules.Face(f"{names.TF}.contrib.learn.datasets").base is expected
    assert _tf1_modules.Face(internal).base is expected


# compat modules a table may point to without `__all__`: they hold a library's every name, which migrating cannot
# list without importing it (compat.slim star-imports tf_slim)
EVERY_NAME = {"compat.slim"}


def _compat_targets() -> set[str]:
    """The compat modules compat/tf1_names.py moves TF1 names or modules to (not `module:name` objects)."""
    found = {m for targets in names.MODULES.values() for m in targets}
    found |= set(names.PACKAGES.values()) | {v for v in names.SYMBOLS.values() if isinstance(v, str)}
    return {m for m in found if m.startswith("compat.") and ":" not in m}


@pytest.mark.parametrize("module", sorted(_compat_targets() - EVERY_NAME))
def test_every_compat_module_a_table_points_to_lists_its_names(module):
    """uai-migrate reads a compat module's `__all__` to know whether it holds a name (codemods/rules/_tf.py's
    compat_provides): without one, every name was taken as held, so a TF1 name compat lacks was moved silently and
    the port stopped at an ImportError where the report should have said so."""
    assert rules_tf.compat_exports(module), module


@pytest.mark.parametrize(
    "source",
    [
        "from tensorflow.contrib.learn.python.learn.datasets.mnist import _read32\n\nvalue = _read32\n",
        "from tensorflow.contrib.learn.python.learn.datasets.base import maybe_download\n\nvalue = maybe_download\n",
        "from tensorflow.contrib.learn.python.learn.monitors import ValidationMonitor\n\nvalue = ValidationMonitor\n",
    ],
)
def test_a_name_compats_module_lacks_stays_an_error_not_a_silent_move(source):
    result = apply(source, *rules.RULES)
    assert result.module.code == source
    assert [e for e in result.entries if e.severity == "error"], result.entries
