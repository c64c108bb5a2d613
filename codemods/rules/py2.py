"""Python 2 idioms in files Python 3 parses: `xrange`, `d.iteritems()` / `itervalues()` / `iterkeys()`.

`xrange` is rewritten only when the module does not define it. Files Python 3 cannot parse at all
are ported before any rule runs, when this rule is selected (codemods/_python2.py).
"""

import libcst as cst

from codemods import _python2
from codemods._rule import Rule

ITER_METHODS = {"iteritems": "items", "itervalues": "values", "iterkeys": "keys"}


class Py2Rule(Rule):
    ID = _python2.ID
    DESCRIPTION = "Python 2 files ported to Python 3 first (fissix); xrange/iteritems in Python 3-parseable files."

    def leave_Name(self, original_node, updated_node):
        if original_node.value == "xrange" and "xrange" not in self.state.table.bound:
            self.report(original_node, "xrange -> range")
            return updated_node.with_changes(value="range")
        return updated_node

    def leave_Call(self, original_node, updated_node):
        func = updated_node.func
        if isinstance(func, cst.Attribute) and func.attr.value in ITER_METHODS and not updated_node.args:
            new = ITER_METHODS[func.attr.value]
            self.report(original_node, f".{func.attr.value}() -> .{new}()")
            return updated_node.with_changes(func=func.with_changes(attr=cst.Name(new)))
        return updated_node
