"""Run the real `python -m codemods` (uai-migrate) in subprocesses, with a private result cache."""

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO, python_env


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
