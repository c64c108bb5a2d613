"""Restore-free evaluation with slim.metrics in a Session."""
import tensorflow as tf

slim = tf.contrib.slim


def main():
    predictions = tf.constant([1, 0, 1, 1])
    labels = tf.constant([1, 0, 0, 1])
    accuracy, update = slim.metrics.streaming_accuracy(predictions, labels)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        sess.run(update)
        print("accuracy", sess.run(accuracy))


if __name__ == "__main__":
    main()
