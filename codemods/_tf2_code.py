"""Is a file TF 2 code, whose TensorFlow names uai-migrate must not read as TF1's?

The tf1-api rule reads every `tf.X` as TF1's name: `tf.summary.scalar`, `tf.Variable`, `tf.train.Checkpoint` become
`tf.compat.v1.*`, which is right in a TF1 program and breaks TF 2 code (`tf.compat.v1.summary.scalar` takes no
`step`). A file is TF 2 code when it names something only TF 2 has (the tables' `v2_only`: no TF1 program could
name it; a TF 2-only method of an object a TensorFlow class made, `ckpt.read` of `ckpt = tf.train.Checkpoint(...)`
where the file binds `ckpt` once, counts) or calls a summary op with TF 2's `step=`, and names nothing TF 2's `tf`
lacks (the tables' `v1_only` and `moved` names, `tf.contrib`). codemods/_migrate_file.py then runs the rules without
tf1-api: what TF 2 code may still need is done (compat's `tf.estimator`, an Estimator strategy's graph mode, NumPy's
removed names), and a native port, or a TF 2 module of a tree being migrated, keeps its names. A file of both is left
to all the rules: its TF1 names need them. A notebook's cells are read as one file: they share one namespace.

A native port names only what TF 1.15 also had (`tf.Variable`, `tf.train.Checkpoint`): nothing in it proves TF 2, so
`--level native` writes the pragma `# uai-migrate: tf2` into each port it made fully TF 2 (a native rule converted
something, and no `tf.compat.v1` name or name TF 2 lacks is left), and a file holding it is TF 2 code at every level,
as a file with `# type: ignore` is ignored by a type checker: read only on a line of its own in the comments before
the file's first code (a notebook's first code cell), as PEP 484 reads that one. A file holding it that names what
TF 2 lacks is migrated as TF1 code, with a warning naming that name: never half-ported.
"""

import ast
import functools
import re
from collections.abc import Iterable, Sequence

from codemods import tables
from codemods._report import TF2_CODE
from codemods.engine.names import bindings
from codemods.rule_description import Example

TF = "tensorflow"
PRAGMA = "# uai-migrate: tf2"
_PRAGMA = re.compile(r"[ \t]*#[ \t]*uai-migrate:[ \t]*tf2[ \t]*")
# what may precede the pragma: line 1's shebang, and PEP 263's encoding line, which is read only on line 1 or 2
_SHEBANG = re.compile(r"#!")
_ENCODING = re.compile(r"[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+")

# what `uai-migrate --explain tf2-code` shows (codemods/explain.py)
ID = TF2_CODE
LEVEL = "every"
DESCRIPTION = (
    f"A file of TF 2 code keeps its tf names as TF 2's: one holding the line `{PRAGMA}` before its first code "
    "(a notebook: in its first code cell), which --level native writes into each port it made fully TF 2, or one "
    "naming something only TF 2 has (tf.summary.create_file_writer, a summary op's step=)"
)
EXAMPLE = Example(
    why="tf1-api reads tf.Variable and tf.train.Checkpoint as TF1's and writes tf.compat.v1's (and tf-device reads "
    "tf.device(x) as TF1's, which took a device function), which is right in a TF1 program and puts graph-era names "
    "back into an eager port; in TF 2 code neither runs. The pragma says which a file is. A file holding "
    "it that names what TF 2's tf lacks (tf.placeholder) is migrated as TF1 code, with a warning naming that name.",
    before=f"{PRAGMA}\nimport tensorflow as tf\n\nv = tf.Variable(1.0)\ncheckpoint = tf.train.Checkpoint(v=v)\n",
    after=f"{PRAGMA}\nimport tensorflow as tf\n\nv = tf.Variable(1.0)\ncheckpoint = tf.train.Checkpoint(v=v)\n",
)
SUMMARIES = frozenset({"summary.scalar", "summary.histogram", "summary.image", "summary.audio", "summary.text"})


class _Chains(ast.NodeVisitor):
    """One walk: the imports of TensorFlow, and each attribute chain read (`tf.summary.scalar`) with the node of each
    of its prefixes, the outermost chain only (its inner attributes are its prefixes)."""

    def __init__(self) -> None:
        self.bound: dict[str, str] = {}
        self.imported: list[tuple[str, ast.AST, int]] = []  # (qualified name, its import, index of its tree)
        self.chains: list[tuple[str, list[tuple[str, ast.AST]], int]] = []  # (head name, [(attr, node), ...], index)
        self.calls: set[int] = set()  # id(func) of each call given step=
        self.index = 0  # of the tree walked: a notebook's cells share one namespace
        # `ckpt = tf.train.Checkpoint(...)`: name -> (the call's head name, its attributes); a name bound once only
        self.made: dict[str, tuple[str, list[str]]] = {}
        self.binds: dict[str, int] = {}  # name -> how often the modules bind it

    def visit_Import(self, node: ast.Import) -> None:
        self._bind(node, bindings(node))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        self._bind(node, bindings(node))

    def _bind(self, node: ast.AST, found: Iterable[tuple[str, str | None]]) -> None:
        for name, qualified in found:
            self.binds[name] = self.binds.get(name, 0) + 1
            if qualified and qualified.split(".")[0] == TF:
                self.bound[name] = qualified
                self.imported.append((qualified, node, self.index))

    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Load):
            self.binds[node.id] = self.binds.get(node.id, 0) + 1

    def visit_arg(self, node: ast.arg) -> None:
        self.binds[node.arg] = self.binds.get(node.arg, 0) + 1
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call):
            attrs, func = [], node.value.func
            while isinstance(func, ast.Attribute):
                attrs.append(func.attr)
                func = func.value
            if isinstance(func, ast.Name) and attrs:
                self.made[node.targets[0].id] = (func.id, attrs[::-1])
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if any(keyword.arg == "step" for keyword in node.keywords):
            self.calls.add(id(node.func))
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        parts: list[tuple[str, ast.AST]] = []
        value: ast.AST = node
        while isinstance(value, ast.Attribute):
            parts.append((value.attr, value))
            value = value.value
        if isinstance(value, ast.Name) and isinstance(node.ctx, ast.Load):
            self.chains.append((value.id, parts[::-1], self.index))
        else:
            self.visit(value)  # (a call or subscript inside the chain: its own chains)


def _paths(trees: Sequence[ast.Module]) -> tuple[list[tuple[str, ast.AST, int]], set[int]]:
    """((path below `tensorflow.`, node, index of its tree) for each TensorFlow name the modules import or read
    through the names they bind to TensorFlow, id(func) of the calls given `step=`)."""
    walk = _Chains()
    for walk.index, tree in enumerate(trees):
        walk.visit(tree)
    # the imports name modules too (`from tensorflow.contrib import slim`)
    found: list[tuple[str, ast.AST, int]] = [
        (q[len(TF) + 1 :], node, index) for q, node, index in walk.imported if q.startswith(TF + ".")
    ]
    for head, parts, index in walk.chains:
        if head in walk.bound:
            path = walk.bound[head]
            for attr, node in parts:
                path += "." + attr
                found.append((path[len(TF) + 1 :], node, index))
        elif head in walk.made and walk.binds.get(head) == 1 and walk.made[head][0] in walk.bound:
            # (a method of an object a TensorFlow class made: `ckpt.read` is `tensorflow.train.Checkpoint.read`)
            made, attrs = walk.made[head]
            path = ".".join([walk.bound[made], *attrs, parts[0][0]])
            found.append((path[len(TF) + 1 :], parts[0][1], index))
    return found, walk.calls


def _tf1_only(path: str, api: dict) -> bool:
    return (
        path in api["v1_only"]
        or path in api["moved"]
        or path.split(".")[0] in api["v1_only_modules"]
        or path.startswith("contrib")
    )


_DOTTED = re.compile(r"(?=\b(\w+\.\w+))")  # each `a.b` of the text, overlapping (`tf.summary`, `summary.write`)
_STEP = re.compile(r"[(,]\s*step\s*=")
# what the text of a TF 2-only name's use may not hold: a name imported alone (`create_file_writer(...)`, `eig`), or a
# module read through another name (`from tensorflow import summary as tfs`; what tensorflow.compat holds is TF1's
# or both's)
_FROM_TF = re.compile(r"^\s*from\s+tensorflow[.\s]|\btensorflow\.(?!compat\b)[\w.]+\s+as\s", re.M)


@functools.cache
def _candidates() -> tuple[frozenset[str], re.Pattern[str], re.Pattern[str]]:
    """(the last two parts of each TF 2-only name, `summary.write`; a pattern of the TF 2-only names of `tf` itself,
    `.eig`; a pattern of a call of a class with a TF 2-only attribute, `Checkpoint(`, whose object may read it)."""
    names = tables.tf_api()["v2_only"]
    top = "|".join(re.escape(p) for p in sorted(names) if "." not in p)
    classes = sorted({p.split(".")[-2] for p in names if "." in p and p.split(".")[-2][:1].isupper()})
    made = re.compile(rf"\b(?:{'|'.join(map(re.escape, classes))})\(")
    return frozenset(".".join(p.split(".")[-2:]) for p in names if "." in p), re.compile(rf"\.(?:{top})\b"), made


def _may_be(text: str) -> bool:
    """Does the text hold what TF 2 code must: a TF 2-only name's last two parts, a `step=` keyword, an import from
    TensorFlow or a TensorFlow module's alias, or an object made of a class with a TF 2-only method? Most files hold
    none, and are not walked (the walk costs about a third of a parse)."""
    pairs, top, made = _candidates()
    return bool(_STEP.search(text) or top.search(text) or _FROM_TF.search(text) or made.search(text)) or not (
        pairs.isdisjoint(_DOTTED.findall(text))
    )


def evidence(trees: Sequence[ast.Module], text: str | None = None) -> tuple[str, int, int] | None:
    """(`tf.<name>` that makes the modules of one namespace (a file; a notebook's cells, `text` all of theirs) TF 2
    code: `tf.summary.create_file_writer`, `tf.summary.scalar(step=)`, its line, the index of its module), or None:
    they name nothing only TF 2 has, or also something TF 2's `tf` lacks."""
    if text is not None and not _may_be(text):
        return None
    api = tables.tf_api()
    paths, calls = _paths(trees)
    if any(_tf1_only(path, api) for path, _, _ in paths):
        return None
    for path, node, index in paths:
        if path in api["v2_only"]:
            return f"tf.{path}", getattr(node, "lineno", 0), index
    for path, node, index in paths:
        if path in SUMMARIES and id(node) in calls:
            return f"tf.{path}(step=...)", getattr(node, "lineno", 0), index
    return None


def pragma_line(text: str) -> int | None:
    """The line of `# uai-migrate: tf2` among the comments before the text's first code, or None."""
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            return None
        if _PRAGMA.fullmatch(line.rstrip("\r")):
            return number
    return None


def tf1_name(trees: Sequence[ast.Module]) -> tuple[str, int, int] | None:
    """(the first `tf.<name>` of the modules that TF 2's tf lacks, its line, the index of its module), or None."""
    api = tables.tf_api()
    paths, _ = _paths(trees)
    found = [(index, getattr(node, "lineno", 0), path) for path, node, index in paths if _tf1_only(path, api)]
    if not found:
        return None
    index, line, path = min(found)
    return f"tf.{path}", line, index


def fully_tf2(trees: Sequence[ast.Module]) -> bool:
    """Does what the modules name of TensorFlow hold no `tf.compat.v1` name and nothing TF 2's tf lacks (where
    `--level native` may write the pragma)? The walk is the one that reads the evidence above."""
    api = tables.tf_api()
    paths, _ = _paths(trees)
    return not any(path == "compat.v1" or path.startswith("compat.v1.") or _tf1_only(path, api) for path, _, _ in paths)


def with_pragma(text: str) -> tuple[str, int]:
    """(the text with the pragma on a line of its own after its shebang and encoding lines, the pragma's line): a
    comment there keeps the docstring the module's and `from __future__` imports its first statements."""
    lines = text.splitlines(keepends=True)
    at = 0
    for number, line in enumerate(lines[:2]):
        if (number == 0 and _SHEBANG.match(line)) or _ENCODING.match(line):
            at = number + 1
    newline = "\r\n" if lines[:1] and lines[0].endswith("\r\n") else "\n"
    head = "".join(lines[:at])
    if head and not head.endswith("\n"):
        head += newline
    return head + PRAGMA + newline + "".join(lines[at:]), at + 1
