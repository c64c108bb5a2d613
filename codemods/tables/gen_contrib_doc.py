"""Write docs/contrib.md, the decision taken for each tf.contrib package of TF 1.15, from the tables both tools
read: `python -m codemods.tables.gen_contrib_doc` (no TensorFlow needed).

The packages, and how many public functions and classes each had, come from what real TF 1.15 holds
(tests/common/golden/tf115_signatures.json, written by `python3 dev.py tf115`); what becomes of them comes
from compat/tf1_names.py, which uai-run serves and uai-migrate rewrites from. tests/codemods/test_contrib_doc.py
holds the committed page equal to a fresh run, so the page cannot drift from the tables.
"""

import collections
import json
import os

from compat import tf1_modules, tf1_names

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "docs", "contrib.md")
GOLDEN = os.path.join(ROOT, "tests", "common", "golden", "tf115_signatures.json")
CONTRIB = tf1_names.TF + ".contrib."

HEADER = """# What each tf.contrib package of TF 1.15 becomes

Written by `python -m codemods.tables.gen_contrib_doc` from compat/tf1_names.py (the one table uai-run serves
and uai-migrate rewrites from) and the packages real TF 1.15 has (tests/common/golden/tf115_signatures.json);
never edit by hand. "Names" counts the package's public functions and classes on TF 1.15. A name the table
gives no home stops uai-run in one line and is an error entry of uai-migrate, both naming the manual step.

| package | names | what both tools give | the manual step for a name they do not give |
|---|---:|---|---|
"""


def _short(target: str) -> str:
    return f"`{tf1_modules.short(target)}`"


def _gives(package: str) -> str:
    """What the tables make of `package`'s names."""
    parts = []
    if package in tf1_names.MODULES:
        targets = tf1_names.MODULES[package]
        parts.append("its names, looked up in " + ", ".join(_short(t.replace(":", ".")) for t in targets))
    moved = tf1_names.move_package(package)
    if moved:
        parts.append(f"its modules, moved below {_short(moved)}")
    symbols = [name for name in tf1_names.SYMBOLS if name.startswith(package + ".")]
    if symbols:
        homes = sorted({_short(tf1_names.split(tf1_names.SYMBOLS[name])[0]) for name in symbols})
        parts.append(f"{len(symbols)} name{'s' if len(symbols) > 1 else ''} of their own, from " + ", ".join(homes))
    return "; ".join(parts) or "nothing"


def build() -> str:
    with open(GOLDEN, encoding="utf-8") as handle:
        names = json.load(handle)["values"]
    counts = collections.Counter(name[len(CONTRIB) :].split(".")[0] for name in names if name.startswith(CONTRIB))
    rows = [
        f"| `tf.contrib.{package}` | {count} | {_gives(CONTRIB + package)} | "
        f"{tf1_names.manual_for(CONTRIB + package).replace('|', '/')} |"
        for package, count in sorted(counts.items())
    ]
    return HEADER + "\n".join(rows) + "\n"


def main() -> None:
    text = build()
    with open(OUT, "w", encoding="utf-8") as handle:
        handle.write(text)
    print(f"{os.path.relpath(OUT)}: {text.count(chr(10)) - HEADER.count(chr(10))} tf.contrib packages")


if __name__ == "__main__":
    main()
