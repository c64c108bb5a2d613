"""The platform flags (the defaults of compat/flags/_platform.py), defined through TF 1.15's tf.app.flags."""

import tensorflow as tf

for _name, _default in (("work_dir", "/data"), ("data_dir", "/data/data"), ("output_dir", "/data/output")):
    tf.app.flags.DEFINE_string(_name, _default, "platform flag")
if "log_dir" not in tf.app.flags.FLAGS:  # absl's logging defines it already
    tf.app.flags.DEFINE_string("log_dir", "/data/output", "platform flag")
tf.app.flags.DEFINE_integer("num_gpus", 0, "platform flag")
tf.app.flags.DEFINE_integer("max_step", 0, "platform flag")
FLAGS = tf.app.flags.FLAGS
