"""Loaded at startup by a program `tests.support.tf_free` runs: at its exit, whether it had imported TensorFlow.

Registered first, so it runs after the program's own atexit handlers; the answer goes to the file UAI_TF_PROBE
names, not to the program's stdout or stderr, which the test reads as the user would.
"""

import atexit
import os
import sys


def _answer() -> None:
    with open(os.environ["UAI_TF_PROBE"], "w", encoding="utf-8") as handle:
        handle.write("imported" if "tensorflow" in sys.modules else "not imported")


if os.environ.get("UAI_TF_PROBE"):
    atexit.register(_answer)
