"""The uai-migrate rules: each public module here holds one rule class, found by `discover`.

Adding a rule is one module here and its test file (docs/adding.md, "How to add a rule"): nothing
registers it. The pass runs the rules in their ORDER; underscore modules hold what rules share
(`_shared`, `_tf`, `_moves`) and no rule.
"""

import importlib
import pkgutil
from collections.abc import Collection

from codemods.engine.rule import Rule


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


def discover() -> tuple[type[Rule], ...]:
    """Every rule of codemods/rules, in the order of the pass (by ORDER)."""
    found: list[type[Rule]] = []
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        rules = rules_of(f"{__name__}.{info.name}")
        if len(rules) != 1:
            raise RuleModuleError(f"codemods/rules/{info.name}.py defines {len(rules)} rules, not one")
        if not isinstance(getattr(rules[0], "ORDER", None), int):
            raise RuleModuleError(f"{rules[0].__name__} sets no ORDER (its place in the pass: docs/adding.md)")
        found.extend(rules)
    orders = [rule.ORDER for rule in found]
    for rule in found:
        if orders.count(rule.ORDER) > 1:
            raise RuleModuleError(f"{rule.__name__} shares ORDER {rule.ORDER} with another rule: each rule has its own")
    return tuple(sorted(found, key=lambda rule: rule.ORDER))


RULES = discover()
BY_ID = {rule.ID: rule for rule in RULES}


def select(select: Collection[str] = (), ignore: Collection[str] = (), level: str = "safe") -> tuple[type[Rule], ...]:
    """The rule classes to run for --select/--ignore/--level; unknown ids raise KeyError."""
    for rule_id in (*select, *ignore):
        if rule_id not in BY_ID:
            raise KeyError(rule_id)
    chosen = [r for r in RULES if (not select or r.ID in select) and r.ID not in ignore]
    return tuple(r for r in chosen if level == "native" or r.LEVEL == "safe")
