"""A Kubeflow TFJob manifest (kubeflow.org/v1) for the same layout a user ran locally."""

import json

# The training operator finds the training container by this name and injects TF_CONFIG.
CONTAINER_NAME = "tensorflow"
DEFAULT_PORT = 2222
_REPLICA_TYPES = (("chief", "Chief"), ("worker", "Worker"), ("ps", "PS"), ("evaluator", "Evaluator"))


def tfjob_manifest(layout, command, image, name="uai-job", restart_policy="OnFailure"):
    """The TFJob as a dict; `json.dumps` of it is also valid YAML for `kubectl apply -f`."""
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


def write_manifest(path, manifest):
    with open(path, "w") as out:
        json.dump(manifest, out, indent=2)
        out.write("\n")
