"""The platform's `uai_dist` API (`uaitrain.arch.tensorflow.uai_dist`), on `compat.tf_config`.

Behaviour kept as users rely on it, quirks included: the master is worker 0, so a worker's
task id is its index + 1 and the worker list is `[master] + workers`; `generate_cluster`
writes the index as given. Fixed where the original crashed: a `chief`-keyed cluster is
read as master (it raised KeyError); a missing index, a cluster with no master, or a getter
called before `load_cluster_config()` raise `DistConfigError`/`TFConfigError` naming the problem
(they raised TypeError, KeyError and AttributeError).
"""

from compat.dist._run_config import (
    UAIDistRunConfig,
    UAITensorFlowDistRunConfig,
    UAITensorFlowDistRunConfigParser,
)

__all__ = ["UAIDistRunConfig", "UAITensorFlowDistRunConfig", "UAITensorFlowDistRunConfigParser"]
