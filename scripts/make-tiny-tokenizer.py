#!/usr/bin/env python3
"""Writes a Hugging Face tokenizer directory (tokenizer.json, tokenizer_config.json) for a
SentencePiece-style GGUF model, read from the model file itself: the tokenizer AIPerf loads then
counts tokens with exactly the vocabulary llama-server serves (scripts/make-tiny-gguf.py's tiny
model in the real-engine test tier). Offline; needs the `tokenizers` package (the AIPerf chroot
has it, the host need not).

The model's pieces become a byte-fallback BPE, as Hugging Face's SentencePiece converter does it:
a merge for every pair of pieces whose concatenation is a piece, ranked by that piece's score.

Usage: make-tiny-tokenizer.py MODEL.gguf OUT_DIR
"""
import json
import os
import struct
import sys

# GGUF metadata value types (gguf spec): fixed-size scalars by struct format, plus string and array
SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
T_STRING, T_ARRAY = 8, 9
TOKEN_NORMAL, TOKEN_UNKNOWN, TOKEN_CONTROL, TOKEN_BYTE = 1, 2, 3, 6


class Reader:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def take(self, fmt):
        (value,) = struct.unpack_from("<" + fmt, self.data, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return value

    def string(self):
        n = self.take("Q")
        raw = self.data[self.pos:self.pos + n]
        self.pos += n
        return raw.decode("utf-8")

    def value(self, kind):
        if kind in SCALARS:
            return self.take(SCALARS[kind])
        if kind == T_STRING:
            return self.string()
        if kind == T_ARRAY:
            inner, n = self.take("I"), self.take("Q")
            return [self.value(inner) for _ in range(n)]
        raise ValueError("unknown GGUF value type %d at byte %d" % (kind, self.pos))


def metadata(path):
    with open(path, "rb") as f:
        r = Reader(f.read())
    if r.data[:4] != b"GGUF":
        raise SystemExit("%s: not a GGUF file" % path)
    r.pos = 4
    version, _tensors, count = r.take("I"), r.take("Q"), r.take("Q")
    if version < 2:
        raise SystemExit("%s: GGUF version %d is not supported" % (path, version))
    meta = {}
    for _ in range(count):
        key = r.string()
        meta[key] = r.value(r.take("I"))
    return meta


def main(argv):
    if len(argv) != 2:
        raise SystemExit("usage: make-tiny-tokenizer.py MODEL.gguf OUT_DIR")
    from tokenizers import Tokenizer, decoders, normalizers
    from tokenizers.models import BPE

    model, out = argv
    meta = metadata(model)
    if meta.get("tokenizer.ggml.model") != "llama":
        raise SystemExit("%s: tokenizer.ggml.model is %r; only SentencePiece-style ('llama') is "
                         "supported" % (model, meta.get("tokenizer.ggml.model")))
    tokens = meta["tokenizer.ggml.tokens"]
    scores = meta["tokenizer.ggml.scores"]
    types = meta["tokenizer.ggml.token_type"]
    vocab = {t: i for i, t in enumerate(tokens)}
    special = [t for t, k in zip(tokens, types) if k in (TOKEN_UNKNOWN, TOKEN_CONTROL)]
    score = {t: s for t, s, k in zip(tokens, scores, types) if k == TOKEN_NORMAL}
    pieces = list(score)
    merges = sorted(((a, b) for a in pieces for b in pieces if a + b in score),
                    key=lambda ab: (-score[ab[0] + ab[1]], vocab[ab[0]], vocab[ab[1]]))
    unk = tokens[meta.get("tokenizer.ggml.unknown_token_id", 0)]
    bos = tokens[meta["tokenizer.ggml.bos_token_id"]]
    eos = tokens[meta["tokenizer.ggml.eos_token_id"]]

    tok = Tokenizer(BPE(vocab=vocab, merges=merges, unk_token=unk, byte_fallback=True,
                        fuse_unk=True))
    tok.normalizer = normalizers.Sequence([normalizers.Prepend("\u2581"),
                                           normalizers.Replace(" ", "\u2581")])
    tok.decoder = decoders.Sequence([decoders.Replace("\u2581", " "), decoders.ByteFallback(),
                                     decoders.Fuse(), decoders.Strip(" ", 1, 0)])
    tok.add_special_tokens(special)
    os.makedirs(out, exist_ok=True)
    tok.save(os.path.join(out, "tokenizer.json"))
    config = {"tokenizer_class": "PreTrainedTokenizerFast", "bos_token": bos, "eos_token": eos,
              "unk_token": unk, "add_bos_token": False,
              "model_max_length": int(meta.get("llama.context_length", 2048))}
    if "tokenizer.chat_template" in meta:
        config["chat_template"] = meta["tokenizer.chat_template"]
    with open(os.path.join(out, "tokenizer_config.json"), "w", encoding="utf-8") as f:
        json.dump(config, f, indent=1)
        f.write("\n")
    print("%s: vocab %d, merges %d (from %s)" % (out, len(vocab), len(merges), model),
          file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
