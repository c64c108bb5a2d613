"""The data uai-migrate's rules read, derived from the installed TensorFlow and tf-slim, never typed by hand.

`tf_api.json` is written by `python -m codemods.tables.gen_tf_api`, `tf_upgrade.json` by
`python -m codemods.tables.gen_tf_upgrade` (run them in the `tf2` environment; their docstrings say
what each part holds). Migrating reads the file and never imports TensorFlow.
"""

import functools
import json
import os

from compat import tf1_names

HERE = os.path.dirname(os.path.abspath(__file__))
# The TensorFlow releases (major, minor) the two test suites run the rewritten code on: a target the
# tables write exists from the first to the last (TF 2's names only grow, and tf.compat.v1 is frozen).
CHECKED = ((2, 15), (2, 21))
TF_API = os.path.join(HERE, "tf_api.json")
TF_UPGRADE = os.path.join(HERE, "tf_upgrade.json")


def _load(path: str) -> dict:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


@functools.cache
def tf_api() -> dict:
    """The TF1 -> TF2 table (`moved`, `v1_only`, `v1_only_modules`, `differs`, `v2_only`, `private`,
    `private_by_name`, `private_modules`, `slim`)."""
    table = _load(TF_API)
    for key in ("v1_only", "v1_only_modules", "v2_only"):
        table[key] = frozenset(table[key])
    return table


def derived_from() -> str:
    """The TensorFlow release the tables were generated on."""
    return str(tf_api()["tensorflow"])


def provenance() -> str:
    first, last = (".".join(map(str, release)) for release in CHECKED)
    return f"tables derived from TensorFlow {derived_from()}; the code they write is checked on TF {first} to {last}"


def installed_warning(installed: tuple[int, ...] | None) -> str | None:
    """One line when the installed TensorFlow lies outside the checked releases (None without TensorFlow:
    uai-migrate needs none)."""
    if installed is None or CHECKED[0] <= installed[:2] <= CHECKED[1]:
        return None
    version = ".".join(map(str, installed))
    return f"the installed TensorFlow {version} is outside what the rewrites are checked on ({provenance()})"


@functools.cache
def tf_upgrade() -> dict:
    """tf_upgrade_v2's renames, the contrib names' homes and its per-function keyword renames (`renames`,
    `contrib`, `keywords`: {TF1 function: {TF1 keyword: TF 2's, or None when TF 2 dropped it}})."""
    return _load(TF_UPGRADE)


@functools.cache
def pre_1_0() -> dict:
    """TensorFlow 0.x names -> their TF 1 / TF 2 name ({path: path}, relative to `tensorflow`), from the
    table uai-run serves them from (compat.tf1_names.PRE_1_0: TF 2.21 no longer ships the 0.x -> 1.0 table)."""
    prefix = tf1_names.TF + "."
    return {
        old[len(prefix) :]: f"{module}.{attribute}"[len(prefix) :]
        for old, (module, attribute) in ((old, tf1_names.split(target)) for old, target in tf1_names.PRE_1_0.items())
    }
