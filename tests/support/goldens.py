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


def assert_close_to(values: dict, golden: dict, atol: float, exact: tuple[str, ...] = ()) -> None:
    """`values` has `golden`'s keys and, key by key, its numbers (lists of any depth) to within `atol`;
    the keys in `exact` (names, shapes) are equal."""
    import numpy as np

    assert sorted(values) == sorted(golden)
    for key in sorted(golden):
        if key in exact:
            assert values[key] == golden[key], key
        else:
            np.testing.assert_allclose(values[key], golden[key], atol=atol, err_msg=key)
