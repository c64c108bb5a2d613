"""Write tests/common/golden/tf115_official_resnet.json: the initial weights real TF 1.15 gives the
official/resnet-shaped program (tests/common/tf1_programs/official_resnet) with two replicate_model_fn towers.

    .nox/tf2/bin/python -m trainlib.data.synth --out DATA --images 16 --size 40 --train-shards 2 --validation-shards 1
    .nox/tf115/bin/python tests/common/golden/make_official_resnet_golden.py DATA

The program trains 1 step on TF 1.15; the golden holds the sha256 of each variable of its step-0 checkpoint
(the initial weights: drawn from the graph seed by op count, whatever the data). Its training losses
cannot be golden: its crops are drawn unseeded, on TF 1.15 too. Runs on Python 3.7: no project import.
"""

import hashlib
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(os.path.dirname(HERE), "tf1_programs", "official_resnet", "imagenet_main.py")
GOLDEN = os.path.join(HERE, "tf115_official_resnet.json")
# a tiny ResNet over two towers on two logical CPUs (the test adds --data_dir, --model_dir, --max_train_steps)
ARGS = [
    "--resnet_size=10",
    "--image_size=32",
    "--num_filters=8",
    "--batch_size=8",
    "--multi_gpu",
    "--tower_device=CPU",
    "--num_cpu_devices=2",
    "--seed=1",
    "--log_every_n_steps=1",
    "--data_format=channels_last",
]


def digests(checkpoint):
    """{variable: sha256 of its values' bytes} of a checkpoint."""
    import tensorflow as tf

    reader = tf.train.load_checkpoint(checkpoint)
    return {
        name: hashlib.sha256(reader.get_tensor(name).tobytes()).hexdigest()
        for name in sorted(reader.get_variable_to_shape_map())
    }


def main(data_dir):
    import tensorflow as tf

    if not tf.__version__.startswith("1.15."):
        sys.exit("needs TensorFlow 1.15 (the tf115 env), found " + tf.__version__)
    model_dir = tempfile.mkdtemp()
    extra = ["--data_dir=" + data_dir, "--model_dir=" + model_dir, "--max_train_steps=1"]
    subprocess.run([sys.executable, PROGRAM] + ARGS + extra, check=True)
    document = {
        "_header": "Written by tests/common/golden/make_official_resnet_golden.py on real TensorFlow "
        + tf.__version__
        + "; never edit by hand.",
        "args": ARGS,
        "initial_weights": digests(os.path.join(model_dir, "model.ckpt-0")),
    }
    with open(GOLDEN, "w") as f:
        json.dump(document, f, indent=1, sort_keys=True)
        f.write("\n")
    print("wrote " + GOLDEN)


if __name__ == "__main__":
    main(sys.argv[1])
