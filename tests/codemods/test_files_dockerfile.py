"""docker-image: FROM lines on TF 1.x / 2.0 images and TF1-era pins in RUN pip install (strings in, strings out)."""

import codecs
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from codemods import _migrate_tree as _runner
from codemods._report import Outcome
from codemods.files import dockerfile, requirements
from tests.support.processes import REPO
from tests.support.sources import PY2, TF1, TF1_MIGRATED, write_tree

CASES = {
    "gpu py3": ("FROM tensorflow/tensorflow:1.15.5-gpu-py3\n", "FROM tensorflow/tensorflow:2.21.0-gpu\n"),
    "platform, stage name, registry": (
        "FROM --platform=linux/amd64 docker.io/tensorflow/tensorflow:1.14.0-py3-jupyter AS train\n",
        "FROM --platform=linux/amd64 docker.io/tensorflow/tensorflow:2.21.0-jupyter AS train\n",
    ),
    "2.0": ("FROM tensorflow/tensorflow:2.0.0\n", "FROM tensorflow/tensorflow:2.21.0\n"),
    "pip pins in RUN, quoted where the shell would glob": (
        "FROM python:3.11-slim\nRUN pip install --no-cache-dir tensorflow-gpu==1.15.0 \\\n    'tf_slim==1.0' numpy\n",
        'FROM python:3.11-slim\nRUN pip install --no-cache-dir "tensorflow[and-cuda]==2.21.0" \\\n'
        "    'tf-slim==1.1.0' numpy\n",
    ),
    # tensorflow-gpu has no release after 2.11 (2.12 is a package that refuses to install)
    # docker reads an instruction whose continuation runs into the end of the file
    "a continuation as the last line": (
        "FROM tensorflow/tensorflow:1.15.0 \\\n  AS base\nRUN pip install numpy \\\n    tf_slim==1.0 \\",
        "FROM tensorflow/tensorflow:2.21.0 \\\n  AS base\nRUN pip install numpy \\\n    tf-slim==1.1.0 \\",
    ),
    "unpinned tensorflow-gpu": (
        "FROM python:3.11-slim\nRUN pip install -U tensorflow-gpu 'tensorflow_gpu[x]' && pip check\n",
        "FROM python:3.11-slim\nRUN pip install -U \"tensorflow[and-cuda]==2.21.0\" 'tensorflow[and-cuda,x]==2.21.0' && pip check\n",
    ),
}
UNCHANGED = {
    "current image": "FROM tensorflow/tensorflow:2.21.0-gpu\nRUN pip install tf-keras==2.21.0\n",
    "latest": "FROM tensorflow/tensorflow\n",
    "not TensorFlow": "FROM python:3.7\nRUN pip install numpy==1.16\n",
    "a comment": "FROM python:3.11-slim\n# tensorflow/tensorflow:1.15.0 was the base\n",
    "a wheel of tensorflow-gpu by URL": "FROM python:3.7\nRUN pip install https://x.invalid/tensorflow_gpu-1.15.0.whl\n",
    "conda's = pin (not pip's)": "FROM python:3.7\nRUN conda install -y tensorflow-gpu=1.15 && pip install numpy\n",
    "tensorflow-gpu-like names": "FROM python:3.7\nRUN pip install tensorflow-gpu-estimator tensorflow-gpu.tar.gz\n",
}
UNKNOWN = {
    "another registry's TF1 image": "FROM nvcr.io/nvidia/tensorflow:20.01-tf1-py3\n",
    "a devel tag": "FROM tensorflow/tensorflow:1.15.0-devel-gpu-py3\n",
    "a digest": "FROM tensorflow/tensorflow:1.15.0@sha256:" + "0" * 64 + "\n",
    "a build argument": "ARG TF=1.15.0\nFROM tensorflow/tensorflow:${TF}-py3\n",
}


@pytest.mark.parametrize("case", CASES)
def test_tf1_era_images_and_pins_move_to_the_runtime(case):
    before, after = CASES[case]
    new, entries = dockerfile.migrate_text(before)
    assert new == after
    assert entries and all(e.rule == dockerfile.ID for e in entries)
    assert dockerfile.parses(new.encode())


@pytest.mark.parametrize("case", UNCHANGED)
def test_must_not_change(case):
    text = UNCHANGED[case]
    assert dockerfile.migrate_text(text) == (text, [])


@pytest.mark.parametrize("case", UNKNOWN)
def test_unknown_tensorflow_bases_are_reported_not_guessed(case):
    text = UNKNOWN[case]
    new, [entry] = dockerfile.migrate_text(text)
    assert new == text
    assert entry.severity == "warning" and entry.manual and "left as it is" in entry.message
    assert entry.line == text.count("\n")  # the FROM line


def test_a_moved_base_names_the_no_deps_step_at_the_from_line():
    _, entries = dockerfile.migrate_text("FROM python:3.11\nFROM tensorflow/tensorflow:1.15.0\n")
    [warning] = [e for e in entries if e.severity == "warning"]
    assert (warning.line, warning.col) == (2, 6) and "--no-deps" in warning.manual


def test_the_runner_reads_back_dockerfiles_with_the_same_parser():
    assert _runner._parses("dockerfile", b"FROM python:3.11-slim\nRUN true\n")
    assert not _runner._parses("dockerfile", b"FROM\nRUN true\n")
    assert not _runner._parses("dockerfile", b"FROMM python\n")
    # a migration that no longer parses is never written: the file is reported and left
    checked = _runner._checked("dockerfile", b"FROM python:3.11\n", Outcome(b"FROM\n", []))
    assert checked.new is None and checked.skipped and checked.entries[0].severity == "error"


def test_the_cli_finds_migrates_and_selects_dockerfiles_and_requirements_by_name(tmp_path, cli):
    image, pins = "FROM tensorflow/tensorflow:1.15.0\n", "tensorflow==1.15.0\n"
    names = ("Dockerfile", "Dockerfile.train", "gpu.Dockerfile", "requirements-dev.txt", "env/requirements.txt")
    tree = write_tree(
        tmp_path / "src",
        {
            **{n: pins if "requirements" in n else image for n in names},
            "notes.txt": pins,
            "train.py": TF1,
            "old.py": PY2,
        },
    )
    code, out, _ = cli("--select", "requirements-pins", "--write", tree)
    assert code == 1, out  # the no-deps step is reported
    assert "old.py" not in out  # no code rule selected: the Python 2 file is not even parsed
    for name in ("requirements-dev.txt", "env/requirements.txt"):
        assert (tree / name).read_text() == "tensorflow==2.21.0\n", name
    assert (tree / "Dockerfile").read_text() == image and (tree / "train.py").read_text() == TF1
    code, out, _ = cli("--ignore", "requirements-pins", "--ignore", "py2-port", "--write", tree)
    assert code == 1, out
    for name in ("Dockerfile", "Dockerfile.train", "gpu.Dockerfile"):
        assert (tree / name).read_text() == "FROM tensorflow/tensorflow:2.21.0\n", name
    assert (tree / "notes.txt").read_text() == pins
    assert (tree / "train.py").read_text() == TF1_MIGRATED


def test_the_project_s_own_images_are_left_as_they_are():
    for env in ("tf1", "tf2"):
        text = open(os.path.join(REPO, "docker", f"{env}.Dockerfile")).read()
        assert dockerfile.migrate_text(text) == (text, [])


@given(
    minor=st.integers(0, 15),
    patch=st.integers(0, 5),
    flavours=st.lists(st.sampled_from(["gpu", "py3", "jupyter"]), unique=True),
)
def test_every_official_tf1_tag_moves_to_the_runtime_keeping_gpu_and_jupyter(minor, patch, flavours):
    text = f"FROM tensorflow/tensorflow:{'-'.join([f'1.{minor}.{patch}', *flavours])}\n"
    new, entries = dockerfile.migrate_text(text)
    kept = [f for f in ("gpu", "jupyter") if f in flavours]
    assert new == f"FROM tensorflow/tensorflow:{'-'.join(['2.21.0', *kept])}\n"
    assert dockerfile.migrate_text(new) == (new, [])  # idempotent


_PIECES = st.sampled_from(
    [
        "FROM ",
        "RUN ",
        "pip install ",
        "tensorflow==1.15 ",
        "tensorflow/tensorflow:1.15.0-gpu-py3",
        "\\\n",
        "\n",
        " ",
        "# ",
        " AS b",
        "--platform=x ",
        "'",
        '"',
        "[",
        "@sha256:0",
        ":",
        "tf-slim<1",
        "\r",
        "\t",
        "ARG ",
        "${X}",
        "--hash=x",
        "-r ",
        ";",
        "\x00",
        "\u00e9",
        "ENTRYPOINT [",
        "ONBUILD RUN ",
    ]
)


@given(st.lists(_PIECES, max_size=30).map("".join))
def test_any_text_migrates_without_raising_still_parses_and_is_idempotent(text):
    for module in (dockerfile, requirements):
        new, _ = module.migrate_text(text)
        if module.parses(text.encode()):
            assert module.parses(new.encode())
        assert module.migrate_text(new)[0] == new


def test_a_utf8_bom_is_read_as_docker_does_and_kept():
    data = codecs.BOM_UTF8 + b"FROM tensorflow/tensorflow:1.15.0-py3\n"
    outcome = dockerfile.migrate(data)
    assert outcome.new == codecs.BOM_UTF8 + b"FROM tensorflow/tensorflow:2.21.0\n"
    assert any(e.severity == "info" and (e.line, e.col) == (1, 6) for e in outcome.entries)
    assert dockerfile.parses(outcome.new) and dockerfile.migrate(outcome.new).new is None
