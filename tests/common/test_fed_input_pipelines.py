"""TF 1.x input pipelines fed at run time draw TF 1.15's orders under uai-run and in uai-migrate's port.

tests/common/tf1_programs/fed_input_pipelines.py, a TF 1 program, printed tests/common/golden/tf115_fed_input_pipelines.json
on real TensorFlow 1.15 (`python3 dev.py tf115`). TF 1.15 applied its static optimizations when an initializable
iterator was initialized, a fed count then known: a seeded `shuffle().repeat(count)` was fused (its first epoch
drawn from the seeds, compat/_graph_seed.py), but a count of one dropped, as a constant repeat(1) was (a plain
shuffle's order). Found: a fed `num_epochs` gave TF 2's order from the first element, a constant `repeat(1)` the
fused one.
"""

from tests.support.goldens import port_against_tf115, run_against_tf115

PROGRAM = "fed_input_pipelines.py"  # of tests/common/tf1_programs
GOLDEN = "tf115_fed_input_pipelines.json"


def test_uai_run_reads_fed_pipelines_in_tf115s_order(tmp_path):
    values, golden = run_against_tf115(PROGRAM, GOLDEN, tmp_path)
    assert values == golden


def test_uai_migrates_port_reads_fed_pipelines_in_tf115s_order(tmp_path):
    values, golden = port_against_tf115(PROGRAM, GOLDEN, tmp_path)
    assert values == golden
