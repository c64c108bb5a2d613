"""Adding a rule is one module in codemods/rules and its test file: discovery, the pass order and
docs/adding.md's "How to add a rule" agree with the code."""

import ast
import pathlib
import pkgutil
import re
import subprocess
import sys

import libcst as cst
import pytest
from libcst.codemod import CodemodContext

import codemods.rules
from codemods.engine.apply import apply_rules, as_codemod, claims_of
from codemods.engine.rule import Rule
from codemods.rules import RULES, rules_of
from tests.support.processes import REPO, python_env

# The pass order before rules were discovered (a hand-kept tuple then): every later rule slots in by its ORDER.
ORDER_BEFORE_DISCOVERY = (
    "py2-port",
    "library-names",
    "tf-flags",
    "tf-flags-internals",
    "uai-sdk",
    "tf-config",
    "contrib-slim",
    "contrib-equivalents",
    "tf-private",
    "tf1-calls",
    "tf-upgrade",
    "tf-estimator",
    "tf-device",
    "tf-dimension-value",
    "tf-layers",
    "tf1-api",
    "graph-mode",
    "contrib-removed",
)


def _rule_section() -> str:
    text = (pathlib.Path(REPO) / "docs" / "adding.md").read_text()
    return text.split("## How to add a rule")[1].split("\n## ")[0]


def _module_name(rule: type[Rule]) -> str:
    return rule.__module__.rpartition(".")[2]


def test_the_pass_keeps_the_order_the_registry_had():
    assert [r.ID for r in RULES if r.ID in ORDER_BEFORE_DISCOVERY] == list(ORDER_BEFORE_DISCOVERY)
    assert [r.ORDER for r in RULES] == sorted({r.ORDER for r in RULES})  # sorted, none shared


def test_discovery_finds_one_rule_in_every_public_module_and_nothing_else():
    public = [m.name for m in pkgutil.iter_modules(codemods.rules.__path__) if not m.name.startswith("_")]
    assert sorted(_module_name(rule) for rule in RULES) == sorted(public)
    private = [m.name for m in pkgutil.iter_modules(codemods.rules.__path__) if m.name.startswith("_")]
    assert all(rules_of(f"codemods.rules.{name}") == [] for name in private)
    assert len({rule.ID for rule in RULES}) == len(RULES)


def test_a_native_rules_module_is_named_so_and_a_safe_level_run_imports_none(tmp_path):
    assert [_module_name(r) for r in RULES if _module_name(r).startswith(codemods.rules.NATIVE)] == [
        _module_name(r) for r in RULES if r.LEVEL == "native"
    ]
    assert "native_*.py" in _rule_section()
    script = tmp_path / "train.py"
    script.write_text("import tensorflow as tf\ntf.gfile.Exists('x')\n")
    probe = (
        "import sys\nfrom codemods import cli\ntry:\n    cli.main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('codemods.rules.native')))"
    )
    imported = []
    for level in ("safe", "native"):
        run = subprocess.run(
            [sys.executable, "-c", probe, "--level", level, "-j1", "--no-cache", "--format", "json", str(script)],
            env=python_env(),
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        imported.append(ast.literal_eval(run.stdout.splitlines()[-1]))
    assert imported[0] == [] and "codemods.rules.native_io" in imported[1]


def test_the_rule_section_lists_exactly_the_files_a_rule_touches_and_every_rule_has_them():
    section = _rule_section()
    [touched] = re.findall(r"^Files touched: (.*)$", section, re.M)
    patterns = re.findall(r"`([^`]+)`", touched)
    assert patterns == ["codemods/rules/<name>.py", "tests/codemods/test_rule_<name>.py"]
    for rule in RULES:
        rule_file, test_file = (pathlib.Path(REPO) / p.replace("<name>", _module_name(rule)) for p in patterns)
        assert rule_file.is_file(), rule.ID
        assert test_file.is_file() and rule.__name__ in test_file.read_text(), f"{rule.ID}: {test_file} tests it"


def test_the_rule_section_documents_every_attribute_of_the_contract():
    section = _rule_section()
    contract = [name for name in Rule.__annotations__ if name.isupper()]
    assert {"ID", "ORDER", "EXAMPLE", "CLAIMS", "WORDS", "ROOTS"} <= set(contract)
    assert [name for name in contract if f"`{name}`" not in section] == []


def test_every_rule_sets_its_own_place_and_example():
    for rule in RULES:
        assert "ORDER" in vars(rule) and "EXAMPLE" in vars(rule) and rule.DESCRIPTION, rule.ID


def test_a_rule_as_a_libcst_codemod_is_the_engine_with_that_rule():
    source = "import tensorflow as tf\nwith tf.device(tf.train.replica_device_setter(ps_tasks=1)):\n    pass\n"
    device = next(rule for rule in RULES if rule.ID == "tf-device")
    codemod = as_codemod(device)(CodemodContext())
    engine = apply_rules(cst.parse_module(source), [device()], claims_of((device,)))
    assert codemod.transform_module(cst.parse_module(source)).code == engine.module.code != source
    assert codemod.context.warnings == [f"{e.line}:{e.col} {e.severity}: {e.message}" for e in engine.entries]
    assert codemod.context.warnings  # the entries were compared too


def test_a_rule_refuses_an_unknown_level():
    with pytest.raises(ValueError, match="level must be one of"):
        RULES[0]("sometimes")
