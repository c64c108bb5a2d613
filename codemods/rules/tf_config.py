"""The hand-written TF_CONFIG `master` -> `chief` rewrites users copied from the TF 2.0 example -> compat.tf_config.

The example read TF_CONFIG, renamed the `master` job and task type to `chief` and wrote it back,
so that TF2 strategies accept it; it crashed on a cluster without `master` and on one worker.
A function (or a top-level `if` block) that does exactly this - reads and assigns
os.environ["TF_CONFIG"], mentions "master" and "chief", takes no argument and returns nothing -
gets compat's validated translation, which accepts every dialect. Anything else that rewrites
TF_CONFIG by hand (an evaluator carved out of the workers, a returned dict ...) is reported.
"""

from typing import cast

import libcst as cst

from codemods.engine.rule import FileState, Rule
from codemods.engine.syntax import after_docstring
from codemods.rule_description import Example

MANUAL = (
    "replace the hand-written TF_CONFIG rewrite with `from compat import tf_config; "
    "cfg = tf_config.from_environment()` and `tf_config.use(cfg, 'chief')` (or tf_config.to_json(cfg, 'chief'))"
)


class _Facts(cst.CSTVisitor):
    def __init__(self) -> None:
        self.strings: set[str | bytes] = set()
        self.writes, self.returns = False, False

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        try:
            self.strings.add(node.evaluated_value)
        except Exception:  # bytes or odd escapes: not one of ours
            pass

    def visit_Return(self, node: cst.Return) -> None:
        self.returns |= node.value is not None

    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        target = node.target
        if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Attribute):
            if target.value.attr.value == "environ":
                index = target.slice[0].slice if target.slice else None
                if isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString):
                    self.writes |= index.value.evaluated_value == "TF_CONFIG"


def _facts(node: cst.CSTNode) -> _Facts:
    facts = _Facts()
    node.visit(facts)
    return facts


def _rewrites_tf_config(facts: _Facts) -> bool:
    return facts.writes and {"TF_CONFIG", "master", "chief"} <= facts.strings


class TFConfigRule(Rule):
    ID = "tf-config"
    DESCRIPTION = "Hand-written TF_CONFIG master->chief rewrites -> compat.tf_config (validated, every dialect)."
    ORDER = 60
    EXAMPLE = Example(
        why="A hand-written master->chief rewrite handles one dialect and breaks on the others; "
        "compat.tf_config reads and validates every dialect.",
        before='import json, os\nif "TF_CONFIG" in os.environ:\n    cfg = json.loads(os.environ["TF_CONFIG"])\n'
        '    cfg["cluster"]["chief"] = cfg["cluster"].pop("master")\n'
        '    os.environ["TF_CONFIG"] = json.dumps(cfg)\nimport tensorflow as tf\n',
        after="import json, os\nfrom compat import tf_config\n\n_cluster = tf_config.from_environment()\n"
        'if _cluster.is_distributed:\n    os.environ["TF_CONFIG"] = tf_config.to_json(_cluster, "chief")\n'
        "import tensorflow as tf\n",
    )
    WORDS = frozenset({"TF_CONFIG"})  # in a string literal of the statement it rewrites

    def _replacement(self) -> list[cst.BaseStatement]:
        alias = self.free_name("tf_config", "compat_tf_config")
        self.add_needed_import("compat", "tf_config", asname=alias if alias != "tf_config" else None)
        code = (
            f"_cluster = {alias}.from_environment()\n"
            "if _cluster.is_distributed:\n"
            f'    os.environ["TF_CONFIG"] = {alias}.to_json(_cluster, "chief")\n'
        )
        return list(cst.parse_module(code).body)

    def _handle(self, original: cst.FunctionDef | cst.If, kind: str) -> list[cst.BaseStatement] | None:
        facts = _facts(original)
        if not _rewrites_tf_config(facts):
            return None
        simple = "evaluator" not in facts.strings and not facts.returns
        if kind == "def":
            params = cast(cst.FunctionDef, original).params  # (kind "def": a def)
            simple &= not (params.params or params.kwonly_params or params.posonly_params)
            simple &= not isinstance(params.star_arg, cst.Param) and params.star_kwarg is None
        if not simple:
            self.report(original, "hand-written TF_CONFIG rewrite not converted", severity="error", manual=MANUAL)
            return None
        self.add_needed_import("os")
        self.report(original, "hand-written TF_CONFIG master->chief rewrite -> compat.tf_config (chief dialect)")
        return self._replacement()

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        # one flag per enclosing def: does it hold a "TF_CONFIG" literal? Only those get the (costly,
        # whole-subtree) _facts look, not every function of every file.
        self._open: list[bool] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._open.append(False)

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        if self._open and "TF_CONFIG" in node.value:
            self._open = [True] * len(self._open)

    def leave_FunctionDef(
        self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement] | cst.RemovalSentinel:
        if not self._open.pop():
            return updated_node
        new = self._handle(original_node, "def")
        if new is None:
            return updated_node
        body = updated_node.body.body
        keep = list(body[: after_docstring(body)])
        return updated_node.with_changes(body=updated_node.body.with_changes(body=[*keep, *new]))

    def leave_If(
        self, original_node: cst.If, updated_node: cst.If
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement] | cst.RemovalSentinel:
        if self._open or not isinstance(original_node.test, cst.Comparison):
            return updated_node
        if not _mentions_tf_config(original_node.test):
            return updated_node
        new = self._handle(original_node, "if")
        return cst.FlattenSentinel(new) if new is not None else updated_node


def _mentions_tf_config(test: cst.BaseExpression) -> bool:
    return "TF_CONFIG" in _facts(test).strings
