"""A Kubeflow TFJob manifest (kubeflow.org/v1) for the same layout a user ran locally."""

import json
import re

from compat.outputs import OutputFile
from uai_launch._errors import LaunchError
from uai_launch._layout import Layout

# The training operator finds the training container by this name and injects TF_CONFIG.
CONTAINER_NAME = "tensorflow"
DEFAULT_PORT = 2222
_REPLICA_TYPES = (("chief", "Chief"), ("worker", "Worker"), ("ps", "PS"), ("evaluator", "Evaluator"))
# Kubernetes accepts a TFJob name only as an RFC 1123 label; the operator also names each
# replica's pod and service after it.
_RFC1123_LABEL = re.compile(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")


def check_name(name: str) -> str:
    """`name` if Kubernetes accepts it as a TFJob name; `LaunchError` naming `--name` if not."""
    if not _RFC1123_LABEL.fullmatch(name):
        raise LaunchError(
            "--name",
            f"{name!r} is not a valid Kubernetes name: at most 63 of a-z, 0-9 and '-', "
            "starting and ending with a letter or digit",
        )
    return name


def tfjob_manifest(
    layout: Layout, command: list[str], image: str, name: str = "uai-job", restart_policy: str = "OnFailure"
) -> dict:
    """The TFJob as a dict; `json.dumps` of it is also valid YAML for `kubectl apply -f`."""
    check_name(name)
    if not image:
        raise LaunchError("--image", "a TFJob needs the container image each task runs")
    counts = {"chief": layout.chief, "worker": layout.workers, "ps": layout.ps, "evaluator": int(layout.evaluator)}
    specs = {}
    for job, replica_type in _REPLICA_TYPES:
        if counts[job]:
            specs[replica_type] = {
                "replicas": counts[job],
                "restartPolicy": restart_policy,
                "template": {
                    "spec": {
                        "containers": [
                            {
                                "name": CONTAINER_NAME,
                                "image": image,
                                "command": list(command),
                                "ports": [{"name": "tfjob-port", "containerPort": DEFAULT_PORT}],
                            }
                        ]
                    }
                },
            }
    return {
        "apiVersion": "kubeflow.org/v1",
        "kind": "TFJob",
        "metadata": {"name": name},
        "spec": {"runPolicy": {"cleanPodPolicy": "Running"}, "tfReplicaSpecs": specs},
    }


def write_manifest(out: OutputFile, manifest: dict) -> None:
    """Write the manifest to the checked --kubeflow file (atomically; `-` is stdout)."""
    out.write(json.dumps(manifest, indent=2) + "\n")
