"""What the TensorFlow rules share: the derived API table, dotted names, the user's `tf` alias, `import compat`."""

import functools
import json
import os

import libcst as cst
from libcst.codemod.visitors import AddImportsVisitor
from libcst.helpers import get_full_name_for_node

from codemods.rules._syntax import dotted  # noqa: F401 - the rules use it as _tf.dotted

TF = "tensorflow"
# markers in FileState.taken (names no Python source can bind)
NEEDS_COMPAT, COMPAT_ADDED = "<needs compat>", "<compat added>"
TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_api.json")


@functools.lru_cache(maxsize=None)
def api():
    """The table `python -m codemods.rules._gen_tf_api` derived from the installed TensorFlow."""
    with open(TABLE, encoding="utf-8") as handle:
        table = json.load(handle)
    for key in ("v1_only", "v1_only_modules"):
        table[key] = frozenset(table[key])
    return table


def tf_path(qualified):
    """`tensorflow.a.b` -> `a.b`; None for names outside TensorFlow (and for `tensorflow` itself)."""
    return qualified[len(TF) + 1 :] if qualified.startswith(TF + ".") else None


def tf_alias(rule, node=None):
    """The name this file binds to `tensorflow` (the head of `node` if it is one), else a new import."""
    if node is not None:
        head = node
        while isinstance(head, cst.Attribute):
            head = head.value
        if isinstance(head, cst.Name) and TF in rule.qualified_names(head):
            return head.value
    for name, qualified in rule.state.table.toplevel.items():
        if qualified == TF:
            return name
    alias = rule.free_name("tf", "tensorflow")
    rule.add_needed_import(TF, asname=alias)
    return alias


def ensure_compat(rule):
    """`import compat` makes legacy Keras, tf.estimator and tf-slim work on TF 2.21 (see compat/__init__.py).

    Scheduled once per file at the end of the pass; rules may then write `compat.<name>`, so it is
    skipped only when the file binds the name `compat` already.
    """
    rule.state.taken.add(NEEDS_COMPAT)


def _binds_compat(module):
    """Does the module bind the name `compat` (`import compat` or `import compat.x` without `as`)?"""
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Import):
                    for alias in small.names:
                        if alias.asname is None and full_name(alias.name).split(".")[0] == "compat":
                            return True
    return False


class CompatImport:
    """Mixin for rules calling `ensure_compat`: adds the import when the pass ends."""

    def leave_Module(self, original_node, updated_node):
        updated_node = super().leave_Module(original_node, updated_node)
        if NEEDS_COMPAT in self.state.taken and COMPAT_ADDED not in self.state.taken:
            self.state.taken.add(COMPAT_ADDED)
            scheduled = self.context.scratch.get(AddImportsVisitor.CONTEXT_KEY, [])
            plain = [i.module_name for i in scheduled if i.obj_name is None and i.alias in (None, i.module_name)]
            if not _binds_compat(updated_node) and not any(m.split(".")[0] == "compat" for m in plain):
                self.add_needed_import("compat")
        return updated_node


def claimed_by_others(rule, qualified):
    return any(p not in rule.CLAIMS for p in rule.state.claims.covering(qualified))


def full_name(node):
    return get_full_name_for_node(node) or ""

