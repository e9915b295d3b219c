"""Framing, table-driven: garbage in front, split frames, a bad checksum before a good
frame, over-long lines; encoding refuses what the grammar forbids; a seeded fuzz run (the
100,000-frame one is in benchmarks/tray_bench.py)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from benchmarks.tray_fuzz import check, mutated_streams
from firmware_bridge.framing import Decoder, Frame, Rejected, crc16, decode, encode, frame_of, parse_line
from firmware_bridge.wire import MAX_FRAME, Reject

ROLL = frame_of("ROLL", 17, boot="5B1E9C02", dice="d10:home-black:4,d10:home-white:0")
PING = frame_of("PING", 1, proto=1)
R, P = encode(ROLL), encode(PING)


def damaged(data: bytes, at: int) -> bytes:
    out = bytearray(data)
    out[at] ^= 0x20
    return bytes(out)


def kinds(items) -> list:
    return [item.reason if isinstance(item, Rejected) else item for item in items]


@pytest.mark.parametrize("stream, expected", [
    (R, [ROLL]),
    (b"\x00garbage\xff" + R, [Reject.GARBAGE, ROLL]),
    (b"\r\n" + R + b"\r\n\r\n" + P, [ROLL, PING]),
    (damaged(R, 5) + P, [Reject.CHECKSUM, PING]),
    (damaged(R, len(R) - 4) + R, [Reject.CHECKSUM, ROLL]),        # the checksum itself damaged
    (R[:-2] + b"\n" + P[:-2] + b"\n", [ROLL, PING]),
    (R[:30] + P, [Reject.TRUNCATED, PING]),                        # a frame cut short by a "$"
    (R[:30] + b"\r\n" + P, [Reject.CHECKSUM, PING]),               # ... or by a line end
    (b"$" + b"x" * MAX_FRAME + b"\r\n" + R, [Reject.OVERLONG, ROLL]),
    (b"$" + b"x" * (3 * MAX_FRAME) + R, [Reject.OVERLONG, ROLL]),  # no line end: resync on "$"
    (R + R, [ROLL, ROLL]),                                         # a duplicate is the link's business
], ids=["plain", "garbage in front", "idle line ends", "bad checksum then good", "bad digits",
        "LF only", "truncated by $", "truncated by LF", "over-long line", "over-long, no LF",
        "duplicate frame"])
def test_streams(stream, expected):
    assert kinds(decode(stream)) == expected


@pytest.mark.parametrize("cut", range(1, len(R)))
def test_a_frame_split_anywhere_decodes_once(cut):
    decoder = Decoder()
    assert decoder.feed(R[:cut]) == []
    assert decoder.feed(R[cut:]) == [ROLL]
    assert decoder.pending() == 0


def test_byte_by_byte_equals_all_at_once():
    stream = b"junk" + R + damaged(R, 9) + P + b"$" + b"y" * 700 + b"\n" + R
    decoder = Decoder()
    one_by_one = [item for i in range(len(stream)) for item in decoder.feed(stream[i:i + 1])]
    garbage_runs = sum(1 for item in one_by_one if isinstance(item, Rejected) and item.reason is Reject.GARBAGE)
    assert [k for k in kinds(one_by_one) if k is not Reject.GARBAGE] == \
        [k for k in kinds(decode(stream)) if k is not Reject.GARBAGE]
    assert garbage_runs == 4  # one per byte fed: a run ends with the bytes fed


def test_the_buffer_is_capped_however_long_the_line():
    decoder = Decoder()
    for _ in range(100):
        decoder.feed(b"$" + b"z" * 10_000)
        assert decoder.pending() < MAX_FRAME


def test_checksum_is_crc16_ccitt_false():
    assert crc16(b"123456789") == 0x29B1
    assert R.endswith(b"*%04X\r\n" % crc16(R[1:R.rindex(b"*")]))


def test_parse_line_accepts_lower_case_digits_and_reports_reasons():
    line = R[:-2]
    assert parse_line(line[:-4] + line[-4:].lower()) == ROLL
    assert parse_line(b"PING 1*0000") == Rejected(Reject.CHECKSUM, b"PING 1*0000")


@pytest.mark.parametrize("frame, message", [
    (Frame("ping", 1), "capital letters"),
    (Frame("PING", -1), "seq"),
    (Frame("PING", 2**32), "seq"),
    (Frame("PING", 1, (("Proto", "1"),)), "lower-case word"),
    (Frame("PING", 1, (("note", "two words"),)), "without spaces"),
    (Frame("PING", 1, (("note", "a*b"),)), "'*'"),
    (Frame("PING", 1, (("note", ""),)), "printable"),
    (Frame("PING", 1, (("a", "1"), ("a", "2"))), "twice"),
    (Frame("ERROR", 1, (("detail", "x" * MAX_FRAME),)), "limit"),
])
def test_encode_refuses_what_the_grammar_forbids(frame, message):
    with pytest.raises(ValueError, match=message if message != "'*'" else r"'\*'"):
        encode(frame)


def test_frames_read_like_code():
    assert repr(PING) == "Frame(type='PING', seq=1, fields=(('proto', '1'),))"
    assert repr(Rejected(Reject.CHECKSUM, b"$X")) == "Rejected(Reject.CHECKSUM, b'$X')"


@settings(max_examples=1500, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(mutated_streams)
def test_fuzz_never_raises_never_accepts_a_bad_checksum_and_both_decoders_agree(example):
    check(*example)
