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

import os
import sys

from tests.support import runs as _runs
from tests.support.official_resnet import PROGRAM, check_trained, resnet_args
from tests.support.uai_run import digests


def test_imagenet_main_trains_with_replicated_towers_under_uai_run(program_data, tmp_path):
    before = digests(PROGRAM)
    command = [sys.executable, "-m", "uai_run", os.path.join(PROGRAM, "imagenet_main.py")]
    result = _runs.run([*command, *resnet_args(program_data, tmp_path / "model")], tmp_path)
    check_trained(result, tmp_path / "model")
    # the second tower ran: its ops are under tower_1 in the graph the Estimator wrote
    assert "tower_1/" in (tmp_path / "model" / "graph.pbtxt").read_text()
    assert digests(PROGRAM) == before
