"""uai-migrate's options and files at their edges, found by a hostile pass (helper-76): one line and exit 2 where a
run cannot do what it was asked, before any file is written; a file's copy in --out as the run read it."""

import os
import stat
import subprocess
import sys

import pytest

from codemods._discover import Item
from codemods._migrate_file import Options, migrate
from codemods._migrate_tree import MB, RunConfig, _finish, _read
from tests.support.processes import assert_one_line_error, python_env
from tests.support.sources import TF1, TF1_MIGRATED, write_tree


def test_a_cache_inside_out_is_refused_before_the_run(tmp_path, cli):
    # the first run wrote its cache records into --out, and every later run into that folder stopped on them (--out
    # OUT: cache/...json changed since uai-migrate wrote it (or was put there by hand))
    tree = write_tree(tmp_path / "src", {"train.py": TF1})
    out = tmp_path / "out"
    code, _, err = cli("--out", out, "--cache-dir", out / "cache", tree)
    assert code == 2 and err.count("\n") == 1 and "--cache-dir" in err and "--out" in err, err
    assert not out.exists()


@pytest.mark.parametrize(
    ("cache", "problem"),
    [
        ("src/train.py", "exists and is not a folder"),  # a file of the tree
        ("/dev/null", "exists and is not a folder"),
        ("src/train.py/cache", "cannot create it"),  # under a file
    ],
)
def test_a_cache_dir_that_cannot_be_a_folder_is_refused(tmp_path, cli, cache, problem):
    # (helper-95) each ran with no cache and no word about it
    tree = write_tree(tmp_path / "src", {"train.py": TF1})
    code, out, err = cli("--cache-dir", cache, tree, cwd=tmp_path)
    assert code == 2 and err.count("\n") == 1 and f"--cache-dir {cache}: {problem}" in err, err
    assert out == "" and (tree / "train.py").read_text() == TF1


def test_a_cache_inside_the_tree_out_copies_is_refused_and_elsewhere_it_is_not_an_input(tmp_path, cli):
    # --out copied the cache's records with the tree it migrated: the output carried them (helper-95); without
    # --out they are only files beside the code, which the run does not read (records are not inputs)
    tree = write_tree(tmp_path / "src", {"train.py": TF1})
    out = tmp_path / "out"
    code, _, err = cli("--out", out, "--cache-dir", tree / "cache", tree)
    assert code == 2 and err.count("\n") == 1 and f"--cache-dir {tree / 'cache'}: lies inside {tree}" in err, err
    assert not out.exists() and not (tree / "cache").exists()
    for _ in range(2):  # the second run finds the first one's records in the tree
        code, out_text, err = cli("-q", "--cache-dir", tree / "cache", tree)
        assert code == 0 and "1 files scanned" in out_text, out_text + err
    assert any((tree / "cache").rglob("*.json"))


@pytest.mark.parametrize("source", [TF1, TF1_MIGRATED], ids=["migrated", "unchanged"])
def test_out_writes_a_file_as_it_was_read_though_deleted_since(tmp_path, source):
    # a file read, then deleted before its copy was written: --out's write read the mode of the file no longer there
    # and the copy was lost with "cannot write: [Errno 2] No such file or directory: 'big/f397.py'" (a 400-file tree,
    # four files deleted 2.5 s into the run)
    tree = write_tree(tmp_path / "src", {"train.py": source})
    os.chmod(tree / "train.py", 0o750)
    item = Item(str(tree / "train.py"), str(tree / "train.py"), "train.py", "python")
    data, snapshot = _read(item, MB)
    outcome = migrate("python", data, Options())
    (tree / "train.py").unlink()
    config = RunConfig([str(tree)], Options(), mode="out", out=str(tmp_path / "out"))
    result = _finish(item, data, snapshot, outcome, config, False)
    assert result.status in ("changed", "unchanged") and all(e.severity != "error" for e in result.entries), result
    written = tmp_path / "out" / "train.py"
    assert written.read_bytes() == (outcome.new or data) and stat.S_IMODE(os.stat(written).st_mode) == 0o750


def test_a_file_name_holding_control_characters_is_shown_escaped_one_line_per_entry(tmp_path, cli):
    # a tree's file named with a newline split an entry over two lines of the text report, and one named with an
    # escape sequence wrote it to the terminal (ESC [2J clears the screen)
    tree = write_tree(tmp_path / "src", {"a\nb.py": TF1, "c\x1b[2J.py": TF1})
    code, out, _ = cli(tree)  # (a diff: its headers name the files)
    headers = [line for line in out.splitlines() if line.startswith(("--- ", "+++ "))]
    assert code == 0 and "\x1b" not in out and len(headers) == 4, out
    assert all(line.endswith(".py") for line in headers), headers
    code, out, _ = cli("--write", tree)
    assert code == 0 and "\x1b" not in out, out
    entries = [line for line in out.splitlines() if ": info " in line]
    assert len(entries) == 4 and all(line.startswith(str(tree)) for line in entries), out
    assert {"a\\nb.py", "c\\x1b[2J.py"} <= {line.split(":")[0].rsplit("/", 1)[1] for line in entries}, out


@pytest.mark.parametrize("args", [["--help"], ["--out", "ported", "src"]])
def test_without_the_migrate_extra_it_says_the_pip_line_in_one_line(tmp_path, args):
    # a user who installed the wheel without [migrate]: its libraries (libcst first) are not there to import
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "train.py").write_text("import tensorflow as tf\nx = tf.placeholder(tf.float32)\n")
    blocked = f"import sys; sys.modules['libcst'] = None; from codemods.cli import main; sys.exit(main({args!r}))"
    result = subprocess.run(
        [sys.executable, "-c", blocked], cwd=tmp_path, env=python_env(), capture_output=True, text=True
    )
    assert_one_line_error(
        result, 'uai-migrate needs libcst, which this environment lacks: pip install "uai-compat[migrate]"'
    )
    assert not (tmp_path / "ported").exists()
