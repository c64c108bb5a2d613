"""TF 1.x call signatures, not only names: each TF1 name, as uai-run serves it and uai-migrate writes it, takes
the parameters TF 1.15 took, in TF 1.15's order.

tests/common/golden/tf115_signatures.json holds the signature of every public TF1 function and class under
tf and tf.contrib, as real TF 1.15 has them (`python3 dev.py tf115`). A parameter TF 2's object lacks is a
TypeError where TF1 code passes it; one that moved is worse: a positional call binds it to another parameter
without a word. That is how tf.contrib.losses was found: it had been mapped to tf.compat.v1.losses, which
takes (labels, predictions) where contrib took (predictions, labels), weighs otherwise and reduces hinge
losses; compat.contrib_losses now computes what TF 1 did (and compat.contrib_metrics its accuracy).
"""

import sys
import textwrap

import pytest

from compat import tf1_names
from tests.support import runs as _runs
from tests.support.goldens import assert_close_to, run_against_tf115, tf115_values
from tests.support.processes import REPO, assert_one_line_error, result_json

# What a TF1 call of these still meets on TF 2, each a stated limit: a TypeError naming the parameter (not a
# silent misreading), or a parameter no TF1 program passes by position. {TF1 name: why it stays}
KNOWN = {
    "tensorflow.Tensor": "built by TensorFlow's ops, never by a program",
    "tensorflow.RaggedTensor": "built by tf.RaggedTensor.from_* (TF 1.15's docs forbade the constructor)",
    "tensorflow.OptionalSpec": "built by tf.data, never by a program",
    "tensorflow.data.experimental.OptionalStructure": "built by tf.data, never by a program",
    "tensorflow.errors.UnknownError": "raised by TensorFlow; TF 2 takes the error code as an optional argument",
    "tensorflow.function": "TF 2 added parameters before the experimental_* ones, which TF 1 code passes by keyword",
    # where it acts, in a loop autograph converts, TF 2 takes back_prop= and gives it to the loop (autograph maps a
    # directive's arguments without checking them; it knows the directive by identity, so it is served as it is)
    "tensorflow.autograph.experimental.set_loop_options": "TF 2 dropped back_prop=: called outside a converted "
    "loop, where it does nothing, a TypeError naming it",
    "tensorflow.tpu.experimental.StochasticGradientDescentParameters": "TPU-only; TF 2.15 added clipping parameters "
    "before the ones TF 1.15 had",
    "tensorflow.contrib.summary.graph": "compat.summary has no graph(): TF 2's tf.summary.graph takes the graph, not "
    "contrib's serialized-graph tensor (it refuses one)",
}

RAW_OPS = ("tensorflow.raw_ops.", "tensorflow.contrib.quantization.")
# The TF 1.15 aliases not served, a stated limit (they stop in one line under uai-run, and are an error entry after
# uai-migrate): contrib.quantization's are TF 1.15's generated op classes (tf.raw_ops'), which TF 2 programs call
# through tf.raw_ops, the installed runtime's ops.
NOT_SERVED = ("tensorflow.contrib.quantization.",)

SURVEY = """
    import inspect, json, sys
    import compat
    compat.install()
    from compat import tf1_modules, tf1_names

    def parameters(obj):
        try:
            return [(p.name, p.kind) for p in inspect.signature(obj).parameters.values()]
        except (TypeError, ValueError):
            return None

    def served(name):
        path, _, attr = name.rpartition(".")
        return getattr(tf1_modules.tf1_module(path), attr)

    signatures = {}
    for name in json.load(open(sys.argv[1]))["values"]:
        try:
            value = served(name)
        except Exception:
            continue  # not available: uai-run stops in one line naming it (test_uai_run_tf1_face and others)
        now = parameters(value)
        if now is not None:
            signatures[name] = [[p, int(kind)] for p, kind in now]
    aliases = {}
    for name, home in json.load(open(sys.argv[2]))["values"].items():
        try:
            want = tf1_names.resolve(tf1_names.V1 + ":" + home[len("tensorflow.") :])
        except AttributeError:
            aliases[name] = "no TF 2 home"
            continue
        try:
            aliases[name] = "served" if served(name) is want else "another object"
        except AttributeError:
            aliases[name] = "missing"
    print("RESULT " + json.dumps({"signatures": signatures, "aliases": aliases}))
"""


@pytest.fixture(scope="module")
def survey(tmp_path_factory) -> dict:
    """What this TensorFlow with compat serves for each name of the two golden files (one process)."""
    folder = tmp_path_factory.mktemp("survey")
    script = folder / "survey.py"
    script.write_text(textwrap.dedent(SURVEY))
    golden = f"{REPO}/tests/common/golden"
    result = _runs.run(
        [sys.executable, str(script), f"{golden}/tf115_signatures.json", f"{golden}/tf115_contrib_aliases.json"],
        folder,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result_json(result.stdout)


def _gap(tf1: str, now: list) -> str | None:
    """Why a TF1 call of parameters `tf1` ("a, b, *args, =c, **kw") may not mean the same to `now`, or None."""
    names = [p.lstrip("*=") for p in tf1.split(", ") if p]
    kinds = {name: kind for name, kind in now}
    if 4 in kinds.values():  # **kwargs: every keyword is taken
        return None
    # TF1's `_sentinel` first parameter made every call pass keywords
    positional = [] if names[:1] == ["_sentinel"] else [p for p in tf1.split(", ") if p and p[0] not in "*="]
    lost = [p for p in names if not p.startswith("_") and p not in kinds and p not in ("args", "kwargs")]
    order = [name for name, kind in now if kind in (0, 1)]
    moved = [p for i, p in enumerate(positional) if p in order and order.index(p) != i]
    if moved == ["name"] and not lost:
        return None  # TF 2 added parameters before `name`, which TF 1 code passes by keyword
    if lost or moved:
        return f"lost {lost}, moved {moved}"
    return None


def test_every_tf1_name_takes_tf115s_parameters_in_tf115s_order(survey):
    now = survey["signatures"]
    tf1 = tf115_values("tf115_signatures.json")
    assert len(now) > 2500, len(now)  # the names this TensorFlow provides, checked
    gaps = {
        name: why
        for name in now
        # tf.raw_ops (and contrib.quantization's, the same objects) are the installed runtime's op definitions,
        # called by keyword: no TF1 signature to keep
        if not name.startswith(RAW_OPS) and (why := _gap(tf1[name], now[name]))
    }
    # a tf.contrib name that was a tf.* name on TF 1.15 (tf.contrib.eager.function) meets what that name meets
    aliases = tf115_values("tf115_contrib_aliases.json")
    assert {name: why for name, why in gaps.items() if name not in KNOWN and aliases.get(name) not in KNOWN} == {}
    assert sorted(name for name in KNOWN if name in now and name not in gaps) == [], "served: remove them from KNOWN"


def test_a_tf1_call_tf2_cannot_take_stops_uai_run_in_one_line(tmp_path):
    """A dropped keyword with a value that did something (contrib MirroredStrategy's auto_shard_dataset=True), as
    uai-migrate's error entry: one line naming the manual step (compat.tf1_names.Dropped)."""
    program = tmp_path / "sharded.py"
    program.write_text(
        "import tensorflow as tf\nstrategy = tf.contrib.distribute.MirroredStrategy(num_gpus=0, auto_shard_dataset=True)\n"
    )
    result = _runs.run([sys.executable, "-m", "uai_run", str(program)], tmp_path)
    dropped = tf1_names.CALL_KEYWORDS["tensorflow.contrib.distribute.MirroredStrategy"]["auto_shard_dataset"]
    assert isinstance(dropped, tf1_names.Dropped)
    assert_one_line_error(result, f"TF 2 has no auto_shard_dataset= (given True); {dropped.manual}")


def test_tf1_parameters_are_tf115s():
    """compat.tf1_names.TF1_PARAMETERS (what a positional TF1 call binds to where TF 2 changed the parameters) is
    TF 1.15's own order, and its callables are CALL_KEYWORDS rows."""
    tf1 = tf115_values("tf115_signatures.json")
    for name, order in tf1_names.TF1_PARAMETERS.items():
        assert name in tf1_names.CALLABLES, name
        assert ", ".join(order) == tf1[name], name


def _ported_result(program: str, tmp_path) -> dict:
    """The result line of tests/common/tf1_programs/`program` after `uai-migrate --out`, run with python."""
    migrated = _runs.migrate("--out", tmp_path / "ported", f"{REPO}/tests/common/tf1_programs/{program}", cwd=tmp_path)
    assert migrated.returncode == 0, migrated.stdout + migrated.stderr
    ported = _runs.run([sys.executable, str(tmp_path / "ported" / program)], tmp_path)
    assert ported.returncode == 0, ported.stderr[-3000:]
    return result_json(ported.stdout)


def test_contrib_losses_and_accuracy_called_as_tf1_did_give_tf115s_values(tmp_path):
    """Positional (predictions, labels) and (logits, labels), [batch, 1] and per-element weights, a zero weight,
    unreduced hinge losses, a weighted accuracy: unmodified under uai-run, and after uai-migrate."""
    values, golden = run_against_tf115("contrib_losses_positional.py", "tf115_contrib_losses.json", tmp_path)
    assert_close_to(values, golden, atol=1e-6, exact=("collected losses",))
    ported = _ported_result("contrib_losses_positional.py", tmp_path)
    assert_close_to(ported, golden, atol=1e-6, exact=("collected losses",))


def test_functions_and_classes_called_with_tf115s_keywords_do_what_tf115_did(tmp_path):
    """set_virtual_device_configuration(virtual_devices=), create_rng_state(algorithm=), contrib.lookup's
    index tables (mapping=) and contrib MirroredStrategy(num_gpus=, num_gpus_per_worker=, cross_tower_ops=), by
    keyword and by position (compat.tf1_names.CALL_KEYWORDS): unmodified under uai-run, and after uai-migrate."""
    values, golden = run_against_tf115("tf1_call_keywords.py", "tf115_call_keywords.json", tmp_path)
    assert values == golden
    assert _ported_result("tf1_call_keywords.py", tmp_path) == golden


def test_a_contrib_name_that_was_a_tf_name_on_tf115_is_served_as_that_name(survey):
    """tests/common/golden/tf115_contrib_aliases.json: `tf.contrib.framework.sort` was `tf.sort` on TF 1.15, so
    uai-run serves (and uai-migrate writes) `tf.compat.v1.sort` for it, the object TF1's own API has now."""
    found = survey["aliases"]
    assert len(found) == len(tf115_values("tf115_contrib_aliases.json")) > 400
    # (TF 2 dropped a few: tf.contrib.eager.list_devices was tf.config.experimental_list_devices)
    unserved = {name: how for name, how in found.items() if how not in ("served", "no TF 2 home")}
    assert {name: how for name, how in unserved.items() if not name.startswith(NOT_SERVED)} == {}
    assert set(unserved.values()) == {"missing"}
