"""compat.tf_config: every dialect the platforms write, validation, rendering."""

import json

import pytest

from compat import tf_config
from compat.errors import TFConfigError
from tests.support.processes import run_module

M, W1, W2, P1, P2, E = "m:2222", "w1:2222", "w2:2222", "p1:2223", "p2:2223", "e:2222"

# (name, TF_CONFIG as the platform writes it, expected: task, dialect, is_chief, global id, workers incl. chief)
DIALECTS = [
    (
        "uai-master-worker",
        {
            "cluster": {"master": [M], "worker": [W1, W2], "ps": [P1]},
            "task": {"type": "worker", "index": 1},
            "environment": "cloud",
        },
        ("worker:1", "master", False, 2, 3),
    ),
    (
        "uai-master-task",
        {
            "cluster": {"master": [M], "worker": [W1], "ps": [P1]},
            "task": {"type": "master", "index": 0},
            "environment": "cloud",
        },
        ("chief:0", "master", True, 0, 2),
    ),
    (
        "tf2-chief-evaluator",
        {
            "cluster": {"chief": [M], "worker": [W1], "ps": [P1], "evaluator": [E]},
            "task": {"type": "evaluator", "index": 0},
            "rpc_layer": "grpc",
        },
        ("evaluator:0", "chief", False, None, 2),
    ),
    (
        "tf2-workers-only",
        {"cluster": {"worker": [W1, W2]}, "task": {"type": "worker", "index": 0}},
        ("worker:0", "chief", True, 0, 2),
    ),
    (
        "kubeflow",
        {
            "cluster": {
                "chief": ["job-chief-0.ns.svc:2222"],
                "worker": ["job-worker-0.ns.svc:2222", "job-worker-1.ns.svc:2222"],
                "ps": ["job-ps-0.ns.svc:2222"],
            },
            "task": {"type": "ps", "index": 0},
            "environment": "cloud",
        },
        ("ps:0", "chief", False, None, 3),
    ),
    (
        "kubeflow-old-evaluator-dropped",
        {
            "cluster": {"chief": ["j-chief-0.ns.svc:2222"], "worker": ["j-worker-0.ns.svc:2222"]},
            "task": {"type": "evaluator", "index": 0},
            "environment": "cloud",
        },
        ("evaluator:0", "chief", False, None, 2),
    ),
    (
        "sagemaker",
        {
            "cluster": {"master": ["algo-1:2222"], "worker": ["algo-2:2222"], "ps": ["algo-1:2223", "algo-2:2223"]},
            "task": {"type": "worker", "index": 0},
            "environment": "cloud",
        },
        ("worker:0", "master", False, 1, 2),
    ),
    (
        "ai-platform-master",
        {
            "cluster": {"master": [M], "worker": [W1], "ps": [P1]},
            "task": {"type": "master", "index": 0, "trial": "3"},
            "job": {"job_name": "j", "args": []},
            "environment": "cloud",
        },
        ("chief:0", "master", True, 0, 2),
    ),
    (
        "ai-platform-chief",
        {
            "cluster": {"chief": [M], "worker": [W1]},
            "task": {"type": "worker", "index": 0},
            "trial": "",
            "environment": "cloud",
        },
        ("worker:0", "chief", False, 1, 2),
    ),
    (
        "vertex-cluster-spec",
        {
            "cluster": {"workerpool0": [M], "workerpool1": [W1, W2], "workerpool2": [P1], "workerpool3": [E]},
            "environment": "cloud",
            "task": {"type": "workerpool1", "index": 1, "trial": ""},
            "job": '{"python_module": "trainer.task"}',
        },
        ("worker:1", "vertex", False, 2, 3),
    ),
]


@pytest.mark.parametrize("name,raw,expected", DIALECTS, ids=[d[0] for d in DIALECTS])
def test_every_dialect_parses_to_one_model(name, raw, expected):
    config = tf_config.from_string(json.dumps(raw))
    task, dialect, is_chief, global_id, workers = expected
    assert (str(config.task), config.dialect, config.is_chief, config.global_worker_id, config.num_workers) == expected
    # Rendering back in the dialect it came from gives the same document.
    assert tf_config.to_dict(config) == raw


@pytest.mark.parametrize("name,raw,expected", DIALECTS, ids=[d[0] for d in DIALECTS])
def test_chief_dialect_has_no_master_and_keeps_roles(name, raw, expected):
    config = tf_config.from_dict(raw)
    chief_view = tf_config.to_dict(config, "chief")
    assert "master" not in chief_view["cluster"]
    again = tf_config.from_dict(chief_view)
    assert (again.task, again.cluster, again.is_chief, again.global_worker_id) == (
        config.task,
        config.cluster,
        config.is_chief,
        config.global_worker_id,
    )


def test_master_dialect_for_estimator_and_uai_view():
    config = tf_config.from_dict(
        {"cluster": {"chief": [M], "worker": [W1, W2], "ps": [P1]}, "task": {"type": "worker", "index": 0}}
    )
    assert tf_config.to_dict(config, "master")["cluster"] == {"master": [M], "worker": [W1, W2], "ps": [P1]}
    # The platform parser's view: master heads the worker list and workers shift by one.
    assert tf_config.to_dict(config, "uai") == {
        "cluster": {"worker": [M, W1, W2], "ps": [P1]},
        "task": {"type": "worker", "index": 1},
    }
    assert tf_config.to_dict(config, "kubeflow")["environment"] == "cloud"


def test_master_dialect_cannot_express_an_evaluator():
    config = tf_config.from_dict(
        {"cluster": {"chief": [M], "worker": [W1], "evaluator": [E]}, "task": {"type": "chief", "index": 0}}
    )
    with pytest.raises(TFConfigError, match="cluster.evaluator"):
        tf_config.to_dict(config, "master")
    # Old Kubeflow wrote master + an evaluator task outside the cluster: readable, and TF2 can run it.
    old = tf_config.from_dict({"cluster": {"master": [M], "worker": [W1]}, "task": {"type": "evaluator", "index": 0}})
    assert old.is_evaluator and not old.is_chief
    assert tf_config.to_dict(old, "chief")["task"] == {"type": "evaluator", "index": 0}
    with pytest.raises(TFConfigError, match="cluster.evaluator"):
        tf_config.to_dict(old, "master")


@pytest.mark.parametrize(
    "raw,field",
    [
        ("{not json", "TF_CONFIG"),
        ("[]", "TF_CONFIG"),
        ({"cluster": {"worker": [W1]}, "task": {"type": "ps", "index": 0}}, "TF_CONFIG.task.type"),
        ({"cluster": {"worker": [W1]}, "task": {"type": "worker", "index": 1}}, "TF_CONFIG.task.index"),
        ({"cluster": {"worker": [W1]}, "task": {"type": "worker"}}, "TF_CONFIG.task.index"),
        ({"cluster": {"worker": [W1]}, "task": {"type": "worker", "index": "x"}}, "TF_CONFIG.task.index"),
        ({"cluster": {"worker": [W1]}, "task": {"index": 0}}, "TF_CONFIG.task.type"),
        ({"cluster": {"worker": [W1, W1]}}, "TF_CONFIG.cluster.worker[1]"),
        ({"cluster": {"worker": [W1], "ps": [W1]}}, "TF_CONFIG.cluster.ps[0]"),
        ({"cluster": {"worker": ["hostonly"]}}, "TF_CONFIG.cluster.worker[0]"),
        ({"cluster": {"worker": ["h:99999"]}}, "TF_CONFIG.cluster.worker[0]"),
        ({"cluster": {"worker": ["h:port"]}}, "TF_CONFIG.cluster.worker[0]"),
        ({"cluster": {"worker": "h:1"}}, "TF_CONFIG.cluster.worker"),
        ({"cluster": {"master": [M], "chief": [W1]}}, "TF_CONFIG.cluster"),
        ({"cluster": {"chief": [M, W1]}}, "TF_CONFIG.cluster.chief"),
        ({"cluster": {"worker": [W1], "evaluator": [E, "e2:1"]}}, "TF_CONFIG.cluster.evaluator"),
        ({"cluster": {"worker": [], "ps": [P1]}}, "TF_CONFIG.cluster"),
        ({"cluster": {"gpu": [W1]}}, "TF_CONFIG.cluster.gpu"),
        ({"cluster": {"master": [M]}, "task": {"type": "chief", "index": 0}}, "TF_CONFIG.task.type"),
        ({"task": {"type": "worker", "index": 0}}, "TF_CONFIG.cluster"),
        # Characters str.isdigit() accepts but int() or a socket does not: superscripts, other scripts.
        ({"cluster": {"worker": [W1]}, "task": {"type": "worker", "index": "\u00b2"}}, "TF_CONFIG.task.index"),
        ({"cluster": {"worker": [W1]}, "task": {"type": "worker", "index": "\u0660"}}, "TF_CONFIG.task.index"),
        ({"cluster": {"worker": [W1]}, "task": {"type": "worker", "index": "9" * 5000}}, "TF_CONFIG.task.index"),
        ({"cluster": {"worker": ["w:\u00b2"]}}, "TF_CONFIG.cluster.worker[0]"),
        ({"cluster": {"worker": ["w:\u0662\u0662\u0662\u0662"]}}, "TF_CONFIG.cluster.worker[0]"),
        ({"cluster": {"worker": ["w:" + "9" * 5000]}}, "TF_CONFIG.cluster.worker[0]"),
        ({"cluster": {"worker": [" w :2222"]}}, "TF_CONFIG.cluster.worker[0]"),
        ({"cluster": {"worker": ["w\u00e9:2222"]}}, "TF_CONFIG.cluster.worker[0]"),
        ({"cluster": []}, "TF_CONFIG.cluster"),
        ("[" * 100000 + "]" * 100000, "TF_CONFIG"),
    ],
)
def test_validation_names_the_field(raw, field):
    text = raw if isinstance(raw, str) else json.dumps(raw)
    with pytest.raises(TFConfigError) as info:
        tf_config.from_string(text)
    assert info.value.field == field
    assert str(info.value).startswith(field + ": ")


def test_environment_prefers_tf_config_then_cluster_spec_then_local():
    spec = {"cluster": {"workerpool0": [M]}, "task": {"type": "workerpool0", "index": 0}}
    assert tf_config.from_environment({}).is_distributed is False
    assert tf_config.from_environment({"TF_CONFIG": "  "}).is_distributed is False
    assert tf_config.from_environment({"CLUSTER_SPEC": json.dumps(spec)}).is_chief
    tf2 = {"cluster": {"worker": [W1, W2]}, "task": {"type": "worker", "index": 1}}
    both = tf_config.from_environment({"CLUSTER_SPEC": json.dumps(spec), "TF_CONFIG": json.dumps(tf2)})
    assert str(both.task) == "worker:1"


def test_use_sets_and_restores_tf_config():
    environ = {"TF_CONFIG": "previous"}
    config = tf_config.from_dict({"cluster": {"master": [M], "worker": [W1]}, "task": {"type": "master", "index": 0}})
    with tf_config.use(config, "chief", environ=environ):
        assert json.loads(environ["TF_CONFIG"])["cluster"] == {"chief": [M], "worker": [W1]}
    assert environ == {"TF_CONFIG": "previous"}
    with pytest.raises(RuntimeError):
        with tf_config.use(config, "master", environ=environ):
            raise RuntimeError("the block failed")
    assert environ == {"TF_CONFIG": "previous"}
    environ.clear()
    with tf_config.use(tf_config.ClusterConfig.local(), environ=environ):
        assert "TF_CONFIG" not in environ
    assert environ == {}


def _cli(*args, env=None):
    return run_module("compat.tf_config", args, env=env)


def test_cli_prints_converts_and_fails_in_one_line():
    raw = {"cluster": {"master": [M], "worker": [W1]}, "task": {"type": "worker", "index": 0}, "environment": "cloud"}
    shown = _cli(env={"TF_CONFIG": json.dumps(raw)})
    assert shown.returncode == 0, shown.stderr
    assert "this task: worker:0" in shown.stdout and "global worker id: 1" in shown.stdout
    converted = _cli("--config", json.dumps(raw), "--to", "chief")
    assert json.loads(converted.stdout)["cluster"] == {"chief": [M], "worker": [W1]}
    bad = _cli("--config", '{"cluster": {"worker": ["w1"]}}')
    assert bad.returncode == 2
    assert (
        bad.stderr.strip()
        == "python -m compat.tf_config: error: --config.cluster.worker[0]: address 'w1' has no port (expected 'host:port')"
    )
    local = _cli()
    assert local.returncode == 0 and "local run" in local.stdout


def test_cli_says_which_document_has_an_empty_cluster():
    # Set but empty is a local run too, and the summary must not claim the variable is unset.
    for args, env, source in (
        (("--config", '{"cluster": {}}'), None, "--config"),
        ((), {"TF_CONFIG": '{"cluster": {}, "task": {}}'}, "TF_CONFIG"),
        ((), {"CLUSTER_SPEC": '{"environment": "cloud"}'}, "CLUSTER_SPEC"),
    ):
        shown = _cli(*args, env=env)
        assert shown.returncode == 0, shown.stderr
        assert "unset" not in shown.stdout and source in shown.stdout and "no cluster" in shown.stdout, shown.stdout
    assert "TF_CONFIG and CLUSTER_SPEC are unset" in _cli().stdout
