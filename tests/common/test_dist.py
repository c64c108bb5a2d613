"""compat.dist: the platform's uai_dist classes, quirks kept and crashes fixed."""

import json
import os

import pytest

from compat.dist import UAIDistRunConfig, UAITensorFlowDistRunConfig, UAITensorFlowDistRunConfigParser
from compat.errors import DistConfigError, TFConfigError


@pytest.fixture
def environ(monkeypatch):
    monkeypatch.delenv("TF_CONFIG", raising=False)
    return monkeypatch


def _parser(environ, raw):
    environ.setenv("TF_CONFIG", json.dumps(raw))
    return UAITensorFlowDistRunConfigParser()


def test_run_config_splits_addresses_and_base_generate_does_nothing(environ):
    config = UAIDistRunConfig("m:1", "p:1,p:2", "w:1,w:2", "worker", 0)
    assert (config.parse_master(), config.parse_ps(), config.parse_worker()) == (
        ["m:1"],
        ["p:1", "p:2"],
        ["w:1", "w:2"],
    )
    assert config.generate_cluster() is None
    assert "TF_CONFIG" not in os.environ


def test_generate_cluster_writes_the_platform_tf_config_with_index_as_given(environ):
    UAITensorFlowDistRunConfig("m:1", "p:1", "w:1,w:2", "worker", "1").generate_cluster()
    assert json.loads(os.environ["TF_CONFIG"]) == {
        "cluster": {"master": ["m:1"], "ps": ["p:1"], "worker": ["w:1", "w:2"]},
        "task": {"type": "worker", "index": "1"},
        "environment": "cloud",
    }


@pytest.mark.parametrize(
    "task,expected",
    [
        ({"type": "master", "index": 0}, dict(chief=True, ps=False, task_id=0)),
        ({"type": "worker", "index": 0}, dict(chief=False, ps=False, task_id=1)),
        ({"type": "worker", "index": "1"}, dict(chief=False, ps=False, task_id=2)),
        ({"type": "ps", "index": 1}, dict(chief=False, ps=True, task_id=1)),
    ],
)
def test_parser_getters_follow_the_platform(environ, task, expected):
    for chief_key in ("master", "chief"):  # a chief-keyed cluster crashed the original with KeyError
        cluster = {chief_key: ["m:1"], "worker": ["w:1", "w:2"], "ps": ["p:1", "p:2"]}
        parser = _parser(
            environ,
            {"cluster": cluster, "task": dict(task, type=chief_key if task["type"] == "master" else task["type"])},
        )
        assert parser.is_dist()
        parser.load_cluster_config()
        got = dict(chief=parser.is_chief(), ps=parser.is_ps(), task_id=parser.get_task_id())
        assert got == expected
        assert parser.get_worker_list() == ["m:1", "w:1", "w:2"]
        assert parser.get_ps_list() == ["p:1", "p:2"]
        assert (parser.num_worker(), parser.num_ps()) == (3, 2)


def test_parser_errors_are_clear(environ):
    assert UAITensorFlowDistRunConfigParser().is_dist() is False
    with pytest.raises(DistConfigError, match="TF_CONFIG is not set"):
        UAITensorFlowDistRunConfigParser().load_cluster_config()
    parser = _parser(
        environ, {"cluster": {"master": ["m:1"], "worker": ["w:1"]}, "task": {"type": "worker", "index": 0}}
    )
    with pytest.raises(DistConfigError, match="load_cluster_config"):
        parser.get_task_id()
    with pytest.raises(TFConfigError, match="task.index: missing"):
        _parser(environ, {"cluster": {"master": ["m:1"]}, "task": {"type": "master"}}).load_cluster_config()
    with pytest.raises(DistConfigError, match="cluster.master"):
        _parser(environ, {"cluster": {"worker": ["w:1"]}, "task": {"type": "worker", "index": 0}}).load_cluster_config()
    with pytest.raises(DistConfigError, match="task: missing"):
        _parser(environ, {"cluster": {"master": ["m:1"]}}).load_cluster_config()
