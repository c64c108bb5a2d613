"""docs/adding.md's "How to add" sections for a dialect, a model, a TF1 name and a call signature match
the code: the files they list exist, the tables they name are defined in the files they cite and read
by the product code, and each table's documented shape is the record's. (The rule section:
tests/codemods/test_rule_registry.py.) Read from the source, no TensorFlow import."""

import ast
import dataclasses
import functools
import pathlib
import re
from collections.abc import Mapping

from compat import tf1_names
from compat.tf_config import Dialect
from tests.support.processes import REPO

ROOT = pathlib.Path(REPO)
SECTIONS = (
    "How to add a TF_CONFIG dialect",
    "How to add a model",
    "How to add a TF1 name",
    "How to add a TF 1.x call signature",
)
PRODUCT = ("compat", "trainlib", "codemods", "uai_run", "uai_launch", "legacy_tf1", "modern_tf2", "uaitrain")
TABLE = re.compile(r"[A-Z][A-Z0-9_]+")
PATH = re.compile(r"[\w.-]+(/[\w.<>-]+)+")
DOTTED = re.compile(r"(?:python -m )?([a-z]\w*(?:\.\w+)+)(?:\(\))?")  # a module, or a module's attribute
METHOD = re.compile(r"([A-Z]\w*)\.(\w+)(?:\(\))?")  # a class's method
FOREIGN_CLASSES = ("Image",)  # Pillow's `Image.ANTIALIAS`, the example of a library's removed name


def _section(title: str) -> str:
    text = (ROOT / "docs" / "adding.md").read_text()
    [section] = [part for part in text.split("\n## ")[1:] if part.startswith(title)]
    return section


def _quoted(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", text)


def _paths(text: str) -> list[str]:
    return [token for token in _quoted(text) if PATH.fullmatch(token)]


def _tables(text: str) -> list[str]:
    return [token for token in _quoted(text) if TABLE.fullmatch(token)]


def _module_file(dotted: str) -> pathlib.Path | None:
    base = ROOT.joinpath(*dotted.split("."))
    return next((path for path in (base.with_suffix(".py"), base / "__init__.py") if path.is_file()), None)


def _defines(tree: ast.AST, name: str) -> bool:
    """A def, class or assignment of `name` directly in `tree`'s body."""
    for node in getattr(tree, "body", []):
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name == name:
            return True
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if any(isinstance(target, ast.Name) and target.id == name for target in targets):
            return True
    return False


def _assigns(path: pathlib.Path, name: str) -> bool:
    """Does the file assign `name` (at any depth: a test may define it inside a program it writes)?"""
    return re.search(rf"^\s*{name}\b\s*(:[^=\n]*)?=", path.read_text(), re.M) is not None


@functools.cache
def _product_reads() -> dict[str, set[str]]:
    """{name: the product files reading it} (a load, an attribute or an import of the name)."""
    reads: dict[str, set[str]] = {}
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                names = []
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                    names = [node.id]
                elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                    names = [node.attr]
                elif isinstance(node, ast.ImportFrom):
                    names = [alias.name for alias in node.names]
                for name in names:
                    reads.setdefault(name, set()).add(str(path.relative_to(ROOT)))
    return reads


def test_each_section_lists_the_files_it_touches_and_they_exist():
    for title in SECTIONS:
        section = _section(title)
        touched = re.findall(r"^Files touched: (.*)$", section, re.M)
        assert touched, f"{title}: no 'Files touched:' line"
        for line in touched:
            assert _paths(line), (title, line)
            missing = [path for path in _paths(line) if not (ROOT / path).exists()]
            assert missing == [], (title, missing)


def test_every_path_a_section_cites_exists():
    for title in SECTIONS:
        missing = [path for path in _paths(_section(title)) if not (ROOT / path).exists()]
        assert missing == [], (title, missing)


def test_every_module_function_and_method_a_section_cites_exists():
    for title in SECTIONS:
        section = _section(title)
        files = [ROOT / path for path in _paths(section) if path.endswith(".py")]
        for token in _quoted(section):
            dotted = DOTTED.fullmatch(token)
            if dotted and dotted.group(1).split(".")[0] in PRODUCT:
                module, _, attribute = dotted.group(1), "", ""
                while module and _module_file(module) is None:  # the longest prefix that is a module
                    module, _, last = module.rpartition(".")
                    attribute = f"{last}.{attribute}".strip(".")
                assert module, f"{title}: `{token}` names no module"
                if attribute:
                    assert _defines(ast.parse(_module_file(module).read_text()), attribute), f"{title}: `{token}`"
            method = METHOD.fullmatch(token)
            if method and method.group(1) not in FOREIGN_CLASSES:
                classes = [
                    node
                    for path in files
                    for node in ast.parse(path.read_text()).body
                    if isinstance(node, ast.ClassDef) and node.name == method.group(1)
                ]
                assert classes and _defines(classes[0], method.group(2)), f"{title}: `{token}`"


def test_every_table_a_section_names_is_defined_in_a_file_it_cites_and_read_by_the_product():
    for title in SECTIONS:
        section = _section(title)
        files = [ROOT / path for path in _paths(section) if path.endswith(".py")]
        for table in _tables(section):
            homes = [path for path in files if _assigns(path, table)]
            assert homes, f"{title}: `{table}` is defined in none of {[str(p.relative_to(ROOT)) for p in files]}"
            product = [path for path in homes if path.relative_to(ROOT).parts[0] in PRODUCT]
            if product:  # a registry, not a test's list: the code must read it
                assert _product_reads().get(table), f"{title}: no product code reads `{table}`"


def test_the_dialect_section_documents_every_field_of_the_record():
    section = _section("How to add a TF_CONFIG dialect")
    table = [row for row in section.splitlines() if row.startswith("| `")]
    documented = [_quoted(row)[0] for row in table]
    assert documented == [field.name for field in dataclasses.fields(Dialect)]


def test_the_slim_net_example_rows_fit_the_net_record():
    section = _section("How to add a model")
    [block] = re.findall(r"```python\n(.*?)```", section, re.S)
    rows = ast.parse("{" + block + "}", mode="eval").body
    assert isinstance(rows, ast.Dict)
    zoo = ast.parse((ROOT / "trainlib" / "models" / "slim_zoo.py").read_text())
    [net] = [node for node in zoo.body if isinstance(node, ast.ClassDef) and node.name == "Net"]
    fields = [node for node in net.body if isinstance(node, ast.AnnAssign)]
    required = [node for node in fields if node.value is None]
    for call in rows.values:
        assert isinstance(call, ast.Call) and ast.unparse(call.func) == "Net"
        assert len(required) <= len(call.args) <= len(fields), ast.unparse(call)


def test_the_tf1_name_sections_name_every_table_of_compat_tf1_names():
    named = {*_tables(_section("How to add a TF1 name")), *_tables(_section("How to add a TF 1.x call signature"))}
    tables = {name for name, value in vars(tf1_names).items() if name.isupper() and isinstance(value, Mapping | tuple)}
    assert sorted(tables - named) == []
    assert sorted(name for name in named - tables if hasattr(tf1_names, name)) == []  # a constant, not a table
