"""TF-slim's train_image_classifier: the platform's slim example, graph mode, on TF 2.15 and 2.21.

    python -m legacy_tf1.slim_main --data_dir D --output_dir O --model_name lenet --max_step 100
    python -m legacy_tf1.slim_main ... --num_gpus 2          # 2 clones (logical CPUs without GPUs)
    python -m legacy_tf1.slim_main ... --checkpoint_path C --checkpoint_exclude_scopes LeNet/fc4

Slim's flags (`trainlib.training.slim_flags`) with the platform's mapping: `dataset_dir = data_dir`,
`train_dir = output_dir`, `num_clones = max(num_gpus, 1)`, steps from `--max_step`.
`--batch_size` is per clone, as in slim. Clones follow `legacy_tf1.model_deploy`.

Distributed (TF_CONFIG in any dialect, `master` included): the master is worker 0 and the
chief; ps tasks serve variables (round-robin) and join; workers train asynchronously with
`master=server.target` (`--sync_replicas`: SyncReplicasOptimizer).

Thin: the flags and the checks of the input that need no TensorFlow (flags, TF_CONFIG, the checkpoint and data
paths), so a mistake is one line at once; then `legacy_tf1.slim_training`, which imports TensorFlow, trains.
"""

import compat.flags as flags
from compat import tf_config
from compat.cli_errors import main_guard
from compat.errors import TFConfigError
from trainlib.data import paths
from trainlib.training import slim_data, slim_flags

slim_flags.define_slim_flags()
FLAGS = flags.FLAGS


@main_guard
def main(argv: list[str]) -> int:
    del argv
    slim_flags.platform_overrides(FLAGS)
    cluster = tf_config.from_environment()
    if cluster.is_evaluator:
        raise TFConfigError("TF_CONFIG.task.type", "train_image_classifier has no evaluator task; drop it from the job")
    if not cluster.is_ps:
        if FLAGS.checkpoint_path:
            paths.check_checkpoint(FLAGS.checkpoint_path, "--checkpoint_path")
        slim_data.check_input(FLAGS)
    from legacy_tf1 import slim_training

    return slim_training.run(cluster)


if __name__ == "__main__":
    flags.run(main)
