"""native-data's Estimator input_fns in a tree (codemods/engine/tree.py): an input_fn the rule proves only an
Estimator's input in its own file returns its dataset, unless another module of the tree imports that file (a call
of the input_fn there would get the dataset, not the (features, labels) element); a file migrated alone, or a tree
where nothing imports the program, as before."""

import json

from codemods._migrate_file import Options
from codemods.engine import tree as _tree
from tests.support.sources import migrate_tree

NATIVE = Options(select=("tf1-api", "native-data"), level="native")
PROGRAM = """\
import tensorflow as tf


def input_fn():
    return tf.compat.v1.data.Dataset.range(8).batch(2).make_one_shot_iterator().get_next()


if __name__ == "__main__":
    tf.estimator.Estimator(model_fn).train(input_fn, max_steps=3)
"""
CONVERTED = PROGRAM.replace("compat.v1.data", "data").replace(".make_one_shot_iterator().get_next()", "")
IMPORTERS = {
    "use.py": "from prog import input_fn\n\nfeatures, labels = input_fn()\n",
    "tools/use.py": "import prog\n\nprint(prog.input_fn())\n",  # (the program's folder is on sys.path)
}


def migrated(root, files, given=None, **config):
    """({path: text} of the --out folder, {path: native-data's messages}) of `files` migrated at --level native."""
    return migrate_tree(root, files, NATIVE, "native-data", given, **config)


def test_an_input_fn_another_module_of_the_tree_imports_stays_at_the_safe_level(tmp_path):
    texts, _ = migrated(tmp_path / "alone", {"prog.py": PROGRAM})
    assert texts["prog.py"] == CONVERTED  # nothing imports it
    for rel, importer in IMPORTERS.items():
        root = tmp_path / rel.replace("/", "-")
        texts, messages = migrated(root, {"prog.py": PROGRAM, rel: importer})
        assert "make_one_shot_iterator().get_next()" in texts["prog.py"], rel
        assert texts[rel] == importer
        [why] = messages["prog.py"]
        assert why.startswith("TF1 datasets left at the safe level: the file has graph-mode code"), why
        assert why.endswith(
            f", and the tree's {rel} imports this module: input_fn() called there would return the dataset, not "
            "its one-shot iterator's element"
        ), why
        # migrated alone, the program is not told who imports it
        texts, _ = migrated(root / "given", {"prog.py": PROGRAM, rel: importer}, given=["prog.py"])
        assert texts["prog.py"] == CONVERTED, rel


def test_a_notebook_of_the_tree_importing_the_input_fn_keeps_it_at_the_safe_level(tmp_path):
    # (a notebook beside the program is how such a tree is often explored; its magics do not hide its imports)
    cells = ["%matplotlib inline\nfrom prog import input_fn", "features, labels = input_fn()\nprint(features)"]
    code = [{"cell_type": "code", "metadata": {}, "source": c, "outputs": [], "execution_count": None} for c in cells]
    notebook = json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": code})
    texts, messages = migrated(tmp_path, {"prog.py": PROGRAM, "explore.ipynb": notebook})
    assert "make_one_shot_iterator().get_next()" in texts["prog.py"]
    [why] = messages["prog.py"]
    assert why.endswith(
        ", and the tree's explore.ipynb imports this module: input_fn() called there would return the dataset, not "
        "its one-shot iterator's element"
    ), why


def test_the_cache_keeps_the_outcomes_of_the_program_with_and_without_importers(tmp_path):
    cache = str(tmp_path / "cache")
    with_importer = {"prog.py": PROGRAM, "use.py": IMPORTERS["use.py"]}
    for name, files in (("one", with_importer), ("two", {"prog.py": PROGRAM}), ("three", with_importer)):
        texts, _ = migrated(tmp_path / name, files, cache_dir=cache)
        converted = texts["prog.py"] == CONVERTED
        assert converted == (name == "two"), name


def test_plan_names_the_modules_importing_a_file_whose_input_fns_returned_their_datasets():
    signalled = _tree.Facts(entry=True, signals=frozenset({_tree.INPUT_FN}))
    facts = {
        "prog.py": signalled,
        "use.py": None,  # (no TensorFlow named: `fill` parses it)
        "pkg/__init__.py": _tree.Facts(((1, "", ("other",)),)),
        "pkg/other.py": _tree.Facts(((0, "prog", ("model_fn",)),)),
        "alone/prog.py": signalled,
    }
    filled = {"use.py": _tree.Facts(((0, "prog", ()),))}
    contexts = _tree.plan(facts, filled.get)
    assert contexts == {"prog.py": _tree.Context(importers=("pkg/other.py", "use.py"))}
    assert contexts["prog.py"].key() != _tree.Context().key()
    # no such signal: nothing crosses files, and `fill` is not asked
    assert _tree.plan({**facts, "prog.py": _tree.Facts(entry=True), "alone/prog.py": None}, None) == {}
