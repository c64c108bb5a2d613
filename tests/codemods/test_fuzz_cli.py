"""uai-migrate over generated trees of odd files and options: the contract holds for every run.

Whatever the tree and the options: the exit code is 0, 1 or 2; nothing raises past the CLI (no
traceback); without --write every input is byte-identical afterwards; under --write every file is
either byte-identical or exactly the engine's migration of its original bytes, which parses
wherever the original parsed. The CLI runs in-process (-j1) so each example costs milliseconds.
"""

import ast
import json
import os
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codemods._migrate_file import Options, migrate
from tests.support.sources import PLAIN, PY2, TF1, snapshot

NOTEBOOK = json.dumps(
    {
        "cells": [
            {"cell_type": "code", "source": ["import tensorflow as tf\n", "%time x = 1\n", "s = tf.Session()\n"]}
        ],
        "nbformat": 4,
    }
)
CONTENTS = {
    "tf1": TF1.encode(),
    "plain": PLAIN.encode(),
    "py2": PY2.encode(),
    "crlf": TF1.replace("\n", "\r\n").encode(),
    "cr": TF1.replace("\n", "\r").encode(),
    "utf16": TF1.encode("utf-16"),
    "latin1": b"# -*- coding: latin-1 -*-\nimport tensorflow as tf\ns = 'caf\xe9'\nx = tf.placeholder(tf.float32)\n",
    "bad-cookie": b"# -*- coding: no-such-codec -*-\nimport tensorflow as tf\n",
    "junk": bytes(range(256)),
    "empty": b"",
    "deep": ("import tensorflow as tf\nx = " + "tf.identity(" * 120 + "1" + ")" * 120 + "\n").encode(),
    "star": b"from tensorflow import *\nx = placeholder(float32)\n",
    "notebook": NOTEBOOK.encode(),
    "bad-notebook": b'{"cells": [{"cell_type": "code", "source": 5}], "tensorflow": 1}',
}
NAMES = st.sampled_from(["a.py", "b.py", "train.py", "nb.ipynb", "notes.txt", "x y.py", "caf\udce9.py", "tool.pyw"])
FOLDERS = st.sampled_from(["", "pkg", "pkg/sub", "env", "lib/site-packages", "venv", ".git"])
FILES = st.lists(st.tuples(FOLDERS, NAMES, st.sampled_from(sorted(CONTENTS))), min_size=1, max_size=7)
LINKS = st.lists(
    st.tuples(
        st.sampled_from(["l.py", "pkg/l.py", "ldir"]),
        st.sampled_from(["in-tree-file", "in-tree-dir", "outside", "broken"]),
    ),
    max_size=2,
)
MODES = st.sampled_from([[], ["--write"], ["--check"], ["--out", "{out}"], ["--write", "--report", "{report}"]])
EXTRA = st.lists(
    st.sampled_from(
        [
            ["--format", "json"],
            ["--level", "native"],
            ["--no-cache"],
            ["--select", "tf-flags"],
            ["--ignore", "py2-port"],
        ]
    ),
    max_size=2,
)


def _build(root, files, links, outside):
    paths = {}
    for folder, name, content in files:
        path = os.path.join(root, folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(os.fsencode(path), "wb") as handle:
            handle.write(CONTENTS[content])
        paths[path] = content
    if any(folder == "env" for folder, _, _ in files):
        with open(os.path.join(root, "env", "pyvenv.cfg"), "w") as handle:
            handle.write("home = /usr/bin\n")
    targets = {"in-tree-file": next(iter(paths)), "in-tree-dir": root, "outside": outside, "broken": "/nonexistent/x"}
    for name, target in links:
        link = os.path.join(root, name)
        os.makedirs(os.path.dirname(link), exist_ok=True)
        if not os.path.lexists(link):
            os.symlink(targets[target], link)
    return paths


def _kind(path):
    return "notebook" if path.endswith(".ipynb") else "python"


def _parses(data, kind):
    try:
        if kind == "notebook":
            cells = json.loads(data)["cells"]
            for cell in cells:
                ast.parse("".join(cell["source"]).replace("%time", "#"))
        else:
            ast.parse(data)
        return True
    except (SyntaxError, ValueError, KeyError, TypeError):
        return False


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files=FILES, links=LINKS, mode=MODES, extra=EXTRA)
def test_every_run_keeps_the_contract(capsys, files, links, mode, extra):
    from codemods.cli import main

    with tempfile.TemporaryDirectory() as base:
        root, outside = os.path.join(base, "tree"), os.path.join(base, "outside.py")
        with open(outside, "w") as handle:
            handle.write(TF1)
        os.makedirs(root)
        _build(root, files, links, outside)
        before = snapshot(root)
        args = [a.format(out=os.path.join(base, "out"), report=os.path.join(base, "r.json")) for a in mode]
        args += [a for pair in extra for a in pair]
        os.environ["XDG_CACHE_HOME"] = os.path.join(base, "cache")
        try:
            code = main(["-j1", *args, root])
        except SystemExit as exit_:
            code = exit_.code
        _, err = capsys.readouterr()
        assert code in (0, 1, 2), err
        assert "Traceback" not in err
        after = snapshot(root)
        assert after.keys() == before.keys()
        changed = {rel for rel in before if after[rel] != before[rel]}
        if "--write" not in args:
            assert not changed
            return
        options = Options(
            select=tuple(a for i, a in enumerate(args) if i and args[i - 1] == "--select"),
            ignore=tuple(a for i, a in enumerate(args) if i and args[i - 1] == "--ignore"),
            level="native" if "native" in args else "safe",
        )
        for rel in changed:
            kind = _kind(rel)
            assert after[rel] == migrate(kind, before[rel], options).new, rel
            if _parses(before[rel], kind):
                assert _parses(after[rel], kind), rel
