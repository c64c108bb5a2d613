"""One validated, dialect-free model of a training cluster and of this process's task in it.

Job names are canonical TF2 names: `chief` (an Estimator/UAI `master` is stored as `chief`),
`worker`, `ps`, `evaluator`. The dialect a config came from is kept, so it can be rendered
back the way it was written.
"""

import dataclasses
import types
from collections.abc import Mapping
from typing import Any

CHIEF, WORKER, PS, EVALUATOR = "chief", "worker", "ps", "evaluator"
JOBS = (CHIEF, WORKER, PS, EVALUATOR)


@dataclasses.dataclass(frozen=True)
class Task:
    type: str
    index: int

    def __str__(self) -> str:
        return f"{self.type}:{self.index}"


@dataclasses.dataclass(frozen=True)
class ClusterConfig:
    """A cluster (job -> addresses) and the current task; `ClusterConfig.local()` when there is none."""

    cluster: Mapping[str, tuple[str, ...]]
    task: Task | None
    dialect: str = "chief"
    environment: str | None = None
    rpc_layer: str | None = None
    extra: Mapping[str, object] = dataclasses.field(default_factory=dict)
    # Where the config was read ("TF_CONFIG", "--config", ...), for messages; not part of its value.
    source: str | None = dataclasses.field(default=None, compare=False)

    def __post_init__(self) -> None:
        # Frozen and hashable-looking: callers must not be able to edit the cluster in place.
        frozen = {job: tuple(addrs) for job, addrs in self.cluster.items() if addrs}
        object.__setattr__(self, "cluster", types.MappingProxyType(frozen))
        object.__setattr__(self, "extra", types.MappingProxyType(dict(self.extra)))

    @classmethod
    def local(cls, source: str | None = None) -> "ClusterConfig":
        """No cluster: a one-process run (`source` names the document that set none, if any)."""
        return cls(cluster={}, task=None, dialect="local", source=source)

    # -- questions every runtime asks ------------------------------------------------------
    @property
    def is_distributed(self) -> bool:
        return bool(self.cluster)

    def addresses(self, job: str) -> tuple[str, ...]:
        return self.cluster.get(job, ())

    def num_tasks(self, job: str) -> int:
        return len(self.addresses(job))

    @property
    def num_ps(self) -> int:
        return self.num_tasks(PS)

    @property
    def num_workers(self) -> int:
        """Training workers, the chief included (what the platform's `num_worker()` counts)."""
        return self.num_tasks(CHIEF) + self.num_tasks(WORKER)

    @property
    def worker_addresses(self) -> tuple[str, ...]:
        """Chief first, then workers: the order of TF2's global worker ids and of UAI's list."""
        return self.addresses(CHIEF) + self.addresses(WORKER)

    @property
    def task_type(self) -> str | None:
        return self.task.type if self.task else None

    @property
    def task_index(self) -> int:
        return self.task.index if self.task else 0

    @property
    def task_address(self) -> str | None:
        if not self.task or self.task.type not in self.cluster:
            return None
        return self.cluster[self.task.type][self.task.index]

    @property
    def is_chief(self) -> bool:
        """The task that writes checkpoints: `chief:0`, else `worker:0` when there is no chief; also a local run."""
        if not self.is_distributed:
            return True
        if self.task_type == CHIEF:
            return True
        return self.task_type == WORKER and self.task_index == 0 and not self.addresses(CHIEF)

    @property
    def is_ps(self) -> bool:
        return self.task_type == PS

    @property
    def is_evaluator(self) -> bool:
        return self.task_type == EVALUATOR

    @property
    def global_worker_id(self) -> int | None:
        """Index among training workers, chief first (worker i -> i + number of chiefs); None for ps/evaluator."""
        if not self.is_distributed:
            return 0
        if self.task_type == CHIEF:
            return self.task_index
        if self.task_type == WORKER:
            return self.task_index + self.num_tasks(CHIEF)
        return None

    def replace(self, **changes: Any) -> "ClusterConfig":
        return dataclasses.replace(self, **changes)
