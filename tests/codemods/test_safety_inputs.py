"""uai-migrate against hostile trees and options: no lost file, no traceback, one line for bad input.

Each test here was a break found by an adversarial pass (the run lost, corrupted or silently
skipped a file, or printed a traceback). Most run the CLI in-process (`codemods.cli.main` with
-j1): the real code path without a Python start-up per case; the process-level behaviours
(pool workers, signals) run the real `python -m codemods`.
"""

import base64
import hashlib
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from codemods import _migrate_tree as _runner
from codemods._migrate_file import Options
from tests.support.processes import python_env
from tests.support.sources import PLAIN, TF1, TF1_MIGRATED, one_line_error, snapshot, write_tree

# --- A. data loss


@pytest.mark.parametrize("case", ["same", "dot", "symlink", "file-in-its-folder", "inside", "contains"])
def test_an_out_that_is_inside_or_holds_an_input_is_refused_untouched(tmp_path, cli, case):
    tree = write_tree(tmp_path / "t", {"train.py": TF1, "plain.py": PLAIN, "notes.txt": "keep me\n"})
    os.symlink(tree, tmp_path / "link")
    before = snapshot(tmp_path)
    args, cwd = {
        "same": ((tree, "--out", tree), None),
        "dot": ((".", "--out", "."), tree),
        "symlink": ((tree, "--out", tmp_path / "link"), None),
        "file-in-its-folder": (("plain.py", "--out", "."), tree),
        "inside": ((tree, "--out", tree / "migrated"), None),
        "contains": ((tree / "train.py", "--out", tmp_path), None),
    }[case]
    code, _, err = cli(*args, cwd=cwd)
    assert code == 2 and one_line_error(err, "--out"), err
    assert snapshot(tmp_path) == before


def test_out_refuses_a_folder_holding_files_it_did_not_write(tmp_path, cli):
    tree = write_tree(tmp_path / "src", {"train.py": TF1})
    out = write_tree(tmp_path / "out", {"train.py": "mine, not a migration\n"})
    code, _, err = cli(tree, "--out", out)
    assert code == 2 and one_line_error(err, "not empty"), err
    assert (out / "train.py").read_text() == "mine, not a migration\n"
    fresh = tmp_path / "fresh"
    assert cli(tree, "--out", fresh)[0] == 0
    (tree / "train.py").write_text(TF1.replace("steps", "epochs"))
    assert cli(tree, "--out", fresh)[0] == 0, "an earlier uai-migrate output may be written again"
    assert "epochs" in (fresh / "train.py").read_text()


class _EditWhileRunning:
    """A progress display that also does something to the tree once every file was read."""

    def __init__(self, action):
        self.action, self.done = action, False

    def step(self):
        if not self.done:
            self.done = True
            self.action()


def _run_inprocess(paths, mode, progress, out=None):
    config = _runner.RunConfig(paths=[str(p) for p in paths], mode=mode, out=out and str(out), options=Options())
    return _runner.run(config, progress=progress)


def test_a_file_edited_during_a_write_run_is_left_and_reported(tmp_path):
    tree = write_tree(tmp_path / "src", {"a.py": TF1, "b.py": TF1})
    edited = "import tensorflow as tf\n# edited by hand while uai-migrate ran\n"
    report = _run_inprocess([tree], "write", _EditWhileRunning(lambda: (tree / "b.py").write_text(edited)))
    assert (tree / "a.py").read_text() == TF1_MIGRATED
    assert (tree / "b.py").read_text() == edited
    status = {os.path.basename(f.path): f.status for f in report.files}
    assert status == {"a.py": "changed", "b.py": "error"}
    assert any("changed since it was read" in e.message for e in report.all_entries())
    assert report.exit_code() == 1


def test_a_failed_write_is_reported_as_an_error_not_as_rewritten(tmp_path):
    tree = write_tree(tmp_path / "src", {"pkg/a.py": TF1, "b.py": TF1})
    out = tmp_path / "out"
    # a file where the output folder of pkg/ must go: makedirs fails as it would on a full or read-only disk
    report = _run_inprocess([tree], "out", _EditWhileRunning(lambda: write_tree(out, {"pkg": "x"})), out=out)
    status = {os.path.relpath(f.path, tree): f.status for f in report.files}
    assert status == {os.path.join("pkg", "a.py"): "error", "b.py": "changed"}
    assert report.exit_code() == 2
    assert "0 files" not in report.to_text() and "1 migrated" in report.to_text()


def test_virtual_environments_and_installed_packages_are_skipped_and_said(tmp_path, cli):
    tree = write_tree(
        tmp_path / "proj",
        {
            "train.py": TF1,
            "env/pyvenv.cfg": "home = /usr/bin\n",
            "env/lib/python3.11/site-packages/tf_slim/layers.py": TF1,
            "tools/dist-packages/old/mod.py": TF1,
            "vendor/site-packages/x.py": TF1,
        },
    )
    before = snapshot(tree)
    code, out, _ = cli("--write", "--format", "json", tree)
    assert code == 0
    after = snapshot(tree)
    assert after.pop("train.py") == TF1_MIGRATED.encode()
    before.pop("train.py")
    assert after == before
    report = json.loads(out)
    assert report["summary"]["files"] == 1 and report["summary"]["skipped_folders"] == 3
    skipped = sorted(os.path.relpath(e["path"], tree) for e in report["entries"])
    assert skipped == ["env", os.path.join("tools", "dist-packages"), os.path.join("vendor", "site-packages")]


def _cache_records(tmp_path):
    return sorted((tmp_path / "_cache").rglob("*.json"))


@pytest.mark.parametrize("damage", ["truncated", "nested", "other-file"])
def test_a_damaged_cache_record_is_not_trusted(tmp_path, cli, damage):
    tree = write_tree(tmp_path / "src", {"train.py": TF1, "other.py": TF1.replace("steps", "epochs")})
    assert cli("--format", "json", tree)[0] == 0
    records = _cache_records(tmp_path)
    assert len(records) == 2
    record = json.loads(records[0].read_text())
    if damage == "truncated":
        new = base64.b64decode(record["new"])
        record["new"] = base64.b64encode(new[: len(new) // 2]).decode()
        records[0].write_text(json.dumps(record))
    elif damage == "nested":
        records[0].write_text("[" * 100_000 + "]" * 100_000)
    else:  # a valid record of the other file copied over this one: right hash of its own text, wrong input
        records[0].write_text(records[1].read_text())
    code, _, _ = cli("--write", tree)
    assert code == 0
    assert (tree / "train.py").read_text() == TF1_MIGRATED
    assert (tree / "other.py").read_text() == TF1_MIGRATED.replace("steps", "epochs")


def test_inputs_with_the_same_name_keep_their_folders_under_out(tmp_path, cli):
    src = write_tree(tmp_path, {"a/x.py": TF1, "b/x.py": TF1.replace("steps", "epochs")})
    out = tmp_path / "o"
    assert cli(src / "a" / "x.py", src / "b" / "x.py", "--out", out)[0] == 0
    assert (out / "a" / "x.py").read_text() == TF1_MIGRATED
    assert (out / "b" / "x.py").read_text() == TF1_MIGRATED.replace("steps", "epochs")


# --- B. wrong results, hangs, orphans


def test_a_utf16_file_is_reported_not_counted_as_unchanged(tmp_path, cli):
    tree = tmp_path / "src"
    tree.mkdir()
    (tree / "wide.py").write_bytes(TF1.encode("utf-16"))
    code, out, _ = cli("--format", "json", tree)
    assert code == 1
    [result] = json.loads(out)["files"]
    assert result["status"] == "skipped" and "UTF-16" in result["entries"][0]["message"]


def test_out_recreates_in_tree_folder_symlinks(tmp_path, cli):
    tree = write_tree(tmp_path / "src", {"real/m.py": TF1})
    os.symlink("real", tree / "alias")
    out = tmp_path / "out"
    assert cli(tree, "--out", out)[0] == 0
    assert os.path.islink(out / "alias") and os.readlink(out / "alias") == "real"
    assert (out / "real" / "m.py").read_text() == TF1_MIGRATED


def test_a_fifo_in_the_tree_is_skipped_not_read(tmp_path, cli):
    tree = write_tree(tmp_path / "src", {"train.py": TF1})
    os.mkfifo(tree / "pipe.py")
    start = time.monotonic()
    code, out, _ = cli("--write", tree)
    assert time.monotonic() - start < 60
    assert code == 1 and "pipe.py" in out and "not a regular file" in out
    assert (tree / "train.py").read_text() == TF1_MIGRATED


def test_a_device_or_an_oversized_file_is_refused(tmp_path, cli):
    code, _, err = cli("/dev/zero")
    assert code == 2 and one_line_error(err, "not a regular file"), err
    big = tmp_path / "big.py"
    big.write_text(TF1 + "#" + "x" * 1_200_000 + "\n")  # ~1.2 MB in one comment: cheap to migrate
    code, out, _ = cli("--max-file-size", "1", big)
    assert code == 1 and "larger than --max-file-size" in out
    assert cli("--max-file-size", "2", big)[0] == 0


@pytest.mark.parametrize("size", ["1e400", "inf", "nan", "-1", "0"])
def test_a_max_file_size_that_is_no_number_of_megabytes_is_one_line(tmp_path, cli, size):
    code, _, err = cli(f"--max-file-size={size}", write_tree(tmp_path / "src", {"train.py": TF1}))
    assert code == 2 and one_line_error(err, "--max-file-size must be a positive number of MB"), err


# --- C. one file's trouble never aborts the tree


def test_odd_line_endings_and_deep_nesting_skip_only_that_file(tmp_path, cli):
    deep = "import tensorflow as tf\nx = " + "tf.identity(" * 150 + "1" + ")" * 150 + "\n"
    tree = write_tree(
        tmp_path / "src",
        {"cr.py": TF1.replace("\n", "\r"), "lone_cr.py": TF1 + "y = 1\r\n", "deep.py": deep, "z_ok.py": TF1},
    )
    code, out, _ = cli("--write", "--format", "json", tree)
    assert code in (0, 1), out
    assert (tree / "z_ok.py").read_text() == TF1_MIGRATED
    for name in ("cr.py", "lone_cr.py", "deep.py"):
        text = (tree / name).read_bytes()
        original = {"cr.py": TF1.replace("\n", "\r"), "lone_cr.py": TF1 + "y = 1\r\n", "deep.py": deep}[name]
        assert text == original.encode() or compile(text, name, "exec"), name


@pytest.mark.parametrize(
    "cells",
    [
        [{"cell_type": "code", "source": 5}],
        ["a string cell"],
        [None],
        [{"cell_type": "code", "source": ["import tensorflow as tf\n", 3]}],
        {"not": "a list"},
    ],
)
def test_malformed_notebooks_are_reported(tmp_path, cli, cells):
    path = tmp_path / "bad.ipynb"
    path.write_text(json.dumps({"cells": cells, "nbformat": 4, "note": "tensorflow"}))
    before = path.read_bytes()
    code, out, _ = cli("--write", path)
    assert code == 1 and "not a valid notebook" in out, out
    assert path.read_bytes() == before


def test_a_file_name_that_is_not_utf8_still_gets_a_report(tmp_path, cli):
    tree = tmp_path / "src"
    tree.mkdir()
    with open(os.path.join(os.fsencode(tree), b"caf\xe9.py"), "w") as handle:
        handle.write(TF1)
    report = tmp_path / "r.json"
    code, out, _ = cli("--write", "--report", report, tree)
    assert code == 0
    data = json.loads(report.read_bytes().decode("utf-8"))
    assert data["summary"]["changed"] == 1 and "caf" in data["files"][0]["path"]
    assert "1 rewritten" in out


# --- D. validation before anything is touched


def test_a_bad_report_path_is_refused_before_any_file_is_written(tmp_path, cli):
    tree = write_tree(tmp_path / "src", {"train.py": TF1})
    code, _, err = cli("--write", "--report", tmp_path / "missing" / "r.json", tree)
    assert code == 2 and one_line_error(err, "--report"), err
    assert (tree / "train.py").read_text() == TF1
    code, _, err = cli("--write", "--report", tree, tree)
    assert code == 2 and one_line_error(err, "--report"), err


@pytest.mark.parametrize("option", ["--out", "--select", "--ignore", "--cache-dir", "--report"])
def test_empty_option_values_are_refused(tmp_path, cli, option):
    tree = write_tree(tmp_path / "src", {"train.py": TF1})
    code, _, err = cli(option, "", tree)
    assert code == 2 and one_line_error(err, option), err
    assert (tree / "train.py").read_text() == TF1


def test_broken_and_looping_symlinks_given_as_paths_say_so(tmp_path, cli):
    os.symlink(tmp_path / "nowhere.py", tmp_path / "broken.py")
    os.symlink(tmp_path / "loop_b", tmp_path / "loop_a")
    os.symlink(tmp_path / "loop_a", tmp_path / "loop_b")
    code, _, err = cli(tmp_path / "broken.py")
    assert code == 2 and one_line_error(err, "broken symlink"), err
    code, _, err = cli(tmp_path / "loop_a")
    assert code == 2 and one_line_error(err, "symlink loop"), err


# --- processes: pool workers and signals


def _children(pid):
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _big_tree(root, n=400):
    return write_tree(root, {f"p{i % 9}/m{i}.py": TF1 + f"x{i} = tf.placeholder(tf.float32)\n" * 20 for i in range(n)})


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_pool_workers_die_with_the_main_process(tmp_path, sig):
    tree = _big_tree(tmp_path / "src")
    proc = subprocess.Popen(
        [sys.executable, "-m", "codemods", "-j2", "--no-cache", str(tree)],
        env=python_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    workers = []
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            workers = _children(proc.pid)
            time.sleep(0.05)
        assert len(workers) >= 2, "the pool never started"
        proc.send_signal(sig)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 10
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [w for w in workers if _alive(w)]
        if sig == signal.SIGTERM:
            assert proc.returncode == 128 + signal.SIGTERM and b"Traceback" not in proc.stderr.read()
    finally:
        for pid in [proc.pid, *workers]:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        proc.wait()


@pytest.fixture
def busy_cpu():
    """A process spinning on one core while the test runs: signals land in other places than on a quiet machine."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    yield
    spinner.kill()
    spinner.wait()


def _ignore_sigint():
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# "ignored": how a shell starts a background job, and how some CI runners start the tests: Python
# then installs no SIGINT handler of its own, and the run went on to write every file.
@pytest.mark.parametrize(
    ("inherited", "sig", "delay"),
    [
        ("default", signal.SIGINT, 0.0),
        ("ignored", signal.SIGINT, 0.0),
        ("ignored", signal.SIGINT, 0.3),
        ("ignored", signal.SIGTERM, 0.1),
    ],
)
def test_ctrl_c_leaves_the_files_and_says_so_in_one_line(tmp_path, busy_cpu, inherited, sig, delay):
    tree = _big_tree(tmp_path / "src", n=300)
    before = snapshot(tree)
    proc = subprocess.Popen(
        [sys.executable, "-m", "codemods", "-j1", "--no-cache", "--progress", "--write", str(tree)],
        env=python_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_ignore_sigint if inherited == "ignored" else None,
    )
    try:
        # wait until the run is migrating (its progress line moved), then interrupt it
        first = proc.stderr.read(1)
        assert first, "no progress output"
        time.sleep(delay)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 128 + sig, err
    assert "Traceback" not in err and "interrupted before any file was written" in err
    assert snapshot(tree) == before


def test_an_interrupt_while_writing_leaves_a_report_of_what_was_written(tmp_path):
    tree = _big_tree(tmp_path / "src", n=300)
    before = snapshot(tree)
    report = tmp_path / "report.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "codemods", "-j2", "--no-cache", "--write", str(tree), "--report", str(report)],
        env=python_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while snapshot(tree) == before and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        proc.send_signal(signal.SIGINT)  # the first file is written: the others are on their way
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted after" in err
    after = snapshot(tree)
    assert after.keys() == before.keys()  # no temp file left behind (a Ctrl-C inside atomic_write left one)
    changed = sorted(rel for rel in after if after[rel] != before[rel])
    assert 0 < len(changed) < len(before)
    data = json.loads(report.read_text())
    assert data["interrupted"] is True
    listed = sorted(os.path.relpath(f["path"], tree) for f in data["files"] if f["status"] == "changed")
    assert listed == changed


def test_cache_records_hold_hashes_of_their_input_and_text(tmp_path, cli):
    tree = write_tree(tmp_path / "src", {"train.py": TF1})
    cli(tree)
    [record] = [json.loads(p.read_text()) for p in _cache_records(tmp_path)]
    assert record["new_sha256"] == hashlib.sha256(TF1_MIGRATED.encode()).hexdigest()
    assert record["key"] == _cache_records(tmp_path)[0].stem


def test_a_signal_just_after_a_file_is_written_still_lists_that_file(tmp_path, monkeypatch, capsys):
    """The window the loaded clean-clone run ci11 hit: a Ctrl-C landing after a file was replaced but before
    the run recorded it left a changed file out of the report. Here a real SIGINT is sent to this process
    right after the second file's write, inside the CLI's own signal handling."""
    from codemods import cli

    tree = _big_tree(tmp_path / "src", n=6)
    before = snapshot(tree)
    report = tmp_path / "report.json"
    writes = []
    real_write = _runner.atomic_write

    def write_then_signal(path, data, **kwargs):
        real_write(path, data, **kwargs)
        writes.append(path)
        if len(writes) == 2:
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(_runner, "atomic_write", write_then_signal)
    with pytest.raises(SystemExit) as stopped:
        cli.main(["-j1", "--no-cache", "--write", str(tree), "--report", str(report)])
    assert stopped.value.code == 130
    after = snapshot(tree)
    changed = sorted(rel for rel in after if after[rel] != before[rel])
    assert len(changed) == 2
    data = json.loads(report.read_text())
    assert data["interrupted"] is True
    assert sorted(os.path.relpath(f["path"], tree) for f in data["files"] if f["status"] == "changed") == changed
    assert "interrupted after 2 files were written" in capsys.readouterr().err
