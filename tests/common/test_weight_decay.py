"""tf.contrib.opt's AdamW, MomentumW and extend_with_decoupled_weight_decay (compat.weight_decay) train as
TF 1.15's did: the variable (only its gradient's rows when sparse) decays before the base optimizer's update.

tests/common/tf1_programs/weight_decay_steps.py, a TF 1 program, runs unmodified under uai-run; its losses,
embedding and dense weight after three steps, in each case, must be the ones real TensorFlow 1.15 printed
(tests/common/golden/tf115_weight_decay.json), to the 6 decimals it rounds to.
"""

from tests.support.goldens import assert_close_to, run_against_tf115


def test_uai_run_decays_weights_as_tf115_did(tmp_path):
    values, golden = run_against_tf115("weight_decay_steps.py", "tf115_weight_decay.json", tmp_path)
    for case, want in golden.items():
        # the row no batch looked up kept its initial value: a sparse gradient decays only its rows
        assert values[case]["table"][0] == want["table"][0] == [-1.0, -0.913043, -0.826087], case
        assert_close_to(values[case], want, atol=2e-6, exact=("variables",))
