"""uai-migrate in tests: the real `python -m codemods` in subprocesses (`migrate`) or its CLI in-process (`cli`), each with a private result cache."""

import json
import subprocess
import sys

import pytest

from tests.support.processes import REPO, python_env


@pytest.fixture
def migrate(tmp_path):
    cache = tmp_path / "_cache"

    def run(*args, cwd=None, check_json=False):
        result = subprocess.run(
            [sys.executable, "-m", "codemods", *map(str, args)],
            cwd=str(cwd or REPO),
            env=python_env({"XDG_CACHE_HOME": str(cache)}),
            capture_output=True,
            text=True,
            timeout=120,
        )
        if check_json:
            result.json = json.loads(result.stdout)
        return result

    return run


@pytest.fixture
def cli(tmp_path, capsys, monkeypatch):
    """Run `uai-migrate ARGS` in this process (-j1: the real code path without a Python start-up per case);
    return (exit code, stdout, stderr)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "_cache"))

    def run(*args, cwd=None):
        from codemods.cli import main

        if cwd is not None:
            monkeypatch.chdir(cwd)
        try:
            code = main(["-j1", *map(str, args)])
        except SystemExit as exit_:
            code = exit_.code
        out, err = capsys.readouterr()
        assert "Traceback" not in err, err
        return code, out, err

    return run
