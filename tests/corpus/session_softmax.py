"""Softmax regression with placeholders and feed_dict (the MNIST-for-beginners shape), synthetic data."""
import numpy as np
import tensorflow as tf

x = tf.placeholder(tf.float32, [None, 20])
y_ = tf.placeholder(tf.float32, [None, 5])
W = tf.Variable(tf.zeros([20, 5]))
b = tf.Variable(tf.zeros([5]))
y = tf.nn.softmax(tf.matmul(x, W) + b)
cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y), reduction_indices=[1]))
train_step = tf.train.GradientDescentOptimizer(0.5).minimize(cross_entropy)

sess = tf.InteractiveSession()
tf.global_variables_initializer().run()
rng = np.random.RandomState(0)
for step in range(3):
    labels = np.eye(5)[rng.randint(0, 5, 32)]
    _, loss = sess.run([train_step, cross_entropy], feed_dict={x: rng.rand(32, 20), y_: labels})
    print("step", step, "loss", loss)
