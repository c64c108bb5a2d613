"""TF_CONFIG in every dialect, as one validated model.

    from compat import tf_config
    config = tf_config.from_environment()      # TF_CONFIG, or Vertex's CLUSTER_SPEC
    config.is_chief, config.num_workers, config.global_worker_id
    tf_config.to_json(config, "chief")         # for TF2 strategies (no `master` job)
    with tf_config.use(config, "master"): ...  # for Estimator / TF1 code

Dialects read: `master` (Estimator/UAI/SageMaker/AI Platform), `chief` (TF2, Kubeflow,
AI Platform >= 2.1), Vertex worker pools. Bad input raises `TFConfigError` naming the field.
Every dialect is one record in `DIALECTS` (`_dialects.py`): add a dialect there, nowhere else.
"""

from compat.errors import TFConfigError
from compat.tf_config._dialects import DIALECTS, LAUNCH_DIALECTS, Dialect, describe, dialect_named
from compat.tf_config._model import CHIEF, EVALUATOR, JOBS, PS, WORKER, ClusterConfig, Task
from compat.tf_config._parse import from_dict, from_environment, from_string
from compat.tf_config._render import to_dict, to_json, use

__all__ = [
    "CHIEF",
    "DIALECTS",
    "EVALUATOR",
    "JOBS",
    "LAUNCH_DIALECTS",
    "PS",
    "WORKER",
    "ClusterConfig",
    "Dialect",
    "TFConfigError",
    "Task",
    "describe",
    "dialect_named",
    "from_dict",
    "from_environment",
    "from_string",
    "to_dict",
    "to_json",
    "use",
]
