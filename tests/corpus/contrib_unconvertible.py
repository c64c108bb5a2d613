"""tf.contrib pieces with no TF2 home uai-migrate could pick: the report names each with a manual step."""
import tensorflow as tf

ids = tf.placeholder(tf.int32, [None, 5])
embedded = tf.contrib.layers.embed_sequence(ids, vocab_size=100, embed_dim=8)
cell = tf.contrib.rnn.LSTMBlockCell(16)
outputs, state = tf.nn.dynamic_rnn(cell, embedded, dtype=tf.float32)
