"""A program ported by uai-migrate at the safe and the native level, and both ports run (the native rules'
equivalence tests): what each port's code is, what it printed and which entries the migration wrote."""

import dataclasses
import pathlib
import subprocess
import sys
import textwrap

from bench import native
from tests.support.runs import clean_env


@dataclasses.dataclass
class Port:
    code: str
    stdout: str
    entries: list[dict]  # the migration report's entries


def migrated(tmp_path: pathlib.Path, name: str, source: str) -> dict[str, tuple[str, dict]]:
    """{"safe": (its port's path, uai-migrate's report), "native": ...} of `source` (dedented) written as `name` in
    `tmp_path`, ported at each level into `tmp_path / level` (uai-migrate in this process)."""
    script = tmp_path / name
    script.write_text(textwrap.dedent(source))
    found = {}
    for level in ("safe", "native"):
        report = native.migrate([str(script)], str(tmp_path / level), level, in_process=True)
        found[level] = (native.ported_file(str(tmp_path / level), name, name), report)
    return found


def ports(tmp_path: pathlib.Path, name: str, source: str, safe_env: dict[str, str] | None = None) -> dict[str, Port]:
    """{"safe": Port, "native": Port} of `source` (dedented) written as `name`; each port runs in a user's
    environment (`safe_env` added for the safe port's run)."""
    found = {}
    for level, (ported, report) in migrated(tmp_path, name, source).items():
        entries = [e for f in report.get("files", []) for e in f.get("entries", [])] + report.get("entries", [])
        with open(ported, encoding="utf-8") as handle:
            code = handle.read()
        env = {**clean_env(), **((safe_env or {}) if level == "safe" else {})}
        done = subprocess.run([sys.executable, ported], env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, f"{level} port:\n{done.stderr[-2000:]}"
        found[level] = Port(code, done.stdout, entries)
    return found
