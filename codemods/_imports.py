"""Adding `import a.b as c` lines the rules scheduled, without AddImportsVisitor's per-file cost.

AddImportsVisitor builds a matcher-decorated import gatherer for every file (about 30 ms, more
than a whole small file takes to migrate). The plain `import module [as alias]` imports our rules
schedule are inserted here, after the module's leading imports, with the same result (`import compat`
earlier: before the first import that may load TensorFlow); anything
else scheduled through `add_needed_import` (from-imports, relative ones) is left in the scratch for
AddImportsVisitor to do.
"""

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor
from libcst.helpers import get_full_name_for_node

from codemods.rules._syntax import after_leading_imports, before_third_party_imports, is_import_line


def _present(module):
    """(module, alias or None) of every top-level `import` in the module."""
    found = set()
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                if isinstance(small, cst.Import):
                    found.update((get_full_name_for_node(a.name), a.evaluated_alias) for a in small.names)
    return found


COMPAT = "compat"


def _binds(present, name):
    """Do the module's (or the scheduled) `import x` lines bind `name` (`import name` or `import name.sub`)?"""
    return any(alias is None and module.split(".")[0] == name for module, alias in present)


def add_plain_imports(module: cst.Module, context: CodemodContext, needs_compat: bool = False) -> cst.Module:
    """Insert the plain imports the rules scheduled, and `import compat` when a rule needs it.

    Rules may write `compat.<name>` once they ask for compat, so it is skipped only when the file
    (or another scheduled import) binds the name `compat` already.
    """
    scheduled = context.scratch.get(AddImportsVisitor.CONTEXT_KEY, [])
    plain = [imp for imp in scheduled if imp.obj_name is None and not imp.relative]
    context.scratch[AddImportsVisitor.CONTEXT_KEY] = [imp for imp in scheduled if imp not in plain]
    wanted = [(imp.module_name, imp.alias if imp.alias != imp.module_name else None) for imp in plain]
    present = _present(module)
    if needs_compat and not _binds(present | set(wanted), COMPAT):
        wanted.insert(0, (COMPAT, None))
    # those binding `compat` run its set-up, which must come before TensorFlow loads; the others go with the imports
    lines = {True: [], False: []}
    for key in wanted:
        if key in present:
            continue
        present.add(key)
        alias = cst.AsName(name=cst.Name(key[1])) if key[1] else None
        name = cst.ImportAlias(name=cst.parse_expression(key[0]), asname=alias)
        line = cst.SimpleStatementLine(body=[cst.Import(names=[name])])
        lines[_binds({key}, COMPAT)].append(line)
    body = list(module.body)
    body = _insert(body, before_third_party_imports(body), lines[True])
    body = _insert(body, after_leading_imports(body), lines[False])
    return module.with_changes(body=body)


def _insert(body, at, lines):
    if not lines:
        return body
    if at < len(body) and not body[at].leading_lines and not is_import_line(body[at]):
        # keep the imports apart from the code as AddImportsVisitor does
        body[at] = body[at].with_changes(leading_lines=[cst.EmptyLine()])
    return body[:at] + lines + body[at:]
