"""uai-migrate's `import <contrib internal module> as m` gives tf-slim's module, which the import it writes must reach.

compat/tf1_names.py PACKAGES moves contrib's internal packages below tf-slim's (`tensorflow.contrib.framework.python.ops`
-> `tf_slim.ops`). `import tf_slim.ops.variables as v` raises ImportError: `import a.b.c as m` reads attribute `b` of
`a`, and tf_slim's `__init__` rebinds `tf_slim.ops`, `tf_slim.layers` and `tf_slim.training` (to TensorFlow's ops
module and to its own submodules). So each submodule of each PACKAGES target below `tf_slim.` is migrated from its
contrib spelling, the written import is run, and it must bind the module `importlib.import_module` gives.
"""

import importlib
import pkgutil

import pytest

from codemods import rules
from codemods.rules.slim import SlimRule
from compat import tf1_names as names
from tests.support.rule_test import RuleTest, apply

# {contrib module: the tf-slim module PACKAGES moves it to}, for every submodule of a PACKAGES target below tf_slim.
SUBMODULES = {
    f"{old}.{info.name}": f"{new}.{info.name}"
    for old, new in names.PACKAGES.items()
    if new.startswith("tf_slim.")
    for info in pkgutil.iter_modules(importlib.import_module(new).__path__)
    if not info.name.startswith("_") and not info.name.endswith("_test")
}


def _migrated(source: str) -> tuple[str, dict]:
    """uai-migrate's code for `source`, and the namespace running it leaves."""
    code = apply(source, *rules.RULES).module.code
    namespace: dict = {}
    exec(code, namespace)  # noqa: S102
    return code, namespace


@pytest.mark.parametrize("old", sorted(SUBMODULES))
def test_import_as_of_a_contrib_internal_module_binds_tf_slims_module(old):
    code, namespace = _migrated(f"import {old} as module\n")
    assert namespace["module"] is importlib.import_module(SUBMODULES[old]), code


def test_every_package_below_tf_slim_is_covered():
    """The parametrization above is not empty for any package (a renamed tf-slim package would drop its cases)."""
    covered = {old.rpartition(".")[0] for old in SUBMODULES}
    assert covered == {old for old, new in names.PACKAGES.items() if new.startswith("tf_slim.")}


def test_import_without_as_of_a_contrib_internal_module_is_reported_not_rewritten_to_a_failing_read():
    """`import old.module` binds `tensorflow`; the dotted read through contrib's internal path has no working
    rewrite of its head alone, so contrib-slim reports it with tf-slim's module and leaves the line."""
    old = f"{names.TF}.contrib.framework.python.ops.variables"
    applied = apply(f"import {old}\nvalue = {old}.model_variable\n", *rules.RULES)
    assert f"value = {old}.model_variable" in applied.module.code
    errors = [e for e in applied.entries if e.severity == "error"]
    assert any("tf_slim.ops.variables" in str(e) for e in errors), applied.entries


class TestContribSlimWritesATfSlimSubmoduleImportFromItsPackage(RuleTest):
    TRANSFORM = SlimRule

    def test_a_submodule_below_a_tf_slim_package_is_imported_from_the_package(self):
        before = """
            import tensorflow.contrib.framework.python.ops.variables as variables_lib
            import tensorflow.contrib.slim.python.slim.nets.resnet_v1 as resnet

            weights = variables_lib.model_variable("w", [1])
        """
        after = """
            import compat.slim
            from tf_slim.ops import variables as variables_lib
            from tf_slim.nets import resnet_v1 as resnet

            weights = variables_lib.model_variable("w", [1])
        """
        self.assertCodemod(before, after)

    def test_a_tf_slim_package_itself_and_compat_modules_keep_the_import_form(self):
        # (`tf_slim.nets` is one level below tf_slim: `import tf_slim.nets as nets` reads no rebound attribute)
        before = """
            import tensorflow.contrib.slim as slim
            import tensorflow.contrib.slim.nets as nets
        """
        after = """
            import compat.slim as slim
            import tf_slim.nets as nets
        """
        self.assertCodemod(before, after)
