"""The dialect table is the one source: parse, render and uai-launch behave as each record says."""

import pytest

from compat import tf_config
from compat.errors import TFConfigError
from uai_launch import Layout

FULL = {"chief": ["c:1"], "worker": ["w1:1", "w2:1"], "ps": ["p:1"], "evaluator": ["e:1"]}
NO_EVALUATOR = {job: addrs for job, addrs in FULL.items() if job != "evaluator"}
RECORDS = list(tf_config.DIALECTS.values())


def _config(cluster, task):
    return tf_config.from_dict({"cluster": cluster, "task": {"type": task[0], "index": task[1]}})


@pytest.mark.parametrize("dialect", RECORDS, ids=lambda d: d.name)
def test_render_writes_the_record_names_and_environment(dialect):
    rendered = tf_config.to_dict(_config(NO_EVALUATOR, ("worker", 1)), dialect.name)
    assert set(rendered["cluster"]) <= set(dialect.jobs.values())
    assert rendered["task"]["type"] == dialect.job_name("worker")
    assert rendered.get("environment") == dialect.environment
    # Read back, the document is in the dialect whose names it uses, with the same roles.
    again = tf_config.from_dict(rendered)
    if dialect.read:
        assert again.dialect == dialect.name
    if not dialect.chief_in_workers:
        assert tf_config.DIALECTS[again.dialect].jobs == dialect.jobs
        assert again.cluster == _config(NO_EVALUATOR, ("worker", 1)).cluster


@pytest.mark.parametrize("dialect", RECORDS, ids=lambda d: d.name)
def test_evaluator_support_is_the_record_s(dialect):
    config = _config(FULL, ("evaluator", 0))
    if dialect.evaluator:
        assert tf_config.to_dict(config, dialect.name)["task"]["type"] == dialect.job_name("evaluator")
    else:
        with pytest.raises(TFConfigError):
            tf_config.to_dict(config, dialect.name)


@pytest.mark.parametrize("name", sorted(tf_config.DIALECTS), ids=str)
def test_launch_offers_the_records_marked_for_it(name):
    dialect = tf_config.DIALECTS[name]
    layout = Layout(chief=1, workers=1, ps=1, evaluator=True, dialect=name)
    if not dialect.launch:
        with pytest.raises(TFConfigError, match="--dialect"):
            layout.validate()
    elif not dialect.evaluator:
        with pytest.raises(TFConfigError, match="--evaluator"):
            layout.validate()
    else:
        configs = layout.task_configs(layout.cluster())
        assert len(configs) == 4 and all(dialect.job_name("chief") in text for text in configs.values())


def test_a_cluster_may_not_mix_the_names_of_two_dialects():
    with pytest.raises(TFConfigError) as info:
        tf_config.from_dict({"cluster": {"workerpool0": ["a:1"], "master": ["b:1"]}})
    assert info.value.field == "TF_CONFIG.cluster" and "vertex" in str(info.value) and "master" in str(info.value)
