"""Already in tf.compat.v1 form (what tf_upgrade_v2 or a person produced): must run unchanged."""
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

x = tf.placeholder(tf.float32, [None])
doubled = x * 2
with tf.Session() as sess:
    print("doubled", sess.run(doubled, {x: [1.0, 2.0]}))
