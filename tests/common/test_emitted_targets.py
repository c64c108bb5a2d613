"""Every name uai-migrate's tables let a rule write exists on this TensorFlow (2.15 and 2.21) with compat installed.

The tables are derived on TF 2.21 (codemods/tables/*.json) or typed (compat/tf1_names.py,
compat/library_names.py), and the ported code runs on both TFs: a `tf.<path>` a rule writes must be an
attribute chain of this TensorFlow, and a `from tensorflow.<module> import <name>` (written where the
tf_upgrade table lists `<module>` as importable) must find the name in that module. Read as data,
without libcst, in a fresh process where compat was imported first,
as a ported program runs.
"""

import json

from tests.support.processes import run_script

RESOLVER = r"""
import importlib, importlib.util, json, sys
import compat
import tensorflow as tf
from codemods import tables
from compat import library_names, tf1_names

upgrade, api = tables.tf_upgrade(), tables.tf_api()


def chain(root, path):
    value = root
    for part in path.split("."):
        value = getattr(value, part)
    return value


def tf_name(path):
    chain(tf, path)


def exists(module, name):
    try:
        return hasattr(importlib.import_module(module), name)
    except ImportError:
        return False


written = {}  # name as written -> where the table holds it
for old, new in upgrade["renames"].items():
    written.setdefault(("tf", new), f"tf_upgrade renames {old}")
for old, new in upgrade["contrib"].items():
    written.setdefault(("tf", new), f"tf_upgrade contrib {old}")
for old, new in api["moved"].items():
    written.setdefault(("tf", new), f"tf_api moved {old}")
for name in api["v1_only"] | api["v1_only_modules"]:
    written.setdefault(("tf", f"compat.v1.{name}"), f"tf_api v1_only {name}")
for module, names in api["private"].items():
    for name, homes in names.items():
        if not exists(module, name):
            continue  # a private name of TF 2.21 only: no code for this TensorFlow reads it
        for home in filter(None, homes):
            written.setdefault(("tf", home), f"tf_api private {module}.{name}")
for name in api["estimator"]["differs"]:
    written.setdefault(("tf", f"compat.v1.estimator.{name}"), f"tf_api estimator differs {name}")
for name in api["slim"]:
    written.setdefault(("module", f"compat.slim:{name}"), f"tf_api slim {name}")
for old, target in [*tf1_names.SYMBOLS.items(), *((m, t) for m, ts in tf1_names.MODULES.items() for t in ts)]:
    written.setdefault(("module", target), f"tf1_names {old}")
for old, new in tf1_names.PACKAGES.items():
    written.setdefault(("module", new), f"tf1_names package {old}")
for module, renamed in library_names.RENAMED.items():
    if importlib.util.find_spec(module.split(".")[0]) is None:
        continue  # a library this environment lacks (Pillow in the tf1 one): no program here reads it
    for old, new in renamed.items():
        home, name = library_names.split(new)
        written.setdefault(("module", f"{home}:{name}"), f"library_names {module}.{old}")

missing = {}
for (kind, name), source in sorted(written.items()):
    try:
        tf_name(name) if kind == "tf" else tf1_names.resolve(name)
    except Exception as error:  # every name that does not resolve is a finding
        missing[name] = f"{source}: {type(error).__name__}: {error}"[:300]
print("RESULT " + json.dumps({"checked": len(written), "missing": missing, "tf": tf.__version__}))
"""


# Names the TF 2.21-derived tables write that TF 2.15 lacks, known and listed so that a new one, or a fixed
# one still listed, fails. The contrib table maps every name of a TF 2.21 module to contrib's module of that
# purpose: no TF 1 contrib had these, so no TF1 program reads them. (The private names TF 2.16 made public, which
# tf-private writes as such, compat binds on TF 2.15: compat._tf_internals.PUBLISHED.)
KNOWN_ON_2_15 = {
    "compat.v1.data.experimental.ServiceOptions": "a TF 2.21 name under contrib.data, which TF 1 never had",
    "compat.v1.data.experimental.get_model_proto": "a TF 2.21 name under contrib.data, which TF 1 never had",
    "compat.v1.distribute.cluster_resolver.KubernetesExecutableLocation": "a TF 2.21 name, never in contrib",
}


def test_every_name_the_tables_write_exists_on_this_tensorflow(tmp_path):
    result = run_script(tmp_path, RESOLVER, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    out = json.loads(next(line for line in result.stdout.splitlines() if line.startswith("RESULT "))[7:])
    assert out["checked"] > 3000  # the tables were read
    known = KNOWN_ON_2_15 if out["tf"].startswith("2.15.") else {}
    new = {name: why for name, why in out["missing"].items() if name not in known}
    assert new == {}, "\n".join(f"{name}: {why}" for name, why in new.items())
    assert sorted(known.keys() - out["missing"].keys()) == [], "they exist now: remove them from KNOWN_ON_2_15"
