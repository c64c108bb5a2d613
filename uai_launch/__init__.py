"""`uai-launch`: run a real multi-process TensorFlow job on one machine.

    uai-launch --chief 1 --workers 2 --ps 1 --dialect master -- python -m modern_tf2.imagenet_main ...

One process per task on 127.0.0.1 with free ports and that task's TF_CONFIG in the chosen
dialect; output prefixed `[worker:1]` and logged per task; the job's status is the chief's.
No task outlives the launcher: each runs in its own process group, stopped as a whole, and a
watchdog process stops them if the launcher itself is killed.
Tests and users drive the same machinery from Python with `LocalCluster`.
"""

from uai_launch._errors import LaunchError
from uai_launch._kubeflow import tfjob_manifest, write_manifest
from uai_launch._layout import LAUNCH_DIALECTS, Layout, free_ports
from uai_launch._processes import Interrupted, LocalCluster, exit_status

__all__ = [
    "LAUNCH_DIALECTS",
    "Interrupted",
    "LaunchError",
    "Layout",
    "LocalCluster",
    "exit_status",
    "free_ports",
    "tfjob_manifest",
    "write_manifest",
]
