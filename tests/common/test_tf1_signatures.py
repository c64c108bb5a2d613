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

from tests.support import runs as _runs
from tests.support.goldens import assert_close_to, run_against_tf115, tf115_values
from tests.support.processes import REPO, result_json

# What a TF1 call of these still meets on TF 2, each a stated limit: a TypeError naming the parameter (not a
# silent misreading), or a parameter no TF1 program passes by position. {TF1 name: why it stays}
KNOWN = {
    "tensorflow.Tensor": "built by TensorFlow's ops, never by a program",
    "tensorflow.RaggedTensor": "built by tf.RaggedTensor.from_* (TF 1.15's docs forbade the constructor)",
    "tensorflow.OptionalSpec": "built by tf.data, never by a program",
    "tensorflow.data.experimental.OptionalStructure": "built by tf.data, never by a program",
    "tensorflow.errors.UnknownError": "raised by TensorFlow; TF 2 takes the error code as an optional argument",
    "tensorflow.function": "TF 2 added parameters before the experimental_* ones, which TF 1 code passes by keyword",
    "tensorflow.autograph.experimental.set_loop_options": "TF 2 dropped back_prop= (a TypeError naming it)",
    "tensorflow.config.experimental.set_virtual_device_configuration": "TF 2 renamed virtual_devices= to "
    "logical_devices= (a TypeError naming it)",
    "tensorflow.random.experimental.create_rng_state": "TF 2 renamed algorithm= to alg= (a TypeError naming it)",
    "tensorflow.contrib.distribute.MirroredStrategy": "TF 2's takes devices=, not TF 1.15's num_gpus= family (a "
    "TypeError naming it); compat.strategy() builds strategies from TF_CONFIG",
    "tensorflow.tpu.experimental.StochasticGradientDescentParameters": "TPU-only; TF 2.15 added clipping parameters "
    "before the ones TF 1.15 had",
}

SURVEY = """
    import inspect, json, sys
    import compat
    compat.install()
    from compat import tf1_modules

    def parameters(obj):
        try:
            return [(p.name, p.kind) for p in inspect.signature(obj).parameters.values()]
        except (TypeError, ValueError):
            return None

    found = {}
    for name, tf1 in json.load(open(sys.argv[1]))["values"].items():
        path, _, attr = name.rpartition(".")
        try:
            value = getattr(tf1_modules.tf1_module(path), attr)
        except Exception:
            continue  # not available: uai-run stops in one line naming it (test_uai_run_tf1_face and others)
        now = parameters(value)
        if now is not None:
            found[name] = [[p, int(kind)] for p, kind in now]
    print("RESULT " + json.dumps(found))
"""


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


def test_every_tf1_name_takes_tf115s_parameters_in_tf115s_order(tmp_path):
    golden = f"{REPO}/tests/common/golden/tf115_signatures.json"
    script = tmp_path / "survey.py"
    script.write_text(textwrap.dedent(SURVEY))
    result = _runs.run([sys.executable, str(script), golden], tmp_path)
    assert result.returncode == 0, result.stderr[-3000:]
    now = result_json(result.stdout)
    tf1 = tf115_values("tf115_signatures.json")
    assert len(now) > 2500, len(now)  # the names this TensorFlow provides, checked
    gaps = {
        name: why
        for name in now
        # tf.raw_ops are the installed runtime's op definitions, called by keyword: no TF1 signature to keep
        if not name.startswith("tensorflow.raw_ops.") and (why := _gap(tf1[name], now[name]))
    }
    assert {name: why for name, why in gaps.items() if name not in KNOWN} == {}


def test_contrib_losses_and_accuracy_called_as_tf1_did_give_tf115s_values(tmp_path):
    """Positional (predictions, labels) and (logits, labels), [batch, 1] and per-element weights, a zero weight,
    unreduced hinge losses, a weighted accuracy: unmodified under uai-run, and after uai-migrate."""
    values, golden = run_against_tf115("contrib_losses_positional.py", "tf115_contrib_losses.json", tmp_path)
    assert_close_to(values, golden, atol=1e-6, exact=("collected losses",))
    program = f"{REPO}/tests/common/tf1_programs/contrib_losses_positional.py"
    migrated = _runs.migrate("--out", tmp_path / "ported", program, cwd=tmp_path)
    assert migrated.returncode == 0, migrated.stdout + migrated.stderr
    ported = _runs.run([sys.executable, str(tmp_path / "ported" / "contrib_losses_positional.py")], tmp_path)
    assert ported.returncode == 0, ported.stderr[-3000:]
    assert_close_to(result_json(ported.stdout), golden, atol=1e-6, exact=("collected losses",))
