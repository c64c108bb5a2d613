"""The TF-range sessions (noxfile.py RANGE: tfrange-2.16 ... tfrange-2.20) install what they name and run what
exists, and the doctor says which releases they run: read as data, no TensorFlow imported."""

import ast
import os
import re

import pytest

from compat import doctor
from tests.support.processes import REPO


def _noxfile_value(name: str):
    """A literal assigned at the top of noxfile.py (nox itself is not in the test environments)."""
    tree = ast.parse(open(os.path.join(REPO, "noxfile.py")).read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id == name:
            return ast.literal_eval(node.value)
    raise AssertionError(f"noxfile.py assigns no {name}")


def _pins(name: str) -> dict[str, str]:
    with open(os.path.join(REPO, "requirements", name)) as handle:
        return dict(line.strip().split("==") for line in handle if "==" in line and not line.startswith("#"))


RANGE = _noxfile_value("RANGE")


def test_the_range_lies_between_the_suites_releases_and_the_doctor_names_it():
    releases = [tuple(int(part) for part in release.split(".")) for release in RANGE]
    assert releases == sorted(releases) and min(doctor.TESTED) < releases[0] and releases[-1] < max(doctor.TESTED)
    assert tuple(releases) == doctor.RANGE


@pytest.mark.parametrize("release", RANGE)
def test_each_release_pins_its_tensorflow_and_the_tf_keras_of_the_same_minor(release):
    pins, nodeps = _pins(f"tf{release}.txt"), _pins(f"tf{release}-nodeps.txt")
    assert pins["tensorflow-cpu"].startswith(release + ".") and nodeps["tf-keras"].startswith(release + ".")
    assert nodeps["tensorflow-estimator"] == doctor.ESTIMATOR_LAST
    # the runtime pins are the tf2 environment's (requirements/tfrange.txt)
    assert _pins("tfrange.txt")["tf-slim"] == _pins("tf2.txt")["tf-slim"] == doctor.TF_SLIM_LAST


@pytest.mark.parametrize("release", RANGE)
def test_the_doctor_says_the_range_smoke_runs_the_release(release):
    versions = {"tensorflow-cpu": _pins(f"tf{release}.txt")["tensorflow-cpu"]}
    (finding,) = [f for f in doctor.diagnose(doctor.Environment(versions=versions)) if f.piece == "TensorFlow"]
    assert "TF-range smoke" in finding.state and finding.fix is None, finding


def test_every_test_the_range_runs_exists():
    for entry in _noxfile_value("RANGE_SMOKE"):
        path, _, name = entry.partition("::")
        with open(os.path.join(REPO, path)) as handle:
            source = handle.read()
        assert not name or re.search(rf"^def {re.escape(name)}\(", source, re.MULTILINE), entry


def test_the_files_only_one_environment_runs_exist_and_import_no_tensorflow():
    """noxfile.py TF_FREE: files only TF_FREE_RUN_IN runs since no TensorFlow enters their behaviour (a rename would
    run a file twice again; a TensorFlow import would make it the TF version's)."""
    assert _noxfile_value("TF_FREE_RUN_IN") in _noxfile_value("SUITES")
    tensorflow = {"tensorflow", "tf_keras", "keras", "tf_slim", "tensorflow_estimator"}
    for path in _noxfile_value("TF_FREE"):
        with open(os.path.join(REPO, path)) as handle:
            tree = ast.parse(handle.read())
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        assert not {name.partition(".")[0] for name in imported} & tensorflow, (path, imported)
