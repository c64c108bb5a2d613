"""Work that the parts of one suite share: done by the first part that needs it, read by the others.

`python3 dev.py test` runs a suite in parts, side by side, each in a pytest process of its own
(noxfile.py SUITES). Both tf2 parts compare with the same runs: the corpus and the samples under
uai-run (tests/conftest.py). Computed once per part, those runs took minutes of CPU twice on a
2-core machine. dev.py gives every part of one test command the same fresh folder ($UAI_TEST_SHARED,
removed when the command ends); here, under a file lock, the first part computes into it and
the others wait, then load what it stored. Without the variable (pytest run by hand) each process
computes its own, as before.
"""

import fcntl
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import pytest

SHARED = "UAI_TEST_SHARED"
T = TypeVar("T")


def once(name: str, tmp_path_factory: "pytest.TempPathFactory", compute: Callable[[Path], T]) -> T:
    """`compute(folder)`'s result, computed once per test command and environment (see the module's docstring):
    `folder` is where it writes its files, kept until the command ends."""
    shared = os.environ.get(SHARED)
    if not shared:
        return compute(tmp_path_factory.mktemp(name))
    root = Path(shared) / os.environ.get("UAI_TEST_ENV", "local")
    root.mkdir(parents=True, exist_ok=True)
    stored = root / f"{name}.pickle"
    with open(root / f"{name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also if compute raises
        if stored.exists():
            with open(stored, "rb") as handle:
                return pickle.load(handle)
        folder = root / name
        folder.mkdir(exist_ok=True)
        result = compute(folder)
        partial = stored.with_suffix(".partial")
        with open(partial, "wb") as handle:
            pickle.dump(result, handle)
        os.replace(partial, stored)  # a part that fails mid-write leaves nothing for the others to read
        return result
