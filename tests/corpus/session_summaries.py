"""TensorBoard summaries the TF1 way: tf.summary.scalar/histogram, merge_all, FileWriter."""
import tensorflow as tf

tf.app.flags.DEFINE_string("log_dir", "/tmp/summaries", "")
FLAGS = tf.app.flags.FLAGS


def main(_):
    step = tf.train.get_or_create_global_step()
    value = tf.random_uniform([10])
    tf.summary.scalar("mean", tf.reduce_mean(value))
    tf.summary.histogram("values", value)
    merged = tf.summary.merge_all()
    increment = tf.assign_add(step, 1)
    writer = tf.summary.FileWriter(FLAGS.log_dir)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            summary, current = sess.run([merged, increment])
            writer.add_summary(summary, current)
    writer.close()
    print("wrote summaries to", FLAGS.log_dir)


if __name__ == "__main__":
    tf.app.run()
