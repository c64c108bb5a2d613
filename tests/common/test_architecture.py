"""The layering the README promises: imports point downward, and only compat knows TF versions."""

import ast
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
UPPER = ("legacy_tf1", "modern_tf2", "codemods")


def _imports(path):
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module


def _sources(package):
    return sorted((REPO / package).rglob("*.py"))


@pytest.mark.parametrize("package", ["compat", "uaitrain"])
def test_compat_never_imports_the_layers_above_it(package):
    offenders = [
        f"{path.relative_to(REPO)} imports {name}"
        for path in _sources(package)
        for name in _imports(path)
        if name.split(".")[0] in UPPER
    ]
    assert offenders == []


# Files that read the version only to record it (no branch on it): the generator stamps the
# API table with the TensorFlow it was derived from.
RECORDS_VERSION = {"codemods/rules/_gen_tf_api.py"}


@pytest.mark.parametrize("package", UPPER)
def test_tensorflow_version_checks_live_only_in_compat(package):
    offenders = [
        str(path.relative_to(REPO))
        for path in _sources(package)
        if str(path.relative_to(REPO)) not in RECORDS_VERSION
        and "tf.__version__" in path.read_text() or "tensorflow.__version__" in path.read_text() or "compat._version" in path.read_text()
    ]
    assert offenders == []
