"""The data uai-migrate's rules read, derived from the installed TensorFlow and tf-slim, never typed by hand.

`tf_api.json` is written by `python -m codemods.tables.gen_tf_api`, `tf_upgrade.json` by
`python -m codemods.tables.gen_tf_upgrade` (run them in the `tf2` environment; their docstrings say
what each part holds). Migrating reads the file and never imports TensorFlow.
"""

import functools
import json
import os

TF_API = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_api.json")
TF_UPGRADE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tf_upgrade.json")


@functools.cache
def tf_api() -> dict:
    """The TF1 -> TF2 table (`moved`, `v1_only`, `v1_only_modules`, `differs`, `private`, `slim`)."""
    with open(TF_API, encoding="utf-8") as handle:
        table = json.load(handle)
    for key in ("v1_only", "v1_only_modules"):
        table[key] = frozenset(table[key])
    return table


@functools.cache
def tf_upgrade() -> dict:
    """tf_upgrade_v2's renames and the contrib names' homes (`renames`, `contrib`, `keywords`)."""
    with open(TF_UPGRADE, encoding="utf-8") as handle:
        return json.load(handle)


@functools.cache
def contrib_closest() -> dict:
    """{contrib prefix: its closest TF 2 replacement}: hand-kept (no installed package knows what replaced
    what TensorFlow deleted), read for the manual step of the contrib names nothing converts."""
    with open(os.path.join(os.path.dirname(TF_API), "contrib_closest.json"), encoding="utf-8") as handle:
        return json.load(handle)


def longest_prefix(table: dict, name: str):
    """The value of the longest key of `table` equal to `name` or a dotted prefix of it, else None."""
    while name:
        if name in table:
            return table[name]
        name = name.rpartition(".")[0]
    return None


@functools.cache
def pre_1_0() -> dict:
    """TensorFlow 0.x names -> their TF 1 / TF 2 name ({path: path}, relative to `tensorflow`): hand-kept,
    as TF 2.21 no longer ships the 0.x -> 1.0 upgrade table; tests check every target resolves."""
    with open(os.path.join(os.path.dirname(TF_API), "pre_1_0.json"), encoding="utf-8") as handle:
        return json.load(handle)
