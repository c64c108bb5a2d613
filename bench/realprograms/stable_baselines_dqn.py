"""stable-baselines' DQN on gym's CartPole, written as a TF 1.x-era program.

`DQN("MlpPolicy", "CartPole-v1")` (double Q, a target network, uniform replay) with one hidden layer of
16 units, training from the 16th step on every step with batches of 8, seed 0 and one TensorFlow
thread, for 24 timesteps: 8 gradient steps. stable-baselines' DQN builds its train function in
`setup_model` (deepq's `build_train`, a `tf_util.function` over the graph); the subclass wraps it to
print the mean squared TD error of each batch as `REALPROGRAMS-LOSS <step> <loss>`
(bench/realprograms.py reads those lines). stable_baselines is imported from the folder this script
is in (its package copied next to it).

    python stable_baselines_dqn.py WORKDIR
"""

import sys

import numpy as np
import tensorflow as tf
from stable_baselines import DQN

TIMESTEPS = 24
LEARNING_STARTS = 16


class PrintingDQN(DQN):
    steps = 0

    def setup_model(self):
        super().setup_model()
        train_step = self._train_step

        def printing(*args, **kwargs):
            results = train_step(*args, **kwargs)
            PrintingDQN.steps += 1
            td_errors = results[-1]
            print(f"REALPROGRAMS-LOSS {PrintingDQN.steps} {float(np.mean(np.square(td_errors))):.9g}", flush=True)
            return results

        self._train_step = printing


def main(workdir):
    tf.logging.set_verbosity(tf.logging.ERROR)
    model = PrintingDQN(
        "MlpPolicy",
        "CartPole-v1",
        learning_rate=1e-3,
        buffer_size=100,
        learning_starts=LEARNING_STARTS,
        batch_size=8,
        train_freq=1,
        target_network_update_freq=4,
        policy_kwargs={"layers": [16]},
        seed=0,
        n_cpu_tf_sess=1,
        verbose=0,
    )
    model.learn(total_timesteps=TIMESTEPS)


if __name__ == "__main__":
    main(sys.argv[1])
