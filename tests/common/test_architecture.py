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


# Files that read the version only to record it (no branch on it): the table generators stamp
# their tables with the TensorFlow they were derived from.
RECORDS_VERSION = {"codemods/tables/_generate.py"}


def _reads_tensorflow_version(path):
    """Does the module read TensorFlow's version (`tf.__version__`, `tensorflow.__version__`,
    or compat's private `_version`)?"""
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Attribute) and node.attr == "__version__":
            if isinstance(node.value, ast.Name) and node.value.id in ("tf", "tensorflow"):
                return True
        if any(name == "compat._version" or name.startswith("compat._version.") for name in _names_imported(node)):
            return True
    return False


def _names_imported(node):
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        return [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
    return []


def test_the_version_check_sees_each_spelling(tmp_path):
    spellings = [
        "import tensorflow as tf\nv = tf.__version__\n",
        "import tensorflow\nv = tensorflow.__version__\n",
        "from compat import _version\n",
        "import compat._version\n",
    ]
    for index, source in enumerate(spellings):
        path = tmp_path / f"m{index}.py"
        path.write_text(source)
        assert _reads_tensorflow_version(path), source
    clean = tmp_path / "clean.py"
    clean.write_text("import numpy as np\nv = np.__version__\n")
    assert not _reads_tensorflow_version(clean)


@pytest.mark.parametrize("package", UPPER)
def test_tensorflow_version_checks_live_only_in_compat(package):
    offenders = [
        str(path.relative_to(REPO))
        for path in _sources(package)
        if str(path.relative_to(REPO)) not in RECORDS_VERSION and _reads_tensorflow_version(path)
    ]
    assert offenders == []
