"""The golden files real TF 1.15 wrote (tests/common/golden, `python3 dev.py tf115`), read the one way."""

import json
import os

from tests.support.processes import REPO

GOLDEN = os.path.join(REPO, "tests", "common", "golden")


def tf115_values(name: str) -> dict:
    """The values of golden file `name`, after checking it was written by TF 1.15 through the one command."""
    with open(os.path.join(GOLDEN, name)) as handle:
        golden = json.load(handle)
    assert golden["tensorflow"].startswith("1.15."), golden["tensorflow"]
    assert "python3 dev.py tf115" in golden["_header"], golden["_header"]
    return golden["values"]
