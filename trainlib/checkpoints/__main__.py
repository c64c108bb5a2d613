"""`python -m trainlib.checkpoints inspect CKPT` | `convert CKPT --model resnet --resnet_size N --out DIR`.

Bad input (a missing checkpoint, a model or size the checkpoint does not hold, an unknown
command) is one line on stderr and exit 2; the flags, the command and a missing checkpoint are refused
before TensorFlow is imported.
"""

import compat.flags as flags
from compat.cli_errors import fail, main_guard
from compat.outputs import output_folder
from trainlib.data.paths import check_checkpoint
from trainlib.models.resnet_layout import SIZES
from trainlib.training.resnet_config import ResNetConfig

COMMANDS = ("inspect", "convert")
MODELS = ("resnet",)

flags.DEFINE_enum("model", None, list(MODELS), "convert: the model the checkpoint holds.")
flags.DEFINE_integer("resnet_size", None, f"convert: ResNet depth, one of {SIZES}.")
flags.DEFINE_enum(
    "resnet_version", str(ResNetConfig.resnet_version), ["1", "2"], "convert: ResNet v1 or v2 (v2: pre-activation)."
)
flags.DEFINE_integer("num_classes", None, "convert: classes of the logits (default: the checkpoint's).", lower_bound=1)
flags.DEFINE_string("out", None, "convert: folder to write the TF2 checkpoint into (empty or new).")
FLAGS = flags.FLAGS

USAGE = "usage: python -m trainlib.checkpoints inspect CKPT | convert CKPT --model resnet --resnet_size N --out DIR"


def _arguments(argv: list) -> tuple:
    """(command, checkpoint) from the arguments left after the flags."""
    rest = argv[1:]
    unknown = [arg for arg in rest if arg.startswith("-")]
    if unknown:
        fail(f"unknown flag {unknown[0]} (--helpfull lists the flags)")
    if len(rest) != 2 or rest[0] not in COMMANDS:
        fail(USAGE)
    return rest[0], rest[1]


@main_guard
def main(argv: list) -> int:
    command, checkpoint = _arguments(argv)
    from trainlib import checkpoints

    if command == "inspect":
        check_checkpoint(checkpoint, "CKPT")  # as describe() would, before it imports TensorFlow
        print(checkpoints.describe(checkpoint))
        return 0
    for name in ("model", "resnet_size", "out"):
        if FLAGS[name].value is None:
            fail(f"convert needs --{name}; {USAGE}")
    if FLAGS.resnet_size not in SIZES:
        fail(f"--resnet_size {FLAGS.resnet_size}: must be one of {SIZES}")
    output_folder("--out", FLAGS.out, empty=True)  # as its help says: an empty or new folder, checked first
    check_checkpoint(checkpoint, "CKPT")
    written = checkpoints.convert_resnet(
        checkpoint, FLAGS.out, FLAGS.resnet_size, FLAGS.num_classes, int(FLAGS.resnet_version)
    )
    print(f"wrote {written}")
    return 0


if __name__ == "__main__":
    flags.run(main)
