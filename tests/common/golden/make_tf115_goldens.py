"""Write every golden file of tests/common/golden: what TF 1 programs printed on real TensorFlow 1.15.

    python3 dev.py tf115        # the one command that regenerates them all (nox -s tf115 -- golden)
    python3 dev.py tf115 -- tf115_seq2seq.json    # only the golden files named

Each program in GOLDENS (under tests/common) runs as written in the tf115 environment (TensorFlow 1.15
on Python 3.7) and prints `RESULT <json>`; that value is stored with a header naming this command. The
tests compare uai-run's output, and the ports', on TF 2.15 and 2.21 with these values:
test_tf115_random.py, test_runtime_learn.py, test_graph_editor.py, test_contrib_rnn.py, test_lazy_adam.py, test_weight_decay.py,
test_layer_norm_lstm.py, test_seq2seq.py, tests/codemods/test_native_rnn.py, test_official_resnet_program.py, test_slim_classifier_tf14.py and
test_tf1_signatures.py, test_contrib_training.py, test_tutorials_mnist.py, test_learn_datasets.py, test_tensor_array_op_seeds.py, test_fed_input_pipelines.py, test_tf1_keras.py, test_image_matrix_op_seeds.py, test_regularized_variables.py, test_keras_rnn_variables.py, test_conv_transpose_op_seeds.py, test_softmax_labels.py, test_feature_column_op_seeds.py (and tests/codemods/test_rule_keras_gone.py, test_rule_native_monitored.py, test_native_slim_loops.py,
test_rule_native_io.py, tests/tf2/test_contrib_training_port.py). Runs on Python 3.7:
no project import.
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
COMMAND = "python3 dev.py tf115"
# golden file -> the TF 1 program (relative to tests/common) whose RESULT it holds
GOLDENS = {
    "tf115_random.json": "tf1_programs/seeded_draws.py",
    "tf115_experiment.json": "tf1_programs/experiment_evaluations.py",
    "tf115_graph_walks.json": "tf1_programs/graph_walks.py",
    "tf115_stacked_birnn.json": "tf1_programs/stacked_bidirectional_rnn.py",
    "tf115_lazy_adam.json": "tf1_programs/lazy_adam_steps.py",
    "tf115_weight_decay.json": "tf1_programs/weight_decay_steps.py",
    "tf115_layer_norm_lstm.json": "tf1_programs/layer_norm_lstm.py",
    "tf115_seq2seq.json": "tf1_programs/nmt_seq2seq.py",
    "tf115_official_resnet.json": "tf1_programs/official_resnet_initial_weights.py",
    "tf115_slim_classifier.json": "tf1_programs/slim_classifier_initial_weights.py",
    "tf115_data_path_op_seeds.json": "tf1_programs/data_path_op_seeds.py",
    "tf115_signatures.json": "tf1_programs/tf1_signatures.py",
    "tf115_keras_names.json": "tf1_programs/keras_names.py",
    "tf115_feature_column_seeds.json": "tf1_programs/feature_column_op_seeds.py",
    "tf115_contrib_losses.json": "tf1_programs/contrib_losses_positional.py",
    "tf115_contrib_aliases.json": "tf1_programs/contrib_aliases.py",
    "tf115_call_keywords.json": "tf1_programs/tf1_call_keywords.py",
    "tf115_monitored_training.json": "tf1_programs/monitored_training_restarts.py",
    "tf115_basic_lstm_layout.json": "tf1_programs/basic_lstm_layout.py",
    "tf115_slim_learning_train.json": "tf1_programs/slim_learning_train_restarts.py",
    "tf115_logging_messages.json": "tf1_programs/logging_messages_runs.py",
    "tf115_contrib_training.json": "tf1_programs/contrib_training_steps.py",
    "tf115_dense_to_one_hot.json": "tf1_programs/mnist_dense_to_one_hot.py",
    "tf115_learn_datasets_csv.json": "tf1_programs/learn_datasets_csv.py",
    "tf115_keras_optimizers.json": "tf1_programs/keras_optimizers_fit.py",
    "tf115_keras_metric_names.json": "tf1_programs/keras_metric_names.py",
    "tf115_keras_fit_generator.json": "tf1_programs/keras_fit_generator.py",
    "tf115_keras_predict_classes.json": "tf1_programs/keras_predict_classes.py",
    "tf115_softmax_labels.json": "tf1_programs/softmax_labels_gradient.py",
    "tf115_keras_named_metrics.json": "tf1_programs/keras_named_metrics.py",
    "tf115_keras_custom_optimizer.json": "tf1_programs/keras_custom_optimizer.py",
    "tf115_tensor_array_seeds.json": "tf1_programs/tensor_array_op_seeds.py",
    "tf115_fed_input_pipelines.json": "tf1_programs/fed_input_pipelines.py",
    "tf115_image_matrix_seeds.json": "tf1_programs/image_matrix_op_seeds.py",
    "tf115_regularized_variables.json": "tf1_programs/regularized_variables.py",
    "tf115_keras_rnn_variables.json": "tf1_programs/keras_rnn_variables.py",
    "tf115_conv_transpose_seeds.json": "tf1_programs/conv_transpose_op_seeds.py",
}


def write_golden(golden, program, version):
    """Run `program` on this TensorFlow 1.15 and store its RESULT in `golden`."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2")
    out = subprocess.run(
        [sys.executable, os.path.join(TESTS, program)], stdout=subprocess.PIPE, env=env, check=True, text=True
    ).stdout
    result = json.loads(next(line for line in out.splitlines() if line.startswith("RESULT "))[len("RESULT ") :])
    document = {
        "_header": f"Written by tests/common/golden/{os.path.basename(__file__)} on real TensorFlow {version} (Python {sys.version.split()[0]}); regenerate with `{COMMAND}`; "
        "never edit by hand.",
        "program": "tests/common/" + program,
        "tensorflow": version,
        "values": result,
    }
    with open(os.path.join(HERE, golden), "w") as f:
        json.dump(document, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote tests/common/golden/{golden} ({len(result)} cases)")


def _arguments():
    """The golden files asked for, all of them when none is named (checked before TensorFlow is imported)."""
    parser = argparse.ArgumentParser(
        description=f"Run TF 1 programs on TensorFlow 1.15 and store what they print ({COMMAND} -- [GOLDEN ...]).",
        epilog="golden files: " + ", ".join(sorted(GOLDENS)),
    )
    parser.add_argument("golden", nargs="*", help="golden files to write (default: all)")
    chosen = parser.parse_args().golden or sorted(GOLDENS)
    unknown = sorted(set(chosen) - set(GOLDENS))
    if unknown:
        parser.error(f"no golden file {', '.join(unknown)} (see --help for the known ones)")
    return chosen


def main():
    chosen = _arguments()
    import tensorflow as tf

    if not tf.__version__.startswith("1.15."):
        sys.exit(f"{os.path.basename(__file__)}: needs TensorFlow 1.15 (the tf115 env), found {tf.__version__}")
    for golden in chosen:
        write_golden(golden, GOLDENS[golden], tf.__version__)


if __name__ == "__main__":
    main()
