"""Reading TFRecords with queue runners (string_input_producer, TFRecordReader, shuffle_batch)."""
import os

import tensorflow as tf

tf.app.flags.DEFINE_string("data_dir", "/data/data", "")
FLAGS = tf.app.flags.FLAGS


def main(_):
    files = tf.gfile.Glob(os.path.join(FLAGS.data_dir, "train-*"))
    queue = tf.train.string_input_producer(files)
    _, raw = tf.TFRecordReader().read(queue)
    features = tf.parse_single_example(raw, {"image/class/label": tf.FixedLenFeature([], tf.int64),
                                             "image/encoded": tf.FixedLenFeature([], tf.string)})
    image = tf.image.resize_images(tf.image.decode_jpeg(features["image/encoded"], channels=3), [32, 32])
    images, labels = tf.train.shuffle_batch([image, features["image/class/label"]], batch_size=4, capacity=32,
                                            min_after_dequeue=8)
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        for step in range(3):
            print("batch", step, sess.run(labels))
        coord.request_stop()
        coord.join(threads)


if __name__ == "__main__":
    tf.app.run()
