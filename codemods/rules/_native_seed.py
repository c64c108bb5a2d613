"""The seed statement of a native port whose Keras layers make their variables.

TF1's layers drew their initial values from op seeds derived from the graph seed, so a program that set it
repeated itself. Keras (2 and 3) draws an unseeded initializer's seed from Python's `random` module, which
`tf.random.set_seed` leaves alone: such a port started elsewhere at every run. `tf.keras.utils.set_random_seed`
seeds Python's, NumPy's and TensorFlow's generators; reseeding the first two would move a stream the program
seeded itself, so a module seeding one (`random.seed`, `np.random.seed`) keeps `tf.random.set_seed`.
"""

from __future__ import annotations

import libcst as cst
import libcst.matchers as m

# the seed functions of Python's and NumPy's global generators (`random.seed`, `np.random.seed`, `numpy.random.seed`)
_GLOBAL_SEED = m.Call(
    func=m.Attribute(attr=m.Name("seed"), value=m.Name("random") | m.Attribute(attr=m.Name("random")))
)


def seeds_global_generators(module: cst.Module) -> bool:
    """Whether the module seeds Python's or NumPy's global generator, which Keras' seed function would reseed."""
    return bool(m.findall(module, _GLOBAL_SEED))


def seed_statement(alias: str, args: str, module: cst.Module) -> str:
    """The statement setting a native port's seed `args`, where TF1's program called `tf.set_random_seed(args)`."""
    if seeds_global_generators(module):
        return f"{alias}.random.set_seed({args})\n"
    return f"{alias}.keras.utils.set_random_seed({args})\n"
