"""Our stand-in for `tensorflow.python.distribute.estimator_training`, removed after TF 2.15.

tensorflow-estimator 2.15 imports that module from three places and calls five functions
of it. They decide whether a `RunConfig` with a distribution strategy runs through the
distribute coordinator (which still ships in TF 2.21) and, if so, run one copy of the
Estimator per worker context the coordinator opens. Registered in `sys.modules` under the
old name by `compat._estimator_support.activate()`; never imported on TF <= 2.15.
"""

import copy
from collections.abc import Callable
from typing import Any

from tensorflow.python.distribute import distribute_coordinator as coordinator
from tensorflow.python.distribute import distribute_coordinator_context as coordinator_context
from tensorflow.python.distribute import multi_worker_util
from tensorflow.python.platform import tf_logging as logging
from tensorflow.python.training import server_lib

STANDALONE = coordinator.CoordinatorMode.STANDALONE_CLIENT
INDEPENDENT = coordinator.CoordinatorMode.INDEPENDENT_WORKER
_TRAINING_JOBS = ("chief", "worker")
# tensorflow-estimator and TensorFlow's internals ship no types: these aliases name what is passed.
_RunConfig = Any
_Estimator = Any
_Strategy = Any


def _take_experimental_strategy(config: _RunConfig, name: str) -> None:
    """Move `experimental_distribute.<name>` onto the config; both set is ambiguous."""
    experimental = config._experimental_distribute
    strategy = getattr(experimental, name, None) if experimental else None
    if strategy is None:
        return
    if getattr(config, "_" + name):
        raise ValueError(f"Either `{name}` or `experimental_distribute.{name}` can be set.")
    setattr(config, "_" + name, strategy)


def init_run_config(config: _RunConfig, tf_config: dict[str, Any]) -> None:
    """Choose the coordinator mode of a `RunConfig` built with a distribution strategy."""
    _take_experimental_strategy(config, "train_distribute")
    _take_experimental_strategy(config, "eval_distribute")
    cluster = server_lib.ClusterSpec(tf_config.get("cluster", {}))
    config._init_distributed_setting_from_environment_var({})
    remote = getattr(config._experimental_distribute, "remote_cluster", None)
    if config._train_distribute and remote:
        if cluster:
            raise ValueError('Cannot set both "cluster_spec" of TF_CONFIG and `experimental_distribute.remote_cluster`')
        config._distribute_coordinator_mode = STANDALONE
        config._cluster_spec = remote
        return
    # A `master` job is the TF1 layout: Estimator handles it itself, the coordinator cannot.
    if not cluster or "master" in cluster.jobs or not config._train_distribute:
        config._distribute_coordinator_mode = None
        config._init_distributed_setting_from_environment_var(tf_config)
        config._maybe_overwrite_session_config_for_distributed_training()
        return
    config._cluster_spec = cluster
    config._distribute_coordinator_mode = INDEPENDENT


def should_run_distribute_coordinator(config: _RunConfig) -> bool:
    mode = getattr(config, "_distribute_coordinator_mode", None)
    if mode not in (STANDALONE, INDEPENDENT):
        if mode is not None:
            logging.warning("Unexpected distribute_coordinator_mode: %r", mode)
        return False
    if not config.cluster_spec:
        logging.warning("Running `train_and_evaluate` locally, ignoring the distribute coordinator mode.")
        return False
    return True


def _init_run_config_from_worker_context(config: _RunConfig, context: Any) -> None:
    """Give `config` the task the coordinator assigned to this thread or process.

    TF 2.15's name for it (tests/common/test_estimator_layouts.py calls it on both TFs). A layout
    may lack any job but its first trainer: the chief counts as a worker, and a cluster of a chief
    alone, or of a chief and an evaluator (the evaluator gets a cluster of its own), has no
    `worker` job at all, which `multi_worker_util.worker_count(spec, "worker")` rejects.
    """
    config._service = None
    config._cluster_spec = context.cluster_spec
    config._task_type = context.task_type
    config._task_id = context.task_id
    config._master = config._evaluation_master = context.master_target
    config._is_chief = context.is_chief
    if not config._cluster_spec:
        config._global_id_in_cluster, config._num_ps_replicas, config._num_worker_replicas = 0, 0, 1
    elif config._task_type == "evaluator":
        # An evaluator sees only itself: it must not wait for or count the training tasks.
        config._cluster_spec = server_lib.ClusterSpec({})
        config._global_id_in_cluster, config._num_ps_replicas, config._num_worker_replicas = None, 0, 0
    else:
        jobs = multi_worker_util.normalize_cluster_spec(config._cluster_spec).as_dict()
        config._num_ps_replicas = len(jobs.get("ps", []))
        config._num_worker_replicas = sum(len(jobs.get(job, [])) for job in _TRAINING_JOBS)
        config._global_id_in_cluster = _global_id(jobs, config._task_type, config._task_id)


def _global_id(jobs: dict[str, Any], task_type: str | None, task_id: int) -> int:
    """Chief first, then every other job in name order, ps last (TF 2.15's numbering)."""
    if not task_type:
        return 0
    order = ["chief"] if "chief" in jobs else []
    order += sorted(job for job in jobs if job not in ("chief", "ps"))
    order += ["ps"] if "ps" in jobs else []
    offset = 0
    for job in order:
        if job == task_type:
            return offset + task_id
        offset += len(jobs[job])
    raise RuntimeError(f"task type {task_type!r} is not in the cluster {sorted(jobs)}")


def _estimator_for_context(estimator: _Estimator, strategy: _Strategy, role: str) -> _Estimator:
    """A copy of `estimator` bound to the current worker context; `role` is 'train' or 'eval'."""
    local = copy.deepcopy(estimator)
    setattr(local._config, f"_{role}_distribute", strategy)
    _init_run_config_from_worker_context(local._config, coordinator_context.get_current_worker_context())
    setattr(local, f"_{role}_distribution", strategy)
    # The copy calls train()/evaluate() itself: it must not enter the coordinator again.
    local._config._distribute_coordinator_mode = None
    return local


def _run(
    worker_fn: Callable[[_Strategy], Any], strategy: _Strategy, config: _RunConfig, cluster_spec: Any, **extra: Any
) -> Any:
    return coordinator.run_distribute_coordinator(
        worker_fn,
        strategy,
        mode=config._distribute_coordinator_mode,
        cluster_spec=cluster_spec,
        session_config=config.session_config,
        **extra,
    )


def train_and_evaluate(
    estimator: _Estimator, train_spec: Any, eval_spec: Any, executor_cls: Callable[..., Any]
) -> None:
    config = estimator.config
    if not config._distribute_coordinator_mode:
        raise ValueError("Distribute coordinator mode is not specified in `RunConfig`.")

    def train_worker(strategy: _Strategy) -> None:
        local = _estimator_for_context(estimator, strategy, "train")
        context = coordinator_context.get_current_worker_context()
        hooks = list(train_spec.hooks) if config._distribute_coordinator_mode == INDEPENDENT or context.is_chief else []
        local.train(input_fn=train_spec.input_fn, max_steps=train_spec.max_steps, hooks=hooks)

    def evaluate_worker(strategy: _Strategy) -> None:
        local = _estimator_for_context(estimator, strategy, "eval")
        executor_cls(local, train_spec, eval_spec)._start_continuous_evaluation()

    # INDEPENDENT_WORKER reads the cluster from TF_CONFIG itself.
    cluster_spec = config.cluster_spec if config._distribute_coordinator_mode == STANDALONE else None
    _run(
        train_worker,
        config.train_distribute,
        config,
        cluster_spec,
        eval_fn=evaluate_worker,
        eval_strategy=config.eval_distribute,
    )


def _standalone_only(estimator: _Estimator, strategy: _Strategy, method: str) -> Any:
    config = estimator._config
    spec = multi_worker_util.normalize_cluster_spec(config.cluster_spec)
    if "evaluator" in spec.jobs:
        raise ValueError("'evaluator' job is not supported if you don't use `train_and_evaluate`")
    if config._distribute_coordinator_mode != STANDALONE:
        raise ValueError(f"Only `STANDALONE_CLIENT` mode is supported when you call `Estimator.{method}`")
    if strategy.extended.experimental_between_graph:
        raise ValueError(
            f"`Estimator.{method}` API is not supported for {type(strategy).__name__} with `STANDALONE_CLIENT` mode."
        )
    return spec


def _coordinated(
    estimator: _Estimator, role: str, method: str, distributed_fn: Callable[..., Any], hooks: list[Any]
) -> Any:
    strategy = getattr(estimator._config, f"_{role}_distribute")
    spec = _standalone_only(estimator, strategy, method)

    def worker(worker_strategy: _Strategy) -> Any:
        local = _estimator_for_context(estimator, worker_strategy, role)
        chief_hooks = hooks if coordinator_context.get_current_worker_context().is_chief else []
        result = distributed_fn(local, worker_strategy, chief_hooks)
        return local if role == "train" else result

    return _run(worker, strategy, estimator._config, spec)


def estimator_train(estimator: _Estimator, train_distributed_fn: Callable[..., Any], hooks: list[Any]) -> Any:
    return _coordinated(estimator, "train", "train", train_distributed_fn, hooks)


def estimator_evaluate(estimator: _Estimator, evaluate_distributed_fn: Callable[..., Any], hooks: list[Any]) -> Any:
    return _coordinated(estimator, "eval", "evaluate", evaluate_distributed_fn, hooks)
