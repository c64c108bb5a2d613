"""ResNet on ImageNet TFRecords with tf.estimator: the platform's TF1 example, on TF 2.15 and 2.21.

    python -m legacy_tf1.imagenet_main --data_dir D --output_dir O [--num_gpus N] [--max_step S]
    python -m legacy_tf1.imagenet_main ... --multi_device mirrored     # the example's TF 2.0 variant

Towers (`--num_gpus N`, one per GPU, or per logical CPU when the node has none) are placed by
a compat device setter; `--multi_device mirrored` passes `RunConfig(train_distribute=
MirroredStrategy)` instead. In a cluster the Estimator reads TF_CONFIG (any dialect, `master`
included): ps tasks serve, workers train between-graph (`--sync`: SyncReplicasOptimizer).
Checkpoints go to `--output_dir`, TensorBoard summaries also to `--log_dir`, and the chief
exports a SavedModel to `<output_dir>/export` at the end.

Thin, as TensorFlow's official imagenet_main: the flags (`legacy_tf1.imagenet_flags`) and the checks of the
input that need no TensorFlow (flags, TF_CONFIG, towers, the data folder), so a mistake is one line at once;
then `legacy_tf1.imagenet_estimator`, which imports TensorFlow, trains.
"""

import compat.flags as flags
from compat import tf_config
from compat.cli_errors import main_guard
from legacy_tf1.imagenet_flags import define_imagenet_flags
from trainlib.data import paths, towers

define_imagenet_flags()
FLAGS = flags.FLAGS


@main_guard
def main(argv: list[str]) -> int:
    del argv
    cluster = tf_config.from_environment()
    num_devices = towers.num_towers(FLAGS.num_gpus)
    towers.per_tower_batch(FLAGS.train_batch_size, num_devices)
    if not cluster.is_ps:
        paths.check_data_dir(FLAGS.data_dir)
    from legacy_tf1 import imagenet_estimator

    return imagenet_estimator.run(cluster, num_devices)


if __name__ == "__main__":
    flags.run(main)
