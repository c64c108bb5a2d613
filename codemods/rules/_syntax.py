"""libcst helpers every rule family shares: dotted names, and knowing when a node is inside an import."""

import libcst as cst


def dotted(name):
    """`a.b.c` as a Name/Attribute expression (also a valid `ImportFrom.module`)."""
    head, *rest = name.split(".")
    node = cst.Name(head)
    for part in rest:
        node = cst.Attribute(value=node, attr=cst.Name(part))
    return node


class InsideImport:
    """Mixin (before `Rule` in the bases): `self.in_import` is true inside an import statement.

    Names there are module paths being imported, not uses: rules rewriting uses skip them and
    handle the import itself. A subclass overriding one of these methods calls super() first.
    """

    _import_depth = 0

    @property
    def in_import(self):
        return self._import_depth > 0

    def visit_Import(self, node):
        self._import_depth += 1

    def visit_ImportFrom(self, node):
        self._import_depth += 1

    def leave_Import(self, original_node, updated_node):
        self._import_depth -= 1
        return updated_node

    def leave_ImportFrom(self, original_node, updated_node):
        self._import_depth -= 1
        return updated_node
