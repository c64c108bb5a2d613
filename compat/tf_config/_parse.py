"""Read TF_CONFIG (or Vertex AI's CLUSTER_SPEC) in any dialect into a validated `ClusterConfig`."""

import json
import os
from collections.abc import Iterable, Mapping
from typing import Any

from compat.errors import TFConfigError
from compat.tf_config._address import ascii_number, check_address
from compat.tf_config._dialects import Dialect, dialect_of
from compat.tf_config._model import CHIEF, EVALUATOR, WORKER, ClusterConfig, Task

_SINGLETON_JOBS = (CHIEF, EVALUATOR)
# No cluster has this many tasks; the bound keeps huge numbers out of int() and of messages.
_MAX_INDEX = 2**31 - 1


def from_environment(environ: Mapping[str, str] | None = None) -> ClusterConfig:
    """The cluster this process runs in: TF_CONFIG, else CLUSTER_SPEC (Vertex), else `ClusterConfig.local()`."""
    environ = os.environ if environ is None else environ
    for variable in ("TF_CONFIG", "CLUSTER_SPEC"):
        text = environ.get(variable, "").strip()
        if text:
            return from_string(text, source=variable)
    return ClusterConfig.local()


def from_string(text: str, source: str = "TF_CONFIG") -> ClusterConfig:
    """Parse TF_CONFIG JSON text; `source` names the document in error messages."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError) as err:
        raise TFConfigError(source, f"not valid JSON ({err})") from None
    except RecursionError:
        # json's decoder recurses once per nesting level; a real TF_CONFIG is four levels deep.
        raise TFConfigError(source, "nested too deeply to be a TF_CONFIG") from None
    return from_dict(value, source=source)


def from_dict(value: object, source: str = "TF_CONFIG") -> ClusterConfig:
    """Validate a decoded TF_CONFIG in any readable dialect; bad input raises `TFConfigError` naming the field."""
    if not isinstance(value, dict):
        raise TFConfigError(source, f"must be a JSON object, got {type(value).__name__}")
    raw_cluster = value.get("cluster")
    raw_cluster = {} if raw_cluster is None else raw_cluster
    if not isinstance(raw_cluster, dict):
        raise TFConfigError(f"{source}.cluster", "must be an object mapping job names to address lists")
    raw_task = value.get("task")
    if not raw_cluster:
        if raw_task:
            raise TFConfigError(f"{source}.cluster", "missing or empty while a task is set")
        return ClusterConfig.local(source=source)

    dialect, cluster = _read_cluster(source, raw_cluster)
    task, task_extra = _read_task(source, raw_task, cluster, dialect)
    extra = {k: v for k, v in value.items() if k not in ("cluster", "task", "environment", "rpc_layer")}
    if task_extra:
        extra["task"] = task_extra
    for key in ("environment", "rpc_layer"):
        if key in value and not isinstance(value[key], str):
            raise TFConfigError(f"{source}.{key}", f"must be a string, got {value[key]!r}")
    return ClusterConfig(
        cluster=cluster,
        task=task,
        dialect=dialect.name,
        environment=value.get("environment"),
        rpc_layer=value.get("rpc_layer"),
        extra=extra,
        source=source,
    )


def _read_cluster(source: str, raw_cluster: dict[str, Any]) -> tuple[Dialect, dict[str, tuple[str, ...]]]:
    dialect = dialect_of(f"{source}.cluster", raw_cluster)
    cluster: dict[str, tuple[str, ...]] = {}
    seen: dict[str, str] = {}
    for job, addresses in raw_cluster.items():
        # A job name is user text: quote one that would not print on one line.
        field = f"{source}.cluster.{job}" if job.isprintable() and job else f"{source}.cluster[{job!r}]"
        canonical = dialect.job_of(job)
        if canonical is None:
            names = ", ".join(dialect.jobs.values())
            raise TFConfigError(field, f"unknown job in the {dialect.name} dialect (expected one of {names})")
        if isinstance(addresses, str):
            raise TFConfigError(field, "must be a list of 'host:port' strings, got a single string")
        if not isinstance(addresses, list):
            raise TFConfigError(field, f"must be a list of 'host:port' strings, got {type(addresses).__name__}")
        for i, address in enumerate(addresses):
            check_address(f"{field}[{i}]", address)
            if address in seen:
                raise TFConfigError(f"{field}[{i}]", f"duplicate address {address!r}, also at {seen[address]}")
            seen[address] = f"{field}[{i}]"
        if canonical in _SINGLETON_JOBS and len(addresses) > 1:
            raise TFConfigError(field, f"has {len(addresses)} addresses; a cluster has at most one {job}")
        if addresses:
            cluster[canonical] = tuple(addresses)
    if cluster and not (cluster.get(CHIEF) or cluster.get(WORKER)):
        raise TFConfigError(
            f"{source}.cluster", "has no master/chief and an empty worker list; training needs at least one"
        )
    return dialect, cluster


def _read_index(field: str, index: object) -> int:
    if isinstance(index, bool) or not isinstance(index, (int, str)):
        raise TFConfigError(field, f"must be a whole number, got {index!r}")
    if isinstance(index, str):
        if not ascii_number(index.strip()):
            raise TFConfigError(field, f"must be a whole number in ASCII digits, got {index!r}")
        if len(index.strip()) > len(str(_MAX_INDEX)):
            raise TFConfigError(field, f"{index.strip()[:12]}... is out of range")
        index = int(index)
    if index < 0:
        raise TFConfigError(field, f"must not be negative, got {index}")
    if index > _MAX_INDEX:
        raise TFConfigError(field, f"is out of range (larger than {_MAX_INDEX})")
    return index


def _read_task(
    source: str, raw_task: object, cluster: Mapping[str, tuple[str, ...]], dialect: Dialect
) -> tuple[Task | None, dict[str, Any]]:
    if raw_task is None:
        return None, {}
    if not isinstance(raw_task, dict):
        raise TFConfigError(f"{source}.task", "must be an object with 'type' and 'index'")
    if "type" not in raw_task:
        raise TFConfigError(f"{source}.task.type", "missing")
    if "index" not in raw_task:
        raise TFConfigError(f"{source}.task.index", "missing")
    raw_type = raw_task["type"]
    if not isinstance(raw_type, str):
        raise TFConfigError(f"{source}.task.type", f"must be a string, got {raw_type!r}")
    task_type = dialect.job_of(raw_type)
    if task_type is None:
        jobs = sorted(_raw_jobs(cluster, dialect))
        raise TFConfigError(
            f"{source}.task.type", f"{raw_type!r} is not a job in the cluster (jobs: {', '.join(jobs)})"
        )
    index = _read_index(f"{source}.task.index", raw_task["index"])
    tasks = cluster.get(task_type, ())
    # An evaluator may stand outside the cluster (older Kubeflow and AI Platform drop it).
    if task_type == EVALUATOR and not tasks:
        if index != 0:
            raise TFConfigError(f"{source}.task.index", f"{index} is out of range: there is one evaluator")
    elif not tasks:
        jobs = sorted(_raw_jobs(cluster, dialect))
        raise TFConfigError(
            f"{source}.task.type", f"{raw_type!r} is not a job in the cluster (jobs: {', '.join(jobs)})"
        )
    elif index >= len(tasks):
        raise TFConfigError(
            f"{source}.task.index", f"{index} is out of range for job {raw_type!r} with {len(tasks)} task(s)"
        )
    extra = {k: v for k, v in raw_task.items() if k not in ("type", "index")}
    return Task(task_type, index), extra


def _raw_jobs(cluster: Iterable[str], dialect: Dialect) -> list[str]:
    return [dialect.job_name(job) for job in cluster]
