"""The code the training programs share: models, input pipelines, flags and tables, checkpoint mapping.

`legacy_tf1` (Estimator, graph mode) and `modern_tf2` (`tf.distribute`) build the same models from the
same data with the same flags, so those live here once:
  trainlib.models       the Keras `ResNet` and the tf-slim zoo by `model_name` (LeNet included)
  trainlib.data         ImageNet and slim-layout TFRecord readers, the synthetic-data generator, towers' batches
  trainlib.training     the ResNet and slim flags, `ResNetConfig`, the slim optimizer/decay table, schedules
  trainlib.checkpoints  TF1 checkpoints read into the TF 2 models (`python -m trainlib.checkpoints`)
It sits on the runtime shims (`compat`) and below the programs; no shim imports it
(tests/common/test_layering.py).
"""

# The shims first, as for every program: legacy Keras on TF >= 2.16 and tf.estimator must be chosen
# before any module here imports TensorFlow.
import compat  # noqa: F401
