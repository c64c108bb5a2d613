"""stable-baselines' PPO2 on gym's CartPole, written as a TF 1.x-era program.

`PPO2("MlpPolicy", "CartPole-v1")` with a one-layer policy of 16 units, `n_steps=16`, one
minibatch and one epoch per update, seed 0 and one TensorFlow thread, for 3 updates (48 timesteps).
After each gradient step (PPO2's `_train_step`, wrapped in a subclass) it prints the policy-gradient
loss plus the value loss as `REALPROGRAMS-LOSS <step> <loss>` (bench/realprograms.py reads those
lines). stable_baselines is imported from the folder this script is in (its package copied next to
it).

    python stable_baselines_ppo2.py WORKDIR
"""

import sys

import tensorflow as tf
from stable_baselines import PPO2

UPDATES = 3
N_STEPS = 16


class PrintingPPO2(PPO2):
    steps = 0

    def _train_step(self, *args, **kwargs):
        results = super()._train_step(*args, **kwargs)
        policy_loss, value_loss = results[0], results[1]
        PrintingPPO2.steps += 1
        print(f"REALPROGRAMS-LOSS {PrintingPPO2.steps} {float(policy_loss + value_loss):.9g}", flush=True)
        return results


def main(workdir):
    tf.logging.set_verbosity(tf.logging.ERROR)
    model = PrintingPPO2(
        "MlpPolicy",
        "CartPole-v1",
        n_steps=N_STEPS,
        nminibatches=1,
        noptepochs=1,
        learning_rate=1e-3,
        policy_kwargs={"net_arch": [16]},
        seed=0,
        n_cpu_tf_sess=1,
        verbose=0,
    )
    model.learn(total_timesteps=UPDATES * N_STEPS)


if __name__ == "__main__":
    main(sys.argv[1])
