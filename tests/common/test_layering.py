"""The import graph of the project, read with `ast`: no cycle, and every import points down a layer.

Each top-level package is one layer (README, "Architecture"): the runtime shims (`compat`), the
programs' shared code (`trainlib`) and the platform SDK's alias (`uaitrain`) on them, and at the
top the tools (`codemods` = uai-migrate, `uai_run`, `uai_launch`) and the programs (`legacy_tf1`,
`modern_tf2`). A module imports its own package or a package of a lower layer, never one beside
or above it. Every import counts, at module level or inside a function: a function-level import
still closes a loop as soon as the function runs.
"""

import ast
import pathlib

REPO = pathlib.Path(__file__).resolve().parents[2]
# The layer of each top-level package, lowest first.
LAYERS = {
    "compat": 0,
    "trainlib": 1,
    "uaitrain": 1,
    "codemods": 2,
    "uai_run": 2,
    "uai_launch": 2,
    "legacy_tf1": 2,
    "modern_tf2": 2,
}
PACKAGES = tuple(LAYERS)


def _module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict:
    """{module name: source path} of every module of the project's packages."""
    return {_module_name(path): path for package in PACKAGES for path in sorted((REPO / package).rglob("*.py"))}


def _imported(node: ast.AST, module: str, is_package: bool, known: dict) -> list:
    """Project modules an import statement loads (a `from m import n` loads m.n when it is a module)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    base = node.module or ""
    if node.level:
        anchor = module.split(".")
        anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
        base = ".".join([*anchor, base] if base else anchor)
    return [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]


def import_graph() -> dict:
    """{module: set of project modules it imports}, from every import statement in the file."""
    known = _modules()
    graph = {}
    for module, path in known.items():
        tree = ast.parse(path.read_text(), str(path))
        targets = set()
        for node in ast.walk(tree):
            for name in _imported(node, module, path.name == "__init__.py", known):
                # `import a.b.c` of a name that is an attribute, not a module: its closest module.
                while name and name not in known:
                    name = name.rpartition(".")[0]
                if name and name != module:
                    targets.add(name)
        graph[module] = targets
    return graph


def cycles(graph: dict) -> list:
    """The strongly connected components with more than one module (Tarjan), each as a sorted list."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def one_loop(graph: dict, component: list) -> list:
    """A shortest import loop through the component's first module, `a -> b -> ... -> a`, to print."""
    start, members = component[0], set(component)
    paths, todo = {start: [start]}, [start]
    while todo:
        node = todo.pop(0)
        for target in sorted(graph[node] & members):
            if target == start:
                return paths[node] + [start]
            if target not in paths:
                paths[target] = paths[node] + [target]
                todo.append(target)
    raise AssertionError(f"{component} is not a cycle")


def describe(graph: dict, found: list) -> str:
    return "\n".join(f"{len(c)} modules in a cycle, e.g. {' -> '.join(one_loop(graph, c))}" for c in found)


def _package(module: str) -> str:
    return module.partition(".")[0]


def test_the_graph_sees_function_level_and_relative_imports():
    # The walker itself: modern_tf2.imagenet_main imports run_loop inside functions only.
    graph = import_graph()
    assert "modern_tf2.run_loop" in graph["modern_tf2.imagenet_main"]
    assert "trainlib.models.resnet" in graph["legacy_tf1.resnet_model_fn"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert one_loop({"a": {"b"}, "b": {"c", "a"}, "c": {"a"}}, ["a", "b", "c"]) == ["a", "b", "a"]


def test_no_import_cycle():
    graph = import_graph()
    found = cycles(graph)
    assert found == [], describe(graph, found)


def test_every_top_level_package_has_a_layer():
    on_disk = {path.parent.name for path in REPO.glob("*/__init__.py")} - {"tests"}
    assert on_disk == set(LAYERS)


def test_imports_point_down_a_layer():
    """A package imports itself or a lower layer: the shims nothing above them, a tool no other tool."""
    offenders = [
        f"{module} imports {target}"
        for module, targets in import_graph().items()
        for target in targets
        if _package(target) != _package(module) and LAYERS[_package(target)] >= LAYERS[_package(module)]
    ]
    assert offenders == []


def _imported_modules(path: str) -> set[str]:
    with open(path, encoding="utf-8") as handle:
        tree = ast.parse(handle.read(), path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_tests_share_helpers_through_tests_support_and_bench_imports_no_test():
    offenders = []
    for folder in ("tests", "bench"):
        for path in sorted((REPO / folder).rglob("*.py")):
            if "corpus" in path.relative_to(REPO).parts[:2]:
                continue  # tests/corpus: user programs, not test code
            for module in _imported_modules(str(path)):
                parts = module.split(".")
                test_module = parts[0] == "tests" and (
                    any(part.startswith("test_") or part == "conftest" for part in parts[1:])
                )
                if test_module or (folder == "bench" and parts[0] == "tests"):
                    offenders.append(f"{path.relative_to(REPO)} imports {module}")
    assert offenders == []


def test_the_readme_architecture_table_is_the_packages_and_their_layers():
    """README's table lists each top-level package once, under the layer LAYERS gives it."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Architecture", 1)[1].split("\n\n", 2)[1]
    rows, layer_names, layer = {}, [], ""
    for line in table.splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        layer = cells[0] or layer
        if layer not in layer_names:
            layer_names.append(layer)
        for package in cells[1].split(","):
            rows[package.strip().strip("`").rstrip("/")] = layer_names.index(layer)
    listed = {package: rank for package, rank in rows.items() if package in LAYERS}
    assert listed == LAYERS


def test_no_rule_imports_another_rule():
    """uai-migrate's rules share knowledge through codemods/rules/_shared.py (and the other _ modules), never
    through each other: a rule is one file (docs/adding.md). The package's __init__ discovers them."""
    rules = {name for name in import_graph() if name.startswith("codemods.rules.") and "._" not in name}
    offenders = [
        f"{module} imports {target}"
        for module, targets in import_graph().items()
        if module.startswith("codemods.rules.")
        for target in targets & rules
        if target != module
    ]
    assert rules and offenders == []
