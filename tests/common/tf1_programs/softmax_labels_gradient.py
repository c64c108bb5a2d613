"""A TF 1 program training a student on a teacher's soft labels with tf.nn.softmax_cross_entropy_with_logits: TF 1's
function stops the gradient at the labels (the teacher, a trainable variable too, does not move); TF 2's function
of that name sends gradients into the labels as well (TF 1's _v2), so there the teacher trains with the student.

Prints `RESULT <json>`: the losses of five steps, the teacher's weights at the end, and a dropout mask drawn after
the loss (its op seed counts the ops built before it: TF 1's function builds a StopGradient op). The weights and
data are constants; a graph seed. Its output on real TensorFlow 1.15 is tests/common/golden/tf115_softmax_labels.json
(written by `python3 dev.py tf115`: tests/common/golden/make_tf115_goldens.py).
"""

import json

import numpy as np
import tensorflow as tf

FEATURES = np.linspace(-1.0, 1.0, 6 * 3).reshape(6, 3).astype(np.float32)


def main():
    tf.set_random_seed(3)
    teacher = tf.Variable(np.linspace(-1.0, 1.0, 3 * 4).reshape(3, 4).astype(np.float32), name="teacher")
    student = tf.Variable(np.zeros((3, 4), np.float32), name="student")
    labels = tf.nn.softmax(tf.matmul(FEATURES, teacher))
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=tf.matmul(FEATURES, student)))
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss)
    mask = tf.nn.dropout(tf.ones([8]), keep_prob=0.5)
    with tf.Session() as session:
        session.run(tf.global_variables_initializer())
        losses = [float(session.run([train, loss])[1]) for _ in range(5)]
        result = {
            "losses": losses,
            "teacher": session.run(teacher).ravel().tolist(),
            "mask": session.run(mask).tolist(),
        }
    print("RESULT " + json.dumps(result))


if __name__ == "__main__":
    main()
