"""What the TensorFlow rules share: the derived API table, dotted names, the user's `tf` alias, `import compat`."""

import ast
import functools
import importlib.util
import os
from typing import TYPE_CHECKING, cast

import libcst as cst
from libcst.helpers import get_full_name_for_node

from codemods import tables
from codemods.engine.rule import FileState, Rule
from codemods.engine.syntax import dotted, head  # noqa: F401 - the rules use dotted as _tf.dotted
from compat import tf1_names
from compat.tf1_names import TF  # (the rules read it as _tf.TF)

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec

api = tables.tf_api  # the table derived from the installed TensorFlow (codemods/tables)


def tf_path(qualified: str) -> str | None:
    """`tensorflow.a.b` -> `a.b`; None for names outside TensorFlow (and for `tensorflow` itself)."""
    return qualified[len(TF) + 1 :] if qualified.startswith(TF + ".") else None


def v1_spelling(module: str) -> str:
    """`tensorflow.a` -> `tensorflow.compat.v1.a`, tf1-api's home for a TF1 module; other modules unchanged."""
    if module == TF or (tf_path(module) or "").partition(".")[0] not in ("", "compat"):
        return f"{TF}.compat.v1{module[len(TF) :]}"
    return module


def under(name: str, prefixes: tuple[str, ...]) -> bool:
    """Is the qualified `name` one of `prefixes` or a name below one (`tensorflow.layers.dense` under `tensorflow.layers`)?"""
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def tf_alias(rule: Rule, node: cst.CSTNode | None = None) -> str:
    """The name this file binds to `tensorflow` (the head of `node` if it is one), else a new import."""
    if node is not None:
        first = head(node)
        if isinstance(first, cst.Name) and TF in rule.qualified_names(first):
            return first.value
    for name, qualified in rule.state.table.toplevel.items():
        if qualified == TF:
            return name
    alias = rule.free_name("tf", "tensorflow")
    rule.add_needed_import(TF, asname=alias)
    return alias


def imports_tensorflow(state: FileState) -> bool:
    """Does the module import TensorFlow (any module of it)? A method call's receiver is not known before run time:
    in such a module, a method with a keyword only TensorFlow's took is TensorFlow's."""
    imported = [q for qs in state.table.imported.values() for q in qs] + list(state.table.toplevel.values())
    return any(q.split(".")[0] == TF for q in imported)


def ensure_compat(rule: Rule) -> None:
    """`import compat` makes legacy Keras, tf.estimator and tf-slim work on TF 2.21 (see compat/__init__.py).

    The engine adds it once, when the pass ends (codemods.engine.imports); rules may then write `compat.<name>`.
    """
    rule.state.needs_compat = True


# where tf.keras lives for a TF1 program (`tensorflow.python.keras` is TF 1.x's private home of it)
_KERAS = tuple(f"{TF}.{home}keras" for home in ("", "compat.v1.", "python."))


def is_keras(qualified: str) -> bool:
    """Is the qualified name tf.keras or below it (where `import compat` decides which Keras it is)?"""
    return any(qualified == k or qualified.startswith(k + ".") for k in _KERAS)


def claimed_by_others(rule: Rule, qualified: str) -> bool:
    return any(p not in rule.CLAIMS for p in rule.state.claims.covering(qualified))


def full_name(node: cst.CSTNode) -> str:
    return get_full_name_for_node(node) or ""


def _compat_source(module: str) -> str:
    """The source file of a compat module, found from compat's folder: `find_spec("compat.learn.monitors")`
    would import `compat.learn`, and with it TensorFlow."""
    spec = cast("ModuleSpec", importlib.util.find_spec("compat"))  # compat itself never imports TensorFlow
    path = os.path.join(os.path.dirname(cast(str, spec.origin)), *module.split(".")[1:])
    return os.path.join(path, "__init__.py") if os.path.isdir(path) else path + ".py"


@functools.cache
def compat_exports(module: str) -> tuple[str, ...]:
    """A compat module's `__all__`, read from its source: migrating never imports TensorFlow, which
    some compat modules do (compat.learn)."""
    with open(_compat_source(module), encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            return tuple(ast.literal_eval(node.value))
    return ()


def _is_module(module: str, name: str) -> bool:
    """Is there a module `name` in compat package `module` (a file or a folder)?"""
    return os.path.exists(_compat_source(f"{module}.{name}"))


def compat_has(module: str) -> bool:
    """Is there a compat module of that name? Read from the files: importing compat.learn imports TensorFlow."""
    package, _, name = module.rpartition(".")
    return compat_has(package) and _is_module(package, name) if package else module == "compat"


def compat_provides(module: str, name: str) -> bool:
    """Does compat module `module` (one compat has) hold `name`: a submodule, or one of its `__all__`?
    (a module without `__all__` is taken to hold every name)"""
    exports = compat_exports(module)
    return _is_module(module, name) or not exports or name in exports


def is_served_contrib_module(name: str) -> bool:
    """A contrib module of which compat/tf1_names.py has at least one name (not itself a moved name):
    compat.tf1_modules serves it as a module object. Below a package moved to compat, only a module compat
    has (`contrib.learn.python.learn.preprocessing` is none: its names have no home)."""
    if not name.startswith(tf1_names.TF + ".contrib") or name in tf1_names.SYMBOLS:
        return False
    if name in tf1_names.MODULES or tf1_names.has_entries_below(name):
        return True
    moved = tf1_names.move_package(name)
    return moved is not None and (not moved.startswith("compat.") or compat_has(moved))


def contrib_module_alias(rule: Rule, node: cst.Assign) -> str | None:
    """The served contrib module `node` binds to a name (`layers = tf.contrib.layers`) that no rule converts, else None.
    (`x = contrib_opt`, an alias of an imported contrib module, is that import's.)"""
    if len(node.targets) != 1 or not isinstance(node.targets[0].target, cst.Name):
        return None
    if not isinstance(node.value, cst.Attribute) or rule.qualified_names(head(node.value)) != {tf1_names.TF}:
        return None
    # a module the table lists or has names below (below a moved package, `tf.contrib.slim.GDN` is a name, not a
    # module), which no active rule converts (contrib-slim makes `slim = tf.contrib.slim` an import)
    served = [tf1_names.tf1_name(n) for n in rule.qualified_names(node.value)]
    modules = (n for n in served if is_served_contrib_module(n) and not rule.state.claims.covering(n))
    return min((n for n in modules if n in tf1_names.MODULES or tf1_names.has_entries_below(n)), default=None)
