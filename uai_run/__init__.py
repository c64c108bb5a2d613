"""`uai-run`: run an unmodified TF1 program on TF 2.15 / 2.21, the TF1 API given at import time.

    uai-run [--tf1|--auto] [--tf1-everywhere] [--explain] script.py args...     (or: python -m uai_run ...)

The user's `import tensorflow as tf`, `import tensorflow.contrib.slim as slim`, `from
tensorflow.contrib import rnn` ... get a TF1 face of TensorFlow (`tf.compat.v1` with
`disable_v2_behavior()`, compat's runtime, contrib names at their new homes) built from the
table `compat.tf1_names` that uai-migrate rewrites from; libraries keep the real TensorFlow.
  uai_run.cli           the command line (runpy: `__main__`, argv, sys.path, exit code)
  uai_run._finder       the meta-path finder/loader of the faces, and who gets them (`__import__`)
  uai_run._tf1_modules  the face modules: name resolution, one-line errors for removed names
  uai_run._code_owner   whose code a file is (user's vs library's), the user's frame
  uai_run._explain      the aliases applied, as uai-migrate's JSON report (`--explain`)
  uai_run._auto         --auto: TF1 program (the face), TF 2 program needing compat (its runtime, no face),
                        or TF 2 program (python runs it as it is)?
  uai_run._libraries    the names other libraries removed (Pillow's ANTIALIAS), served to old code
  uai_run._source       a user file Python 3 cannot parse (Python 2): one line pointing to uai-migrate
"""

import functools
import sys

from compat import _import_hook
from uai_run import _finder, _libraries
from uai_run._tf1_modules import MissingTF1Module, MissingTF1Name

__all__ = ["MissingTF1Module", "MissingTF1Name", "install", "spawned_children_too"]


def install(everywhere: bool = False) -> None:
    """What uai-run sets up before the program runs (idempotent): the TF1 face of `tensorflow` for the
    user's code (every module's, with `everywhere`), and the names other libraries removed."""
    _finder.install(everywhere=everywhere)
    _libraries.install()
    spawned_children_too(f"import compat, uai_run; uai_run.install(everywhere={everywhere!r})")


def spawned_children_too(setup: str) -> None:
    """multiprocessing's spawn (and forkserver) start a fresh interpreter that imports the program's
    main module again: make it run `setup` (the statements that set this process up) first, as a
    forked child inherits it. Done when the program imports multiprocessing.spawn (most never do:
    importing it here cost every run ~20 imports)."""
    _import_hook.on_import("multiprocessing.spawn", after=functools.partial(_patch_spawn, setup))
    if "multiprocessing.spawn" in sys.modules:
        _patch_spawn(setup)


def _patch_spawn(setup: str) -> None:
    import multiprocessing.spawn as spawn  # imported already: the program's import called this

    original = getattr(spawn.get_command_line, "compat_original", spawn.get_command_line)

    def get_command_line(**kwds: object) -> list[str]:
        command = original(**kwds)
        if "-c" in command:
            at = command.index("-c") + 1
            command[at] = f"{setup}; {command[at]}"
        return command

    get_command_line.compat_original = original  # type: ignore[attr-defined]
    spawn.get_command_line = get_command_line
