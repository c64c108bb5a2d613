"""native-session's entry for tf-slim's training and evaluation loops (`slim.learning.train`,
`slim.evaluation.evaluation_loop` / `evaluate_once`): a Supervisor runs them, which the rule does not convert, so a
script driven by one stays at the safe level with an entry saying why (`reason`).

What the loop does that an eager loop would have to prove (learning.train on TF 1.15, three runs into one train_dir:
tests/common/golden/tf115_slim_learning_train.json, which tests/codemods/test_native_slim_loops.py checks the port
against): it restores the directory's latest checkpoint by TF1's names, the optimizer's slots and Adam's beta powers
included (`Conv/weights/Adam`, `beta1_power`), which the slots of the Keras optimizer the rule writes (`m/Conv/weights`,
its `iteration`) do not load by: from a TF1 train_dir they would start at zero (measured on TF 2.21's tf-keras) unless
compat.tf1_slots maps them, as the rule's other restores do; it runs
one step before it checks the global step, so a restart with number_of_steps=3 trains step 4 and one with 5 trains
step 5 alone; it returns the total loss of its last step; its saver thread saves as it starts, named by the global step
it read then (`model.ckpt-0`, a restart's `model.ckpt-3` again, which held step 4's state in every run measured: the
first step ran before the save), and the loop saves at its end. The corpus script's model (slim.conv2d under arg_scope,
get_total_loss, create_train_op) is not converted by the rule either."""

from __future__ import annotations

SLIM_HOMES = ("tensorflow.contrib.slim.", "tf_slim.", "compat.slim.")
REASONS = {
    "learning.train": (
        "tf-slim's learning.train: no eager loop the rule writes is proven to do what its Supervisor does: restore "
        "train_dir's latest checkpoint by TF1's names (Adam's slots too, which compat.tf1_slots maps), run a step "
        "before it checks the global step (TF 1.15: a restart with number_of_steps 3 trains step 4), return that "
        "step's total loss, and save from a timer thread as it starts under the step it read (a restart rewrote "
        "model.ckpt-3 with step 4's state); nor does the rule convert create_train_op"
    ),
    "evaluation.evaluation_loop": (
        "tf-slim's evaluation_loop: it waits for each new checkpoint of a directory and evaluates it under a "
        "Supervisor, which the rule does not convert"
    ),
    "evaluation.evaluate_once": (
        "tf-slim's evaluate_once: it restores a checkpoint and runs the update ops under a Supervisor, which the "
        "rule does not convert"
    ),
}


def reason(names: frozenset[str]) -> str | None:
    """Why a call of one of `names` (its qualified names) keeps its script at the safe level, else None."""
    for name in sorted(names):
        for home in SLIM_HOMES:
            if name.startswith(home) and name[len(home) :] in REASONS:
                return REASONS[name[len(home) :]]
    return None
