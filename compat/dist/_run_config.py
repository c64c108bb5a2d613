"""The three classes of the platform's `uai_dist` module."""

import json
import os
from typing import Any

from compat import tf_config
from compat.errors import DistConfigError


def _split(addresses: str | None) -> list[str]:
    return [a for a in (addresses or "").split(",") if a]


class UAIDistRunConfig:
    """Cluster addresses as the platform passes them: comma-separated `host:port` strings."""

    def __init__(
        self,
        dist_master: str | None,
        ps_nodes: str | None,
        wk_nodes: str | None,
        task_type: str,
        task_idx: int | str,  # written to TF_CONFIG as given, as the platform did
    ) -> None:
        self.dist_master = dist_master
        self.ps_nodes = ps_nodes
        self.wk_nodes = wk_nodes
        self.task_type = task_type
        self.task_idx = task_idx

    def parse_master(self) -> list[str]:
        return _split(self.dist_master)

    def parse_ps(self) -> list[str]:
        return _split(self.ps_nodes)

    def parse_worker(self) -> list[str]:
        return _split(self.wk_nodes)

    def generate_cluster(self) -> dict[str, Any] | None:
        """Does nothing in the base class, as on the platform."""


class UAITensorFlowDistRunConfig(UAIDistRunConfig):
    def generate_cluster(self) -> dict[str, Any]:
        """Write TF_CONFIG (master dialect, `environment: cloud`) into os.environ; the index is written as given."""
        config = {
            "cluster": {"master": self.parse_master(), "ps": self.parse_ps(), "worker": self.parse_worker()},
            "task": {"type": self.task_type, "index": self.task_idx},
            "environment": "cloud",
        }
        os.environ["TF_CONFIG"] = json.dumps(config)
        return config


class UAITensorFlowDistRunConfigParser:
    """Reads TF_CONFIG at construction; call `load_cluster_config()` before the getters."""

    def __init__(self) -> None:
        self._text = os.environ.get("TF_CONFIG")
        self._config: tf_config.ClusterConfig | None = None

    def is_dist(self) -> bool:
        return self._text is not None

    def load_cluster_config(self) -> "UAITensorFlowDistRunConfigParser":
        if not self._text:
            raise DistConfigError("TF_CONFIG is not set: load_cluster_config() needs a distributed job")
        config = tf_config.from_string(self._text)
        if config.task is None:
            raise DistConfigError("TF_CONFIG.task: missing; the platform sets task.type and task.index")
        if not config.addresses(tf_config.CHIEF):
            raise DistConfigError(
                "TF_CONFIG.cluster.master: missing; the platform's parser counts the master as worker 0"
            )
        self._config = config
        return self

    def _loaded(self) -> tf_config.ClusterConfig:
        if self._config is None:
            raise DistConfigError("call load_cluster_config() before reading the cluster")
        return self._config

    def is_chief(self) -> bool:
        return self._loaded().task_type == tf_config.CHIEF

    def is_ps(self) -> bool:
        return self._loaded().is_ps

    def num_ps(self) -> int:
        return self._loaded().num_ps

    def num_worker(self) -> int:
        return self._loaded().num_workers

    def get_ps_list(self) -> list[str]:
        return [str(a) for a in self._loaded().addresses(tf_config.PS)]

    def get_worker_list(self) -> list[str]:
        return [str(a) for a in self._loaded().worker_addresses]

    def get_task_id(self) -> int:
        config = self._loaded()
        return config.task_index + (1 if config.task_type == tf_config.WORKER else 0)
