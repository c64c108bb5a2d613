"""A flag-heavy TF1 training script (the slim train_image_classifier flag set, abridged)."""
import tensorflow as tf

tf.app.flags.DEFINE_string("master", "", "")
tf.app.flags.DEFINE_string("train_dir", "/tmp/tfmodel/", "")
tf.app.flags.DEFINE_integer("num_clones", 1, "")
tf.app.flags.DEFINE_boolean("clone_on_cpu", False, "")
tf.app.flags.DEFINE_integer("worker_replicas", 1, "")
tf.app.flags.DEFINE_integer("num_ps_tasks", 0, "")
tf.app.flags.DEFINE_integer("num_readers", 4, "")
tf.app.flags.DEFINE_integer("log_every_n_steps", 10, "")
tf.app.flags.DEFINE_float("weight_decay", 0.00004, "")
tf.app.flags.DEFINE_enum("optimizer", "rmsprop", ["adadelta", "adagrad", "adam", "ftrl", "momentum", "sgd", "rmsprop"], "")
tf.app.flags.DEFINE_float("learning_rate", 0.01, "")
tf.app.flags.DEFINE_string("learning_rate_decay_type", "exponential", "")
tf.app.flags.DEFINE_float("label_smoothing", 0.0, "")
tf.app.flags.DEFINE_bool("sync_replicas", False, "")
tf.app.flags.DEFINE_string("dataset_name", "imagenet", "")
tf.app.flags.DEFINE_string("model_name", "inception_v3", "")
tf.app.flags.DEFINE_integer("batch_size", 32, "")
tf.app.flags.DEFINE_integer("max_number_of_steps", None, "")
tf.app.flags.DEFINE_list("trainable_scopes", [], "")
tf.app.flags.DEFINE_multi_string("checkpoint_exclude_scopes", [], "")
FLAGS = tf.app.flags.FLAGS


def _optimizer(rate):
    if FLAGS.optimizer == "momentum":
        return tf.train.MomentumOptimizer(rate, 0.9)
    if FLAGS.optimizer == "rmsprop":
        return tf.train.RMSPropOptimizer(rate, decay=0.9)
    return tf.train.GradientDescentOptimizer(rate)


def main(_):
    if not FLAGS.dataset_name:
        raise ValueError("You must supply the dataset directory with --dataset_dir")
    optimizer = _optimizer(FLAGS.learning_rate)
    print(FLAGS.model_name, FLAGS.optimizer, type(optimizer).__name__, FLAGS.trainable_scopes, FLAGS.max_number_of_steps)


if __name__ == "__main__":
    tf.app.run()
