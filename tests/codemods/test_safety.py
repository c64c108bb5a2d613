"""Never lose a user's file: atomic writes, modes, symlinks, encodings, line endings, no needless writes."""

import importlib.util
import os
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
import time

from codemods import _cache
from tests.support.processes import python_env
from tests.support.sources import PLAIN, TF1, TF1_MIGRATED, write_tree


def test_an_interrupted_write_leaves_the_old_file_whole(tmp_path):
    target = tmp_path / "train.py"
    target.write_bytes(b"old = 1\n")
    script = textwrap.dedent(
        f"""
        from compat.files import atomic_write
        atomic_write({str(target)!r}, b"x" * (1 << 31))   # 2 GB: killed long before it is written
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], env=python_env())
    try:
        deadline = time.monotonic() + 60
        while not [p for p in os.listdir(tmp_path) if p.endswith(".uai-migrate.tmp")]:
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.02)
        time.sleep(0.2)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert target.read_bytes() == b"old = 1\n"
    leftovers = [p for p in os.listdir(tmp_path) if p != "train.py"]
    assert leftovers and all(p.startswith(".train.py.") and p.endswith(".uai-migrate.tmp") for p in leftovers)


def test_a_killed_tree_run_leaves_every_file_wholly_old_or_wholly_new(tmp_path):
    tree = write_tree(tmp_path / "src", {f"pkg{i % 7}/m{i}.py": TF1 for i in range(150)})
    env = python_env({"XDG_CACHE_HOME": str(tmp_path / "cache")})
    proc = subprocess.Popen(
        [sys.executable, "-m", "codemods", "--write", "-j", "1", str(tree)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    files = sorted(tree.rglob("*.py"))
    first = sorted((tree / "pkg0").iterdir())[0]  # files are written in walk order
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        if first.read_text() != TF1:
            proc.send_signal(signal.SIGKILL)
            break
        time.sleep(0.001)
    proc.wait()
    contents = [f.read_text() for f in files]
    assert set(contents) <= {TF1, TF1_MIGRATED}
    assert TF1 in contents, "the run finished before it was killed: nothing was interrupted"


def test_write_keeps_mode_cookie_bom_and_crlf(tmp_path, migrate):
    body = TF1.replace("import tensorflow as tf\n", "import tensorflow as tf\nsign = 'café'\n")
    latin = b"# -*- coding: latin-1 -*-\n" + body.encode("latin-1")
    bom = b"\xef\xbb\xbf" + body.encode("utf-8")
    crlf = body.replace("\n", "\r\n").encode()
    tree = tmp_path / "src"
    tree.mkdir()
    for name, data in {"latin.py": latin, "bom.py": bom, "crlf.py": crlf}.items():
        (tree / name).write_bytes(data)
    os.chmod(tree / "latin.py", 0o751)
    result = migrate("--write", tree)
    assert result.returncode == 0, result.stdout + result.stderr
    migrated = TF1_MIGRATED.replace("import tensorflow as tf\n", "import tensorflow as tf\n", 1)
    new_latin = (tree / "latin.py").read_bytes()
    assert new_latin.startswith(b"# -*- coding: latin-1 -*-\n") and b"sign = 'caf\xe9'" in new_latin
    assert b"flags.DEFINE_integer" in new_latin and b"tf.app.flags" not in new_latin
    assert stat.S_IMODE(os.stat(tree / "latin.py").st_mode) == 0o751
    new_bom = (tree / "bom.py").read_bytes()
    assert new_bom.startswith(b"\xef\xbb\xbfimport tensorflow as tf\n") and new_bom.count(b"\xef\xbb\xbf") == 1
    new_crlf = (tree / "crlf.py").read_bytes()
    assert b"flags.DEFINE_integer" in new_crlf
    assert new_crlf.count(b"\n") == new_crlf.count(b"\r\n") == migrated.count("\n") + 1  # + the `sign` line


def test_symlinks_are_not_followed_out_of_the_tree(tmp_path, migrate):
    outside = write_tree(tmp_path / "outside", {"ext.py": TF1, "lib/dep.py": TF1})
    tree = write_tree(tmp_path / "src", {"real.py": TF1})
    os.symlink(outside / "ext.py", tree / "ext.py")
    os.symlink(outside / "lib", tree / "lib")
    os.symlink("real.py", tree / "alias.py")
    result = migrate("--write", tree)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (outside / "ext.py").read_text() == TF1 and (outside / "lib/dep.py").read_text() == TF1
    assert result.stdout.count("symlink leads out of the tree: not followed") == 2
    assert (tree / "real.py").read_text() == TF1_MIGRATED
    assert os.path.islink(tree / "alias.py") and os.readlink(tree / "alias.py") == "real.py"


def test_unchanged_files_are_never_rewritten_and_a_second_run_changes_nothing(tmp_path, migrate):
    tree = write_tree(tmp_path / "src", {"plain.py": PLAIN, "done.py": TF1_MIGRATED, "train.py": TF1})
    before = {p.name: os.stat(p) for p in tree.iterdir()}
    time.sleep(0.01)
    assert migrate("--write", tree).returncode == 0
    for name in ("plain.py", "done.py"):
        after = os.stat(tree / name)
        assert (after.st_mtime_ns, after.st_ino) == (before[name].st_mtime_ns, before[name].st_ino)
    first = os.stat(tree / "train.py")
    assert migrate("--write", "--no-cache", tree).returncode == 0
    assert migrate("--check", tree).returncode == 0
    assert (tree / "train.py").read_text() == TF1_MIGRATED
    assert os.stat(tree / "train.py").st_mtime_ns == first.st_mtime_ns


def test_a_rerun_comes_from_the_cache(tmp_path, migrate):
    tree = write_tree(tmp_path / "src", {"a.py": TF1, "b.py": TF1.replace("steps", "epochs")})
    first = migrate("--format", "json", tree, check_json=True)
    second = migrate("--format", "json", tree, check_json=True)
    assert first.json["summary"]["cached"] == 0 and second.json["summary"]["cached"] == 2
    assert first.json["files"] == second.json["files"]


def test_the_cache_key_changes_with_the_rules_code_and_their_derived_tables(tmp_path, monkeypatch):
    # A regenerated tables/tf_api.json changes what the rules do as much as an edited rule:
    # results cached under the old table must not be served. So do compat.tf1_names and compat.library_names
    # (with "float_": "float32" in a copy's library_names, a cached run still wrote np.float64: helper-76's pass).
    package = tmp_path / "codemods"
    for name in ("codemods", "compat"):
        source = os.path.join(os.path.dirname(os.path.dirname(_cache.__file__)), name)
        shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))

    def fingerprint():
        spec = importlib.util.spec_from_file_location("copied_cache", package / "_cache.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module.engine_fingerprint()

    original = fingerprint()
    assert original == fingerprint()
    compat = tmp_path / "compat"
    for edited in (package / "tables" / "tf_api.json", package / "rules" / "slim.py", compat / "library_names.py"):
        text = edited.read_text()
        edited.write_text(text + "\n")
        assert fingerprint() != original, edited.name
        edited.write_text(text)
    assert fingerprint() == original
    # a hit is served without parsing the port again (it was checked before it was stored), and what parses
    # depends on the interpreter's grammar: another Python must not read this one's results
    monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    assert fingerprint() != original


def test_a_port_that_does_not_parse_is_stored_and_served_as_the_file_left_as_it_is(tmp_path):
    # the parse check runs before the cache stores a migration, and a hit is served without it: what is stored
    # must already be the checked outcome (the file left as it is, an error entry)
    from codemods._migrate_tree import _checked
    from codemods._report import Outcome

    checked = _checked("python", b"x = 1\n", Outcome(new=b"x = (\n", entries=[]))
    assert checked.new is None and checked.skipped
    assert [e.message for e in checked.entries] == ["the migration does not parse: file left as it is"]
    cache = _cache.Cache(str(tmp_path), "options")
    key = cache.key("python", b"x = 1\n")
    cache.put(key, checked)
    served = cache.get(key)
    assert served is not None and served.new is None and served.skipped
    assert [e.to_dict() for e in served.entries] == [e.to_dict() for e in checked.entries]
