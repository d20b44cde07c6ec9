#!/usr/bin/env python3
"""Writes a tiny, random-weight llama-architecture model as a GGUF v3 file (F32 tensors).

The endpoint test tier needs a real OpenAI-compatible server (llama-server) and no registry ships
model weights, so the tests make their own model: 2 layers, 64-wide embeddings, a 312-token
SentencePiece-style vocabulary with byte fallback, a minimal chat template. About 0.5 MB, written
in well under a second, byte-identical for the same seed. Its output is gibberish; the serving
protocol around it is real.

Usage: make-tiny-gguf.py OUT.gguf [--seed N] [--embed N --layers N --feed-forward N]

The size options make a slower model for the real-engine tier (scripts/aiperf-test-env.sh): a request
there must cost the server more time per token than AIPerf's Python client spends on it, or the run is
client bound (agent-docs/rules/benchmarking/client-bound.md). Past the default size the weights are one
block of 65,536 seeded Gaussian values repeated (writing hundreds of MB value by value takes minutes);
the default model is unchanged, byte for byte.
"""
import argparse
import array
import os
import random
import struct
import sys
import tempfile

GGUF_MAGIC = b"GGUF"
GGUF_VERSION = 3
ALIGNMENT = 32

# GGUF metadata value types (gguf spec)
T_INT32, T_UINT32, T_FLOAT32, T_STRING, T_ARRAY = 5, 4, 6, 8, 9
# tensor element type
GGML_TYPE_F32 = 0
# token types (llama.cpp vocab)
TOKEN_NORMAL, TOKEN_UNKNOWN, TOKEN_CONTROL, TOKEN_BYTE = 1, 2, 3, 6

EMBED, LAYERS, FEED_FORWARD, HEADS, CONTEXT = 64, 2, 128, 4, 2048
DEFAULT_EMBED = EMBED
UNK_ID, BOS_ID, EOS_ID = 0, 1, 2

WORDS = ("the a of to and in is it you that he was for on are with as I his they be at one "
         "have this from").split()

CHAT_TEMPLATE = ("{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}\n{% endfor %}"
                 "{% if add_generation_prompt %}<|assistant|>{% endif %}")


def gguf_string(text):
    raw = text.encode("utf-8")
    return struct.pack("<Q", len(raw)) + raw


class Metadata:
    """Key/value pairs of the GGUF header, in insertion order."""

    def __init__(self):
        self.entries = []

    def _add(self, key, value_type, payload):
        self.entries.append(gguf_string(key) + struct.pack("<I", value_type) + payload)

    def string(self, key, value):
        self._add(key, T_STRING, gguf_string(value))

    def uint32(self, key, value):
        self._add(key, T_UINT32, struct.pack("<I", value))

    def float32(self, key, value):
        self._add(key, T_FLOAT32, struct.pack("<f", value))

    def strings(self, key, values):
        self._add(key, T_ARRAY, struct.pack("<IQ", T_STRING, len(values))
                  + b"".join(gguf_string(v) for v in values))

    def float32s(self, key, values):
        self._add(key, T_ARRAY, struct.pack("<IQ", T_FLOAT32, len(values))
                  + struct.pack("<%df" % len(values), *values))

    def int32s(self, key, values):
        self._add(key, T_ARRAY, struct.pack("<IQ", T_INT32, len(values))
                  + struct.pack("<%di" % len(values), *values))

    def encoded(self):
        return b"".join(self.entries)


def vocabulary():
    """Control tokens, 256 byte-fallback tokens, then a few word pieces (SentencePiece style)."""
    tokens = [("<unk>", 0.0, TOKEN_UNKNOWN), ("<s>", 0.0, TOKEN_CONTROL), ("</s>", 0.0, TOKEN_CONTROL)]
    tokens += [("<0x%02X>" % b, 0.0, TOKEN_BYTE) for b in range(256)]
    pieces = ["\u2581"] + [chr(c) for c in range(ord("a"), ord("z") + 1)] + ["\u2581" + w for w in WORDS]
    tokens += [(piece, -float(rank), TOKEN_NORMAL) for rank, piece in enumerate(pieces)]
    return tokens


def tensor_shapes(vocab_size):
    """(name, dims in GGUF order, init) for every tensor; init None means all ones (norms)."""
    shapes = [("token_embd.weight", [EMBED, vocab_size], "gauss"),
              ("output_norm.weight", [EMBED], None),
              ("output.weight", [EMBED, vocab_size], "gauss")]
    for layer in range(LAYERS):
        prefix = "blk.%d." % layer
        shapes += [(prefix + "attn_norm.weight", [EMBED], None),
                   (prefix + "attn_q.weight", [EMBED, EMBED], "gauss"),
                   (prefix + "attn_k.weight", [EMBED, EMBED], "gauss"),
                   (prefix + "attn_v.weight", [EMBED, EMBED], "gauss"),
                   (prefix + "attn_output.weight", [EMBED, EMBED], "gauss"),
                   (prefix + "ffn_norm.weight", [EMBED], None),
                   (prefix + "ffn_gate.weight", [EMBED, FEED_FORWARD], "gauss"),
                   (prefix + "ffn_up.weight", [EMBED, FEED_FORWARD], "gauss"),
                   (prefix + "ffn_down.weight", [FEED_FORWARD, EMBED], "gauss")]
    return shapes


# past this many values a tensor repeats one seeded block (see the module doc)
TILE = 65536


def tensor_values(name, dims, init, rng):
    count = 1
    for d in dims:
        count *= d
    if init is None:
        values = array.array("f", [1.0]) * count
    elif count > TILE and EMBED != DEFAULT_EMBED:
        block = array.array("f", (rng.gauss(0.0, 0.02) for _ in range(TILE)))
        values = block * (count // TILE) + block[: count % TILE]
    else:
        values = array.array("f", (rng.gauss(0.0, 0.02) for _ in range(count)))
    if name == "output.weight":
        # The end-of-sequence row of the output projection is zero: its logit is always 0 while
        # the others scatter around 0, so an untrained model rarely ends a reply at once and the
        # smoke test (which requires non-empty content) sees text.
        for i in range(EOS_ID * EMBED, (EOS_ID + 1) * EMBED):
            values[i] = 0.0
    return values


def padding(length):
    return b"\0" * ((-length) % ALIGNMENT)


def build(seed):
    rng = random.Random(seed)
    tokens = vocabulary()
    meta = Metadata()
    meta.string("general.architecture", "llama")
    meta.string("general.name", "benchplan-tiny-test-model")
    meta.uint32("general.alignment", ALIGNMENT)
    meta.uint32("llama.context_length", CONTEXT)
    meta.uint32("llama.embedding_length", EMBED)
    meta.uint32("llama.block_count", LAYERS)
    meta.uint32("llama.feed_forward_length", FEED_FORWARD)
    meta.uint32("llama.attention.head_count", HEADS)
    meta.uint32("llama.attention.head_count_kv", HEADS)
    meta.uint32("llama.rope.dimension_count", EMBED // HEADS)
    meta.uint32("llama.vocab_size", len(tokens))
    meta.float32("llama.attention.layer_norm_rms_epsilon", 1e-5)
    meta.string("tokenizer.ggml.model", "llama")
    meta.strings("tokenizer.ggml.tokens", [t[0] for t in tokens])
    meta.float32s("tokenizer.ggml.scores", [t[1] for t in tokens])
    meta.int32s("tokenizer.ggml.token_type", [t[2] for t in tokens])
    meta.uint32("tokenizer.ggml.bos_token_id", BOS_ID)
    meta.uint32("tokenizer.ggml.eos_token_id", EOS_ID)
    meta.uint32("tokenizer.ggml.unknown_token_id", UNK_ID)
    meta.string("tokenizer.chat_template", CHAT_TEMPLATE)

    infos, blobs, offset = [], [], 0
    shapes = tensor_shapes(len(tokens))
    for name, dims, init in shapes:
        data = tensor_values(name, dims, init, rng).tobytes()
        data += padding(len(data))
        infos.append(gguf_string(name) + struct.pack("<I", len(dims))
                     + b"".join(struct.pack("<Q", d) for d in dims)
                     + struct.pack("<IQ", GGML_TYPE_F32, offset))
        blobs.append(data)
        offset += len(data)

    header = (GGUF_MAGIC + struct.pack("<IQQ", GGUF_VERSION, len(shapes), len(meta.entries))
              + meta.encoded() + b"".join(infos))
    header += padding(len(header))
    return header + b"".join(blobs), len(tokens), len(shapes)


def main(argv):
    global EMBED, LAYERS, FEED_FORWARD
    parser = argparse.ArgumentParser(description="Write a tiny random-weight llama GGUF model.")
    parser.add_argument("out", help="the .gguf file to write (replaced atomically)")
    parser.add_argument("--seed", type=int, default=20250520, help="random seed (default: %(default)s)")
    parser.add_argument("--embed", type=int, default=EMBED, help="embedding width (default: %(default)s)")
    parser.add_argument("--layers", type=int, default=LAYERS, help="blocks (default: %(default)s)")
    parser.add_argument("--feed-forward", type=int, default=FEED_FORWARD,
                        help="feed-forward width (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.embed % HEADS or args.embed < HEADS or args.layers < 1 or args.feed_forward < 1:
        parser.error("--embed must be a positive multiple of %d; --layers and --feed-forward positive" % HEADS)
    EMBED, LAYERS, FEED_FORWARD = args.embed, args.layers, args.feed_forward
    content, vocab_size, tensor_count = build(args.seed)
    target = os.path.abspath(args.out)
    folder = os.path.dirname(target)
    os.makedirs(folder, exist_ok=True)
    # write to a temporary sibling and rename: a running server never sees half a model
    fd, tmp = tempfile.mkstemp(prefix=".tiny-gguf-", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(content)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    print("%s: vocab %d, tensors %d, %d bytes" % (args.out, vocab_size, tensor_count, len(content)),
          file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
