"""tflearn's `DNN.fit` on generated data, written as a TF 1.x program.

A two-layer `tflearn.fully_connected` classifier with `tflearn.regression` (SGD, categorical
cross-entropy), one epoch of 4 batches of 8. A tflearn callback prints, after each step, the
cross-entropy of `DNN.predict` on the whole generated set as `REALPROGRAMS-LOSS <step> <loss>`
(bench/realprograms.py reads those lines). Not tflearn's own `training_state.loss_value`: it reads a
loss summary fetched in the same `session.run` as the train op without an order between them, so
it is the loss before or after the step (or 0 at the first step) from one run to the next. tflearn is imported
from the folder this script is in (its package copied next to it).

    python tflearn_dnn.py WORKDIR
"""

import sys

import numpy as np
import tensorflow as tf
import tflearn

FEATURES = 6
CLASSES = 3
EXAMPLES = 32


class LossPrinter(tflearn.callbacks.Callback):
    def __init__(self, x, y):
        self.x, self.y = x, y
        self.model = None

    def on_batch_end(self, training_state, snapshot=False):
        p = np.asarray(self.model.predict(self.x), dtype=np.float64)
        loss = -np.mean(np.sum(self.y * np.log(np.clip(p, 1e-7, 1.0)), axis=1))
        print(f"REALPROGRAMS-LOSS {training_state.step} {loss:.9g}", flush=True)


def data():
    rng = np.random.RandomState(0)
    x = rng.uniform(-1, 1, (EXAMPLES, FEATURES)).astype(np.float32)
    y = np.eye(CLASSES, dtype=np.float32)[np.argmax(x[:, :CLASSES], axis=1)]
    return x, y


def main(workdir):
    x, y = data()
    with tf.Graph().as_default():
        tflearn.init_graph(seed=1, num_cores=1)
        net = tflearn.input_data(shape=[None, FEATURES])
        net = tflearn.fully_connected(
            net, 16, activation="relu", weights_init=tflearn.initializations.truncated_normal(stddev=0.3, seed=2)
        )
        net = tflearn.fully_connected(
            net,
            CLASSES,
            activation="softmax",
            weights_init=tflearn.initializations.truncated_normal(stddev=0.3, seed=3),
        )
        net = tflearn.regression(net, optimizer="sgd", learning_rate=0.5, loss="categorical_crossentropy")
        model = tflearn.DNN(net, tensorboard_verbose=0, tensorboard_dir=workdir)
        printer = LossPrinter(x, y)
        printer.model = model
        model.fit(x, y, n_epoch=1, batch_size=8, shuffle=False, show_metric=True, callbacks=[printer])
        print("predicted classes", np.argmax(model.predict(x[:4]), axis=1).tolist())


if __name__ == "__main__":
    main(sys.argv[1])
