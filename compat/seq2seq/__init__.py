"""`tf.contrib.seq2seq` for TF 1 graph-mode programs (tensorflow/nmt's training, greedy and beam search inference), on
TF 2's ops: TF 2 has no home for it (TensorFlow Addons' tfa.seq2seq is Keras-layer based, with other
arguments and variable names, and is not maintained).

Written here from TF 1.15's behaviour: the same variables under the same scopes (`decoder/memory_layer/kernel`,
`decoder/<wrapper>/attention_layer/kernel`, `.../luong_attention/attention_g`, ...), shapes, time-major
handling and values, so TF 1 checkpoints restore and a seeded program trains as it did on TF 1.15
(tests/common/test_seq2seq.py compares an nmt-style program with real TF 1.15's values).

- `sequence_loss` (loss.py);
- `Helper`, `TrainingHelper`, `GreedyEmbeddingHelper`, `SampleEmbeddingHelper` (helpers.py);
- `Decoder`, `BasicDecoder`, `BasicDecoderOutput`, `dynamic_decode` (decoding.py);
- `AttentionMechanism`, `LuongAttention`, `BahdanauAttention`, `AttentionWrapper`, `AttentionWrapperState`,
  `hardmax`, `tile_batch` (attention.py);
- `BeamSearchDecoder`, its `BeamSearchDecoderOutput`, `BeamSearchDecoderState`, `FinalBeamSearchDecoderOutput`,
  and `gather_tree` (beam_search.py).
The rest of tf.contrib.seq2seq (the scheduled, custom and inference helpers, monotonic attention, the Keras
V2 classes) is not provided: uai-run and uai-migrate stop at those names in one line.
"""

from compat.seq2seq.attention import (
    AttentionMechanism,
    AttentionWrapper,
    AttentionWrapperState,
    BahdanauAttention,
    LuongAttention,
    hardmax,
    tile_batch,
)
from compat.seq2seq.beam_search import (
    BeamSearchDecoder,
    BeamSearchDecoderOutput,
    BeamSearchDecoderState,
    FinalBeamSearchDecoderOutput,
    gather_tree,
)
from compat.seq2seq.decoding import BasicDecoder, BasicDecoderOutput, Decoder, dynamic_decode
from compat.seq2seq.helpers import GreedyEmbeddingHelper, Helper, SampleEmbeddingHelper, TrainingHelper
from compat.seq2seq.loss import sequence_loss

__all__ = [
    "AttentionMechanism",
    "AttentionWrapper",
    "AttentionWrapperState",
    "BahdanauAttention",
    "BasicDecoder",
    "BasicDecoderOutput",
    "BeamSearchDecoder",
    "BeamSearchDecoderOutput",
    "BeamSearchDecoderState",
    "Decoder",
    "FinalBeamSearchDecoderOutput",
    "GreedyEmbeddingHelper",
    "Helper",
    "LuongAttention",
    "SampleEmbeddingHelper",
    "TrainingHelper",
    "dynamic_decode",
    "gather_tree",
    "hardmax",
    "sequence_loss",
    "tile_batch",
]
