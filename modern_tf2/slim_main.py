"""TF-slim's `train_image_classifier` on TF2 strategies: a slim-zoo net in a Keras layer, the shared loop.

    python -m modern_tf2.slim_main --data_dir D --output_dir O --model_name resnet_v1_50 --max_step 100

The legacy program's flags (`trainlib.training.slim_flags`, with the platform's mapping:
dataset_dir = data_dir, train_dir = output_dir, num_clones = max(num_gpus, 1)), nets
(`trainlib.models.slim_zoo`, `lenet` included), optimizers and decays
(`trainlib.training.slim_optimization`) and dataset (`trainlib.training.slim_data`); `--batch_size`
is per clone, as in slim. The strategy comes from TF_CONFIG (`modern_tf2.run_loop`), so slim's deployment
flags (`--master`, `--task`, `--num_ps_tasks`, `--worker_replicas`) are read from the cluster
instead. Checkpoints are written every `--save_checkpoints_steps` steps (the loop counts steps,
not slim's `--save_interval_secs`). Fine-tuning as slim's: `--checkpoint_path` (a TF-slim
checkpoint, e.g. the legacy program's or the zoo's), `--checkpoint_exclude_scopes`,
`--ignore_missing_vars`; a checkpoint in `--train_dir` wins.
"""

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import compat  # noqa: F401 - first: selects tf-keras before TensorFlow binds Keras
import compat.flags as flags
from compat import tf_config
from compat.cli_errors import fail, main_guard
from compat.errors import ClusterError
from trainlib.data import paths
from trainlib.training import loop_flags, slim_data, slim_flags

slim_flags.define_slim_flags()
loop_flags.define_loop_flags()
FLAGS = flags.FLAGS

if TYPE_CHECKING:
    import tensorflow as tf

    from modern_tf2.run_loop import Program, Settings


def slim_weights(variables: Iterable["tf.Variable"]) -> "tf.Tensor":
    """What slim's `l2_regularizer` decays (before the factor): l2_loss of conv and fully-connected weights."""
    import tensorflow as tf

    return tf.add_n([tf.nn.l2_loss(v) for v in variables if v.name.split(":")[0].endswith("/weights")])


def smoothed_cross_entropy(label_smoothing: float, depth: int) -> Callable[["tf.Tensor", "tf.Tensor"], "tf.Tensor"]:
    """slim's `softmax_cross_entropy` on one-hot labels with `label_smoothing`, averaged over the batch."""
    import tensorflow as tf

    def loss(logits: "tf.Tensor", labels: "tf.Tensor") -> "tf.Tensor":
        return tf.compat.v1.losses.softmax_cross_entropy(
            tf.one_hot(labels, depth),
            logits,
            label_smoothing=label_smoothing,
            reduction=tf.compat.v1.losses.Reduction.MEAN,
        )

    return loss


def program(values: Any) -> "Program":
    import tensorflow as tf

    from modern_tf2 import run_loop, trainer
    from modern_tf2.chief_checkpoints import starting_from
    from trainlib import checkpoints
    from trainlib.models import slim_layer, slim_zoo
    from trainlib.training import checkpoint_flags

    check_steps(slim_flags.platform_overrides(values))
    image_size = values.train_image_size or slim_zoo.default_image_size(values.model_name)
    source = checkpoints.fine_tune_source(values.checkpoint_path, values.train_dir)
    files = slim_data.files(values)  # missing or bad data fails here, in one line
    samples_per_epoch = slim_data.samples_per_epoch(values, files)
    net_classes = slim_data.num_classes(values) - values.labels_offset

    def read(split: str, batch: int, **kwargs: Any) -> "tf.data.Dataset":
        return slim_data.dataset(values, split, batch, image_size, **kwargs)

    def build_model() -> "tf.keras.Model":
        return tf.keras.Sequential([slim_layer.SlimNetLayer(values.model_name, net_classes)])

    def eval_dataset() -> "tf.data.Dataset":
        return read("validation", values.eval_batch_size, repeat=False)

    return run_loop.Program(
        build_model=starting_from(
            build_model,
            image_size,
            source,
            checkpoints.SLIM,
            checkpoint_flags.scopes(values.checkpoint_exclude_scopes),
            values.ignore_missing_vars,
        ),
        build_optimizer=lambda: trainer.slim_optimizer(values, samples_per_epoch),
        train_dataset=lambda context: read(values.dataset_split_name, global_batch(values), input_context=context),
        eval_dataset=eval_dataset if values.dataset_split_name == "train" else None,
        weight_decay=values.weight_decay,
        decayed_weights=slim_weights,
        image_size=image_size,
        data_loss=smoothed_cross_entropy(values.label_smoothing, net_classes)
        if values.label_smoothing
        else trainer.classification_loss,
    )


def check_steps(values: Any) -> None:
    if not values.max_number_of_steps:
        fail("set --max_number_of_steps (or the platform's --max_step): the TF2 loop does not train without end")


def check_input(values: Any) -> None:
    """What program() and settings() refuse first, in their order, checked before TensorFlow is imported."""
    check_steps(slim_flags.platform_overrides(values))
    paths.check_fine_tune_source(values.checkpoint_path, values.train_dir)
    slim_data.check_input(values)
    tf_config.from_environment()


def global_batch(values: Any) -> int:
    """slim's batch is per clone; synchronous workers (MultiWorkerMirrored) each bring their clones."""
    import compat.strategy as strategies

    config = tf_config.from_environment()
    workers = config.num_workers if strategies.kind(config, values.num_clones) == strategies.MULTI_WORKER else 1
    return values.batch_size * values.num_clones * workers


def settings(values: Any) -> "Settings":
    from modern_tf2 import run_loop

    return run_loop.Settings(
        output_dir=values.train_dir,
        log_dir=run_loop.platform_log_dir(values, values.train_dir),
        train_steps=values.max_number_of_steps,
        global_batch=global_batch(values),
        num_devices=values.num_clones,
        save_every=values.save_checkpoints_steps,
        log_every=values.log_every_n_steps,
        export=values.export,
    )


@main_guard
def main(argv: list[str]) -> int:
    del argv
    check_input(FLAGS)
    from modern_tf2 import run_loop

    built = program(FLAGS)
    try:
        run_loop.run(built, settings(FLAGS))
    except ClusterError as err:
        fail(str(err), code=1)
    return 0


if __name__ == "__main__":
    flags.run(main)
