"""A TF 1 program logging through tf.logging: messages with %-arguments at four levels, from main, from a helper
it calls and at module level. The environment picks how it runs: UAI_VERBOSITY=INFO calls
tf.logging.set_verbosity(tf.logging.INFO) first; UAI_RUN=app runs main through tf.app.run() (absl's handler then
prints each record's file:line too), otherwise main is called directly; UAI_FORMAT=1 configures a root handler
that prints each record's file:line and function.

logging_messages_runs.py runs it each way; what TF 1.15 printed is tests/common/golden/tf115_logging_messages.json
(written by `python3 dev.py tf115`), which tests/codemods/test_rule_native_io.py compares the ports' output with.
"""

import logging
import os

import tensorflow as tf


def helper(step):
    tf.logging.info("helper step %d of %s", step, "run")
    tf.logging.warning("helper warning %.2f", 0.5)


def main(_):
    tf.logging.info("main info %s", "a")
    tf.logging.debug("main debug %d", 1)
    tf.logging.warning("main warning %r", [1])
    tf.logging.error("main error %s", "e")
    helper(3)
    print("main done")


if __name__ == "__main__":
    if os.environ.get("UAI_FORMAT"):
        logging.basicConfig(format="%(levelname)s %(filename)s:%(lineno)d %(funcName)s] %(message)s")
    if os.environ.get("UAI_VERBOSITY") == "INFO":
        tf.logging.set_verbosity(tf.logging.INFO)
    tf.logging.warning("module level %d", 0)
    if os.environ.get("UAI_RUN") == "app":
        tf.app.run()
    else:
        main(None)
