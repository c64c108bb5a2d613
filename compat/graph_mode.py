"""TF 2 code that still needs TF1's graph mode, in one table both tools read, and the switch to it.

An Estimator deep-copies its RunConfig, and TF 2 refuses to deep-copy a MultiWorkerMirroredStrategy made
in eager mode once it runs in a cluster ("MultiWorkerMirroredStrategy cannot be deep copied in eager
mode"; TF 2.0's Estimator tutorial ran it eagerly). A program that holds both, in one file, runs in graph
mode, as TF 1 ran it: uai-migrate's graph-mode rule writes the switches into the file, `uai-run --auto`
turns them on before it runs such a TF 2 program. The strategy alone is TF 2 code (Keras under
`strategy.scope()`).
"""

RULE = "graph-mode"  # uai-migrate's rule that writes the switches
# the strategies, and the configs, in every spelling a program or a port may have
EAGER_UNCOPIABLE = frozenset(
    f"tensorflow.{p}{n}"
    for n in (
        "distribute.MultiWorkerMirroredStrategy",
        "distribute.experimental.MultiWorkerMirroredStrategy",
        "contrib.distribute.CollectiveAllReduceStrategy",
    )
    for p in ("", "compat.v1.")
)
ESTIMATOR_CONFIGS = frozenset(
    f"{module}.RunConfig"
    for module in (
        "tensorflow.estimator",
        "tensorflow.compat.v1.estimator",
        "tensorflow.estimator.tpu",
        "tensorflow.compat.v1.estimator.tpu",
        "tensorflow.contrib.tpu",
        "tensorflow.contrib.learn",
        "tensorflow_estimator.estimator",
        "compat.estimator",
        "compat.learn",
    )
)
# TF 1's behaviour, as the rule writes it: graph mode, ref variables and control flow v1 (its docstring says why)
SWITCHES = ("disable_eager_execution", "disable_resource_variables", "disable_control_flow_v2")


def needs_graph_mode(names: set[str]) -> bool:
    """Do the TensorFlow names one file uses (`tensorflow.<path>`) make it graph code?"""
    return bool(names & EAGER_UNCOPIABLE) and bool(names & ESTIMATOR_CONFIGS)


def enter() -> None:
    """Switch this process to TF 1's behaviour (before the program builds anything)."""
    import tensorflow as tf

    for switch in SWITCHES:
        getattr(tf.compat.v1, switch)()


def tf2_enabled() -> bool:
    """What `tensorflow.python.tf2.enabled()` answers a TF1-era library, in the program that runs it: False
    in a program running in TF 1's graph mode (eager execution switched off: `enter`, uai-migrate's
    graph-mode switches, or `disable_v2_behavior()`), as TF 1.x answered; TensorFlow's own answer in any
    other (True on TF 2). Asked at any depth: inside an Estimator's graph too, where `executing_eagerly()`
    is False in every program."""
    from tensorflow.python import tf2
    from tensorflow.python.eager import context

    return tf2.enabled() and context.default_execution_mode == context.EAGER_MODE
