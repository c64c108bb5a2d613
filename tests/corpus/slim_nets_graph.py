"""Build a slim zoo net in a graph and count its parameters (`slim = tf.contrib.slim` form)."""
import tensorflow as tf
from tensorflow.contrib.slim.nets import resnet_v1

slim = tf.contrib.slim

images = tf.placeholder(tf.float32, [None, 32, 32, 3])
with slim.arg_scope(resnet_v1.resnet_arg_scope()):
    logits, end_points = resnet_v1.resnet_v1_50(images, num_classes=10, is_training=False)
count = sum(int(v.shape.num_elements()) for v in slim.get_model_variables())
print("resnet_v1_50 parameters", count)
