"""compat.clones: the devices of tf-slim's model_deploy clones that the native port asks for, each a device of this
process or a DeviceError (one line where the port runs under compat.flags.run). The config is research/slim's
DeploymentConfig's device methods (tests/corpus/deployment/model_deploy.py keeps the same ones), without its
TensorFlow import: compat.clones reads only clone_device, variables_device and num_clones."""

import pytest

import compat  # noqa: F401 - legacy Keras before TensorFlow loads
from compat import clones
from compat.errors import CompatError, DeviceError


class DeploymentConfig:
    """model_deploy.DeploymentConfig's device methods, as tests/corpus/deployment/model_deploy.py writes them."""

    def __init__(self, num_clones=1, clone_on_cpu=False, replica_id=0, num_ps_tasks=0):
        self.num_clones = max(num_clones, 1)
        self.clone_on_cpu = clone_on_cpu
        self.replica_id = replica_id
        self.num_ps_tasks = num_ps_tasks
        self.worker_device = "/job:worker" if num_ps_tasks > 0 else ""

    def clone_device(self, index):
        device = self.worker_device + (f"/task:{self.replica_id}" if self.num_ps_tasks > 0 else "")
        return device + ("/device:CPU:0" if self.clone_on_cpu else f"/device:GPU:{index}")

    def variables_device(self):
        if self.num_ps_tasks == 0:
            return "/device:CPU:0"
        return lambda op: "/job:ps/task:0"  # (replica_device_setter's kind: a device function)


def test_each_clone_on_the_cpu_and_the_variables_there():
    assert clones.clone_devices(DeploymentConfig(num_clones=3, clone_on_cpu=True)) == ["/device:CPU:0"] * 3
    assert clones.clone_devices(DeploymentConfig(num_clones=0, clone_on_cpu=True)) == ["/device:CPU:0"]
    assert clones.variables_device(DeploymentConfig()) == "/device:CPU:0"


def test_a_device_this_process_lacks_is_one_line_naming_the_clone():
    import tensorflow as tf

    gpus = len(tf.config.list_logical_devices("GPU"))
    with pytest.raises(DeviceError, match=f"clone {gpus} on /device:GPU:{gpus}, which this process does not have"):
        clones.clone_devices(DeploymentConfig(num_clones=gpus + 1))
    with pytest.raises(DeviceError, match="clone 0 on /job:worker/task:1/device:CPU:0"):
        clones.clone_devices(DeploymentConfig(clone_on_cpu=True, replica_id=1, num_ps_tasks=1))
    assert issubclass(DeviceError, CompatError)


def test_variables_on_parameter_servers_are_refused():
    with pytest.raises(DeviceError, match="variables_device\\(\\) is a device function"):
        clones.variables_device(DeploymentConfig(num_ps_tasks=2))


def test_a_floating_input_other_than_float32_is_refused():
    import tensorflow as tf

    spec = (tf.TensorSpec([None, 8], tf.float32), tf.TensorSpec([None], tf.int64))
    clones.float32_inputs(spec)  # (the labels are no floating input)
    with pytest.raises(clones.InputDtypeError, match="a float64 input: TF1's tf-slim layers made float64 variables"):
        clones.float32_inputs((tf.TensorSpec([None, 8], tf.float64), spec[1]))
