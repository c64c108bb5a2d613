"""The official/resnet-shaped TF 1.x program and the TF 2.0-era MultiWorkerMirroredStrategy Estimator program,
after `uai-migrate --out`, train with plain python (tests/common/tf1_programs).

The ResNet's port keeps its two replicate_model_fn towers (compat.replicate), starts from TF 1.15's
initial weights and evaluates. The Estimator program trains alone (MirroredStrategy) and in its cluster:
uai-launch starts a chief and a worker, the program's own TF_CONFIG code turns the worker into the
evaluator, MultiWorkerMirroredStrategy trains on the chief and the evaluator evaluates its checkpoints.
It is TF 2.0 code (`tf.keras.losses.Reduction`), which TF 1.15 and uai-run's TF1 face (TF 1.15's API)
reject (uai-run stops in one line naming `--auto`: tests/common/test_uai_run.py), and on TF 2.21 plain python
has no `tf.estimator`: `uai-run --auto` trains it alone, in graph mode as the port does, with the port's losses
(bench/fixtures.py runs both ways in its cluster on both TFs).
"""

import os
import sys

import pytest

from tests.support import runs as _runs
from tests.support.clusters import run_cluster
from tests.support.official_resnet import PROGRAM, check_trained, resnet_args
from tests.support.processes import result_json
from tests.support.programs import write_cifar10_records
from tests.support.uai_run import step_losses

ESTIMATOR_PROGRAM = os.path.join(os.path.dirname(PROGRAM), "estimator_multiworker_tf20.py")


@pytest.fixture(scope="module")
def ported(tmp_path_factory):
    out = tmp_path_factory.mktemp("ported")
    for source, target in ((PROGRAM, out / "official_resnet"), (ESTIMATOR_PROGRAM, out / "estimator")):
        result = _runs.migrate("--out", target, source, cwd=out)
        assert result.returncode in (0, 1), result.stderr[-3000:]  # 1: entries at error level (device_lib)
    return out


@pytest.fixture(scope="module")
def cifar_records(tmp_path_factory):
    return write_cifar10_records(tmp_path_factory.mktemp("cifar"))


def test_ported_imagenet_main_trains_with_replicated_towers(ported, program_data, tmp_path):
    port = ported / "official_resnet" / "imagenet_main.py"
    assert "compat_replicate.replicate_model_fn" in (ported / "official_resnet" / "resnet_run_loop.py").read_text()
    result = _runs.run([sys.executable, str(port), *resnet_args(program_data, tmp_path / "model")], tmp_path)
    check_trained(result, tmp_path / "model")


def _estimator_command(ported, records, model_dir):
    port = ported / "estimator" / "estimator_multiworker_tf20.py"
    return [sys.executable, str(port), *_estimator_args(records, model_dir)]


def _estimator_args(records, model_dir):
    return [f"--data_dir={records}", f"--model_dir={model_dir}", "--train_steps=3"]


def test_ported_estimator_program_and_the_program_under_uai_run_auto_train_alone(ported, cifar_records, tmp_path):
    port = _estimator_command(ported, cifar_records, tmp_path / "port")
    # the program itself is TF 2 code: --auto runs it without the TF1 face, with compat's tf.estimator, and in
    # TF1's graph mode (ref variables, control flow v1), as the port turns it on: an Estimator with
    # MultiWorkerMirroredStrategy. So the two ways print the same losses
    auto = [
        sys.executable,
        "-m",
        "uai_run",
        "--auto",
        ESTIMATOR_PROGRAM,
        *_estimator_args(cifar_records, tmp_path / "auto"),
    ]
    results = _runs.run_all({"port": port, "auto": auto}, tmp_path)
    for result in results.values():
        assert len(step_losses(result)) == 3, result.stderr[-3000:]
        assert result_json(result.stdout) == {"task": "chief", "global_step": 3}
    assert step_losses(results["auto"]) == step_losses(results["port"])


@pytest.mark.slow
def test_ported_estimator_program_as_chief_and_the_evaluator_it_makes_of_its_worker(ported, cifar_records, tmp_path):
    command = _estimator_command(ported, cifar_records, tmp_path / "model")
    status, logs = run_cluster(tmp_path, command=command, timeout=150, chief=1, workers=1, dialect="chief")
    assert status == 0, {task: log[-2500:] for task, log in logs.items()}
    assert result_json(logs["chief:0"]) == {"task": "chief", "global_step": 3}
    # the evaluator (uai-launch's worker:0) evaluated the chief's checkpoints, the last one included
    assert "Saving dict for global step 3" in logs["worker:0"], logs["worker:0"][-3000:]
