"""Checkpoints across runtimes: read a TF1 checkpoint, start a TF2 model from it, convert it.

    python -m trainlib.checkpoints inspect CKPT                  # variables, shapes, dtypes
    python -m trainlib.checkpoints convert CKPT --model resnet --resnet_size 50 --out DIR

`CKPT` is a checkpoint prefix (`model.ckpt-100`) or a folder (its latest checkpoint). `convert`
writes a `tf.train.Checkpoint` of the model (and the step, as the optimizer's iteration count)
into `DIR`, which `modern_tf2.imagenet_main --output_dir DIR` resumes from. The modern programs
also start from a TF1 checkpoint directly with slim's `--checkpoint_path` and
`--checkpoint_exclude_scopes` (`trainlib.training.checkpoint_flags`; `initialize` below).
Variables are matched through the stable names of `trainlib.models.names`.

Layering: this package is the programs' shared code (with `trainlib.models`, `trainlib.data` and
`trainlib.training`), not a runtime shim: it builds the shared models. Programs -> shared code
-> shims; no shim imports it.
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from trainlib.checkpoints._convert import convert_resnet
    from trainlib.checkpoints._fine_tune import fine_tune_source, initialize
    from trainlib.checkpoints._inspect import describe, list_variables
    from trainlib.models.names import RESNET, SLIM, Naming, checkpoint_file

# name -> its module, imported on first use: every one imports TensorFlow, and `python -m trainlib.checkpoints`
# imports this package before its __main__, which reports a bad flag without them
_HOMES = {
    "RESNET": "trainlib.models.names",
    "SLIM": "trainlib.models.names",
    "Naming": "trainlib.models.names",
    "checkpoint_file": "trainlib.models.names",
    "convert_resnet": "trainlib.checkpoints._convert",
    "describe": "trainlib.checkpoints._inspect",
    "fine_tune_source": "trainlib.checkpoints._fine_tune",
    "initialize": "trainlib.checkpoints._fine_tune",
    "list_variables": "trainlib.checkpoints._inspect",
}
__all__ = [
    "RESNET",
    "SLIM",
    "Naming",
    "checkpoint_file",
    "convert_resnet",
    "describe",
    "fine_tune_source",
    "initialize",
    "list_variables",
]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOMES[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})
