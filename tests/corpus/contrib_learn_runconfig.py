"""tf.contrib.learn.RunConfig with the master TF_CONFIG, as the oldest platform examples had it."""
import tensorflow as tf

config = tf.contrib.learn.RunConfig(model_dir="/tmp/learn", save_checkpoints_steps=100)
print("master", config.master, "ps", config.num_ps_replicas, "chief", config.is_chief)
