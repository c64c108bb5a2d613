"""A tf.contrib module the program reads as a value gets compat's module object for it.

TF1 code hands contrib modules around (tensor2tensor's `utils/contrib.py`: `from tensorflow.contrib import
opt as contrib_opt; return contrib_opt`), so its callers read names off a module no rule sees. An import
of a contrib module whose name the file reads bare (returned, passed, assigned) becomes an assignment of
`compat.tf1_modules.tf1_module("<the TF1 module>")`: the object whose names resolve through
compat/tf1_names.py, the table uai-run's face and the other rules read, as uai-run serves them. Its
names with no TF 2 home fail where they are read, in one line naming them, so the binding is a warning
entry. The names the file itself reads off the module (`contrib_opt.X`) are the other rules' (converted,
or reported by contrib-removed) as before.

An alias of one (`layers = tf.contrib.layers`) reads the module as a value too, and gets the same object.

Not converted (contrib-removed reports them as before): a module the table has no name of (its every name
would fail), an import of several names, `import tensorflow.contrib.x` without an alias.
"""

import ast
from typing import cast

import libcst as cst

from codemods.engine.rule import FileState, Rule
from codemods.rule_description import Example
from codemods.rules import _tf
from compat import tf1_names as names

MODULE = "compat.tf1_modules"
MANUAL = (
    "the names the program reads from it resolve at run time as uai-run's TF1 face serves them; one with no "
    "TF 2 home raises MissingTF1Name where it is read, naming it: `uai-run --explain` on the original lists "
    "the names it reads"
)


def _bare_reads(tree: ast.Module) -> set[str]:
    """The names the module reads other than as the base of an attribute (`f(m)`, `return m`, `x = m`)."""
    bases = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    return {
        node.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and id(node) not in bases
    }


class ContribModulesRule(Rule):
    ID = "contrib-module-values"
    DESCRIPTION = "Bind compat's TF1 module object where a tf.contrib module is read as a value."
    ORDER = 175  # after the rules that convert a contrib import, before contrib-removed reports what is left
    WORDS = frozenset()  # it acts on imports of TensorFlow only
    EXAMPLE = Example(
        why="A contrib module handed around as a value is read by code no rule sees: compat's object for it "
        "resolves each name through the table uai-run reads (a name with no home fails where it is read).",
        before="def opt():\n    from tensorflow.contrib import opt as contrib_opt\n    return contrib_opt\n",
        after="import compat\nimport compat.tf1_modules as compat_tf1_modules\n\ndef opt():\n"
        '    contrib_opt = compat_tf1_modules.tf1_module("tensorflow.contrib.opt")\n    return contrib_opt\n',
    )

    def begin_file(self, state: FileState) -> None:
        super().begin_file(state)
        self._bare: set[str] | None = None  # the file's bare reads (parsed at its first contrib import)
        self._alias: str | None = None

    def _value_read(self, name: str, alias: str) -> bool:
        if not _tf.is_served_contrib_module(name):
            return False
        if self._bare is None:
            self._bare = _bare_reads(self.state.syntax)
        return alias in self._bare

    def _bind(self, node: cst.CSTNode, name: str, alias: str) -> cst.Assign:
        if self._alias is None:
            self._alias = self.free_name("compat_tf1_modules", "compat_tf1_modules_")
            self.add_needed_import(MODULE, asname=self._alias)
            _tf.ensure_compat(self)
        self.report(node, f"{name} is read as a value: bound to compat's module object for it", "warning", MANUAL)
        call = cst.Call(
            func=cst.Attribute(value=cst.Name(self._alias), attr=cst.Name("tf1_module")),
            args=[cst.Arg(cst.SimpleString(f'"{name}"'))],
        )
        return cst.Assign(targets=[cst.AssignTarget(cst.Name(alias))], value=call)

    def _value_import(self, small: cst.BaseSmallStatement) -> tuple[str, str] | None:
        """(TF1 module, alias) if `small` imports one contrib module the file reads as a value."""
        if isinstance(small, cst.ImportFrom):
            if small.relative or small.module is None or isinstance(small.names, cst.ImportStar):
                return None
            if len(small.names) != 1:
                return None
            [imported] = small.names
            name = f"{_tf.full_name(small.module)}.{_tf.full_name(imported.name)}"
            alias = imported.evaluated_alias or imported.evaluated_name
        elif isinstance(small, cst.Import) and len(small.names) == 1 and small.names[0].asname is not None:
            name, alias = _tf.full_name(small.names[0].name), small.names[0].evaluated_alias or ""
        else:
            return None
        name = names.tf1_name(name)
        return (name, alias) if self._value_read(name, alias) else None

    def leave_Assign(self, original_node: cst.Assign, updated_node: cst.Assign) -> cst.Assign:
        """`alias = tf.contrib.<module>`: the module read as a value by the alias."""
        name = _tf.contrib_module_alias(self, original_node)
        if name is None:
            return updated_node
        return self._bind(original_node, name, cast(cst.Name, updated_node.targets[0].target).value)

    # the line, not the import: the rules before this one have left the import itself (contrib-removed
    # counts the imports it is inside of as it leaves them)
    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine:
        if not any(isinstance(small, (cst.Import, cst.ImportFrom)) for small in updated_node.body):
            return updated_node
        body = []
        for small in updated_node.body:
            found = self._value_import(small)
            body.append(small if found is None else self._bind(original_node, *found))
        return updated_node.with_changes(body=body)
