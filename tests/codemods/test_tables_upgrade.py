"""The tf_upgrade_v2 table: it matches a fresh derivation from the installed TensorFlow, and uai-migrate
is never less than tf_upgrade_v2: every name TensorFlow's upgrade tables send to a target that resolves
on this TensorFlow resolves after uai-migrate too (one in-process pass over the whole table)."""

import ast
import importlib
import importlib.util
import subprocess
import sys

import libcst as cst
import tensorflow as tf  # the tf2 suite always has it: a missing TensorFlow must fail, not skip

import compat  # noqa: F401 - tf.compat.v1.estimator and legacy Keras, as migrated scripts run with them
from codemods import tables
from codemods.rules import RULES, _shared, _tf
from codemods.tables import gen_tf_upgrade
from compat import tf1_names as names
from tests.support.processes import REPO, python_env
from tests.support.rule_test import apply


def _value(code: str) -> cst.BaseExpression:
    """The right-hand side of the module's last statement (`x = <value>`)."""
    statement = cst.parse_module(code).body[-1]
    return statement.body[0].value


def _resolves(code: str) -> bool:
    """Does `x = <dotted name>` of migrated code name an object? Its imports run (in this process, where
    they are loaded already), then the chain is read attribute by attribute."""
    value = _value(code)
    parts = []
    while isinstance(value, cst.Attribute):
        parts.append(value.attr.value)
        value = value.value
    bound: dict = {}
    # the migrated file's own import lines, and only those (not the graph-mode switches a TF1 name brings)
    imports = [node for node in ast.parse(code).body if isinstance(node, (ast.Import, ast.ImportFrom))]
    exec(compile(ast.Module(body=imports, type_ignores=[]), "<migrated>", "exec"), bound)  # noqa: S102
    if not isinstance(value, cst.Name) or value.value not in bound:
        return False
    return gen_tf_upgrade.resolve(bound[value.value], ".".join(reversed(parts))) is not None


def test_the_committed_table_is_what_the_installed_tensorflow_gives():
    committed, fresh = dict(tables.tf_upgrade()), gen_tf_upgrade.build(tf)
    committed.pop("tensorflow")  # the stamp the writer adds
    # which API modules import depends on what this process imported before: each committed one must
    modules = committed.pop("modules")
    assert gen_tf_upgrade.importable(modules) == modules
    fresh.pop("modules")
    assert committed == fresh, "run python -m codemods.tables.gen_tf_upgrade in the tf2 environment"


def _broken(olds):
    """The TF1 names whose `x = <name>` does not resolve after uai-migrate, or that a second run changes."""
    broken = []
    for old in olds:
        code = apply(f"import tensorflow as tf\nx = {old}\n", *RULES).module.code
        if not _resolves(code):
            broken.append(f"{old} -> {code.splitlines()[-1]}")
        elif apply(code, *RULES).module.code != code:
            broken.append(f"{old} -> {code.splitlines()[-1]}: a second run changes it")
    # only the imports ran: a migrated file's graph-mode switches would turn eager execution off for every later
    # test of this process
    assert tf.executing_eagerly()
    return broken


def test_every_tensorflow_0_x_name_of_the_table_resolves_after_uai_migrate():
    olds = [f"tf.{old}" for old in tables.pre_1_0()]
    assert "tf.pack" in olds and _broken(olds) == []


def test_every_name_tf_upgrade_v2_converts_resolves_after_uai_migrate():
    from tensorflow.tools.compatibility import all_renames_v2

    renames = {**all_renames_v2.symbol_renames, **all_renames_v2.manual_symbol_renames}
    converted = sorted(
        old
        for old, new in renames.items()
        if old.startswith("tf.") and new.startswith("tf.") and gen_tf_upgrade.resolve(tf, new[3:]) is not None
    )
    assert len(converted) > 900  # the table is read, not an empty list
    assert _broken(converted) == []


def test_a_call_of_every_name_the_upgrade_table_moves_to_a_function_tf_2_reads_otherwise_migrates_once():
    """tf1-api judges a call of such a function by its arguments (TF1's function kept when TF 2's would
    read them otherwise): the tf-upgrade rule's rewrite must already be that judgement, or a second
    run changes the file (hypothesis found tf.contrib.data.make_batched_features_dataset())."""
    differs = _tf.api()["differs"]
    olds = [f"tf.{old}" for old, new in _shared.upgrade_table().items() if differs.get(new)]
    assert olds  # the table is read, not an empty list
    changed = []
    for old in olds:
        for call in (f"{old}()", f"{old}(a, b=c)"):
            once = apply(f"import tensorflow as tf\nx = {call}\n", *RULES).module.code
            if apply(once, *RULES).module.code != once:
                changed.append(f"{call} -> {once.splitlines()[-1]}")
    assert changed == []


def test_the_committed_api_table_is_what_its_generator_writes(tmp_path):
    """In a process of its own: which private modules the table covers depends on what is imported."""
    out = tmp_path / "tf_api.json"
    script = (
        f"from codemods.tables import _generate, gen_tf_api\n_generate.write_table(gen_tf_api.build, {str(out)!r}, str)"
    )
    subprocess.run([sys.executable, "-c", script], cwd=REPO, env=python_env(), check=True, capture_output=True)
    assert out.read_text() == open(tables.TF_API).read(), (
        "run python -m codemods.tables.gen_tf_api in the tf2 environment"
    )


def test_every_private_name_of_compat_tf1_names_has_the_public_names_of_its_tf1_object():
    """uai-migrate rewrites compat.tf1_names.PRIVATE's names to the object uai-run serves for them."""
    private = tables.tf_api()["private"]
    for name, target in names.PRIVATE.items():
        module, _, attr = name.rpartition(".")
        tf1_object = names.resolve(target)
        public, v1 = private[module][attr]
        assert _attribute(tf, public) is tf1_object and _attribute(tf, v1) is tf1_object, name
        # still worth an entry: TF 2's private module lacks the name or holds another object under it
        assert getattr(importlib.import_module(module), attr, None) is not tf1_object, f"drop {name} from PRIVATE"


def _attribute(value, path: str):
    for part in path.split("."):
        value = getattr(value, part)
    return value


def test_the_listed_private_modules_import_and_a_missing_one_is_not_listed():
    modules = tables.tf_api()["private_modules"]
    assert len(modules) > 1000 and "tensorflow.python.training.training_ops" not in modules
    # every 50th: importing all of them takes minutes
    for name in sorted(modules)[::50]:
        assert importlib.util.find_spec(name) is not None, name
    packages = {name for name, kind in modules.items() if kind != "module"}
    assert {name.rpartition(".")[0] for name in modules if name != "tensorflow.python"} <= packages


def test_contrib_clustering_ops_and_tensor_forest_entries_name_their_closest_replacement():
    """tflearn's k-means and random forest: one error entry per contrib reference, naming what to use."""
    source = (
        "from tensorflow.contrib.factorization.python.ops import clustering_ops as c_ops\n"
        "from tensorflow.contrib.tensor_forest.python import tensor_forest\n"
        "from tensorflow.contrib.tensor_forest.python.ops import data_ops\n"
        "kmeans = c_ops.KMeans(x, 3, initial_clusters=c_ops.RANDOM_INIT, distance_metric=c_ops.COSINE_DISTANCE)\n"
        "nearest = c_ops.nearest_neighbors(x, centers, 1)\n"
        "forest = tensor_forest.RandomForestGraphs(tensor_forest.ForestHParams(num_trees=2))\n"
        "x, _, spec = data_ops.ParseDataTensorOrDict(x)\n"
    )
    applied = apply(source, *RULES)
    assert applied.module.code == source
    errors = [entry for entry in applied.entries if entry.severity == "error"]
    assert [entry.line for entry in errors] == [1, 2, 3, 4, 4, 4, 5, 6, 6, 7]
    clustering = [entry.manual for entry in errors if entry.line in (1, 4, 5)]
    assert all("tensorflow.python.ops.clustering_ops" in manual for manual in clustering)
    from tensorflow.python.ops import clustering_ops  # the named replacement has what tflearn uses

    assert all(
        hasattr(clustering_ops, name) for name in ("KMeans", "RANDOM_INIT", "COSINE_DISTANCE", "nearest_neighbors")
    )
    assert all("tfdf.keras.RandomForestModel" in entry.manual for entry in errors if entry.line == 6)
    assert all("tf.cast" in entry.manual for entry in errors if entry.line in (3, 7))
