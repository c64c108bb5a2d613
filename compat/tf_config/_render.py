"""Write a `ClusterConfig` back as TF_CONFIG in the dialect a runtime needs."""

import contextlib
import json
import os

from compat.errors import TFConfigError
from compat.tf_config._model import CHIEF, EVALUATOR, PS, WORKER

# dialect -> (name of the chief job, environment written when the config has none)
DIALECTS = {
    "chief": (CHIEF, None),  # TF2 strategies
    "master": ("master", None),  # Estimator / TF1 / the UAI platform
    "kubeflow": (CHIEF, "cloud"),
    "sagemaker": ("master", "cloud"),
    "vertex": ("workerpool0", None),
    "uai": (None, None),  # the platform parser's view: chief folded into the worker list
}
_VERTEX_NAMES = {CHIEF: "workerpool0", WORKER: "workerpool1", PS: "workerpool2", EVALUATOR: "workerpool3"}


def _job_name(dialect, job):
    if dialect == "vertex":
        return _VERTEX_NAMES[job]
    return DIALECTS[dialect][0] if job == CHIEF else job


def to_dict(config, dialect=None):
    """TF_CONFIG as a dict in `dialect` (default: the one the config was read in)."""
    dialect = dialect or (config.dialect if config.dialect in DIALECTS else "chief")
    if dialect not in DIALECTS:
        raise TFConfigError("dialect", f"unknown dialect {dialect!r} (expected one of {', '.join(DIALECTS)})")
    if not config.is_distributed:
        return {}
    if dialect == "uai":
        return _uai_view(config)
    if dialect in ("master", "sagemaker") and (config.addresses(EVALUATOR) or config.is_evaluator):
        raise TFConfigError(
            "cluster.evaluator", f"the {dialect} dialect cannot express an evaluator (Estimator rejects master with evaluator)"
        )
    result = {"cluster": {_job_name(dialect, job): list(addrs) for job, addrs in config.cluster.items()}}
    extra = dict(config.extra)
    task_extra = extra.pop("task", {})
    if config.task is not None:
        result["task"] = {"type": _job_name(dialect, config.task.type), "index": config.task.index, **task_extra}
    environment = config.environment or DIALECTS[dialect][1]
    if environment is not None:
        result["environment"] = environment
    if config.rpc_layer is not None:
        result["rpc_layer"] = config.rpc_layer
    result.update(extra)
    return result


def _uai_view(config):
    """What the platform's parser sees: `[master] + workers`, worker ids shifted past the master."""
    cluster = {WORKER: list(config.worker_addresses)}
    if config.num_ps:
        cluster[PS] = list(config.addresses(PS))
    result = {"cluster": cluster}
    if config.task is not None:
        if config.is_evaluator:
            raise TFConfigError("task.type", "the uai view has no evaluator")
        if config.is_ps:
            result["task"] = {"type": PS, "index": config.task_index}
        else:
            result["task"] = {"type": WORKER, "index": config.global_worker_id}
    return result


def to_json(config, dialect=None, **json_kwargs):
    return json.dumps(to_dict(config, dialect), **json_kwargs)


@contextlib.contextmanager
def use(config, dialect="chief", environ=None):
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
