"""GPflow 1.x's `gpflow.train.AdamOptimizer.minimize` on a Gaussian-process regression, written as a TF 1.x program.

A `gpflow.models.GPR` (an RBF + Linear kernel, a Gaussian likelihood, float64) on 20 generated
points, its hyperparameters fitted by GPflow's own Adam loop (`minimize(model, maxiter=5)`: GPflow
builds the model's graph, its Session, the transformed parameters and the optimizer). Its
`step_callback` prints, after each step, the model's objective (the negative log marginal
likelihood) as `REALPROGRAMS-LOSS <step> <loss>` (bench/realprograms.py reads those lines). No
random op: the losses are the same on every run. gpflow is imported from the folder this script
is in (its package copied next to it).

    python gpflow_gpr.py WORKDIR
"""

import sys

import gpflow
import numpy as np
import tensorflow as tf

POINTS = 20
STEPS = 5


def data():
    rng = np.random.RandomState(0)
    x = rng.uniform(-3.0, 3.0, (POINTS, 1))
    y = np.sin(x) + 0.5 * x + 0.1 * rng.randn(POINTS, 1)
    return x, y


def main(workdir):
    x, y = data()
    gpflow.reset_default_graph_and_session()
    tf.set_random_seed(1)
    kernel = gpflow.kernels.RBF(1, lengthscales=1.0) + gpflow.kernels.Linear(1)
    model = gpflow.models.GPR(x, y, kern=kernel)
    model.likelihood.variance = 0.1
    session = model.enquire_session()

    def report(step):
        print(f"REALPROGRAMS-LOSS {step} {session.run(model.objective):.9g}", flush=True)

    gpflow.train.AdamOptimizer(0.05).minimize(model, maxiter=STEPS, step_callback=report)
    with open(f"{workdir}/parameters.txt", "w") as handle:
        # not model.as_pandas_table(): it calls DataFrame.append, which pandas 2 removed
        for name, value in sorted(model.read_values().items()):
            handle.write(f"{name} {value!r}\n")
    print("log marginal likelihood", model.compute_log_likelihood())


if __name__ == "__main__":
    main(sys.argv[1])
