"""Run rules the way uai-migrate does (one pass of `apply_rules`), with the claims a test names.

A rule's behaviour depends on which names the other active rules claim (the catch-all rules
leave claimed names to their owners), so a rule tested alone runs with its own claims only,
unless the test lists the rules whose claims it assumes (`CLAIMS_OF`, `claims_of=`).
"""

from collections.abc import Iterable
from typing import ClassVar

import libcst as cst
from libcst.codemod import CodemodContext, CodemodTest

from codemods.engine.apply import Applied, apply_rules
from codemods.engine.apply import claims_of as _claims_of
from codemods.engine.rule import Rule


def apply(source: str, *rules: type[Rule], claims_of: Iterable[type[Rule]] = (), level: str = "safe") -> Applied:
    """`rules` (sharing one context) over `source`, with their own claims and those of `claims_of`."""
    context = CodemodContext()
    instances = [rule(context, level=level) for rule in rules]
    claims = _claims_of(tuple(dict.fromkeys((*rules, *claims_of))))
    return apply_rules(cst.parse_module(source), instances, claims)


class RuleTest(CodemodTest):
    """libcst's CodemodTest for a rule: `assertCodemod(before, after)` runs TRANSFORM through the engine
    (twice: every fixture is also a check that the rule is idempotent).

    CLAIMS_OF: the other rules whose claims the test assumes active (none unless it says so).
    """

    CLAIMS_OF: ClassVar[tuple[type[Rule], ...]] = ()

    def applied(self, source: str, **kwargs) -> Applied:
        """The engine's result for a fixture (dedented like assertCodemod's)."""
        return apply(self.make_fixture_data(source), self.TRANSFORM, claims_of=self.CLAIMS_OF, **kwargs)

    def assertCodemod(self, before: str, after: str, *, level: str = "safe") -> None:  # noqa: N802 - libcst's name
        """`before` becomes `after`, and `after` stays as it is: a second run changes nothing."""
        got = self.applied(before, level=level).module.code
        self.assertEqual(self.make_fixture_data(after), self.make_fixture_data(got))
        self.assertEqual(got, self.applied(got, level=level).module.code, "a second run changed the result")
