"""docs/dice-tray-protocol.md stays true: every frame it shows has a correct checksum and
parses, every message type and rejection reason is documented, timings match the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_bridge import messages as m
from firmware_bridge.firmware import traycore
from firmware_bridge.framing import Frame, decode
from firmware_bridge.link import Timing
from firmware_bridge.session import Backoff
from firmware_bridge.wire import (BEAT_INTERVAL, MAX_FRAME, RESEND_INTERVAL, SILENCE, Direction, MsgType,
                                  Reject)

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "dice-tray-protocol.md").read_text(encoding="utf-8")
FRAMES = re.findall(r"(\$[A-Z]+ [^\s*]*(?: [^\s*]+)*\*[0-9A-F]{4})", DOC)


def test_the_doc_shows_frames():
    assert len(FRAMES) >= 7


@pytest.mark.parametrize("text", FRAMES)
def test_every_frame_in_the_doc_is_intact_and_a_valid_message(text):
    [frame] = decode(text.encode("ascii") + b"\r\n")
    assert isinstance(frame, Frame), frame
    sender = MsgType(frame.type).direction
    m.parse(frame, sender)


def test_every_message_type_and_reason_is_documented():
    for kind in MsgType:
        assert f"| `{kind.value}` |" in DOC, kind
    for reason in Reject:
        assert f"| `{reason.value}` |" in DOC, reason


def test_the_numbers_in_the_doc_are_the_code_s():
    assert (BEAT_INTERVAL, RESEND_INTERVAL) == (traycore.BEAT_MS / 1000, traycore.RESEND_MS / 1000)
    assert f"at most {MAX_FRAME} bytes" in DOC
    assert f"resends it every {traycore.RESEND_MS} ms" in DOC
    assert f"up to {traycore.MAX_PENDING} unacknowledged rolls" in DOC
    assert f"BEAT after {traycore.BEAT_MS // 1000} s" in DOC
    t = Timing()
    assert f"({t.hello_retry:g} s, doubling up to {t.hello_retry_max:g} s)" in DOC
    assert f"no valid frame for {t.probe:g} s sends PING; after {SILENCE:g} s" in DOC
    assert f"every {round(t.hurry * 1000)} ms" in DOC
    b = Backoff()
    assert f"({round(b.first * 1000)} ms, doubling up to {round(b.cap * 1000)} ms)" in DOC


def test_the_firmware_readme_names_files_that_exist():
    readme = (ROOT / "firmware_bridge" / "firmware" / "README.md").read_text(encoding="utf-8")
    for name in re.findall(r"\| `([a-z_]+\.py)` \|", readme):
        assert (ROOT / "firmware_bridge" / "firmware" / name).exists(), name


def test_host_and_device_directions_cover_every_type():
    assert {t for t in MsgType if t.direction is Direction.HOST} == {MsgType.PING, MsgType.ACK, MsgType.NAK,
                                                                    MsgType.FLASH}
