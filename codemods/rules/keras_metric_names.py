"""`model.compile(..., metrics=["accuracy"])` -> `metrics=["acc"]` in TF 1.x code, with `import compat`.

TF 1.x's Keras named the metric given as "accuracy" (or "acc") `acc`: history["acc"], "val_acc" for validation, its
logs, and the `monitor="val_acc"` of TF 1.x's Keras examples (ModelCheckpoint, EarlyStopping, ReduceLROnPlateau).
TF 2's Keras names a metric as given: "accuracy" is `accuracy`. Measured on TF 2.15 (tf-keras on 2.21 alike): a
ModelCheckpoint(monitor="val_acc", save_best_only=True) then writes no checkpoint at all (a logged warning each
epoch), EarlyStopping never stops and history["acc"] is a KeyError; Keras 3 raises at the first epoch. Given "acc",
TF 2's Keras computes the same metric (it resolves both strings alike) and names it `acc`, as TF 1.x did, so the
program reads what it read. `import compat`: the file is TF 1.x Keras code, which is Keras 2's (tf-keras on
TF >= 2.16).

"crossentropy" likewise: TF 1.x named it `ce`, TF 2 names it as given, and takes "ce" as TF 1.x's name of it.

A method call's receiver is not known before run time: the call is a `compile` with a `metrics=` or
`weighted_metrics=` keyword (or metrics third, positionally) holding the string, in a module that imports
TensorFlow; or holding a name (`metrics=METRICS`) the module binds once, to a list, tuple or dict
(`METRICS = ["accuracy"]`), whose strings are renamed there. A name bound more than once is left as written. A file
that reads TF 2's names (`val_accuracy`, `history["accuracy"]`, `monitor="accuracy"`) is left as written: TF 1.x's
Keras had no such key, so it is TF 2 code.
"""

import ast
import re

import libcst as cst

from codemods.engine.rule import FileState, Rule
from codemods.rule_description import Example
from codemods.rules import _shared, _tf

# a metric string -> the name TF 1.x's Keras gave it, which TF 2's takes as written (measured on TF 1.15: metrics=
# ["accuracy", "crossentropy"] gave history ['loss', 'acc', 'ce']; TF 2.15 ['loss', 'accuracy', 'crossentropy'])
TF1_NAMES = {"accuracy": "acc", "crossentropy": "ce"}
_KEYWORDS = frozenset({"metrics", "weighted_metrics"})
_METRICS_POSITION = 2  # compile(optimizer, loss, metrics, ...)
# a read of a key only TF 2's Keras wrote: the file is TF 2 code
_TF2_READS = re.compile(
    r"""\bval_(?:accuracy|crossentropy)\b|[\w)\]]\s*\[\s*(['"])(?:accuracy|crossentropy)\1\s*\]"""
    r"""|monitor\s*=\s*(['"])(?:accuracy|crossentropy)\2"""
)


def _is_metrics(arg: ast.keyword | ast.expr, index: int) -> bool:
    return arg.arg in _KEYWORDS if isinstance(arg, ast.keyword) else index == _METRICS_POSITION


def _named_lists(tree: ast.Module) -> frozenset[str]:
    """The names a `compile` call reads its metrics from (`metrics=METRICS`) that the module (its `ast`, the
    engine's) binds once, by `NAME = [...]` (a list, tuple or dict): which value the call reads is then known."""
    read: set[str] = set()
    bindings: dict[str, list[ast.AST]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "compile":
            arguments: list[ast.keyword | ast.expr] = [*node.args, *node.keywords]
            for index, arg in enumerate(arguments):
                value = arg.value if isinstance(arg, ast.keyword) else arg
                if isinstance(value, ast.Name) and _is_metrics(arg, index):
                    read.add(value.id)
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bindings.setdefault(node.id, []).append(node)
        elif isinstance(node, ast.arg):
            bindings.setdefault(node.arg, []).append(node)
        elif isinstance(node, ast.alias):
            bindings.setdefault((node.asname or node.name).split(".")[0], []).append(node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bindings.setdefault(node.name, []).append(node)
    once = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name in read and len(bindings[name]) == 1 and isinstance(node.value, (ast.List, ast.Tuple, ast.Dict)):
                once.add(name)
    return frozenset(once)


def _renamed(node: cst.BaseExpression) -> tuple[cst.BaseExpression, list[str]]:
    """`node` (a metrics argument: a list, tuple or per-output dict of them) with TF 1.x's names, and what changed."""
    if isinstance(node, cst.SimpleString) and node.evaluated_value in TF1_NAMES:
        old = str(node.evaluated_value)
        return node.with_changes(value=node.prefix + node.quote + TF1_NAMES[old] + node.quote), [old]
    if isinstance(node, (cst.List, cst.Tuple)):
        changed: list[str] = []
        elements = []
        for element in node.elements:
            value, names = _renamed(element.value)
            elements.append(element.with_changes(value=value))
            changed += names
        return node.with_changes(elements=elements), changed
    if isinstance(node, cst.Dict):
        changed, items = [], []
        for item in node.elements:
            if isinstance(item, cst.DictElement):
                value, names = _renamed(item.value)
                item = item.with_changes(value=value)
                changed += names
            items.append(item)
        return node.with_changes(elements=items), changed
    return node, []


class KerasMetricNamesRule(Rule):
    ID = "keras-metric-names"
    DESCRIPTION = (
        'compile(metrics=["accuracy"]) -> metrics=["acc"] in TF 1.x code: TF 1.x named it acc (history["acc"], '
        "val_acc, a callback's monitor), TF 2 names it as given."
    )
    ORDER = 106
    EXAMPLE = Example(
        why="TF 1.x's Keras named the \"accuracy\" metric acc; TF 2's names it accuracy, so a TF 1.x program's "
        'ModelCheckpoint(monitor="val_acc", save_best_only=True) writes nothing, EarlyStopping never stops and '
        'history["acc"] fails. Given "acc", TF 2 computes the same metric under TF 1.x\'s name.',
        before='import tensorflow as tf\nmodel.compile(optimizer="sgd", loss="mse", metrics=["accuracy"])\n',
        after='import compat\nimport tensorflow as tf\nmodel.compile(optimizer="sgd", loss="mse", metrics=["acc"])\n',
    )
    WORDS = frozenset({"compile", *TF1_NAMES})  # (a metrics list bound to a name holds the metric's string)

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._active = _tf.imports_tensorflow(state) and not _TF2_READS.search(state.source)
        self._named = _named_lists(state.syntax) if self._active and "compile" in state.source else frozenset()

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        target = original_node.targets[0].target if len(original_node.targets) == 1 else None
        if not (isinstance(target, cst.Name) and target.value in self._named):
            return updated_node
        value, changed = _renamed(updated_node.value)
        if not changed:
            return updated_node
        _tf.ensure_compat(self)
        self.report(
            original_node,
            f'{target.value} = ["{changed[0]}"] (compile\'s metrics) -> "{TF1_NAMES[changed[0]]}": {self._why(changed[0])}',
        )
        return updated_node.with_changes(value=value)

    @staticmethod
    def _why(old: str) -> str:
        new = TF1_NAMES[old]
        return (
            f"TF 1.x's Keras named it {new} (history, val_{new}, a callback's monitor), TF 2's names it as given; "
            "import compat (TF 1.x's Keras code: Keras 2)"
        )

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = original_node.func
        if not (self._active and isinstance(func, cst.Attribute) and func.attr.value == "compile"):
            return updated_node
        args, changed = [], []
        for index, arg in enumerate(updated_node.args):
            keyword = _shared.keyword_of(arg)
            if keyword in _KEYWORDS or (keyword is None and not arg.star and index == _METRICS_POSITION):
                value, names = _renamed(arg.value)
                arg = arg.with_changes(value=value)
                changed += names
            args.append(arg)
        if not changed:
            return updated_node
        _tf.ensure_compat(self)
        self.report(
            original_node,
            f'compile(metrics=["{changed[0]}"]) -> "{TF1_NAMES[changed[0]]}": {self._why(changed[0])}',
        )
        return updated_node.with_changes(args=args)
