"""The official/resnet-shaped TF 1 program's test helpers (tests/common/tf1_programs/official_resnet): its flags
for a tiny run and the checks every way of running it shares."""

import hashlib
import math
import os

from tests.support.goldens import tf115_values
from tests.support.processes import REPO
from tests.support.uai_run import step_losses

HERE = os.path.join(REPO, "tests", "common")
PROGRAM = os.path.join(HERE, "tf1_programs", "official_resnet")
# the initial weights real TF 1.15 gives it (sha256 per variable), and its flags: a tiny ResNet over two
# towers on two logical CPUs (`python3 dev.py tf115` writes it: tests/common/golden/make_tf115_goldens.py)
GOLDEN = tf115_values("tf115_official_resnet.json")
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
