"""Run rules the way uai-migrate does (one pass of `apply_rules`), with the claims a test names.

A rule's behaviour depends on which names the other active rules claim (the catch-all rules
leave claimed names to their owners), so a rule tested alone runs with its own claims only,
unless the test lists the rules whose claims it assumes (`CLAIMS_OF`, `claims_of=`).
"""

from collections.abc import Iterable
from typing import Any, ClassVar

import libcst as cst
from libcst.codemod import CodemodTest

from codemods.engine.apply import Applied, apply_rules, as_codemod
from codemods.engine.apply import claims_of as _claims_of
from codemods.engine.rule import Rule


def apply(source: str, *rules: type[Rule], claims_of: Iterable[type[Rule]] = (), level: str = "safe") -> Applied:
    """`rules` over `source` in one pass, with their own claims and those of `claims_of`."""
    claims = _claims_of(tuple(dict.fromkeys((*rules, *claims_of))))
    return apply_rules(cst.parse_module(source), [rule(level) for rule in rules], claims)


class RuleTest(CodemodTest):
    """libcst's CodemodTest for a rule: set `TRANSFORM = MyRule`; `assertCodemod(before, after)` is libcst's,
    run with the rule as a Codemod (codemods.engine.apply.as_codemod), and checks that the rule is
    idempotent too (a second run over `after` changes nothing).

    CLAIMS_OF: the other rules whose claims the test assumes active (none unless it says so).
    """

    CLAIMS_OF: ClassVar[tuple[type[Rule], ...]] = ()
    RULE: ClassVar[type[Rule]]  # the rule a subclass names as TRANSFORM (TRANSFORM becomes its Codemod)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        named = cls.__dict__.get("TRANSFORM")
        if isinstance(named, type) and issubclass(named, Rule):
            cls.RULE = named
        if hasattr(cls, "RULE"):
            cls.TRANSFORM = as_codemod(cls.RULE, assuming=cls.CLAIMS_OF)

    def applied(self, source: str, **kwargs: Any) -> Applied:
        """The engine's result for a fixture (dedented like assertCodemod's)."""
        return apply(self.make_fixture_data(source), self.RULE, claims_of=self.CLAIMS_OF, **kwargs)

    def assertCodemod(self, before: str, after: str, *args: Any, **kwargs: Any) -> None:  # noqa: N802 - libcst's name
        """`before` becomes `after` (libcst's check), and `after` stays as it is: a second run changes nothing."""
        super().assertCodemod(before, after, *args, **kwargs)
        if self.make_fixture_data(before) == self.make_fixture_data(after):
            return  # (the second run would be the first again)
        try:
            super().assertCodemod(after, after, *args, **{k: v for k, v in kwargs.items() if k != "expected_warnings"})
        except AssertionError as err:
            raise AssertionError(f"a second run changed the result: {err}") from err

    def refused(self, source: str) -> list[str]:
        """For a source a native rule must leave as it is: what its entries say (after "left at the safe level: ",
        the reason; an entry converting something, whole)."""
        applied = self.applied(source, level="native")  # (one pass: the engine is the codemod's)
        self.assertCodeEqual(source, applied.module.code)
        marker = "left at the safe level: "
        messages = [e.message for e in applied.entries if e.rule == self.RULE.ID]
        return [m.split(marker, 1)[1] if marker in m else m for m in messages]
