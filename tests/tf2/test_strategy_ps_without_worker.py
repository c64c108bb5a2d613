"""compat.strategy() on a parameter-server cluster without a worker task (the platform's master and ps alone): one
clear error on every task, where TF 2's ParameterServerStrategy has no task to run a step on."""

import pytest

import compat
from compat import tf_config
from compat.errors import DistConfigError
from compat.strategy import NO_WORKER


@pytest.mark.parametrize("task", ["master", "ps"])
def test_master_and_ps_alone_stop_with_one_line(task):
    config = tf_config.from_dict(
        {"cluster": {"master": ["127.0.0.1:1"], "ps": ["127.0.0.1:2"]}, "task": {"type": task, "index": 0}}
    )
    with pytest.raises(DistConfigError) as raised:
        compat.strategy(config)
    assert NO_WORKER in str(raised.value) and "\n" not in str(raised.value)
