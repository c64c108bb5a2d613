"""What a file's migration learns from its tree (codemods/engine/tree.py): an entry script importing a TF1
graph library gets graph-mode's switches, and a tf2.enabled() read that such a program runs gets its answer
(compat.graph_mode.tf2_enabled); a file migrated alone, or a tree without such a program, as before."""

import ast
import os
import textwrap

from codemods._migrate_file import Options
from codemods._migrate_tree import RunConfig, run
from codemods.engine import tree as _tree
from tests.support.sources import write_tree

SELECTED = Options(select=("graph-mode", "tf-private"))
GRAPH_LIBRARY = """\
import tensorflow as tf


def evaluate(x):
    with tf.Session() as sess:
        return sess.run(x)
"""
PLAIN_LIBRARY = """\
import tensorflow as tf


def evaluate(x):
    return x
"""
PROBE = """\
import tensorflow as tf


def layers():
    try:
        from tensorflow.python import tf2
        if tf2.enabled():
            return tf.keras.layers
    except ImportError:
        pass
    return tf.layers
"""
PROBE_ANSWERED = """\
import compat.graph_mode
import tensorflow as tf


def layers():
    try:
        if compat.graph_mode.tf2_enabled():
            return tf.keras.layers
    except ImportError:
        pass
    return tf.layers
"""
ENTRY = """\
import sys

from lib import graph, layers


def main():
    print(graph.evaluate(layers.layers()))


if __name__ == "__main__":
    main()
"""
# before the tree's imports: their code runs on import (tensor2tensor caches its layers() answer then)
ENTRY_SWITCHED = """\
import sys
import compat
import tensorflow as tf
tf.compat.v1.disable_eager_execution()
tf.compat.v1.disable_resource_variables()
tf.compat.v1.disable_control_flow_v2()

from lib import graph, layers


def main():
    print(graph.evaluate(layers.layers()))


if __name__ == "__main__":
    main()
"""
TREE = {"lib/__init__.py": "", "lib/graph.py": GRAPH_LIBRARY, "lib/layers.py": PROBE, "train.py": ENTRY}


def migrated(tmp_path, files, given=None, name="out", **config):
    """({path: text} of the --out folder, the report) for `files` migrated (all of them, or the `given` ones)."""
    src = write_tree(tmp_path / "src", files) if not (tmp_path / "src").exists() else tmp_path / "src"
    out = tmp_path / name
    paths = [str(src / rel) for rel in given] if given else [str(src)]
    report = run(RunConfig(paths=paths, options=config.pop("options", SELECTED), mode="out", out=str(out), **config))
    texts = {
        os.path.relpath(os.path.join(folder, file), out): open(os.path.join(folder, file)).read()
        for folder, _, names in os.walk(out)
        for file in names
        if file.endswith(".py")
    }
    return texts, report


def entries(report, rel):
    [result] = [result for result in report.files if result.path.endswith(rel)]
    return result.entries


def test_an_entry_script_importing_a_graph_library_gets_the_switches_and_the_probe_its_answer(tmp_path):
    texts, report = migrated(tmp_path, TREE)
    assert texts["train.py"] == ENTRY_SWITCHED
    assert texts["lib/layers.py"] == PROBE_ANSWERED
    assert texts["lib/graph.py"] == GRAPH_LIBRARY  # its switches belong in the program: it keeps its warning
    switched, compat = entries(report, "train.py")
    assert compat.message.startswith("`import compat`: TF 1.15's op seeds")  # (tests/codemods/test_rule_graph_mode.py)
    assert switched.line == 3 and "lib.graph" in switched.message and "lib/graph.py" in switched.message
    [answered] = entries(report, "lib/layers.py")
    assert answered.severity == "info" and "train.py" in answered.message
    [library] = entries(report, "lib/graph.py")
    assert library.severity == "warning"


def test_a_second_run_changes_nothing(tmp_path):
    texts, _ = migrated(tmp_path, TREE)
    again, report = migrated(tmp_path / "again", texts)
    assert again == texts
    assert all(result.status == "unchanged" for result in report.files)


def test_through_other_modules_package_inits_relative_imports_and_the_programs_folder(tmp_path):
    files = {
        # research/slim style: the program's folder is on sys.path, `nets` is found there
        "research/slim/nets/__init__.py": "from .builder import build\n",
        "research/slim/nets/builder.py": "from deploy import graph\n\ndef build():\n    return graph\n",
        "research/slim/deploy/__init__.py": "",
        "research/slim/deploy/graph.py": GRAPH_LIBRARY,
        "research/slim/train.py": "import nets\n\nif __name__ == '__main__':\n    nets.build()\n",
    }
    texts, _ = migrated(tmp_path, files)
    assert "tf.compat.v1.disable_control_flow_v2()\nimport nets\n" in texts["research/slim/train.py"]


def test_where_the_switches_go_in_a_program(tmp_path):
    # after its own TensorFlow import, under its name; first in the main block when it imports the tree in functions
    own = ENTRY.replace("import sys\n", "import sys\nimport tensorflow.compat.v1 as v1\n")
    texts, _ = migrated(tmp_path / "own", {**TREE, "train.py": own})
    assert "import tensorflow.compat.v1 as v1\nv1.disable_eager_execution()\n" in texts["train.py"]
    inner = ENTRY.replace("\nfrom lib import graph, layers\n", "").replace(
        "    print(", "    from lib import graph, layers\n    print("
    )
    texts, _ = migrated(tmp_path / "inner", {**TREE, "train.py": inner})
    assert 'if __name__ == "__main__":\n    tf.compat.v1.disable_eager_execution()\n' in texts["train.py"]


def test_must_not_fire_without_a_program_that_imports_a_graph_library(tmp_path):
    probe_error = "tensorflow.python.tf2.enabled() asks whether TF 2 behaviour is on"
    cases = {
        # the entry script imports no graph library: the read keeps its error entry
        "plain": {**TREE, "lib/graph.py": PLAIN_LIBRARY},
        # a module importing the graph library is no program
        "module": {**TREE, "train.py": ENTRY.replace('\n\nif __name__ == "__main__":\n    main()\n', "\n")},
    }
    for name, files in cases.items():
        texts, report = migrated(tmp_path / name, files)
        assert texts["train.py"] == files["train.py"], name
        assert texts["lib/layers.py"] == PROBE, name
        [error] = entries(report, "lib/layers.py")
        assert error.severity == "error" and error.message.startswith(probe_error), name


def test_a_file_migrated_alone_is_migrated_as_before(tmp_path):
    write_tree(tmp_path / "src", TREE)
    for rel, text in (("train.py", ENTRY), ("lib/layers.py", PROBE), ("lib/graph.py", GRAPH_LIBRARY)):
        texts, report = migrated(tmp_path, {}, given=[rel], name=f"alone-{rel.replace('/', '-')}")
        assert texts[os.path.basename(rel)] == text, rel
    # two files given, neither a program of the other: nothing crosses
    texts, _ = migrated(tmp_path, {}, given=["lib/layers.py", "lib/graph.py"], name="two")
    assert texts == {"layers.py": PROBE, "graph.py": GRAPH_LIBRARY}


def test_a_program_already_in_graph_mode_gives_the_probe_its_answer(tmp_path):
    entry = ENTRY.replace("from lib import graph, layers", "import tensorflow as tf\nfrom lib import layers")
    entry = entry.replace("graph.evaluate(", "tf.Session().run(")
    texts, _ = migrated(tmp_path, {**TREE, "lib/graph.py": PLAIN_LIBRARY, "train.py": entry})
    assert "    tf.compat.v1.disable_control_flow_v2()\n    main()" in texts["train.py"]
    assert texts["lib/layers.py"] == PROBE_ANSWERED


def test_the_cache_serves_no_result_the_rest_of_the_tree_has_changed(tmp_path):
    cache = str(tmp_path / "cache")
    src = write_tree(tmp_path / "src", {**TREE, "lib/graph.py": PLAIN_LIBRARY})
    texts, _ = migrated(tmp_path, {}, name="first", cache_dir=cache)
    assert texts["train.py"] == ENTRY
    (src / "lib/graph.py").write_text(GRAPH_LIBRARY)  # train.py and layers.py are the bytes cached
    texts, report = migrated(tmp_path, {}, name="second", cache_dir=cache)
    assert (texts["train.py"], texts["lib/layers.py"]) == (ENTRY_SWITCHED, PROBE_ANSWERED)
    assert [r.cached for r in report.files if r.path.endswith("lib/__init__.py")] == [True]
    texts, report = migrated(tmp_path, {}, name="third", cache_dir=cache)  # all from the cache, the same
    assert (texts["train.py"], texts["lib/layers.py"]) == (ENTRY_SWITCHED, PROBE_ANSWERED)
    assert all(result.cached for result in report.files if result.status != "unchanged" or result.entries)
    (src / "lib/graph.py").write_text(PLAIN_LIBRARY)
    texts, _ = migrated(tmp_path, {}, name="fourth", cache_dir=cache)
    assert (texts["train.py"], texts["lib/layers.py"]) == (ENTRY, PROBE)


def test_parallel_workers_give_the_same_tree(tmp_path):
    files = {**TREE, **{f"lib/m{i}.py": f"from lib import graph{i % 2 and ', layers' or ''}\n" for i in range(6)}}
    one, _ = migrated(tmp_path, files, name="one", jobs=1)
    two, _ = migrated(tmp_path, files, name="two", jobs=2)
    assert one == two and one["train.py"] == ENTRY_SWITCHED


_FORKS: list[int] = []  # this process's forks (multiprocessing's workers: the fork start method)


def _count_forks() -> None:
    if not _FORKS:
        _FORKS.append(0)
        os.register_at_fork(before=lambda: _FORKS.append(0))


def test_the_tree_passs_rounds_share_one_set_of_workers(tmp_path):
    # the pass migrates in rounds (the other files, the entry scripts, the files the whole tree tells otherwise):
    # a pool per round forked its workers again, each filling again the tables and caches its first files build
    files = {**TREE, "tool.py": ENTRY, **{f"lib/m{i}.py": "from lib import graph\n" for i in range(4)}}
    _count_forks()
    before = len(_FORKS)
    texts, _ = migrated(tmp_path, files, jobs=2)
    assert len(_FORKS) - before == 2  # the two workers, made once
    assert texts["train.py"] == texts["tool.py"] == ENTRY_SWITCHED and texts["lib/layers.py"] == PROBE_ANSWERED


def test_plan_names_the_import_that_leads_to_the_library():
    facts = {
        "a.py": _tree.Facts(((0, "b", ()),), entry=True),
        "b.py": _tree.Facts(((0, "c", ()),)),
        "c.py": _tree.Facts(signals=frozenset({_tree.GRAPH_LIBRARY})),
        "d.py": _tree.Facts(((0, "c", ()),), entry=True, signals=frozenset({_tree.GRAPH_PROGRAM})),
        "e.py": None,  # not parsed: asked for only because the tree holds a graph library
    }
    asked = []
    plan = _tree.plan(facts, lambda path: asked.append(path) or _tree.Facts(((0, "a", ()),)))
    assert plan == {"a.py": _tree.Context(graph_library=("b", "c.py"), tree_imports=("b",))} and asked == ["e.py"]
    assert len({plan["a.py"].key(), _tree.Context().key(), _tree.Context(tf1_program="a.py").key()}) == 3
    assert _tree.plan({path: None for path in facts}, lambda path: asked.append(path)) == {} and asked == ["e.py"]


def test_facts_of_a_file():
    source = textwrap.dedent(
        """
        import a.b as c
        from .. import d
        def f():
            from e import g, h
        if "__main__" == __name__:
            f()
        """
    )
    facts = _tree.facts_of(ast.parse(source), ["x"])
    assert facts.imports == ((0, "a.b", ()), (2, "", ("d",)), (0, "e", ("g", "h")))
    assert facts.entry and facts.signals == {"x"}
    assert _tree.Facts.from_dict(facts.to_dict()) == facts


def test_facts_of_a_file_find_the_imports_of_every_block_in_the_order_of_ast_walk():
    # facts_of walks the statements alone: the imports and their order are those of a walk of every node
    source = textwrap.dedent(
        """
        import a
        def f():
            import b
            class C:
                from . import c
                def g(self):
                    try:
                        import d
                    except* ValueError:
                        import e
                    else:
                        import f
                    finally:
                        from ..x import y, z
        async def h():
            async with q:
                import w
            async for i in j:
                import k
            else:
                import l
        match v:
            case 1:
                import m
            case _ if (lambda: 1)():
                from n import *
        while x:
            import o
        else:
            import p
        with open(f) as g:
            import r
        try:
            import s
        except (A, B):
            import t
        if __name__ == "__main__":
            import u
        """
    )
    tree = ast.parse(source)
    walked = [
        (0, alias.name, ()) if isinstance(node, ast.Import) else (node.level, node.module or "", (alias.name,))
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names[: 1 if isinstance(node, ast.ImportFrom) else None]
    ]
    imports = _tree.facts_of(tree).imports
    assert len(imports) == 18 and [(level, module, names[:1]) for level, module, names in imports] == walked
    assert (2, "x", ("y", "z")) in imports


def test_a_files_facts_do_not_depend_on_what_the_tree_told_it():
    # the tree pass reads the facts of each file's first migration, cached by its bytes alone
    from codemods._migrate_file import migrate

    context = _tree.Context(graph_library=("lib.graph", "lib/graph.py"), tree_imports=("lib",), tf1_program="train.py")
    for source in (ENTRY, PROBE):
        alone, told = (migrate("python", source.encode(), SELECTED, c) for c in (None, context))
        # (a file that names no TensorFlow is not parsed alone: the tree pass reads its facts itself)
        facts = alone.facts or _tree.facts_of(ast.parse(source))
        assert facts == told.facts and told.new != alone.new


def _records(cache):
    return sorted(str(path.relative_to(cache)) for path in cache.rglob("*.json"))


def test_an_entry_script_with_graph_code_of_its_own_is_migrated_as_alone(tmp_path):
    # it imports a graph library too: the tree tells it nothing (its own switches), its probe still gets its answer
    from codemods._migrate_file import migrate

    own = ENTRY.replace("import sys\n", "import sys\nimport tensorflow as tf\n").replace(
        "graph.evaluate(", "tf.Session().run(graph.evaluate("
    )
    own = own.replace("layers.layers()))", "layers.layers())))")
    texts, report = migrated(tmp_path, {**TREE, "train.py": own}, cache_dir=str(tmp_path / "cache"))
    alone = migrate("python", own.encode(), SELECTED)
    assert _tree.GRAPH_PROGRAM in alone.facts.signals and alone.new is not None
    assert texts["train.py"] == alone.new.decode()
    assert [(e.rule, e.line, e.message) for e in entries(report, "train.py")] == [
        (e.rule, e.line, e.message) for e in alone.entries
    ]
    assert texts["lib/layers.py"] == PROBE_ANSWERED


def test_each_file_is_migrated_once_a_probe_a_program_runs_too(tmp_path):
    # the cache keeps each migration: the entry script's and the probe's only with what the tree told them. A
    # file that may read tf2.enabled() is migrated after the entry scripts (tensor2tensor's common_layers.py, the
    # largest file of the realworld dense set, was migrated alone, then again with its program's answer, by one
    # worker while the other idled)
    from codemods._cache import Cache

    cache = Cache(str(tmp_path / "cache"), SELECTED)
    migrated(tmp_path, TREE, cache_dir=str(tmp_path / "cache"))
    told = {
        "train.py": _tree.Context(graph_library=("lib.graph", "lib/graph.py"), tree_imports=("lib",)),
        "lib/layers.py": _tree.Context(tf1_program="train.py"),
    }
    kept = {
        (rel, context is not None)
        for rel, text in TREE.items()
        for context in (None, told.get(rel))
        if cache.get(cache.key("python", text.encode(), context)) is not None
    }
    alone = {(rel, False) for rel in TREE if rel not in told}
    assert kept == alone | {("train.py", True), ("lib/layers.py", True)}


def test_workers_and_the_cache_give_the_same_tree_and_report(tmp_path):
    own = ENTRY.replace("import sys\n", "import sys\nimport tensorflow as tf\n").replace(
        "print(graph", "print(tf.Session().run, graph"
    )
    files = {**TREE, "bin/own.py": own.replace("from lib", "from ..lib"), "bin/__init__.py": "", "tool.py": ENTRY}
    runs = {}
    cache = str(tmp_path / "cache")
    for name, config in {"one": {"jobs": 1}, "two": {"jobs": 2}, "cold": {"cache_dir": cache}}.items():
        runs[name] = migrated(tmp_path, files, name=name, **config)
    records = _records(tmp_path / "cache")
    runs["warm"] = migrated(tmp_path, files, name="warm", cache_dir=cache)
    assert _records(tmp_path / "cache") == records  # a warm run migrates nothing
    assert all(result.cached for result in runs["warm"][1].files)
    texts, report = runs["one"]
    assert texts["train.py"] == texts["tool.py"] == ENTRY_SWITCHED
    for name, (other_texts, other) in runs.items():
        assert other_texts == texts, name
        assert [r.to_dict(with_diff=True) for r in other.files] == [r.to_dict(with_diff=True) for r in report.files]
        assert {**other.summary(), "cached": 0} == report.summary(), name


def test_a_tree_without_entry_scripts_still_answers_the_probe_its_program_runs(tmp_path):
    # a program running graph code at module level, no __main__ block: the probe it imports gets its answer
    program = "import tensorflow as tf\n\nfrom lib import layers\n\nprint(tf.Session().run(layers.layers()))\n"
    texts, _ = migrated(tmp_path, {"lib/__init__.py": "", "lib/layers.py": PROBE, "run.py": program})
    assert "disable_eager_execution()" in texts["run.py"]
    assert texts["lib/layers.py"] == PROBE_ANSWERED
