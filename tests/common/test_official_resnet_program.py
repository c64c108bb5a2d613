"""The TF 1.5-1.8 official/resnet-shaped program (tf1_programs/official_resnet) trains UNMODIFIED under uai-run.

Its multi-GPU mode as that era wrote it: `tf.contrib.estimator.replicate_model_fn` with a
`TowerOptimizer` (compat.replicate here: TF 2 has neither), two towers on two logical CPUs, ImageNet
TFRecords through `parallel_interleave` and `map_and_batch`. A tiny ResNet (size 10, 8 filters, 32x32
images) trains 3 steps from the initial weights real TF 1.15 draws (bit for bit), and evaluates. Its port by uai-migrate is run in tests/tf2/test_tf1_programs_ported.py.
The losses are not compared with the port's, nor with TF 1.15's: the program's training crops
(sample_distorted_bounding_box, random_flip_left_right in the dataset's map function) are drawn with
seed = seed2 = 0 in the graph it writes (unseeded), on real TF 1.15 as here, so its first loss differs run to run
everywhere (measured: 6.946, 6.911, 6.894 on TF 1.15; 6.794, 6.924 under uai-run on TF 2.21; initial
weights equal run to run).
"""

import hashlib
import json
import math
import os
import sys

from tests.support import runs as _runs
from tests.support.uai_run import digests, step_losses

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "tf1_programs", "official_resnet")
# the initial weights real TF 1.15 gives it (sha256 per variable), and its flags: a tiny ResNet over two
# towers on two logical CPUs (tests/common/golden/make_official_resnet_golden.py writes it)
with open(os.path.join(HERE, "golden", "tf115_official_resnet.json")) as _golden:
    GOLDEN = json.load(_golden)
STEPS = 3


def resnet_args(data_dir, model_dir) -> list[str]:
    """imagenet_main's flags for 3 steps of the golden's tiny ResNet."""
    return [*GOLDEN["args"], f"--data_dir={data_dir}", f"--model_dir={model_dir}", f"--max_train_steps={STEPS}"]


def check_trained(result, model_dir) -> dict[int, float]:
    """{step: loss} of a run that trained STEPS steps over two towers from TF 1.15's initial weights and
    evaluated the last checkpoint."""
    import tensorflow as tf

    losses = {step: float(loss) for step, loss in step_losses(result).items()}
    assert len(losses) == STEPS and all(math.isfinite(v) for v in losses.values()), losses
    assert f"'global_step': {STEPS}" in result.stdout or f"global_step = {STEPS}" in result.stderr, result.stdout
    reader = tf.train.load_checkpoint(str(model_dir / "model.ckpt-0"))
    initial = {
        name: hashlib.sha256(reader.get_tensor(name).tobytes()).hexdigest()
        for name in reader.get_variable_to_shape_map()
    }
    assert initial == GOLDEN["initial_weights"], sorted(
        n for n in initial if initial[n] != GOLDEN["initial_weights"].get(n)
    )
    return losses


def test_imagenet_main_trains_with_replicated_towers_under_uai_run(program_data, tmp_path):
    before = digests(PROGRAM)
    command = [sys.executable, "-m", "uai_run", os.path.join(PROGRAM, "imagenet_main.py")]
    result = _runs.run([*command, *resnet_args(program_data, tmp_path / "model")], tmp_path)
    check_trained(result, tmp_path / "model")
    # the second tower ran: its ops are under tower_1 in the graph the Estimator wrote
    assert "tower_1/" in (tmp_path / "model" / "graph.pbtxt").read_text()
    assert digests(PROGRAM) == before
