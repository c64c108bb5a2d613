"""What the tests share, and only that: no test module imports another test module.

- `processes`: running the project's commands and Python programs in the environment under test, and
  reading their output (one-line errors, TensorFlow's own log noise).
- `sources`: small TF1 sources and trees of files for uai-migrate's tests, and snapshots of trees.
- `runs`: many commands at once (threads over subprocesses).
- `rule_test`: libcst's CodemodTest for one rule through the engine.
- `programs`: generated data and command lines for the training programs.
- `clusters`: local clusters of a command (uai-launch's LocalCluster) run to the end.
- `uai_run`: the samples and the corpus under uai-run, and their losses.
- `tf14`: the TF 1.4 contrib.data program both tools are tested on.
- `benchmarks`: the bench/ scripts loaded as modules (realworld, realprograms).
"""
