"""native-session's entry for tf-slim's training and evaluation loops (`slim.learning.train`,
`slim.evaluation.evaluation_loop` / `evaluate_once`): a Supervisor runs them, which the rule does not convert, so a
script driven by one stays at the safe level with an entry saying why (`reason`).

What the loop does that an eager loop would have to prove (learning.train, checked on TF 1.15 with the corpus'
slim_learning_train run twice into one train_dir): it restores the directory's latest checkpoint by TF1's names
(the optimizer's slots, `Conv/weights/Adam`, included), so a second run continues from global step 3; it runs
one step before it checks the global step, so that second run trains step 4 of number_of_steps=3; its saver and
summary threads write `model.ckpt-0` and events on timers as it starts; it returns the total loss of its last
run."""

from __future__ import annotations

SLIM_HOMES = ("tensorflow.contrib.slim.", "tf_slim.", "compat.slim.")
REASONS = {
    "learning.train": (
        "tf-slim's learning.train: its Supervisor restores train_dir's latest checkpoint by TF1's names (the "
        "optimizer's slots too), runs a step before it checks the global step (TF 1.15: a second run trains step "
        "4 of 3) and saves checkpoints and summaries from timer threads (model.ckpt-0 as it starts), which no eager "
        "loop the rule writes is proven to do"
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
