"""compat.strategy.kind / export: the strategy each cluster layout calls for, TF_CONFIG rewritten for TF2."""

import json

import pytest

import compat
from compat import tf_config
from compat.strategy import EVALUATOR, MIRRORED, MULTI_WORKER, ONE_DEVICE, PARAMETER_SERVER, export, kind


def _config(cluster, task_type, index=0):
    return tf_config.from_dict({"cluster": cluster, "task": {"type": task_type, "index": index}})


@pytest.mark.parametrize(
    "cluster,task,devices,expected",
    [
        ({}, None, 1, ONE_DEVICE),
        ({}, None, 2, MIRRORED),
        ({"master": ["a:1"], "worker": ["b:1"]}, "master", 1, MULTI_WORKER),
        ({"chief": ["a:1"], "worker": ["b:1"]}, "worker", 2, MULTI_WORKER),
        ({"master": ["a:1"], "worker": ["b:1"], "ps": ["c:1"]}, "ps", 1, PARAMETER_SERVER),
        ({"chief": ["a:1"], "worker": ["b:1"], "ps": ["c:1"], "evaluator": ["d:1"]}, "evaluator", 1, EVALUATOR),
    ],
)
def test_kind_follows_the_cluster_in_either_dialect(cluster, task, devices, expected):
    config = _config(cluster, task) if cluster else tf_config.ClusterConfig.local()
    assert kind(config, devices) == expected


def test_export_writes_the_chief_dialect_tensorflow_accepts():
    environ = {}
    export(_config({"master": ["a:1"], "worker": ["b:1"]}, "worker"), environ=environ)
    written = json.loads(environ["TF_CONFIG"])
    assert written["cluster"] == {"chief": ["a:1"], "worker": ["b:1"]}
    assert written["task"] == {"type": "worker", "index": 0}
    export(tf_config.ClusterConfig.local(), environ=environ)
    assert "TF_CONFIG" not in environ


def test_compat_strategy_is_the_callable_module():
    assert callable(compat.strategy) and compat.strategy.kind is kind
