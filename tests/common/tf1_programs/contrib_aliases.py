"""Which tf.contrib names were, in TF 1.15, the very object of a public tf.* name (`tf.contrib.framework.sort`
is `tf.sort`): for those, TF1's own API (tf.compat.v1) is exactly what a TF1 program called.

Prints `RESULT <json>`, {tf.contrib name: its shortest tf.* name}, over the generated tf.* API and tf.contrib's
packages as tests/common/tf1_programs/tf1_signatures.py walks them. Its output on real TensorFlow 1.15 is
tests/common/golden/tf115_contrib_aliases.json (written by `python3 dev.py tf115`:
tests/common/golden/make_tf115_goldens.py); test_tf1_signatures.py checks uai-run and uai-migrate serve each.
"""

import json

from tf1_signatures import tf, walk

names = {}
walk(tf, "tensorflow", names)  # (keyed by name; the objects are read again below)


def resolve(name):
    value = tf
    for part in name.split(".")[1:]:
        value = getattr(value, part)
    return value


homes = {}
for name in sorted(names, key=lambda n: (len(n), n)):
    if not name.startswith("tensorflow.contrib."):
        homes.setdefault(id(resolve(name)), name)
result = {
    name: homes[id(resolve(name))]
    for name in names
    if name.startswith("tensorflow.contrib.") and id(resolve(name)) in homes
}
print("RESULT " + json.dumps(result, sort_keys=True))
