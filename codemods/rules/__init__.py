"""The registry of uai-migrate rules.

Adding a rule = one module here + one row in RULES (docs/adding.md, "How to add a rule"):
  1. `codemods/rules/<name>.py` with a class deriving `codemods.engine.rule.Rule` (or, for "this module
     moved", `codemods.rules._moves.ModuleMoveRule`, which only needs tables). Give it
     ID (kebab-case, what --select/--ignore take), DESCRIPTION (one line), LEVEL ("safe", or
     "native" for idiomatic rewrites that can change behaviour), CLAIMS (the qualified-name
     prefixes it rewrites, so `contrib-removed` and other catch-alls leave them to it) and
     visit_<Node>/leave_<Node> methods. Ask `self.qualified_names(node)` / `self.match(node, names)`
     for what a name is (scope- and order-correct, see codemods/engine/names.py); `self.report(node,
     message, severity, manual=...)` for the report; `self.add_needed_import(...)` /
     `self.remove_unused_import(...)` for imports; `_tf.ensure_compat(self)` when the new code
     needs `import compat`. Shared helpers: codemods/engine/syntax.py, rules/_tf.py; derived tables: codemods/tables.
  2. a row in RULES below. Order matters only between rules touching the same node: the catch-all
     reporters go last.
  3. `tests/codemods/test_rule_<name>.py`: `RuleTest` (tests/support/rule_test.py) before/after
     fixtures, run with the rule's own claims (`CLAIMS_OF` names any others a test assumes), and
     cases where the rule must NOT fire (a shadowed local, a string, a comment); a corpus script
     in tests/corpus that uses it.
"""

from collections.abc import Collection
from typing import TYPE_CHECKING

from codemods.rules.contrib import ContribRule
from codemods.rules.contrib_equivalents import ContribEquivalentsRule
from codemods.rules.device import DeviceRule
from codemods.rules.dimension import DimensionRule
from codemods.rules.estimator import EstimatorRule
from codemods.rules.flags import FlagsRule
from codemods.rules.flags_internals import FlagsInternalsRule
from codemods.rules.graph_mode import GraphModeRule
from codemods.rules.layers import LayersRule
from codemods.rules.pillow import PillowRule
from codemods.rules.private import PrivateRule
from codemods.rules.py2 import Py2Rule
from codemods.rules.slim import SlimRule
from codemods.rules.tf1_api import Tf1ApiRule
from codemods.rules.tf1_calls import Tf1CallsRule
from codemods.rules.tf_config import TFConfigRule
from codemods.rules.uai_sdk import UaiSdkRule
from codemods.rules.upgrade import UpgradeRule

if TYPE_CHECKING:
    from codemods.engine.rule import Rule

RULES = (
    Py2Rule,  # when selected, the engine also ports files Python 3 cannot parse first (codemods/_python2.py)
    PillowRule,
    FlagsRule,
    FlagsInternalsRule,
    UaiSdkRule,
    TFConfigRule,
    SlimRule,
    ContribEquivalentsRule,
    PrivateRule,
    Tf1CallsRule,
    UpgradeRule,  # the names tf1-api does not know: before it
    EstimatorRule,
    DeviceRule,
    DimensionRule,
    LayersRule,
    Tf1ApiRule,  # after the rules claiming particular tf.* names
    GraphModeRule,
    ContribRule,  # catch-all reporter: last
)

BY_ID = {rule.ID: rule for rule in RULES}


def select(select: Collection[str] = (), ignore: Collection[str] = (), level: str = "safe") -> tuple[type["Rule"], ...]:
    """The rule classes to run for --select/--ignore/--level; unknown ids raise KeyError."""
    for rule_id in (*select, *ignore):
        if rule_id not in BY_ID:
            raise KeyError(rule_id)
    chosen = [r for r in RULES if (not select or r.ID in select) and r.ID not in ignore]
    return tuple(r for r in chosen if level == "native" or r.LEVEL == "safe")
