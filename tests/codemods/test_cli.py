"""The real `python -m codemods` on temporary trees: modes, reports, exit codes, notebooks, bad files."""

import json
import os
import socket
import stat
import subprocess
import sys

from tests.support.processes import python_env
from tests.support.sources import CONTRIB, PLAIN, PY2, TF1, TF1_MIGRATED, write_tree


def test_default_shows_a_diff_and_changes_nothing(tmp_path, migrate):
    tree = write_tree(tmp_path / "src", {"train.py": TF1, "util.py": PLAIN})
    result = migrate(tree)
    assert result.returncode == 0, result.stderr
    assert "-tf.app.flags.DEFINE_integer('steps', 3, 'training steps')" in result.stdout
    assert "+flags.DEFINE_integer('steps', 3, 'training steps')" in result.stdout
    assert "2 files scanned, 1 would change" in result.stdout
    assert (tree / "train.py").read_text() == TF1


def test_write_changes_in_place_and_a_python2_file_in_the_middle_is_skipped(tmp_path, migrate):
    tree = write_tree(tmp_path / "src", {"a.py": TF1, "b_old.py": PY2, "c/d.py": TF1})
    result = migrate("--write", "--ignore", "py2-port", tree)  # without the rule that ports Python 2
    assert result.returncode == 1, result.stderr  # the Python 2 file needs a person
    assert (tree / "a.py").read_text() == TF1_MIGRATED
    assert (tree / "c/d.py").read_text() == TF1_MIGRATED
    assert (tree / "b_old.py").read_text() == PY2
    assert "b_old.py:2:" in result.stdout and "Python 2 source" in result.stdout
    assert "manual step: port this file to Python 3" in result.stdout


def test_out_writes_a_migrated_copy_with_other_files_and_modes(tmp_path, migrate):
    tree = write_tree(tmp_path / "src", {"run.py": TF1, "data/labels.txt": "cat\ndog\n", "lib/util.py": PLAIN})
    os.chmod(tree / "run.py", 0o750)
    os.chmod(tree / "data/labels.txt", 0o640)
    out = tmp_path / "migrated"
    result = migrate("--out", out, tree)
    assert result.returncode == 0, result.stderr
    assert (tree / "run.py").read_text() == TF1
    assert (out / "run.py").read_text() == TF1_MIGRATED
    assert (out / "data/labels.txt").read_text() == "cat\ndog\n"
    assert (out / "lib/util.py").read_text() == PLAIN
    assert stat.S_IMODE(os.stat(out / "run.py").st_mode) == 0o750
    assert stat.S_IMODE(os.stat(out / "data/labels.txt").st_mode) == 0o640


def test_check_exit_codes(tmp_path, migrate):
    clean = write_tree(tmp_path / "clean", {"ok.py": PLAIN, "done.py": TF1_MIGRATED})
    dirty = write_tree(tmp_path / "dirty", {"train.py": TF1})
    assert migrate("--check", clean).returncode == 0
    result = migrate("--check", dirty)
    assert result.returncode == 1
    assert (dirty / "train.py").read_text() == TF1


def test_json_report_file_and_json_stdout_agree(tmp_path, migrate):
    tree = write_tree(tmp_path / "src", {"train.py": TF1, "contrib.py": CONTRIB})
    report = tmp_path / "report.json"
    result = migrate("--report", report, "--format", "json", tree, check_json=True)
    assert result.returncode == 1  # the contrib use needs a person
    assert json.loads(report.read_text()) == result.json
    files = {os.path.basename(f["path"]): f for f in result.json["files"]}
    assert files["train.py"]["status"] == "changed" and "+flags.DEFINE_integer" in files["train.py"]["diff"]
    [error] = files["contrib.py"]["entries"]
    assert error["rule"] == "contrib-removed" and error["severity"] == "error"
    assert (error["line"], error["col"]) == (2, 5)
    assert error["manual"]
    assert result.json["summary"]["error"] == 1 and result.json["exit_code"] == 1
    # one line per file (grep-able, and written by json's C encoder)
    lines = [line for line in result.stdout.splitlines() if line.lstrip().startswith('{"path"')]
    assert sorted(json.loads(line.strip().rstrip(","))["path"] for line in lines) == sorted(
        files[n]["path"] for n in files
    )


def test_select_and_ignore_by_rule_id(tmp_path, migrate):
    tree = write_tree(tmp_path / "src", {"contrib.py": CONTRIB, "train.py": TF1})
    assert migrate("--ignore", "contrib-removed", "--check", tree).returncode == 1  # flags still change
    assert migrate("--select", "contrib-slim", "--check", tree).returncode == 0


def test_usage_errors_and_unreadable_paths_exit_2(tmp_path, migrate):
    missing = migrate(tmp_path / "nope")
    assert missing.returncode == 2 and "no such file" in missing.stderr and "Traceback" not in missing.stderr
    assert migrate("--select", "no-such-rule", tmp_path).returncode == 2
    assert migrate("--write", "--check", tmp_path).returncode == 2
    assert migrate().returncode == 2
    tree = write_tree(tmp_path / "src", {"train.py": TF1})
    # A socket named like a Python file: listed by the walk, but open() fails even for root.
    here = os.getcwd()
    os.chdir(tree)
    try:
        server = socket.socket(socket.AF_UNIX)
        server.bind("sock.py")
    finally:
        os.chdir(here)
    try:
        result = migrate(tree)
    finally:
        server.close()
    assert result.returncode == 2, result.stdout + result.stderr
    assert "cannot read" in result.stdout
    assert "+flags.DEFINE_integer" in result.stdout  # the readable file was still migrated


def test_notebook_cells_migrated_with_magics_kept(tmp_path, migrate):
    cells = [
        ["%matplotlib inline\n", "import tensorflow as tf\n", "!pip list | grep tensorflow\n"],
        ["tf.app.flags.DEFINE_integer('steps', 3, '')\n", "files = !ls\n", "FLAGS = tf.app.flags.FLAGS"],
        ["%%bash\n", "echo tf.app.flags\n"],
        ["print 'python 2 cell'\n"],
    ]
    notebook = {
        "cells": [
            {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": c} for c in cells
        ]
        + [{"cell_type": "markdown", "metadata": {}, "source": ["tf.app.flags in prose\n"]}],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path = tmp_path / "explore.ipynb"
    path.write_text(json.dumps(notebook, indent=1) + "\n")
    result = migrate("--write", path)
    assert result.returncode == 1  # the Python 2 cell is reported
    assert "explore.ipynb[cell 3]:1:" in result.stdout
    new = json.loads(path.read_text())
    sources = [c["source"] for c in new["cells"]]
    assert sources[0] == cells[0]
    # The import goes into the cell that needs it, so running cells out of order still works.
    assert sources[1] == [
        "import compat.flags as flags\n",
        "\n",
        "flags.DEFINE_integer('steps', 3, '')\n",
        "files = !ls\n",
        "FLAGS = flags.FLAGS",
    ]
    assert sources[2:] == [cells[2], cells[3], ["tf.app.flags in prose\n"]]
    assert path.read_text().startswith('{\n "cells"')  # the original indent


def test_the_pre_commit_hook_runs_uai_migrate_check_on_the_files_it_selects(tmp_path, capsys, monkeypatch):
    import re
    import tomllib

    import yaml

    from codemods import cli
    from tests.support.processes import REPO

    [hook] = yaml.safe_load(open(os.path.join(REPO, ".pre-commit-hooks.yaml")))
    assert (hook["id"], hook["language"]) == ("uai-migrate", "python")
    program, *args = hook["entry"].split()
    with open(os.path.join(REPO, "pyproject.toml"), "rb") as handle:
        assert tomllib.load(handle)["project"]["scripts"][program] == "codemods.cli:main"
    tree = write_tree(
        tmp_path / "repo",
        {
            "train.py": TF1,
            "done.py": TF1_MIGRATED,
            "docs/notes.md": TF1,
            "requirements-gpu.txt": "tensorflow-gpu==1.15.0\n",
            "docker/train.Dockerfile": "FROM tensorflow/tensorflow:2.21.0\n",
        },
    )
    monkeypatch.chdir(tree)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "_cache"))
    # as pre-commit does: the staged files its `files` pattern matches, relative to the repository
    staged = sorted(str(p.relative_to(tree)) for p in tree.rglob("*") if p.is_file())
    selected = [name for name in staged if re.search(hook["files"], name)]
    assert selected == ["docker/train.Dockerfile", "done.py", "requirements-gpu.txt", "train.py"]

    def run(names):
        try:
            return cli.main([*args, "-j1", *names])
        except SystemExit as exit_:
            return exit_.code

    assert run(selected) == 1
    out = capsys.readouterr().out
    assert "+flags.DEFINE_integer" in out and "+tensorflow[and-cuda]==2.21.0" in out
    assert (tree / "train.py").read_text() == TF1  # --check changes nothing
    assert run(["done.py", "docker/train.Dockerfile"]) == 0


def test_an_output_tree_migrated_again_keeps_its_own_record_not_the_inputs(tmp_path, cli):
    # the input is an earlier --out folder: its `.uai-migrate-out` is that run's bookkeeping, not the user's file,
    # so it is neither copied over the new folder's record (a run cut short would leave the old folder's hashes)
    # nor listed in it as a file the run wrote
    tree = write_tree(tmp_path / "src", {"run.py": TF1, "lib/util.py": PLAIN})
    first, second = tmp_path / "first", tmp_path / "second"
    assert cli("--out", first, tree)[0] == 0
    assert cli("--out", second, first)[0] == 0
    record = json.loads((second / ".uai-migrate-out").read_text())
    assert sorted(record["files"]) == ["lib/util.py", "run.py"]
    assert cli("--out", second, first)[0] == 0  # its own output: written again


def test_a_run_whose_files_are_all_in_the_cache_imports_no_libcst(tmp_path):
    # (importing libcst and the rules was half of bench/migrate_bench.py's cache-warm re-run)
    tree = write_tree(tmp_path / "src", {"a.py": TF1, "b/c.py": TF1})
    probe = "import sys\nfrom codemods import cli\ntry:\n    cli.main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
    probe += "print('libcst' in sys.modules)"
    env = python_env({"XDG_CACHE_HOME": str(tmp_path / "_cache")})
    runs = []
    for _ in range(2):
        command = [sys.executable, "-c", probe, "-j2", "--format", "json", str(tree)]
        out = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, check=True).stdout
        report, _, imported = out.rstrip().rpartition("\n")
        runs.append((json.loads(report), imported))
    (first, first_imported), (again, again_imported) = runs
    assert first["summary"]["cached"] == 0 and first["summary"]["changed"] == 2 and first_imported == "True"
    assert again["summary"]["cached"] == 2 and again_imported == "False"
    assert again["files"] == first["files"]  # (the same diffs and entries, served from the cache)
