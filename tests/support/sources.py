"""Small TF1 sources and trees of files for uai-migrate's tests, and snapshots of trees."""

import ast
import os
import pathlib
from collections.abc import Iterator

import libcst as cst

from tests.support.processes import REPO

TF1 = "import tensorflow as tf\ntf.app.flags.DEFINE_integer('steps', 3, 'training steps')\nFLAGS = tf.app.flags.FLAGS\n"
TF1_MIGRATED = (
    "import tensorflow as tf\n"
    "import compat.flags as flags\n"
    "\n"
    "flags.DEFINE_integer('steps', 3, 'training steps')\n"
    "FLAGS = flags.FLAGS\n"
)
CONTRIB = "import tensorflow as tf\nx = tf.contrib.layers.embed_sequence\n"
PLAIN = "import os\nprint(os.sep)\n"
PY2 = "import tensorflow as tf\nprint 'hello'\n"


def write_tree(root, files):
    """Write {relative path: text} under `root` (a pathlib.Path); return `root`."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def migrate_tree(root, files, options, rule: str, given=None, **config) -> tuple[dict, dict]:
    """({path: text} of the --out folder, {path: `rule`'s messages}) of `files` (write_tree's) migrated with
    `options`, the whole tree or only the paths `given`; `config`: RunConfig's other fields."""
    from codemods._migrate_tree import RunConfig, run

    src = write_tree(root / "src", files)
    out = root / "out"
    paths = [str(src / rel) for rel in given] if given else [str(src)]
    report = run(RunConfig(paths=paths, options=options, mode="out", out=str(out), **config))
    texts = {
        os.path.relpath(os.path.join(folder, file), out): open(os.path.join(folder, file)).read()
        for folder, _, names in os.walk(out)
        for file in names
        if file.endswith(".py")
    }
    messages = {
        os.path.relpath(result.path, src): [e.message for e in result.entries if e.rule == rule]
        for result in report.files
    }
    return texts, messages


def snapshot(root):
    """{relative path: bytes or link target} of every file and symlink under `root`."""
    found = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            if os.path.islink(path):
                found[rel] = ("link", os.readlink(path))
            elif os.path.isfile(path):
                with open(path, "rb") as handle:
                    found[rel] = handle.read()
    return found


def one_line_error(err, message):
    lines = err.strip().splitlines()
    return len(lines) == 1 and message in lines[0]


def corpus_and_sample_sources() -> Iterator[tuple[pathlib.Path, str]]:
    """(path, text) of every corpus script and sample libcst parses (the Python 2 ones it cannot are left out)."""
    for folder in ("tests/corpus", "samples"):
        for path in sorted(pathlib.Path(REPO, folder).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            try:
                cst.parse_module(text)
            except cst.ParserSyntaxError:
                continue  # the Python 2 scripts: the engine ports them before any rule runs
            yield path, text


def reads_before_bound(code: str) -> list[str]:
    """Module-level reads of a name the module binds, above its first binding (defs run later)."""
    tree = ast.parse(code)
    bound_anywhere = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    bound_anywhere |= {
        a.asname or a.name.split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, ast.Import | ast.ImportFrom)
        for a in n.names
    }
    bound: set[str] = set()
    early: list[str] = []
    for statement in tree.body:
        if not isinstance(statement, ast.FunctionDef):
            reads = {n.id for n in ast.walk(statement) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
            early += sorted((reads & bound_anywhere) - bound)
        for node in ast.walk(statement):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                bound.add(node.id)
            elif isinstance(node, ast.Import | ast.ImportFrom):
                bound.update(a.asname or a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.FunctionDef):
                bound.add(node.name)
    return early
