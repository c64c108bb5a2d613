"""bench/realworld.py loaded as a module (bench is a folder of scripts), and a package of modules imported
through its per-module checker."""

import importlib.util
import os

from tests.support.processes import REPO


def _load_benchmark():
    spec = importlib.util.spec_from_file_location("realworld", os.path.join(REPO, "bench", "realworld.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


realworld = _load_benchmark()


def import_package(tmp_path, modules: dict, face: bool = False) -> dict:
    """realworld.import_modules on a package `pkg` of {module name: source} written under tmp_path."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    for name, source in modules.items():
        (tmp_path / "pkg" / f"{name}.py").write_text(source)
    names = [f"pkg.{name}" for name in modules]
    return realworld.import_modules(str(tmp_path), "pkg", names, realworld.Settings(jobs=2, timeout=300), face=face)
