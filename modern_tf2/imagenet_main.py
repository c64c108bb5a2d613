"""ResNet on ImageNet TFRecords with the tf.distribute strategy TF_CONFIG calls for.

    python -m modern_tf2.imagenet_main --data_dir D --output_dir O --resnet_size 8 --image_size 32 --max_step 100

The legacy program's flags (`trainlib.training.resnet_flags`) and the platform's; the strategy,
loop, checkpoints and export are `modern_tf2.run_loop`'s. `--checkpoint_path` (slim's, with
`--checkpoint_exclude_scopes`) starts the model from a TF1 Estimator or TF2 checkpoint. Bad input (TF_CONFIG, a batch that
does not split over the replicas, missing data) is one line on stderr and exit 2; what of it needs no TensorFlow
(the flags, a missing checkpoint or data folder, TF_CONFIG) is refused before TensorFlow is imported.
"""

from typing import TYPE_CHECKING, Any

import compat  # noqa: F401 - first: selects tf-keras before TensorFlow binds Keras
import compat.flags as flags
from compat import tf_config
from compat.cli_errors import fail, main_guard
from compat.errors import ClusterError
from trainlib.data import paths
from trainlib.training import checkpoint_flags, resnet_flags

resnet_flags.define_resnet_flags()
checkpoint_flags.define_checkpoint_flags()
FLAGS = flags.FLAGS

if TYPE_CHECKING:
    import tensorflow as tf

    from modern_tf2.run_loop import Program, Settings


def settings(values: Any) -> "Settings":
    from modern_tf2 import run_loop
    from trainlib.training import schedule

    return run_loop.Settings(
        output_dir=values.output_dir,
        log_dir=run_loop.platform_log_dir(values),
        train_steps=schedule.train_steps(
            values.max_step, values.train_epochs, values.train_images, values.train_batch_size
        ),
        global_batch=values.train_batch_size,
        num_devices=max(values.num_gpus, 1),
        save_every=values.save_checkpoints_steps,
        log_every=values.log_every_n_steps,
        export=values.export,
    )


def program(values: Any) -> "Program":
    import tensorflow as tf

    from modern_tf2 import run_loop, trainer
    from modern_tf2.chief_checkpoints import starting_from
    from trainlib import checkpoints
    from trainlib.data import imagenet
    from trainlib.models.resnet import l2_weights
    from trainlib.training.resnet_config import ResNetConfig

    source = checkpoints.fine_tune_source(values.checkpoint_path, values.output_dir)  # a missing one: one line
    imagenet.shard_files(values.data_dir, is_training=True)  # a missing data dir fails here, in one line
    seed = values.seed or None
    if seed:
        tf.keras.utils.set_random_seed(seed)
    config = ResNetConfig.from_flags(values)

    def train_dataset(input_context: "tf.distribute.InputContext") -> "tf.data.Dataset":
        return imagenet.dataset(
            values.data_dir,
            True,
            values.train_batch_size,
            values.image_size,
            values.num_classes,
            input_context=input_context,
            seed=seed,
        )

    def eval_dataset() -> "tf.data.Dataset":
        return imagenet.dataset(
            values.data_dir, False, values.eval_batch_size, values.image_size, values.num_classes, repeat=False
        )

    return run_loop.Program(
        build_model=starting_from(
            config.build_model,
            config.image_size,
            source,
            checkpoints.RESNET,
            checkpoint_flags.scopes(values.checkpoint_exclude_scopes),
        ),
        build_optimizer=lambda: trainer.sgd_momentum(
            trainer.resnet_learning_rate(config.learning_rate, config.batches_per_epoch), config.momentum
        ),
        train_dataset=train_dataset,
        eval_dataset=eval_dataset,
        weight_decay=config.weight_decay,
        decayed_weights=l2_weights,
        image_size=config.image_size,
    )


@main_guard
def main(argv: list[str]) -> int:
    del argv
    # what program() and run_loop.run refuse first, in their order
    paths.check_fine_tune_source(FLAGS.checkpoint_path, FLAGS.output_dir)
    paths.check_data_dir(FLAGS.data_dir)
    tf_config.from_environment()
    from modern_tf2 import run_loop

    try:
        run_loop.run(program(FLAGS), settings(FLAGS))
    except ClusterError as err:
        fail(str(err), code=1)  # not the user's input: a runtime failure, exit 1
    return 0


if __name__ == "__main__":
    flags.run(main)
