"""The report on stdout as `--format text|json|github|sarif`.

github: workflow commands (`::error file=F,line=L,col=C,title=RULE::message`) that annotate the
lines of a pull request; sarif: SARIF 2.1.0, what code-scanning UIs read.
"""

import json
import os
import pathlib
import urllib.parse
from typing import Any

from codemods._report import Entry, Report, printable

FORMATS = ("text", "json", "github", "sarif")
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
_GITHUB_LEVEL = {"info": "notice", "warning": "warning", "error": "error"}
_SARIF_LEVEL = {"info": "note", "warning": "warning", "error": "error"}
# Rule ids the engine uses for files it could not handle (codemods._report), described for SARIF.
ENGINE_RULES = {
    "parse": "the file could not be parsed or migrated",
    "io": "the file could not be read or written",
    "conflict": "the file changed on disk while uai-migrate worked on it",
    "third-party": "a virtual environment or installed packages: not migrated",
}


def render(report: Report, fmt: str, quiet: bool = False) -> str:
    if fmt == "json":
        return report.to_json()
    if fmt == "github":
        return github(report)
    if fmt == "sarif":
        return json.dumps(sarif(report), indent=1, ensure_ascii=False) + "\n"
    return report.to_text(quiet=quiet)


def _escape(text: str, property_value: bool = False) -> str:
    """GitHub's workflow-command escaping (data: %, CR, LF; property values also : and ,)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property_value else text


def _message(entry: Entry) -> str:
    cell = f"[cell {entry.cell}] " if entry.cell is not None else ""
    manual = f"\nmanual step: {entry.manual}" if entry.manual else ""
    return f"{cell}{entry.message}{manual}"


def github(report: Report) -> str:
    lines = []
    for entry in report.all_entries():
        properties = {"file": entry.path, "title": f"uai-migrate {entry.rule}"}
        if entry.line and entry.cell is None:  # a notebook cell's line is not a line of the file
            properties.update(line=str(entry.line), col=str(entry.col or 1))
        fields = ",".join(f"{key}={_escape(value, True)}" for key, value in properties.items())
        lines.append(f"::{_GITHUB_LEVEL[entry.severity]} {fields}::{_escape(_message(entry))}")
    return printable("".join(line + "\n" for line in lines))


def _uri(path: str) -> str:
    """A relative path as a relative URI reference; an absolute one as a file: URI. A name that is
    not UTF-8 keeps its bytes, percent-encoded (`\\udcff` from the file system is `%FF`)."""
    if os.path.isabs(path):
        return pathlib.Path(path).as_uri()
    return urllib.parse.quote(os.fsencode(pathlib.PurePath(path).as_posix()))


def sarif(report: Report) -> dict:
    from codemods import _tf2_code
    from codemods.explain import catalog

    descriptions = {
        **ENGINE_RULES,
        _tf2_code.ID: _tf2_code.DESCRIPTION,
        **{rule_id: rule.DESCRIPTION for rule_id, rule in catalog().items()},
    }
    entries = list(report.all_entries())
    ids = list(descriptions) + sorted({e.rule for e in entries} - set(descriptions))
    index = {rule_id: i for i, rule_id in enumerate(ids)}
    results = []
    for entry in entries:
        location: dict[str, Any] = {"artifactLocation": {"uri": _uri(entry.path)}}
        if entry.line and entry.cell is None:
            location["region"] = {"startLine": entry.line, "startColumn": max(entry.col, 1)}
        result = {
            "ruleId": entry.rule,
            "ruleIndex": index[entry.rule],
            "level": _SARIF_LEVEL[entry.severity],
            "message": {"text": printable(_message(entry))},
            "locations": [{"physicalLocation": location}],
            "properties": {"level": entry.level},
        }
        results.append(result)
    rules = [{"id": rule_id, "shortDescription": {"text": descriptions.get(rule_id, rule_id)}} for rule_id in ids]
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "uai-migrate", "rules": rules}},
                "results": results,
                "columnKind": "unicodeCodePoints",
            }
        ],
    }
