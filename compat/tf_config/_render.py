"""Write a `ClusterConfig` back as TF_CONFIG in the dialect a runtime needs."""

import contextlib
import json
import os
from collections.abc import Iterator, MutableMapping
from typing import Any

from compat.errors import TFConfigError
from compat.tf_config._dialects import DEFAULT, DIALECTS, Dialect, dialect_named
from compat.tf_config._model import CHIEF, EVALUATOR, PS, WORKER, ClusterConfig


def to_dict(config: ClusterConfig, dialect: str | None = None) -> dict:
    """TF_CONFIG as a dict in `dialect` (default: the one the config was read in)."""
    target = dialect_named(dialect or (config.dialect if config.dialect in DIALECTS else DEFAULT.name))
    if not config.is_distributed:
        return {}
    if target.chief_in_workers:
        return _chief_in_workers_view(config, target)
    if not target.evaluator and (config.addresses(EVALUATOR) or config.is_evaluator):
        raise TFConfigError(
            "cluster.evaluator",
            f"the {target.name} dialect cannot express an evaluator "
            f"(Estimator rejects {target.job_name(CHIEF)} with evaluator)",
        )
    result: dict[str, Any] = {"cluster": {target.job_name(job): list(addrs) for job, addrs in config.cluster.items()}}
    extra: dict[str, Any] = dict(config.extra)  # JSON values, as read; "task" holds the task's own extra keys
    task_extra = extra.pop("task", {})
    if config.task is not None:
        result["task"] = {"type": target.job_name(config.task.type), "index": config.task.index, **task_extra}
    environment = config.environment or target.environment
    if environment is not None:
        result["environment"] = environment
    if config.rpc_layer is not None:
        result["rpc_layer"] = config.rpc_layer
    result.update(extra)
    return result


def _chief_in_workers_view(config: ClusterConfig, dialect: Dialect) -> dict[str, Any]:
    """What the platform's parser sees: `[master] + workers`, worker ids shifted past the master."""
    cluster = {dialect.job_name(WORKER): list(config.worker_addresses)}
    if config.num_ps:
        cluster[dialect.job_name(PS)] = list(config.addresses(PS))
    result: dict[str, Any] = {"cluster": cluster}
    if config.task is not None:
        if config.is_evaluator:
            raise TFConfigError("task.type", f"the {dialect.name} view has no evaluator")
        if config.is_ps:
            result["task"] = {"type": dialect.job_name(PS), "index": config.task_index}
        else:
            result["task"] = {"type": dialect.job_name(WORKER), "index": config.global_worker_id}
    return result


def to_json(config: ClusterConfig, dialect: str | None = None, **json_kwargs: Any) -> str:
    return json.dumps(to_dict(config, dialect), **json_kwargs)


@contextlib.contextmanager
def use(
    config: ClusterConfig, dialect: str = "chief", environ: MutableMapping[str, str] | None = None
) -> Iterator[ClusterConfig]:
    """Set TF_CONFIG to `config` in `dialect` for the block; restore the previous value after."""
    environ = os.environ if environ is None else environ
    previous = environ.get("TF_CONFIG")
    rendered = to_json(config, dialect)
    try:
        if config.is_distributed:
            environ["TF_CONFIG"] = rendered
        else:
            environ.pop("TF_CONFIG", None)
        yield config
    finally:
        if previous is None:
            environ.pop("TF_CONFIG", None)
        else:
            environ["TF_CONFIG"] = previous
