"""tf.contrib.learn.monitors on TF 2: replace_monitors_with_hooks passes hooks through (tensor2tensor's
trainer calls it on its hook lists); a monitor is refused in one line, by compat and by uai-run."""

import sys

import pytest
import tensorflow as tf

from compat.errors import ExperimentError
from compat.learn import monitors
from tests.support import runs as _runs


def test_hooks_pass_through_in_order_and_nothing_is_an_empty_list():
    hooks = [tf.compat.v1.train.StopAtStepHook(last_step=3), tf.compat.v1.train.StepCounterHook(every_n_steps=1)]
    assert monitors.replace_monitors_with_hooks(hooks, estimator=None) == hooks
    assert monitors.replace_monitors_with_hooks(None, estimator=None) == []


def test_a_monitor_is_refused_naming_the_hook_to_write():
    class EveryStepMonitor:  # what a tf.contrib.learn monitor was to TF 2: not a SessionRunHook
        pass

    with pytest.raises(ExperimentError, match="EveryStepMonitor: .*SessionRunHook"):
        monitors.replace_monitors_with_hooks([EveryStepMonitor()], estimator=None)


PROGRAM = """
import tensorflow as tf

hook = tf.train.StopAtStepHook(last_step=3)
assert tf.contrib.learn.monitors.replace_monitors_with_hooks([hook], None) == [hook]
print("hooks kept")
tf.contrib.learn.monitors.ValidationMonitor(every_n_steps=10)
"""


def test_uai_run_serves_it_and_stops_on_a_monitor_class_in_one_line(tmp_path):
    (tmp_path / "program.py").write_text(PROGRAM)
    result = _runs.run([sys.executable, "-m", "uai_run", str(tmp_path / "program.py")], tmp_path)
    assert result.stdout.splitlines()[-1] == "hooks kept"
    assert result.returncode == 2
    (line,) = [line for line in result.stderr.splitlines() if "ValidationMonitor" in line]
    assert "tf.contrib.learn.monitors.ValidationMonitor is not available" in line and "program.py:7" in line
