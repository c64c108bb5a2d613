"""The uai-migrate rules: each public module here holds one rule class, found by `discover`.

Adding a rule is one module here and its test file (docs/adding.md, "How to add a rule"): nothing
registers it. The pass runs the rules in their ORDER; underscore modules hold what rules share
(`_shared`, `_tf`, `_moves`) and no rule. A native rule's module is named native_*.py, and only a
native rule's: a run at the safe level (no --select or --ignore) imports none of them, nor the
underscore modules they alone import (0.15-0.2 s of a run's start, compiled from source).
"""

import functools
import importlib
import pkgutil
from collections.abc import Collection

from codemods.engine.rule import Rule

NATIVE = "native_"  # what the name of a native rule's module starts with

# every rule, in the order of the pass; BY_ID by its ID (`__getattr__`: imported on first use)
RULES: tuple[type[Rule], ...]
BY_ID: dict[str, type[Rule]]


class RuleModuleError(TypeError):
    """A module of codemods/rules that breaks the one-rule-per-module contract."""


def rules_of(module_name: str) -> list[type[Rule]]:
    """The rule classes a module defines itself (with an ID: `ModuleMoveRule` and other bases have none)."""
    module = importlib.import_module(module_name)
    return [
        value
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, Rule) and value.__module__ == module_name and value.ID
    ]


def _found(native: bool) -> list[type[Rule]]:
    """The rules of the native_*.py modules, or of the other public ones."""
    found: list[type[Rule]] = []
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_") or info.name.startswith(NATIVE) != native:
            continue
        rules = rules_of(f"{__name__}.{info.name}")
        if len(rules) != 1:
            raise RuleModuleError(f"codemods/rules/{info.name}.py defines {len(rules)} rules, not one")
        if not isinstance(getattr(rules[0], "ORDER", None), int):
            raise RuleModuleError(f"{rules[0].__name__} sets no ORDER (its place in the pass: docs/adding.md)")
        if (rules[0].LEVEL == "native") != native:
            raise RuleModuleError(
                f"codemods/rules/{info.name}.py: {rules[0].__name__} is a {rules[0].LEVEL} rule, and a native rule's "
                f"module, only its, is named {NATIVE}*.py"
            )
        found.extend(rules)
    return found


def _ordered(found: list[type[Rule]]) -> tuple[type[Rule], ...]:
    orders = [rule.ORDER for rule in found]
    for rule in found:
        if orders.count(rule.ORDER) > 1:
            raise RuleModuleError(f"{rule.__name__} shares ORDER {rule.ORDER} with another rule: each rule has its own")
    return tuple(sorted(found, key=lambda rule: rule.ORDER))


@functools.cache
def _safe() -> tuple[type[Rule], ...]:
    return _ordered(_found(native=False))


@functools.cache
def discover() -> tuple[type[Rule], ...]:
    """Every rule of codemods/rules, in the order of the pass (by ORDER)."""
    return _ordered([*_safe(), *_found(native=True)])


@functools.cache
def _by_id() -> dict[str, type[Rule]]:
    return {rule.ID: rule for rule in discover()}


def __getattr__(name: str) -> object:
    if name == "RULES":
        return discover()
    if name == "BY_ID":
        return _by_id()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def select(select: Collection[str] = (), ignore: Collection[str] = (), level: str = "safe") -> tuple[type[Rule], ...]:
    """The rule classes to run for --select/--ignore/--level; unknown ids raise KeyError."""
    if not select and not ignore and level != "native":
        return _safe()
    for rule_id in (*select, *ignore):
        if rule_id not in _by_id():
            raise KeyError(rule_id)
    chosen = [r for r in discover() if (not select or r.ID in select) and r.ID not in ignore]
    return tuple(r for r in chosen if level == "native" or r.LEVEL == "safe")
