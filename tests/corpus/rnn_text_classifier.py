"""A TF 1.x text classifier as tutorials wrote it: a tf.contrib.lookup vocabulary, tf.contrib.rnn cells,
static shapes read as Dimension values, 0.x summary names."""
import numpy as np
import tensorflow as tf
from tensorflow.contrib import rnn
from tensorflow.contrib.lookup import HashTable, KeyValueTensorInitializer

VOCAB = ["<unk>", "good", "bad", "movie", "great", "awful"]
SENTENCES = [["good", "movie", "great"], ["bad", "movie", "awful"], ["great", "good", "movie"], ["awful", "bad", "bad"]]
LABELS = [1, 0, 1, 0]

tf.set_random_seed(1)
table = HashTable(KeyValueTensorInitializer(tf.constant(VOCAB), tf.constant(list(range(len(VOCAB))), tf.int64)), 0)
words = tf.placeholder(tf.string, [None, 3])
labels = tf.placeholder(tf.int64, [None])
ids = table.lookup(words)
embeddings = tf.get_variable("embeddings", [len(VOCAB), 8])
inputs = tf.nn.embedding_lookup(embeddings, ids)
steps = inputs.get_shape()[1].value

cells = rnn.MultiRNNCell([tf.contrib.rnn.DropoutWrapper(tf.contrib.rnn.BasicLSTMCell(16), output_keep_prob=1.0)])
outputs, _ = tf.nn.dynamic_rnn(cells, inputs, dtype=tf.float32)
last = tf.unpack(outputs, axis=1)[steps - 1]
logits = tf.layers.dense(last, 2)
loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
tf.scalar_summary("loss", loss)
summaries = tf.merge_all_summaries()
train = tf.train.AdamOptimizer(0.05).minimize(loss)

with tf.Session() as sess:
    sess.run([tf.initialize_all_variables(), tf.tables_initializer()])
    feed = {words: np.array(SENTENCES), labels: np.array(LABELS)}
    first = sess.run(loss, feed)
    for _ in range(30):
        sess.run([train, summaries], feed)
    print("steps", steps, "learned", sess.run(loss, feed) < first)
