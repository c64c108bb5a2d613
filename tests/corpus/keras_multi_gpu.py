"""TF 1.x Keras' multi-GPU recipe: multi_gpu_model where the machine has GPUs. TF 2's Keras dropped it; the report
names its replacement (tf.distribute.MirroredStrategy)."""
import tensorflow as tf
from tensorflow.keras.utils import multi_gpu_model

tf.set_random_seed(1)
model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])
gpus = len(tf.config.experimental.list_physical_devices("GPU"))
if gpus > 1:
    model = multi_gpu_model(model, gpus=gpus)
model.compile(optimizer="sgd", loss="mse")
