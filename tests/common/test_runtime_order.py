"""`import compat` in any order: the same working runtime whatever a script imports first.

A script may import TensorFlow, tf-slim and compat, and call `compat.install()`, in any order
(its own modules often import TensorFlow before the line uai-migrate adds). Each order runs in
its own process, since import order is process state; one process checks everything for it.
The orders share their first steps: a step is run once, and the process after it forks one child
per next step (a fork keeps the process state, so each order's process has run that order's steps
and no other), which kept TensorFlow's import (3 s of CPU) to 3 runs of the 9.
"""

import itertools
import json

import pytest

from tests.support.processes import result_json, run_script

STEPS = {
    "tensorflow": "import tensorflow",
    "tf_slim": "import tf_slim",
    "compat": "import compat",
    "install": "compat.install()",
}


def _orders():
    """The 3 orders of the three imports with TensorFlow before tf-slim, and each with `compat.install()` at
    every place after compat (9).

    tf-slim's first module imports TensorFlow before anything of its own runs, so `import tf_slim` before
    `import tensorflow` is the order with TensorFlow just before tf-slim (the later `import tensorflow` finds
    it in sys.modules): the other 9 of the 18 orders run nothing these do not. Orders that leave an import
    out are covered: the checks import everything at the end.
    """
    found = []
    for imports in itertools.permutations(("tensorflow", "tf_slim", "compat")):
        if imports.index("tensorflow") > imports.index("tf_slim"):
            continue
        found.append(imports)
        for place in range(imports.index("compat") + 1, len(imports) + 1):
            found.append(imports[:place] + ("install",) + imports[place:])
    return found


CHECKS = """
    import tensorflow as tf
    import tensorflow.compat.v1 as v1
    import tf_slim as slim
    from tf_slim.nets import resnet_v1

    out = {"estimator": [tf.estimator.RunConfig.__name__, tf.compat.v1.estimator.Estimator.__name__,
                         v1.estimator.tpu.TPUEstimator.__name__]}
    with tf.Graph().as_default():
        images = v1.placeholder(tf.float32, [1, 32, 32, 3])
        out["dense"] = v1.layers.dense(v1.layers.flatten(images), 2).shape.as_list()
        with slim.arg_scope(resnet_v1.resnet_arg_scope()):  # conv2d + batch_norm in every unit
            if FULL:
                logits, _ = resnet_v1.resnet_v1_50(images, num_classes=3, is_training=True)
            else:  # resnet_v1_50's code path with one bottleneck unit: 0.3 s to build, not 6
                block = resnet_v1.resnet_v1_block("block1", base_depth=2, num_units=1, stride=2)
                logits, _ = resnet_v1.resnet_v1(images, [block], num_classes=3, is_training=True, scope="resnet")
        out["resnet"] = logits.shape.as_list()
        out["batch_norm_updates"] = len(v1.get_collection(v1.GraphKeys.UPDATE_OPS)) > 0
        # tf-slim's own cond for a tensor predicate (dropout, batch_norm options) calls control_flow_ops.cond
        from tf_slim.layers import utils as slim_utils
        chosen = slim_utils.smart_cond(v1.placeholder(tf.bool, []), lambda: tf.constant(1), lambda: tf.constant(2))
        out["smart_cond"] = chosen.dtype.name
    print("RESULT " + json.dumps(out))
"""
EXPECTED = {
    "estimator": ["RunConfig", "Estimator", "TPUEstimator"],
    "dense": [1, 2],
    "resnet": [1, 1, 1, 3],
    "batch_norm_updates": True,
    "smart_cond": "int32",
}


# inherited from pytest, whose process imported compat: the script must choose it itself
START = ["import json, os", "os.environ.pop('TF_USE_LEGACY_KERAS', None)"]


def _run(tmp_path, order, full=False):
    lines = [*START, f"FULL = {full}", *(STEPS[step] for step in order)]
    result = run_script(tmp_path, "\n".join(lines) + "\n" + CHECKS.replace("\n    ", "\n"), timeout=180)
    assert result.returncode == 0, result.stderr[-3000:]
    return result_json(result.stdout)


# The orders' tree, as one script: each step runs at module level (exec in the script's globals, as the orders' own
# lines would), and a process that ran an order's every step runs the checks, its output in OUT/<order>.out/.err.
TREE = """
    import sys, traceback
    ORDERS, STEPS, CHECKS, OUT = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3], sys.argv[4]
    FULL = False


    def branch(done):
        below = [order for order in ORDERS if order[: len(done)] == done]
        nexts = sorted({order[len(done)] for order in below if len(order) > len(done)})
        for step in ([None] if done in below else []) + nexts:
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid:
                os.waitpid(pid, 0)
                continue
            code = 0
            try:
                if step is None:
                    name = os.path.join(OUT, "-".join(done))
                    for stream, suffix in ((1, ".out"), (2, ".err")):
                        os.dup2(os.open(name + suffix, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), stream)
                    exec(CHECKS, globals())
                else:
                    exec(STEPS[step], globals())
                    branch(done + [step])
            except BaseException:
                traceback.print_exc()
                code = 1
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)


    branch([])
"""


@pytest.fixture(scope="module")
def orders_run(tmp_path_factory):
    """{order: (its checks' output, their errors)} of every order, from one run of TREE."""
    tmp_path = tmp_path_factory.mktemp("orders")
    orders = [list(order) for order in _orders()]
    checks = CHECKS.replace("\n    ", "\n")
    source = "\n".join(START) + "\n" + TREE.replace("\n    ", "\n")
    result = run_script(tmp_path, source, [json.dumps(orders), json.dumps(STEPS), checks, str(tmp_path)], timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    found = {}
    for order in orders:
        name = tmp_path / "-".join(order)
        texts = [(name.with_name(name.name + suffix)) for suffix in (".out", ".err")]
        found[tuple(order)] = tuple(path.read_text() if path.exists() else "" for path in texts)
    return found, result.stderr


@pytest.mark.parametrize("order", _orders(), ids="-".join)
def test_every_import_order_gives_the_same_runtime(orders_run, order):
    found, steps_stderr = orders_run
    out, err = found[order]
    assert "RESULT " in out, (err or steps_stderr)[-3000:]  # a step's failure is in the steps' stderr
    assert result_json(out) == EXPECTED


def test_resnet_v1_50_builds_with_import_tf_slim_after_compat(tmp_path):
    # the order existing slim code has once `import compat` is added at the top
    assert _run(tmp_path, ("compat", "tf_slim"), full=True) == EXPECTED
