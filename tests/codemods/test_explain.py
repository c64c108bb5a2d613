"""`uai-migrate --explain RULE` and the rule list in --help: every rule has an example that really migrates."""

import pytest

from codemods import files
from codemods._migrate_file import Options, migrate
from codemods.explain import catalog
from codemods.rule_description import Example
from codemods.rules import RULES
from tests.support.sources import one_line_error

RULE_IDS = [rule.ID for rule in RULES] + list(files.RULE_IDS)


def test_every_rule_code_or_file_is_in_the_catalog_with_its_own_example():
    assert list(catalog()) == RULE_IDS
    examples = [rule.EXAMPLE for rule in catalog().values()]
    assert all(isinstance(example, Example) for example in examples)
    assert len({(e.before, e.after) for e in examples}) == len(examples)  # none copied from another rule


@pytest.mark.parametrize("rule_id", RULE_IDS)
def test_each_example_migrates_before_to_after_through_the_engine(rule_id):
    example = catalog()[rule_id].EXAMPLE
    level = catalog()[rule_id].LEVEL  # (a native rule runs only at --level native)
    outcome = migrate(example.kind, example.before.encode(), Options(select=(rule_id,), level=level))
    after = outcome.new.decode() if outcome.new is not None else example.before
    assert after == example.after
    assert any(entry.rule == rule_id for entry in outcome.entries)


def test_explain_prints_what_why_example_and_level(cli):
    code, out, _ = cli("--explain", "tf-device")
    assert code == 0
    rule = catalog()["tf-device"]
    assert out.startswith("tf-device\n") and rule.DESCRIPTION in out and rule.EXAMPLE.why in out
    assert "Level: safe" in out
    before, after = out.split("Before:\n")[1].split("After:\n")
    assert [line[4:] for line in before.strip("\n").splitlines()] == rule.EXAMPLE.before.splitlines()
    assert [line[4:] for line in after.strip("\n").splitlines()] == rule.EXAMPLE.after.splitlines()


def test_explain_an_unknown_rule_is_one_line_and_exit_2(cli):
    code, _, err = cli("--explain", "no-such-rule")
    assert code == 2 and one_line_error(err, "unknown rule id 'no-such-rule'")


def test_help_lists_every_rule_with_its_one_line_description(cli):
    code, out, _ = cli("--help")
    assert code == 0
    rules = out.split("rules (--explain RULE")[1].splitlines()[1:]
    listed = {line.split()[0]: line for line in rules if line.startswith("  ")}
    assert list(listed) == RULE_IDS
    for rule_id, rule in catalog().items():
        assert rule.DESCRIPTION in " ".join(listed[rule_id].split()), rule_id
