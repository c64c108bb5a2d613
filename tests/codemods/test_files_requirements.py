"""requirements-pins: TF1-era pins in requirements*.txt -> the tf2 runtime's pins (strings in, strings out)."""

import codecs
import functools
import json
import os
import pathlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codemods import _migrate_tree as _runner
from codemods.files import _common, requirements
from tests.support.processes import REPO

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


@functools.cache
def _pip_session():
    from pip._internal.network.session import PipSession

    return PipSession()  # only read for local files; building one costs 0.1 s


def _pip_reads(tmp_path, data):
    """The requirements pip itself reads from a file holding `data` (its own parser: BOMs,
    continuation lines, comments and per-requirement options as pip sees them)."""
    from pip._internal.req.req_file import parse_requirements

    path = tmp_path / "requirements.txt"
    path.write_bytes(data)
    return [(r.requirement.strip(), r.options) for r in parse_requirements(str(path), session=_pip_session())]


HASH = "sha256:" + "0" * 64


def test_a_hash_on_a_continuation_line_is_reported_not_rewritten(tmp_path):
    text = f"numpy==1.16.4 --hash={HASH}\ntensorflow==1.15.0 \\\n    --hash={HASH} \\\n    --hash={HASH}\n"
    assert _pip_reads(tmp_path, text.encode())[1] == ("tensorflow==1.15.0", {"hashes": {"sha256": ["0" * 64] * 2}})
    new, [entry] = requirements.migrate_text(text)
    assert new == text
    assert (entry.line, entry.col, entry.severity) == (2, 1, "warning")
    assert "pinned by hash" in entry.message and "regenerate the hashes" in entry.manual


def test_a_continuation_as_the_last_line_is_rewritten_and_pip_still_reads_it(tmp_path):
    for text in ("numpy\ntensorflow==1.15 \\", "numpy\ntensorflow==1.15 \\\n", "tensorflow==1.15\\\n"):
        new, entries = requirements.migrate_text(text)
        assert new == text.replace("1.15", "2.21.0"), text
        assert entries[0].line == text.count("\n", 0, text.index("tensorflow")) + 1
        assert _pip_reads(tmp_path, new.encode())[-1] == ("tensorflow==2.21.0", {})
        assert requirements.parses(new.encode())


def test_a_requirement_split_over_lines_is_reported_with_the_new_pin():
    text = "tensorflow\\\n==1.15.0\n"
    new, [entry] = requirements.migrate_text(text)
    assert new == text and entry.severity == "warning" and "tensorflow==2.21.0" in entry.manual


def test_a_utf8_bom_is_read_as_pip_does_and_kept(tmp_path):
    data = codecs.BOM_UTF8 + b"tensorflow==1.15.0\n"
    outcome = requirements.migrate(data)
    assert outcome.new == codecs.BOM_UTF8 + b"tensorflow==2.21.0\n"
    assert any(e.severity == "info" and e.line == 1 and e.col == 1 for e in outcome.entries)
    assert _pip_reads(tmp_path, outcome.new) == [("tensorflow==2.21.0", {})]
    assert requirements.parses(outcome.new) and requirements.migrate(outcome.new).new is None


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_a_utf16_file_names_each_change_to_make_by_hand(tmp_path, encoding):
    # pip reads a UTF-16 file by its byte order mark; the report's diff is of UTF-8 text, so
    # uai-migrate names the change in place of writing it.
    bom = codecs.BOM_UTF16_BE if encoding.endswith("be") else b""
    data = bom + "numpy\ntensorflow-gpu==1.15.0\n".encode(encoding)
    assert _pip_reads(tmp_path, data)[1] == ("tensorflow-gpu==1.15.0", {})
    outcome = requirements.migrate(data)
    assert outcome.new is None and not outcome.skipped
    [change] = [e for e in outcome.entries if "tensorflow[and-cuda]==2.21.0" in e.message]
    assert (change.line, change.col, change.severity) == (2, 1, "warning")
    assert "UTF-16" in change.message and "UTF-8" in change.manual
    assert requirements.migrate(bom + "numpy\n".encode(encoding)) == requirements.migrate(b"numpy\n")


@pytest.mark.parametrize("text", ["tensorflow-gpu\n", "tensorflow_gpu>=1.4\n", "tensorflow-gpu[foo]  # any\n"])
def test_an_unpinned_tensorflow_gpu_moves_it_has_no_release_after_2_11(text):
    new, entries = requirements.migrate_text(text)
    assert new.startswith("tensorflow[and-cuda") and "==2.21.0" in new, new
    assert entries[0].severity == "info"
    assert requirements.migrate_text(new)[0] == new


def test_a_tensorflow_gpu_2_x_pin_it_did_release_is_left():
    assert requirements.migrate_text("tensorflow-gpu==2.11.0\n") == ("tensorflow-gpu==2.11.0\n", [])


_PIECES = st.sampled_from(
    [
        "tensorflow==1.15.0",
        "tensorflow-gpu",
        "tf_slim<1.1",
        "numpy",
        " ",
        "\\",
        "\n",
        "\r\n",
        " --hash=sha256:00",
        "  # note",
        "#",
        "-r base.txt",
        "==",
        "1.15",
        "\t",
        "\r",
        "\x0c",
        "\u2028",
        "; python_version<'4'",
        "[x]",
    ]
)


@settings(max_examples=100, deadline=None)
@given(pieces=st.lists(_PIECES, max_size=12), bom=st.booleans())
def test_pip_reads_the_same_requirements_from_the_migration_but_the_moved_pins(tmp_path_factory, pieces, bom):
    text = "".join(pieces)
    data = (codecs.BOM_UTF8 if bom else b"") + text.encode()
    folder = tmp_path_factory.mktemp("pip")
    try:
        before = _pip_reads(folder, data)
    except Exception as err:  # pip refuses the file (an unknown option): nothing to compare
        assert type(err).__module__.startswith(("pip.", "optparse")), err
        return
    outcome = requirements.migrate(data)
    new = data if outcome.new is None else outcome.new
    after = _pip_reads(folder, new)
    assert len(after) == len(before)
    for (old, old_options), (now, options) in zip(before, after, strict=True):
        assert options == old_options
        moved = _common.migrate_requirement(old, requirements.ID)
        assert now == old or (moved is not None and now == moved[0]), (old, now)
    assert requirements.migrate(new).new is None  # idempotent


def test_the_cli_diffs_writes_and_reports_a_bom_a_utf16_file_and_a_last_line_continuation(tmp_path, cli):
    files = {
        "bom/requirements.txt": codecs.BOM_UTF8 + b"tensorflow-gpu\n",
        "utf16/requirements.txt": "tensorflow==1.15.0\n".encode("utf-16"),
        "last/requirements.txt": b"numpy\ntensorflow==1.15 \\",
    }
    for name, data in files.items():
        (tmp_path / name).parent.mkdir()
        (tmp_path / name).write_bytes(data)
    code, out, _ = cli("--format", "json", tmp_path / "bom", tmp_path / "utf16", tmp_path / "last")
    assert code == 1
    report = {r["path"].split(os.sep)[-2]: r for r in json.loads(out)["files"]}
    assert "+\ufefftensorflow[and-cuda]==2.21.0" in report["bom"]["diff"]  # the diff shows the mark it keeps
    assert "+tensorflow==2.21.0 \\" in report["last"]["diff"]
    assert report["utf16"]["status"] == "unchanged" and not report["utf16"].get("diff")
    assert any("UTF-16" in e["message"] and e["manual"] for e in report["utf16"]["entries"])
    assert all((tmp_path / name).read_bytes() == data for name, data in files.items())  # diff mode
    code, _, _ = cli("--write", tmp_path)
    assert code == 1
    assert (tmp_path / "bom/requirements.txt").read_bytes() == codecs.BOM_UTF8 + b"tensorflow[and-cuda]==2.21.0\n"
    assert (tmp_path / "last/requirements.txt").read_bytes() == b"numpy\ntensorflow==2.21.0 \\"
    assert (tmp_path / "utf16/requirements.txt").read_bytes() == files["utf16/requirements.txt"]
