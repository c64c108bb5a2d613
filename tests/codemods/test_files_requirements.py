"""requirements-pins: TF1-era pins in requirements*.txt -> the tf2 runtime's pins (strings in, strings out)."""

import pathlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from codemods import _runner
from codemods.files import _common, requirements
from tests.conftest import REPO

CASES = {
    "tensorflow pin": ("tensorflow==1.15.0\n", "tensorflow==2.21.0\n"),
    "gpu, comment kept": ("tensorflow-gpu==1.14.0  # GPU nodes\n", "tensorflow[and-cuda]==2.21.0  # GPU nodes\n"),
    "range and marker": (
        'tensorflow-cpu>=1.13,<2.1; sys_platform == "linux"\n',
        'tensorflow-cpu==2.21.0; sys_platform == "linux"\n',
    ),
    "2.0": ("tensorflow==2.0.1\n", "tensorflow==2.21.0\n"),
    "tf-slim": ("numpy==1.16.4\ntf_slim==1.0\n", "numpy==1.16.4\ntf-slim==1.1.0\n"),
    "no final newline": ("tensorflow~=1.15.0", "tensorflow==2.21.0"),
}
UNCHANGED = {
    "unpinned": "tensorflow\ntf-slim\n",
    "admits the runtime": "tensorflow>=1.15\n",
    "a TF2 pin": "tensorflow==2.15.0\n",
    "other packages, options, includes": "-r base.txt\n--index-url https://example.invalid/simple\nnumpy==1.16\n",
    "a comment": "# tensorflow==1.15.0 was here\n",
    "a URL": "tensorflow @ https://example.invalid/tensorflow-1.15.0-cp37-none-any.whl\n",
}


@pytest.mark.parametrize("case", CASES)
def test_tf1_era_pins_move_to_the_runtime(case):
    before, after = CASES[case]
    new, entries = requirements.migrate_text(before)
    assert new == after
    assert entries and all(e.rule == requirements.ID and e.line >= 1 for e in entries)
    assert requirements.parses(new.encode())


@pytest.mark.parametrize("case", UNCHANGED)
def test_must_not_change(case):
    text = UNCHANGED[case]
    assert requirements.migrate_text(text) == (text, [])


def test_a_moved_tensorflow_names_the_no_deps_step_unless_tf_keras_is_there():
    _, entries = requirements.migrate_text("tensorflow==1.15.0\n")
    [warning] = [e for e in entries if e.severity == "warning"]
    assert _common.NO_DEPS_COMMAND in warning.manual
    _, entries = requirements.migrate_text("tensorflow==1.15.0\ntf-keras==2.21.0\n")
    assert all(e.severity == "info" for e in entries)


def test_estimator_pin_moves_and_says_it_needs_no_deps():
    new, entries = requirements.migrate_text("tensorflow-estimator==1.15.1\n")
    assert new == "tensorflow-estimator==2.15.0\n"
    assert any(e.severity == "warning" and "--no-deps" in e.manual for e in entries)


def test_a_hash_pinned_line_is_reported_not_rewritten():
    text = "tensorflow==1.15.5 --hash=sha256:0123\n"
    new, [entry] = requirements.migrate_text(text)
    assert new == text
    assert entry.severity == "warning" and "regenerate the hashes" in entry.manual


def _pins(path):
    found = {}
    for _, line, start, end in requirements._lines(pathlib.Path(REPO, path).read_text()):
        requirement = _common.parse_requirement(line[start:end])
        if requirement:
            found[requirement.name] = str(requirement.specifier).lstrip("=")
    return found


def test_the_runtime_pins_are_the_tf2_environment_s():
    pins = {**_pins("requirements/tf2.txt"), **_pins("requirements/tf2-nodeps.txt")}
    assert _common.RUNTIME["tensorflow"] == pins["tensorflow-cpu"]
    for name in ("tf-slim", "tf-keras", "tensorflow-estimator"):
        assert _common.RUNTIME[name] == pins[name], name
    assert set(_common.NO_DEPS) == set(_pins("requirements/tf2-nodeps.txt"))


def test_the_runner_reads_back_requirements_with_the_same_parser():
    assert _runner._parses("requirements", b"tensorflow==2.21.0\n-r x.txt\n")
    assert not _runner._parses("requirements", b"tensorflow[gpu==1.0\n")


@given(
    name=st.sampled_from(_common.TENSORFLOW),
    minor=st.integers(0, 15),
    patch=st.integers(0, 5),
    op=st.sampled_from(["==", "~=", "<=", "==", "<"]),
    comment=st.sampled_from(["", "  # pinned"]),
)
def test_every_tf1_pin_moves_once_and_the_result_stays(name, minor, patch, op, comment):
    if op == "<" and (minor, patch) == (0, 0):
        op = "=="  # <1.0.0 admits no TensorFlow release
    text = f"{name}{op}1.{minor}.{patch}{comment}\n"
    new, entries = requirements.migrate_text(text)
    assert new.split("==")[1].startswith(_common.RUNTIME["tensorflow"]) and new.endswith(f"{comment}\n")
    assert requirements.parses(new.encode())
    assert requirements.migrate_text(new)[0] == new  # idempotent


@given(minor=st.integers(1, 40), patch=st.integers(0, 9), name=st.sampled_from(_common.TENSORFLOW))
def test_tf2_pins_from_2_1_on_are_left(minor, patch, name):
    text = f"{name}=={2}.{minor}.{patch}\n"
    assert requirements.migrate_text(text) == (text, [])


def test_not_utf8_is_an_error_entry_not_a_crash():
    outcome = requirements.migrate("tensorflow==1.15.0  # caf\xe9\n".encode("latin-1"), None)
    assert outcome.skipped and outcome.entries[0].severity == "error" and "UTF-8" in outcome.entries[0].message
