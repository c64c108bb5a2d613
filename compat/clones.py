"""The devices of tf-slim's model_deploy clones in eager TF 2: the runtime of uai-migrate's native port of a Session
script that trains `model_deploy.create_clones(config, clone_fn)` (codemods/rules/_native_model_deploy.py).

TF1 placed clone i's ops on `config.clone_device(i)` and the variables on `config.variables_device()`, and its
session (no soft placement: MonitoredTrainingSession's default) failed where a device did not exist: tests/corpus's
slim_model_deploy with `--noclone_on_cpu` on a machine without a GPU stopped at its first step ("Cannot assign a
device for operation clone_0/conv1/Conv2D"). Eager TF 2 places an op of a missing device elsewhere without a word,
so the port asks here first and stops with one line where TF1 stopped; a device function (model_deploy's
replica_device_setter of ps tasks, for a cluster) has no eager equal and stops it too. TF1's tf-slim layers made
their variables in their input's dtype, the port's Keras layers are float32: a floating input of another dtype stops
it as well (float32_inputs).
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from compat.errors import CompatError, DeviceError


class InputDtypeError(CompatError, TypeError):
    """A floating input the port's float32 Keras layers would compute otherwise than TF1's layers of its dtype."""


def _local(device: str) -> bool:
    """Is `device` (a device name, maybe partial) one of this process's devices? An empty name is any device."""
    wanted = tf.DeviceSpec.from_string(device)
    if wanted.job not in (None, "localhost") or wanted.task not in (None, 0) or wanted.replica not in (None, 0):
        return False
    if wanted.device_type is None:
        return True
    for found in tf.config.list_logical_devices():
        spec = tf.DeviceSpec.from_string(found.name)
        if spec.device_type == wanted.device_type.upper() and wanted.device_index in (None, spec.device_index):
            return True
    return False


def variables_device(config: Any) -> str:
    """`config.variables_device()`, a device of this process (DeviceError otherwise)."""
    device = config.variables_device()
    if not isinstance(device, str):
        raise DeviceError(
            "model_deploy's variables_device() is a device function (num_ps_tasks > 0: variables on parameter "
            "servers), which eager TF 2 has no equal for; run without ps tasks"
        )
    if not _local(device):
        raise DeviceError(f"model_deploy puts the variables on {device}, which this process does not have")
    return device


def clone_devices(config: Any) -> list[str]:
    """`config.clone_device(i)` of each of the `config.num_clones` clones (DeviceError for one this process does not
    have, where TF1's session failed)."""
    devices = [config.clone_device(i) for i in range(config.num_clones)]
    for index, device in enumerate(devices):
        if not _local(device):
            raise DeviceError(
                f"model_deploy puts clone {index} on {device}, which this process does not have (TF1's session "
                "stopped there too: Cannot assign a device); run with clone_on_cpu, or fewer clones"
            )
    return devices


def float32_inputs(spec: Any) -> None:
    """Every floating tensor of the input element (`spec`: a dataset's or iterator's element_spec) is float32, else
    InputDtypeError: TF1's clones made float64 variables of a float64 input, the port's layers are float32."""
    for part in tf.nest.flatten(spec):
        dtype = getattr(part, "dtype", None)
        if dtype is not None and dtype.is_floating and dtype != tf.float32:
            raise InputDtypeError(
                f"model_deploy's clones read a {dtype.name} input: TF1's tf-slim layers made {dtype.name} variables "
                "of it, the port's Keras layers are float32; cast the input to float32 in its pipeline"
            )
