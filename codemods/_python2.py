"""Python 2 sources -> Python 3: the whole-file port the engine runs before any rule (rules parse Python 3 only).

A file Python 3 cannot parse (print statements, `except X, e`, backticks ...) is ported with
fissix, the maintained fork of lib2to3 (which left the standard library in Python 3.13), with
2to3's default fixers except `fix_import` (it needs the file's folder to decide). The port is
kept only if the result parses as Python 3; otherwise the file is reported as Python 2 with the
line, as before. Each `/` whose operands are not visibly floats is reported: Python 2 floored
it for integers, so a person decides between `/` and `//`. It runs when the `py2-port` rule is
selected (codemods/rules/py2.py, which handles the Python 2 idioms left in files that parse).
"""

import ast
import functools
from typing import Any

from codemods._report import Entry

ID = "py2-port"  # the rule id of its entries, the py2-port rule's
DIVISION_MANUAL = "Python 2 floored `/` on integers: keep `/` if a float is meant here, else write `//`"


@functools.lru_cache(maxsize=1)
def _tool() -> Any:  # a fissix RefactoringTool (fissix has no stubs)
    from fissix import refactor

    fixers = [f for f in refactor.get_fixers_from_package("fissix.fixes") if not f.endswith(".fix_import")]
    return refactor.RefactoringTool(fixers)


def _floatish(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, float)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id == "float"
    if isinstance(node, ast.BinOp):
        return _floatish(node.left) or _floatish(node.right)
    return False


def port(text: str) -> tuple[str, list[Entry]] | None:
    """(Python 3 text, report entries) for a Python 2 source, or None when it cannot be ported safely."""
    source = text if text.endswith("\n") else text + "\n"
    try:
        new = str(_tool().refactor_string(source, "<source>"))
        tree = ast.parse(new)
    except Exception:  # fissix's ParseError, TokenError, or a result Python 3 still rejects
        return None
    if not text.endswith("\n"):
        new = new[:-1]
    entries = [Entry(rule=ID, line=1, col=1, message="Python 2 source ported to Python 3 with fissix (2to3's fixers)")]
    for node in ast.walk(tree):
        if isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ast.Div):
            left = node.left if isinstance(node, ast.BinOp) else node.target
            if not (_floatish(left) or _floatish(node.right if isinstance(node, ast.BinOp) else node.value)):
                entries.append(
                    Entry(
                        rule=ID,
                        severity="warning",
                        line=node.lineno,
                        col=node.col_offset + 1,
                        message="`/` in a ported Python 2 file",
                        manual=DIVISION_MANUAL,
                    )
                )
    return new, sorted(entries, key=lambda e: (e.line, e.col))
