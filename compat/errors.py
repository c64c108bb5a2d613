"""Typed errors raised by `compat`.

Every error a user can cause by bad input (a flag, a TF_CONFIG, a data folder) is a
`CompatError`. Command-line entry points turn it into one line on stderr and exit code 2
(`compat.cli_errors.main_guard`), so a user never sees a traceback for a mistake of theirs.
"""


class CompatError(Exception):
    """Base of all errors caused by the user's input or environment."""


class FlagConflictError(CompatError):
    """A flag was defined twice with definitions that cannot both hold."""


class TFConfigError(CompatError, ValueError):
    """TF_CONFIG (or CLUSTER_SPEC) is malformed; the message names the field.

    Subclasses ValueError too: code that guarded TensorFlow's own parsing with
    `except ValueError` keeps working.
    """

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}" if field else problem)


class DistConfigError(CompatError):
    """The platform's `uai_dist` API was used in a way the original crashed on."""


class DataError(CompatError):
    """Input data is missing or malformed; the message names the file or record."""


class CheckpointError(CompatError):
    """A TF1 checkpoint lacks a variable the program restores from it (TF1's Saver.restore raised NotFoundError,
    a name-based restore in TF 2 leaves the variable as it was); names the checkpoint and the variable."""

    # raised in a tf.function's trace (as the first step builds the optimizer): autograph lets an error so marked
    # through as it is, where it would wrap any other in a StagingError of its trace
    ag_pass_through = True


class DeviceError(CompatError):
    """A device layout cannot be built (e.g. a batch that does not split over towers)."""


class EstimatorSupportError(CompatError):
    """A part of tf.estimator that cannot run on this TensorFlow (e.g. TPUEstimator's TPU embeddings on TF >= 2.16)."""


class ScopeReuseError(CompatError, ValueError):
    """A layer made again in a variable scope that does not reuse, or reused where none was made (`compat.scoped_layers`).

    Subclasses ValueError, which TF1's variable scopes raised for the same mistakes.
    """


class SlimNetError(CompatError, TypeError):
    """`compat.slim_nets.SlimNet` got no net function, an arg_scope that is not the dict a zoo's *_arg_scope()
    returns, or no tf.TensorSpec to make its variables for.

    Subclasses TypeError: each is an argument of the wrong kind.
    """


class KerasSetupError(CompatError):
    """Legacy Keras (needed by tf.compat.v1.layers and tf-slim) can no longer be selected in this process."""


class ClusterError(CompatError):
    """A running cluster lost a task it cannot continue without (e.g. a MultiWorkerMirrored peer)."""


class HParamsError(CompatError, ValueError):
    """A hyper-parameter is unknown, redefined, or given a value its type cannot hold.

    Subclasses ValueError, which tf.contrib.training.HParams raised for the same mistakes.
    """


class ExperimentError(CompatError, ValueError):
    """`compat.learn.Experiment` / `learn_runner.run` got an argument they cannot honour; names the field.

    Subclasses ValueError, which tf.contrib.learn raised for the same mistakes.
    """

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


class LaunchError(CompatError):
    """A local cluster cannot start (uai-launch): a missing command, a log folder or manifest path
    that cannot be written, a bad count or name; names the option (or the command) at fault."""

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


class MissingRuntimePiece(CompatError):
    """A program failed for a piece of the runtime this environment lacks (tf-keras, the Estimator, tf-slim):
    the message names it and the pip line that adds it (compat.doctor)."""
