"""tf.device with a device function (variables on the CPU, ops wherever), as multi-GPU code did."""
import tensorflow as tf


def assign_to_cpu(op):
    if op.type in ("Variable", "VariableV2", "VarHandleOp"):
        return "/cpu:0"
    return "/cpu:0"


def main():
    with tf.device(assign_to_cpu):
        w = tf.Variable(tf.ones([2, 2]))
        out = tf.matmul(w, w)
    with tf.device("/cpu:0"):
        total = tf.reduce_sum(out)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        print("total", sess.run(total), w.device)


if __name__ == "__main__":
    main()
