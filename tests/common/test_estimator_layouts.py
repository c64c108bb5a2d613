"""Every cluster layout TF 2.15's Estimator runs, run the same way on both TFs.

On TF 2.15 `tf.estimator.train_and_evaluate` with `RunConfig(train_distribute=...)` runs through
TensorFlow's distribute coordinator glue (`tensorflow.python.distribute.estimator_training`); on
TF 2.21 that module is gone and compat provides it (compat/_estimator_support/_coordinator_training.py).
The same table runs on both: tf1 shows what TF 2.15 accepts, tf2 that compat accepts it too.

Two levels: what the coordinator tells each task's Estimator (worker and ps counts, global id,
chief), in-process over more layouts than processes could afford; and real clusters on
127.0.0.1, one per layout, with a linear model trained for 3 steps and evaluated.
"""

import json

import pytest

import compat

compat.install()

import tensorflow as tf  # noqa: E402

# estimator_training: TensorFlow's on TF 2.15, compat's stand-in on TF 2.21 (registered by compat.install())
from tensorflow.python.distribute import distribute_coordinator, estimator_training  # noqa: E402

from tests.support.clusters import run_cluster_to_end  # noqa: E402

# -- in-process: the coordinator's view of each task -----------------------------------------------

# layout (task counts per job) -> {task: (is_chief, num_worker_replicas, num_ps_replicas, global id)}.
# TF 2.15 counts the chief as a worker, numbers the chief first, then the other training jobs in
# name order, then ps; the evaluator gets a cluster of its own and counts nothing.
VIEWS = {
    "chief": ({"chief": 1}, {"chief:0": (True, 1, 0, 0)}),
    "chief + evaluator": (
        {"chief": 1, "evaluator": 1},
        {"chief:0": (True, 1, 0, 0), "evaluator:0": (True, 0, 0, None)},
    ),
    "workers only": ({"worker": 2}, {"worker:0": (True, 2, 0, 0), "worker:1": (False, 2, 0, 1)}),
    "chief + 2 workers + evaluator": (
        {"chief": 1, "worker": 2, "evaluator": 1},
        {
            "chief:0": (True, 3, 0, 0),
            "worker:0": (False, 3, 0, 1),
            "worker:1": (False, 3, 0, 2),
            "evaluator:0": (True, 0, 0, None),
        },
    ),
    "chief + worker + 2 ps": (
        {"chief": 1, "worker": 1, "ps": 2},
        {"chief:0": (True, 2, 2, 0), "worker:0": (False, 2, 2, 1), "ps:0": (False, 2, 2, 2), "ps:1": (False, 2, 2, 3)},
    ),
    "workers + ps + evaluator, no chief": (
        {"worker": 2, "ps": 1, "evaluator": 1},
        {
            "worker:0": (True, 2, 1, 0),
            "worker:1": (False, 2, 1, 1),
            "ps:0": (False, 2, 1, 2),
            "evaluator:0": (True, 0, 0, None),
        },
    ),
}


def coordinator_view(jobs: dict[str, int], task_type: str, task_id: int) -> tuple:
    """What the coordinator hands task (`task_type`, `task_id`) of `jobs`: the cluster split as it
    splits it (an evaluator sees only itself), its worker context, and the RunConfig built from it."""
    addresses = {
        job: [f"127.0.0.1:{2000 + 10 * n + i}" for i in range(count)] for n, (job, count) in enumerate(jobs.items())
    }
    spec = distribute_coordinator._split_cluster_for_evaluator(tf.train.ClusterSpec(addresses), task_type)
    context = distribute_coordinator._WorkerContext(None, spec, task_type, task_id)
    config = tf.compat.v1.estimator.RunConfig()
    estimator_training._init_run_config_from_worker_context(config, context)
    assert (config.task_type, config.task_id) == (task_type, task_id)
    return config.is_chief, config.num_worker_replicas, config.num_ps_replicas, config.global_id_in_cluster


@pytest.mark.parametrize("name", list(VIEWS))
def test_each_task_of_a_layout_gets_tf_2_15s_counts(name: str) -> None:
    jobs, expected = VIEWS[name]
    got = {}
    for task in expected:
        job, index = task.split(":")
        got[task] = coordinator_view(jobs, job, int(index))
    assert got == expected


# -- real clusters -----------------------------------------------------------------------------------

TASK = """
    import json, os, time
    import numpy as np
    import compat
    import tensorflow.compat.v1 as tf

    tf.disable_v2_behavior()
    STRATEGIES = {
        "multi_worker_mirrored": lambda: tf.distribute.experimental.MultiWorkerMirroredStrategy(),
        "parameter_server": lambda: tf.distribute.experimental.ParameterServerStrategy(),
    }

    def input_fn():
        x = np.arange(32, dtype=np.float32).reshape(16, 2) / 32
        return tf.data.Dataset.from_tensor_slices(({"x": x}, x.sum(1, keepdims=True))).repeat().batch(4)

    def model_fn(features, labels, mode):
        weights = tf.get_variable("w", [2, 1], initializer=tf.zeros_initializer())
        loss = tf.reduce_mean(tf.square(tf.matmul(features["x"], weights) - labels))
        step = tf.train.get_or_create_global_step()
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, step)
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train)

    model_dir = os.environ["MODEL_DIR"]
    task = json.loads(os.environ["TF_CONFIG"])["task"]
    if task["type"] == "worker" and os.environ["STRATEGY"] == "parameter_server":
        # A worker that finds the variables uninitialised polls again only after 30 s (TF 1's
        # SessionManager): start once the chief has initialised them (its first checkpoint).
        while not tf.train.latest_checkpoint(model_dir):
            time.sleep(0.2)
    config = tf.estimator.RunConfig(model_dir=model_dir, train_distribute=STRATEGIES[os.environ["STRATEGY"]]())
    estimator = tf.estimator.Estimator(model_fn, config=config)
    tf.estimator.train_and_evaluate(
        estimator,
        tf.estimator.TrainSpec(input_fn, max_steps=3),
        tf.estimator.EvalSpec(input_fn, steps=1, start_delay_secs=0, throttle_secs=1),
    )
    result = {}
    if task["type"] == "chief":
        result["step"] = int(estimator.get_variable_value("global_step"))
    if task["type"] == "evaluator":  # the global steps of the checkpoints it evaluated
        result["evaluated"] = sorted(
            event.step
            for path in tf.gfile.Glob(os.path.join(model_dir, "eval", "events.*"))
            for event in tf.train.summary_iterator(path)
            if any(value.tag == "loss" for value in event.summary.value)
        )
    print("RESULT " + json.dumps(result), flush=True)
"""

# (layout, strategy): the layouts of a cluster's jobs, each with the strategy TF 2.x-era Estimator
# programs run it with. Without a strategy Estimator replicates between graphs itself and never
# enters the coordinator (tests/common/test_runtime_cluster.py runs that).
# MirroredStrategy is no row: with any cluster TF 2.15's coordinator fails in its `configure`
# (docs/traps.md), so there is nothing for compat to match.
# Each training layout runs with an evaluator beside it: the coordinator splits the evaluator off into a
# cluster of its own, and the training tasks' counts are those of the layout without it (VIEWS: "chief" and
# "chief + evaluator"), so the same cluster without an evaluator would run nothing these do not (4-5 CPU-s a
# process saved, three clusters).
LAYOUTS = {
    # a single chief; as a program whose own TF_CONFIG code turns its only worker into the evaluator
    "chief + evaluator": (dict(chief=1, workers=0, evaluator=True), "multi_worker_mirrored"),
    "chief + worker + evaluator": (dict(chief=1, workers=1, evaluator=True), "multi_worker_mirrored"),
    "chief + worker + ps + evaluator": (dict(chief=1, workers=1, ps=1, evaluator=True), "parameter_server"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(LAYOUTS))
def test_layout_trains_and_evaluates(tmp_path, name: str) -> None:
    layout, strategy = LAYOUTS[name]
    env = {"MODEL_DIR": str(tmp_path / "model"), "STRATEGY": strategy}
    statuses, logs = run_cluster_to_end(tmp_path, TASK, env=env, timeout=150, dialect="chief", **layout)
    finite = {task: status for task, status in statuses.items() if not task.startswith("ps:")}
    assert set(finite.values()) == {0}, (statuses, {task: log[-2500:] for task, log in logs.items()})
    results = {
        task: json.loads(next(line for line in log.splitlines() if line.startswith("RESULT "))[7:])
        for task, log in logs.items()
        if task in finite
    }
    # Asynchronous parameter-server training may take a step more than max_steps (two trainers).
    assert 3 <= results["chief:0"]["step"] <= 4, results
    if layout.get("evaluator"):
        assert results["evaluator:0"]["evaluated"][-1] == results["chief:0"]["step"], results
