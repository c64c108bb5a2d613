"""tf.contrib.seq2seq (compat.seq2seq) trains and decodes as TF 1.15's did, with its variables.

tests/common/tf1_programs/nmt_seq2seq.py, a tensorflow/nmt-style TF 1 program (an LSTM encoder, an
AttentionWrapper decoder trained through TrainingHelper, BasicDecoder, dynamic_decode and sequence_loss for
3 Adam steps, then greedy, sampled and beam search decoding), runs unmodified under uai-run; per case (scaled Luong
attention time major, normalised Bahdanau attention batch major with beam search penalties) its variables,
initial weights, losses, sequence_loss's other reductions, greedy and sampled ids, lengths, alignments, attention and
the beams' ids, lengths, scores and log-probabilities must be the ones real TensorFlow 1.15
printed (tests/common/golden/tf115_seq2seq.json), to the 5 decimals it rounds to.
"""

from compat import tf1_names
from tests.support.goldens import NMT_SEQ2SEQ_EXACT as EXACT
from tests.support.goldens import assert_close_to, run_against_tf115


def test_uai_run_trains_and_decodes_an_nmt_style_model_as_tf115_did(tmp_path):
    values, golden = run_against_tf115("nmt_seq2seq.py", "tf115_seq2seq.json", tmp_path)
    assert sorted(golden) == ["normed bahdanau, batch major", "scaled luong, time major"]
    for case, want in golden.items():
        assert_close_to(values[case], want, atol=2e-5, exact=EXACT)


def test_the_names_table_serves_what_compat_seq2seq_exports():
    import ast
    import os

    from tests.support.processes import REPO

    # read, not imported: compat.seq2seq imports TensorFlow
    with open(os.path.join(REPO, "compat", "seq2seq", "__init__.py")) as handle:
        tree = ast.parse(handle.read())
    [exported] = [
        ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign) and n.targets[0].id == "__all__"
    ]
    assert sorted(tf1_names.SEQ2SEQ) == sorted(exported)
