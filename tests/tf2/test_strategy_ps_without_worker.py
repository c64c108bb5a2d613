"""compat.strategy() on a parameter-server cluster without a worker task (the platform's master and ps alone): one
clear error on every task, where TF 2's ParameterServerStrategy has no task to run a step on."""

import os

import pytest

import compat
from compat import tf_config
from compat.errors import DistConfigError
from compat.strategy import NO_WORKER


@pytest.mark.parametrize("task", ["master", "ps"])
def test_master_and_ps_alone_stop_with_one_line_leaving_the_environment_as_it_was(task, monkeypatch):
    config = tf_config.from_dict(
        {"cluster": {"master": ["127.0.0.1:1"], "ps": ["127.0.0.1:2"]}, "task": {"type": task, "index": 0}}
    )
    monkeypatch.delenv("TF_CONFIG", raising=False)
    with pytest.raises(DistConfigError) as raised:
        compat.strategy(config)
    assert NO_WORKER in str(raised.value) and "\n" not in str(raised.value)
    # (a refused cluster written into TF_CONFIG made every later program of the process a task of it)
    assert "TF_CONFIG" not in os.environ
