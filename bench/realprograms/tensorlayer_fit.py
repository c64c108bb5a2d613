"""tensorlayer's `tl.utils.fit` on generated data, written as a TF 1.x program.

A `tl.layers` MLP (`InputLayer`, `DropoutLayer`, two `DenseLayer`s) with `tl.cost.cross_entropy`,
trained by `tl.utils.fit` in a Session with an SGD train op: 4 calls of one epoch each, 4 batches of
8 shuffled by tensorlayer's `tl.iterate.minibatches` (NumPy's global seed), the dropout fed on by
fit and off for the evaluation. After each epoch the driver prints the cross-entropy of the whole
generated set, dropout off (`tl.utils.dict_to_one`), as `REALPROGRAMS-LOSS <epoch> <loss>`
(bench/realprograms.py reads those lines): fit itself logs only a mean over the epoch's batches.
tensorlayer is imported from the folder this script is in (its package copied next to it).

    python tensorlayer_fit.py WORKDIR
"""

import sys

import numpy as np
import tensorflow as tf
import tensorlayer as tl

FEATURES = 6
CLASSES = 3
EXAMPLES = 32
EPOCHS = 4


def data():
    rng = np.random.RandomState(0)
    x = rng.uniform(-1, 1, (EXAMPLES, FEATURES)).astype(np.float32)
    y = np.argmax(x[:, :CLASSES], axis=1).astype(np.int64)
    return x, y


def main(workdir):
    x_train, y_train = data()
    np.random.seed(4)  # tl.iterate.minibatches shuffles with NumPy's global generator
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        x = tf.placeholder(tf.float32, [None, FEATURES], name="x")
        y_ = tf.placeholder(tf.int64, [None], name="y_")
        net = tl.layers.InputLayer(x, name="input")
        net = tl.layers.DropoutLayer(net, keep=0.8, seed=5, name="drop")
        net = tl.layers.DenseLayer(
            net, n_units=16, act=tf.nn.relu, W_init=tf.truncated_normal_initializer(stddev=0.3, seed=2), name="hidden"
        )
        net = tl.layers.DenseLayer(
            net, n_units=CLASSES, W_init=tf.truncated_normal_initializer(stddev=0.3, seed=3), name="output"
        )
        cost = tl.cost.cross_entropy(net.outputs, y_, name="cost")
        correct = tf.equal(tf.argmax(net.outputs, 1), y_)
        acc = tf.reduce_mean(tf.cast(correct, tf.float32))
        train_op = tf.train.GradientDescentOptimizer(0.5).minimize(cost, var_list=net.all_params)
        with tf.Session() as sess:
            tl.layers.initialize_global_variables(sess)
            for epoch in range(1, EPOCHS + 1):
                tl.utils.fit(
                    sess, net, train_op, cost, x_train, y_train, x, y_, acc=acc, batch_size=8, n_epoch=1, print_freq=1
                )
                feed = {x: x_train, y_: y_train}
                feed.update(tl.utils.dict_to_one(net.all_drop))
                print(f"REALPROGRAMS-LOSS {epoch} {sess.run(cost, feed_dict=feed):.9g}", flush=True)
            # not tl.files.save_npz: it hands np.savez a ragged list, which NumPy >= 1.24 refuses
            tl.files.save_npz_dict(net.all_params, name=f"{workdir}/model.npz", sess=sess)


if __name__ == "__main__":
    main(sys.argv[1])
