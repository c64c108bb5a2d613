"""modern_tf2.imagenet_main as real multi-process clusters (uai_launch, 127.0.0.1) from a `master`-dialect TF_CONFIG."""

import os

import pytest

from tests.support.programs import Job, checkpoint_index, imagenet_args, losses


def only_chief_wrote(job, out):
    """The chief's checkpoints and summaries are in `out`; the workers' scratch saves were removed."""
    assert checkpoint_index(out) == ["ckpt-10", "ckpt-20"]
    assert len([name for name in os.listdir(out) if name.startswith("events.out")]) == 1
    assert os.listdir(job.tmp) == []


@pytest.mark.slow
def test_multi_worker_mirrored_chief_and_worker(program_data, tmp_path):
    out = tmp_path / "run"
    with Job(tmp_path, imagenet_args(program_data, out, 20), chief=1, workers=1, dialect="master") as job:
        status = job.cluster.wait(timeout=240)
    assert status == 0, job.text()[-3000:]
    for task in ("chief:0", "worker:0"):
        assert "strategy multi_worker_mirrored (CollectiveAllReduceStrategy, 2 replica(s) in sync)" in job.text(task)
    assert sorted(losses(job.text("chief:0"))) == [5, 10, 15, 20]
    assert "exported" not in job.text("worker:0") and losses(job.text("worker:0")) == {}
    assert (out / "export" / "20" / "saved_model.pb").exists()
    only_chief_wrote(job, out)


# The parameter-server cluster runs here with its evaluator (the chief dialect: `master` cannot express one): the
# coordinator's tasks train as they would without it. test_faults_modern.py runs master-dialect PS clusters to
# their end (its first test checks the strategy line there); a PS cluster of its own here cost 23.5 s of CPU (ci30).
@pytest.mark.slow
def test_parameter_server_chief_trains_alone_writes_and_an_evaluator_evaluates_its_checkpoints_and_ends(
    program_data, tmp_path
):
    """The chief coordinates, the worker and the ps only serve; an evaluator only evaluates, each checkpoint up to the last."""
    out = tmp_path / "run"
    layout = dict(chief=1, workers=1, ps=1, evaluator=True, dialect="chief")
    with Job(tmp_path, imagenet_args(program_data, out, 20), **layout) as job:
        assert job.cluster.wait(timeout=240, grace=1) == 0, job.text()[-3000:]  # ps and worker serve until stopped
        job.wait_for(r"eval step 20 top_1_accuracy [0-9.]+ top_5_accuracy [0-9.]+ images \d+", task="evaluator:0")
        assert job.cluster.tasks[job.task("evaluator:0")].wait(timeout=60) == 0, job.text("evaluator:0")[-3000:]
    assert "strategy parameter_server (ParameterServerStrategyV2, 1 replica(s) in sync)" in job.text("chief:0")
    assert sorted(losses(job.text("chief:0"))) == [5, 10, 15, 20] and "done at step 20" in job.text("chief:0")
    for task in ("worker:0", "ps:0"):  # they only serve
        assert "strategy" not in job.text(task) and losses(job.text(task)) == {}
    only_chief_wrote(job, out)
    evaluator = job.text("evaluator:0")
    assert "strategy" not in evaluator and losses(evaluator) == {}  # it never trains
    assert (out / "eval").is_dir() and "exported" not in evaluator
