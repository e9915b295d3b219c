"""Decoder fuzzing, shared by the test suite (a few thousand examples) and the benchmark
(100,000 or more): valid frames, mutated (bits flipped, bytes replaced, inserted, deleted,
duplicated, cut), fed in random chunks to the host's decoder and the firmware's.

The properties: neither decoder raises; every frame accepted has a body and a checksum
that really occur, and really match, in the bytes fed (so no frame whose checksum fails is
ever accepted); and the two decoders return the same items.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from hypothesis import strategies as st

from firmware_bridge.framing import Decoder, Frame, Rejected, crc16, encode, encode_body
from firmware_bridge.wire import MAX_SEQ, MsgType

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware_bridge" / "firmware" / "trayproto.py"


def _firmware():
    spec = importlib.util.spec_from_file_location("fuzz_trayproto", FIRMWARE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


trayproto = _firmware()

_KEY_HEAD = "abcdefghijklmnopqrstuvwxyz"
_KEY_TAIL = _KEY_HEAD + "0123456789_"
_VALUE = "".join(chr(c) for c in range(0x21, 0x7F) if chr(c) not in "$*")
_TYPES = [t.value for t in MsgType]
_SPECIAL = (b"$", b"*", b"\n", b"\r", b" ", b"=")


def random_frame(rng: random.Random) -> Frame:
    if rng.random() < 0.8:
        type_ = rng.choice(_TYPES)
    else:
        type_ = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(rng.randint(1, 12)))
    fields = {}
    for _ in range(rng.randint(0, 4)):
        key = rng.choice(_KEY_HEAD) + "".join(rng.choice(_KEY_TAIL) for _ in range(rng.randint(0, 6)))
        fields[key] = "".join(rng.choice(_VALUE) for _ in range(rng.randint(1, 24)))
    seq = rng.choice((0, 1, MAX_SEQ, rng.randint(0, 999), rng.randint(0, MAX_SEQ)))
    return Frame(type_, seq, tuple(fields.items()))


def mutate(rng: random.Random, data: bytearray, count: int) -> bytearray:
    """Flip bits, replace, insert, delete or duplicate bytes, or drop in a framing character."""
    for _ in range(count):
        if not data:
            break
        op = rng.randrange(6)
        i = rng.randrange(len(data))
        if op == 0:
            data[i] ^= 1 << rng.randrange(8)
        elif op == 1:
            data[i] = rng.randrange(256)
        elif op == 2:
            data[i:i] = rng.randbytes(rng.randint(1, 8))
        elif op == 3:
            del data[i:i + rng.randint(1, 8)]
        elif op == 4:
            j = rng.randint(i, len(data))
            data[j:j] = data[i:j]
        else:
            data[i:i] = rng.choice(_SPECIAL)
    return data


def stream_of(seed: int, frames: int, mutations: int, cuts: int) -> tuple[bytes, list[int]]:
    """A reproducible mutated stream and where to cut it into chunks."""
    rng = random.Random(seed)
    data = bytearray(b"".join(encode(random_frame(rng)) for _ in range(frames)))
    stream = bytes(mutate(rng, data, mutations))
    return stream, sorted(rng.randint(0, len(stream)) for _ in range(cuts))


# Hypothesis draws only the seed and the sizes (cheap enough for 100,000 examples); the
# stream itself comes from a seeded generator, so a failure prints what reproduces it.
mutated_streams = st.builds(stream_of, st.integers(0, 2**63), st.integers(1, 4), st.integers(0, 6),
                            st.integers(0, 4))


def chunks_of(stream: bytes, cuts: list[int]) -> list[bytes]:
    bounds = [0, *cuts, len(stream)]
    return [stream[a:b] for a, b in zip(bounds, bounds[1:])]


def firmware_items(chunks: list[bytes]) -> list:
    decoder = trayproto.Decoder()
    out = []
    for chunk in chunks:
        for item in decoder.feed(chunk):
            out.append(("reject", item[1]) if item[0] == "reject" else
                       ("frame", Frame(item[1], item[2], tuple(tuple(p) for p in item[3]))))
    return out


def host_items(chunks: list[bytes]) -> list:
    decoder = Decoder()
    out = []
    for chunk in chunks:
        for item in decoder.feed(chunk):
            out.append(("reject", item.reason.value) if isinstance(item, Rejected) else ("frame", item))
    return out


def check(stream: bytes, cuts: list[int]) -> int:
    """Assert the properties for one mutated stream; returns how many frames were accepted."""
    chunks = chunks_of(stream, cuts)
    host = host_items(chunks)
    accepted = 0
    folded = stream.upper()  # checksum digits may arrive in either case
    for kind, item in host:
        if kind != "frame":
            continue
        accepted += 1
        body = encode_body(item)
        wire = b"$" + body + b"*" + b"%04X" % crc16(body)
        assert wire.upper() in folded, f"accepted {item!r}, whose bytes and checksum are not in the stream"
    assert firmware_items(chunks) == host, "the firmware's decoder and the host's disagree"
    return accepted
