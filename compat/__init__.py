"""uai-compat runtime: TF1-era training code (platform SDK, Estimator, tf-slim) on TF 2.15 and TF 2.21.

Importing `compat` prepares the process before TensorFlow loads: on TF >= 2.16 it selects
legacy Keras (tf-keras) so `tf.compat.v1.layers` and tf-slim work. Everything that differs
between TensorFlow versions lives in this package; nothing else in the project tests the
TF version.

Public modules: `compat.flags` (uflag / tf.app.flags), `compat.dist` (uai_dist),
`compat.tf_config` (TF_CONFIG dialects), `compat.errors`.
"""

from compat import _keras_setup

_keras_setup.prefer_legacy_keras()
