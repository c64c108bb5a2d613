"""bench/reference.py --check (what `python3 dev.py reference` runs): its judgement of the first losses against
TF 1.15's, its fast subset, and realprograms' `ordered` edits of a built tree. Pure logic: no TensorFlow run."""

import pytest

from tests.support.benchmarks import load_benchmark

realprograms = load_benchmark("realprograms")
reference = load_benchmark("reference")


def _results(first_losses: dict[str, "float | None"]) -> dict:
    """One program's results: {way: its first loss, None for a run that printed none}; the other ways not run."""
    results = {("p", way): {"returncode": "not run", "losses": [], "tail": ""} for way in reference.WAYS}
    for way, loss in first_losses.items():
        trained = loss is not None
        results["p", way] = {"returncode": 0 if trained else 1, "losses": [loss, 0.5] if trained else [], "tail": ""}
    return results


def test_a_way_whose_first_loss_is_off_by_more_than_the_tolerance_fails_and_the_others_pass():
    close = 2.0 * (1 + 0.5e-6)
    results = _results({"tf1.15": 2.0, "tf1.15 again": 2.0, "uai-run 2.21": close, "migrated 2.15": 2.00001})
    lines = reference.first_loss_check(results, ["p"], 1e-6, {})
    assert [line.split(":")[0] for line in lines] == ["FAILED p migrated 2.15"]
    assert reference.first_loss_check(results, ["p"], 1e-5, {})[0].startswith("ok p: the first loss of 3 ways")


def test_a_way_or_the_reference_that_printed_no_loss_fails_and_a_way_not_matched_is_only_reported():
    lines = reference.first_loss_check(_results({"tf1.15": 2.0, "uai-run 2.15": None}), ["p"], 1e-6, {})
    assert lines == ["FAILED p uai-run 2.15: printed no loss (exit 1)"]
    no_reference = _results({"tf1.15": None, "uai-run 2.15": 2.0})
    assert reference.first_loss_check(no_reference, ["p"], 1e-6, {})[0].startswith("FAILED p: tf1.15")
    results = _results({"tf1.15": None, "uai-run 2.15": 9.0, "migrated 2.15": 9.0})
    every_way = {("p", "uai-run 2.15"): "why", ("p", "migrated 2.15"): "why"}
    assert reference.first_loss_check(results, ["p"], 1e-6, every_way) == ["not judged p: why"]
    results = _results({"tf1.15": 2.0, "uai-run 2.15": 2.0, "migrated 2.15": 9.0})
    port = {("p", "migrated 2.15"): "the port"}
    lines = reference.first_loss_check(results, ["p"], 1e-6, port)
    assert lines == [
        "not judged p migrated 2.15: the port",
        "ok p: the first loss of 1 way within 0.0e+00 of 1.15's 2.0",
    ]


def test_tensor2tensor_is_judged_only_with_its_input_ordered_and_then_every_way():
    ways = reference.WAYS[1:]
    name = "t2t_transformer.py"
    as_written = reference.unjudged_ways([name], {name})
    assert set(as_written) == {(name, way) for way in ways}
    # its port is judged too since the tree pass (ebe766a) gave it uai-run's losses
    assert reference.unjudged_ways([name], set()) == {}
    assert reference.unjudged_ways(["session_classifier.py"], set()) == {}


def test_the_fast_subset_and_the_programs_not_matched_are_programs_of_the_bench():
    found = reference.programs()
    names = set(found)
    assert set(reference.QUICK) <= names and set(reference.NOT_MATCHED) <= names
    samples = {name for name, program in found.items() if program.folder == reference.SAMPLES}
    assert len(samples) == 3 and samples <= set(reference.QUICK)


def test_an_ordered_edit_changes_the_trees_copy_and_stops_on_another_release(tmp_path):
    (tmp_path / "lib").mkdir()
    source = tmp_path / "lib" / "problem.py"
    source.write_text("a(sloppy=True)\nb(sloppy=True)\n")
    edit = realprograms.Edit("lib/problem.py", "sloppy=True", "sloppy=False", 2)
    realprograms.apply_edit(edit, str(tmp_path))
    assert source.read_text() == "a(sloppy=False)\nb(sloppy=False)\n"
    with pytest.raises(realprograms.EditFailed, match="occurs 0 times, not 2"):
        realprograms.apply_edit(edit, str(tmp_path))
    (t2t,) = realprograms.PROGRAMS["tensor2tensor"].ordered
    assert (t2t.old, t2t.new) == ("sloppy=True", "sloppy=False")


def test_the_final_metrics_are_the_last_evaluation_and_the_table_compares_them_with_1_15s():
    log = "\n".join(
        [
            "step 2 loss 1.2000 accuracy 0.25",
            "INFO:tensorflow:Saving dict for global step 1: accuracy = 0.5, global_step = 1, loss = 2.0",
            "I1127 10:00:00.000 1 estimator.py:2049] Saving dict for global step 9: loss = 7.0",
            "INFO:tensorflow:Saving dict for global step 3: accuracy = 0.75, global_step = 3, loss = 0.2991951",
            'RESULT {"task": "master", "eval": {"loss": 0.29919490218162537, "global_step": 3}, "predictions": 8}',
        ]
    )
    found = reference.metrics(log)
    assert found == {"accuracy": 0.75, "loss": 0.29919490218162537}
    results = _results({"tf1.15": 2.0, "uai-run 2.21": 2.0, "migrated 2.21": 2.0})
    results["p", "tf1.15"]["metrics"] = found
    results["p", "uai-run 2.21"]["metrics"] = dict(found)
    results["p", "migrated 2.21"]["metrics"] = {"accuracy": 0.5}
    cells = {row.split(" | ")[1]: row.split(" | ")[-1] for row in reference.table(results, ["p"])[2:]}
    assert cells == {
        "tf1.15": "accuracy 0.75, loss 0.299194902 |",
        "uai-run 2.21": "accuracy 0.75 (equal), loss 0.299194902 (equal) |",
        "migrated 2.21": "accuracy 0.5 (3.3e-01 off), loss missing |",
    }
