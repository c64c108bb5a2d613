"""The benchmark scripts of bench/ loaded as modules (they are scripts that put bench/ on sys.path for
their siblings, not a package), and a package of modules imported through realworld's per-module checker."""

import importlib.util
import os
from types import ModuleType

from tests.support.processes import REPO


def load_benchmark(name: str) -> ModuleType:
    """bench/<name>.py, executed as the module `name`."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(REPO, "bench", f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


realworld = load_benchmark("realworld")


def import_package(tmp_path, modules: dict, face: bool = False) -> dict:
    """realworld.import_modules on a package `pkg` of {module name: source} written under tmp_path."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    for name, source in modules.items():
        (tmp_path / "pkg" / f"{name}.py").write_text(source)
    names = [f"pkg.{name}" for name in modules]
    return realworld.import_modules(str(tmp_path), "pkg", names, realworld.Settings(jobs=2, timeout=300), face=face)
