"""`uai-migrate --explain RULE`: what a rule does, why, an example and its level (as ruff's `rule`).

Every rule says it of itself, beside its DESCRIPTION: a code rule's class (codemods/rules) and a file
rule's module (codemods/files) hold its EXAMPLE; tests/codemods/test_explain.py checks that each
`before` migrates to its `after` through the engine.
"""

import textwrap

from codemods.rule_description import Described

_FILES = {
    "python": "Python files and notebooks",
    "dockerfile": "Dockerfile, *.Dockerfile, Dockerfile.*, Containerfile",
    "requirements": "requirements*.txt",
}


def catalog() -> dict[str, Described]:
    """rule id -> the rule's class or module (ID, DESCRIPTION, LEVEL): code rules, then file rules."""
    from codemods import files
    from codemods.rules import RULES

    rules: tuple[Described, ...] = (*RULES, *files.KINDS.values())
    return {rule.ID: rule for rule in rules}


_LEVELS = {
    "safe": "safe: runs on current TF through compat with the least change",
    "native": "native: an idiomatic TF2 rewrite that can change behaviour (only with --level native)",
    "every": "every level: how the engine reads a whole file, not a rule (--select and --ignore do not take it)",
}


def explain(rule_id: str) -> str:
    """The text `uai-migrate --explain RULE_ID` prints; KeyError for an unknown id."""
    from codemods import _tf2_code

    rule = {**catalog(), _tf2_code.ID: _tf2_code}[rule_id]
    example = rule.EXAMPLE
    level = _LEVELS[rule.LEVEL]
    before, after = (textwrap.indent(text, "    ") for text in (example.before, example.after))
    return (
        f"{rule_id}\n\nWhat it does: {rule.DESCRIPTION}\nWhy: {example.why}\nLevel: {level}\n"
        f"Files: {_FILES[example.kind]}\n\n"
        f"Before:\n{before}\nAfter:\n{after}"
    )


def rules_help() -> str:
    """One line per rule, for --help."""
    rules = catalog()
    width = max(map(len, rules))
    return "\n".join(f"  {rule_id:<{width}}  [{rule.LEVEL}] {rule.DESCRIPTION}" for rule_id, rule in rules.items())
