"""tensor2tensor's trainer on a generated algorithmic problem with a tiny Transformer, as a TF 1.x-era program.

What `t2t_trainer.main` does, through the same `trainer_lib` calls: `create_hparams("transformer_tiny")`,
`create_run_config`, `create_experiment` (an Estimator, t2t_trainer's default) and the experiment's
`train`, on `algorithmic_identity_binary40` whose data `generate_data` writes, for 3 steps with
log_step_count_steps=1. Importing `tensor2tensor.models.transformer` runs `tensor2tensor/models/__init__.py`,
which imports all 50 model families (mesh-tensorflow, RL, video ...), as t2t_trainer does. t2t logs
`loss = X, step = N` through TensorFlow's logger; a handler on it prints each as `REALPROGRAMS-LOSS <step> <loss>`
(bench/realprograms.py reads those lines). tensor2tensor is imported from the folder this script is
in (its package copied next to it).

    python t2t_transformer.py WORKDIR
"""

import logging
import os
import re
import sys

import tensorflow as tf
from tensor2tensor.data_generators import algorithmic
from tensor2tensor.models import transformer  # noqa: F401  (registers the model)
from tensor2tensor.utils import registry, trainer_lib

STEPS = 3
LOSS = re.compile(r"loss = ([-+.\deE]+), step = (\d+)")


class LossLines(logging.Handler):
    def emit(self, record):
        match = LOSS.search(record.getMessage())
        if match:
            print(f"REALPROGRAMS-LOSS {match.group(2)} {float(match.group(1)):.9g}", flush=True)


def main(workdir):
    tf.logging.set_verbosity(tf.logging.INFO)
    logging.getLogger("tensorflow").addHandler(LossLines())
    data_dir, tmp_dir, output_dir = (os.path.join(workdir, name) for name in ("data", "tmp", "out"))
    for folder in (data_dir, tmp_dir):
        tf.gfile.MakeDirs(folder)
    trainer_lib.set_random_seed(1)  # first, as t2t_trainer.main does: the problem generates its data with `random`
    problem = registry.problem("algorithmic_identity_binary40")
    assert isinstance(problem, algorithmic.AlgorithmicProblem)
    problem.generate_data(data_dir, tmp_dir)

    # as t2t_trainer.create_hparams: create_experiment adds data_dir and the problem's hparams itself
    hparams = trainer_lib.create_hparams("transformer_tiny", "batch_size=64,hidden_size=16,filter_size=32,num_heads=2")
    run_config = trainer_lib.create_run_config(
        model_name="transformer",
        model_dir=output_dir,
        save_checkpoints_steps=STEPS,
        keep_checkpoint_max=1,
        log_step_count_steps=1,
        random_seed=1,  # t2t_trainer's --random_seed: the Estimator's graph seed
    )
    experiment = trainer_lib.create_experiment(
        run_config,
        hparams,
        "transformer",
        problem.name,
        data_dir,
        train_steps=STEPS,
        eval_steps=1,
        min_eval_frequency=STEPS,
        schedule="continuous_train_and_eval",  # t2t_trainer's default --schedule
    )
    experiment.train(max_steps=STEPS)


if __name__ == "__main__":
    main(sys.argv[1])
