"""tf.contrib.learn.RunConfig with the master TF_CONFIG, as the oldest platform examples had it."""
import tensorflow as tf

config = tf.contrib.learn.RunConfig(model_dir="/tmp/learn")
print(config.master, config.num_ps_replicas)
