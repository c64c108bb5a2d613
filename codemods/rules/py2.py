"""Python 2 idioms in files Python 3 parses: `xrange`, `d.iteritems()` / `itervalues()` / `iterkeys()`,
Python 2 modules (`import cPickle` -> `import pickle as cPickle`, `urllib.urlretrieve` -> `urllib.request.urlretrieve`).

`xrange` is rewritten only when the module does not define it. Files Python 3 cannot parse at all
are ported before any rule runs, when this rule is selected (codemods/_python2.py).
"""

from typing import cast

import libcst as cst

from codemods import _python2
from codemods.engine.rule import Rule
from codemods.engine.syntax import InsideImport, dotted, head_name, renamed_keeping_local_names
from codemods.rule_description import Example

ITER_METHODS = {"iteritems": "items", "itervalues": "values", "iterkeys": "keys"}
MODULES = {"cPickle": "pickle"}  # Python 2 module -> the Python 3 one with the same API
# Python 2's urllib functions -> the Python 3 submodule that has them (as 2to3's fix_urllib)
URLLIB = {
    **{name: "request" for name in ("urlretrieve", "urlopen", "urlcleanup", "pathname2url", "url2pathname")},
    **{name: "parse" for name in ("urlencode", "quote", "quote_plus", "unquote", "unquote_plus")},
}
URLLIB_NAMES = frozenset(f"urllib.{name}" for name in URLLIB)


class Py2Rule(InsideImport, Rule):
    ID = _python2.ID
    DESCRIPTION = "Python 2 files ported to Python 3 first (fissix); xrange/iteritems in Python 3-parseable files."
    ORDER = 10
    EXAMPLE = Example(
        why="Python 3 cannot parse a Python 2 file at all, and xrange/iteritems fail at run time.",
        before="import tensorflow as tf\nfor i in xrange(3):\n    print(tf.constant(i))\n",
        after="import tensorflow as tf\nfor i in range(3):\n    print(tf.constant(i))\n",
    )
    WORDS = frozenset({"xrange", *ITER_METHODS, *MODULES, "urllib"})
    ROOTS = frozenset({"urllib"})  # `import urllib as u; u.urlretrieve(...)`

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        if original_node.value == "xrange" and "xrange" not in self.state.table.bound:
            self.report(original_node, "xrange -> range")
            return updated_node.with_changes(value="range")
        return updated_node

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        func = updated_node.func
        if isinstance(func, cst.Attribute) and func.attr.value in ITER_METHODS and not updated_node.args:
            new = ITER_METHODS[func.attr.value]
            self.report(original_node, f".{func.attr.value}() -> .{new}()")
            return updated_node.with_changes(func=func.with_changes(attr=cst.Name(new)))
        return updated_node

    def leave_Import(
        self, original_node: cst.Import, updated_node: cst.Import
    ) -> cst.BaseSmallStatement | cst.FlattenSentinel[cst.BaseSmallStatement] | cst.RemovalSentinel:
        # (the mixins return the node itself)
        updated_node = cast(cst.Import, super().leave_Import(original_node, updated_node))
        names = renamed_keeping_local_names(
            updated_node.names,
            MODULES,
            lambda old: self.report(original_node, f"import {old} -> import {MODULES[old]} (Python 3)"),
        )
        return updated_node.with_changes(names=names)

    def leave_ImportFrom(
        self, original_node: cst.ImportFrom, updated_node: cst.ImportFrom
    ) -> cst.BaseSmallStatement | cst.FlattenSentinel[cst.BaseSmallStatement] | cst.RemovalSentinel:
        # (the mixins return the node itself)
        updated_node = cast(cst.ImportFrom, super().leave_ImportFrom(original_node, updated_node))
        module = updated_node.module
        if not updated_node.relative and isinstance(module, cst.Name) and module.value in MODULES:
            self.report(original_node, f"from {module.value} -> from {MODULES[module.value]} (Python 3)")
            return updated_node.with_changes(module=cst.Name(MODULES[module.value]))
        if (
            isinstance(module, cst.Name)
            and module.value == "urllib"
            and not isinstance(updated_node.names, cst.ImportStar)
        ):
            homes = {URLLIB.get(alias.evaluated_name) for alias in updated_node.names}
            if len(homes) == 1 and None not in homes:
                new = f"urllib.{homes.pop()}"
                self.report(original_node, f"from urllib import ... -> from {new} import ... (Python 3)")
                return updated_node.with_changes(module=dotted(new))
            if homes - {None}:
                self.report(
                    original_node,
                    "from urllib import ... mixes names of urllib.request and urllib.parse",
                    severity="warning",
                    manual="import each from urllib.request or urllib.parse",
                )
        return updated_node

    def leave_Attribute(self, original_node: cst.Attribute, updated_node: cst.Attribute) -> cst.BaseExpression:
        if self.in_import:
            return updated_node
        name = self.match(original_node, URLLIB_NAMES)
        if name is None:
            return updated_node
        attr = name.rpartition(".")[2]
        submodule = f"urllib.{URLLIB[attr]}"
        self.add_needed_import(submodule)
        self.report(original_node, f"{name} -> {submodule}.{attr} (Python 3)")
        return dotted(f"{head_name(original_node)}.{URLLIB[attr]}.{attr}")
