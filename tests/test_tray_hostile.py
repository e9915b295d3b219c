"""The host's link against a tray written from docs/dice-tray-protocol.md alone
(tests/tray_emulator.py), as issue 30's tester ran it: a tray that restarts under its old boot
id, malformed ROLLs answered exactly as the document says, and seeded fuzzing of the byte
stream. Everything is driven by a fake clock in milliseconds; nothing waits."""

from __future__ import annotations

import binascii
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.link import TrayLink
from firmware_bridge.notices import RollReceived, TrayProblem, TrayRebooted
from firmware_bridge.wire import MAX_FRAME, Reject

from tray_emulator import EmulatedTray, Reader, frame

GROUPS = (("home-black", "home-white"), ("away-black", "away-white"), ("green",))


class Table:
    """The emulated tray and the host's link joined in memory; ``ack_loss`` drops host frames."""

    def __init__(self, seed: int, ack_loss: float = 0.0, boot: str = "00C0FFEE") -> None:
        self.rng = random.Random(seed)
        self.ack_loss = ack_loss
        self.tray = EmulatedTray(boot=boot)
        self.link = TrayLink("emu")
        self.now = 0
        self.got: list = []
        self.notices: list = []
        self.host_sent: list[bytes] = []
        self.reader = Reader()  # the frames that reach the host intact, read as the document says
        self.intact_rolls = set()
        self.tray.start(self.now)
        self.deliver(self.link.open(0.0))
        self.step(5)

    def deliver(self, out) -> None:
        self.notices += out.notices
        self.got += [n.roll for n in out.notices if isinstance(n, RollReceived)]
        for data in out.send:
            self.host_sent.append(data)
            if self.rng.random() >= self.ack_loss:
                self.tray.receive(data, self.now)

    spoil = None          # (bytes, rng) -> bytes: what the line or a hostile tray does to them
    rate = 0.0
    intact_rolls: set = set()

    def step(self, count: int = 1) -> None:
        for _ in range(count):
            self.now += 10
            self.tray.poll(self.now)
            data = self.tray.take()
            if self.spoil is not None and data and self.rng.random() < self.rate:
                data = self.spoil(data, self.rng)
            for item in self.reader.feed(data):
                if item is not None and item.type == "ROLL":
                    self.intact_rolls.add((item.fields.get("boot"), item.seq))
            out = self.link.receive(data, self.now / 1000)
            assert self.link._decoder.pending() < MAX_FRAME  # never more than one frame held
            later = self.link.tick(self.now / 1000)
            out.send += later.send
            out.notices += later.notices
            out.reconnect = out.reconnect or later.reconnect
            self.deliver(self.link.open(self.now / 1000) if out.reconnect else out)
            if out.reconnect:
                self.deliver(out)

    def throw(self, i: int) -> None:
        for _ in range(2000):  # a full tray asks the coach to wait (bounded: a stuck host fails the test)
            if len(self.tray.pending) < 8:
                break
            self.step()
        else:
            raise AssertionError("the tray's queue stayed full")
        group = GROUPS[i % len(GROUPS)]
        self.tray.throw([(d, self.rng.randrange(1, 9) if d == "green" else self.rng.randrange(10)) for d in group],
                        self.now)

    def settle(self) -> None:
        for _ in range(2000):
            if not self.tray.pending:
                return
            self.step()
        raise AssertionError("the tray still holds unacknowledged rolls")

    def faces_got(self) -> list[str]:
        return [",".join(str(f) for f in r.faces) for r in self.got]


def faces_of(pending) -> str:
    return ",".join(part.split(":")[2] for part in pending.dice.split(","))


# --- a tray that restarts under its old boot id ----------------------------------------------------

@pytest.mark.parametrize("seed", range(12))
def test_a_tray_reusing_its_boot_id_loses_no_acknowledged_roll(seed):
    """40 rolls, a restart under the same boot id after 20 (and one more after 30 with rolls
    still waiting), 10 % of the host's frames lost: every roll the tray saw acknowledged
    reaches the books once, in order, each under a name of its own."""
    table = Table(seed, ack_loss=0.1)
    for i in range(40):
        if i in (20, 30):
            table.tray.restart(table.now, reuse_boot=True)
            table.step(2)
        table.throw(i)
        table.step(table.rng.randrange(1, 30))
    table.settle()
    assert len(table.tray.acked) == 40 and table.tray.naked == [] and table.tray.stray == []
    assert table.faces_got() == [faces_of(p) for p in table.tray.acked]
    assert len({r.device for r in table.got}) == 40
    assert any("~1#" in r.device for r in table.got)
    assert sum(isinstance(n, TrayRebooted) for n in table.notices) >= 1
    assert len([n for n in table.notices if isinstance(n, TrayProblem)]) == 1


def test_the_testers_case_a_new_roll_with_the_old_rolls_number_and_faces_is_not_lost():
    """Roll 2 of boot 00C0FFEE showed 3,4; the tray restarts under the same boot id and its
    new roll 2 shows 3,4 again. The old host took it for a resend and dropped it."""
    table = Table(0)
    table.tray.throw([("home-black", 3), ("home-white", 4)], table.now)
    table.step(5)
    table.step(150)  # a BEAT with pending=0: the host knows roll 2 was settled
    first = table.tray.acked[0].seq
    table.tray.restart(table.now, reuse_boot=True)
    table.step(2)
    table.tray.seq = first - 1  # the frames since its start bring its count back to that number
    table.tray.throw([("home-black", 3), ("home-white", 4)], table.now)
    table.settle()
    assert [p.seq for p in table.tray.acked] == [first, first]
    assert table.faces_got() == ["3,4", "3,4"]
    assert [r.device for r in table.got] == [f"tray EMU-1 boot=00C0FFEE#{first}", f"tray EMU-1 boot=00C0FFEE~1#{first}"]


def test_a_restart_right_after_a_lost_ack_resends_the_roll_and_it_is_counted_once():
    """The ACK of roll 2 is lost, the tray restarts under the same boot id before it learns
    it: roll 2 comes again from flash. It is the one roll that can come again: counted once."""
    table = Table(0)
    table.ack_loss = 1.0
    table.tray.throw([("home-black", 3), ("home-white", 4)], table.now)
    table.step(3)
    assert len(table.got) == 1 and table.tray.pending
    table.ack_loss = 0.0
    table.tray.restart(table.now, reuse_boot=True)
    table.settle()
    assert table.faces_got() == ["3,4"] and len(table.tray.acked) == 1
    assert table.link.counters.rejected[Reject.DUPLICATE] >= 1


def test_without_a_beat_a_same_boot_restart_still_names_new_rolls_apart():
    """A roll whose number does not rise is a new roll of a new run, even when the restart's
    HELLO and BEATs were lost: the host counts the restart from the roll itself."""
    table = Table(0)
    for faces in ((1, 2), (5, 6), (7, 8)):
        table.tray.throw([("home-black", faces[0]), ("home-white", faces[1])], table.now)
        table.step(5)
    table.tray.seq = 0  # restarted under the same boot; its HELLO was lost on the line
    table.tray.throw([("home-black", 1), ("home-white", 2)], table.now)
    table.settle()
    assert table.faces_got() == ["1,2", "5,6", "7,8", "1,2"]
    assert table.got[-1].device == "tray EMU-1 boot=00C0FFEE~1#1"
    assert table.link.counters.reboots == 1


# --- malformed ROLLs: the document's answers -------------------------------------------------------

# (fields of the ROLL, what the host answers: ("NAK", boot, reason) or None for no answer,
#  and whether the coaches are told)
MALFORMED = [
    ([("boot", "00c0ffee"), ("dice", "d10:home-black:4")], ("NAK", "00c0ffee", "malformed"), True),
    ([("boot", "00C0FFE"), ("dice", "d10:home-black:4")], ("NAK", "00C0FFE", "malformed"), True),
    ([("boot", "00C0FFEEAA"), ("dice", "d10:home-black:4")], ("NAK", "00C0FFEEAA", "malformed"), True),
    ([("boot", "00C0FFEE"), ("dice", "d10:home-black:04")], ("NAK", "00C0FFEE", "malformed"), True),
    ([("boot", "00C0FFEE")], ("NAK", "00C0FFEE", "malformed"), True),
    ([("boot", "00C0FFEE"), ("dice", "d10:home-black:4,d10:home-black:5")], ("NAK", "00C0FFEE", "malformed"), True),
    ([("boot", "00C0FFEE"), ("dice", "d10:home-black:12")], ("NAK", "00C0FFEE", "bad-die"), True),
    ([("boot", "00C0FFEE"), ("dice", "d20:home-black:4")], ("NAK", "00C0FFEE", "bad-die"), True),
    ([("boot", "00C0FFEE"), ("dice", "d10:purple:4")], ("NAK", "00C0FFEE", "bad-die"), True),
    ([("boot", "0BADB007"), ("dice", "d10:home-black:4")], ("ACK", "0BADB007", None), False),
    ([("dice", "d10:home-black:4")], None, True),  # no boot: nothing to name it by
]


@pytest.mark.parametrize("fields, answer, told", MALFORMED)
def test_a_malformed_roll_gets_the_answer_the_document_gives(fields, answer, told):
    table = Table(1)
    table.step(110)  # connected, quiet: only BEATs so far
    before = len(table.host_sent)
    table.tray.send_raw_roll(7, fields, table.now)
    table.step(1)
    replies = [r for data in table.host_sent[before:] for r in Reader().feed(data)]
    answers = [r for r in replies if r is not None and r.type in ("ACK", "NAK")]
    if answer is None:
        assert answers == []
    else:
        [reply] = answers
        assert (reply.type, reply.fields["boot"], reply.fields["seq"], reply.fields.get("reason")) == \
            (answer[0], answer[1], "7", answer[2])
    assert table.tray.stray == []  # never a NAK or ACK naming a roll the tray did not send
    problems = [n for n in table.notices if isinstance(n, TrayProblem)]
    assert bool(problems) is told
    assert table.got == ([] if answer is None or answer[0] == "NAK" else table.got)


def test_a_tray_whose_hello_breaks_the_grammar_is_never_named_and_the_coaches_are_told_once():
    """A firmware that writes its boot id in lower case: its HELLO is refused (bad-field), so
    the tray cannot be named and none of its rolls is acknowledged or refused (the document:
    the host acknowledges rolls only from a tray it can name); the coaches are told once
    what is wrong, not once per resend."""
    table = Table(2, boot="00c0ffee")
    for i in range(3):
        table.throw(i)
        table.step(60)
    assert table.got == [] and table.tray.acked == [] and table.tray.naked == [] and table.tray.stray == []
    problems = [n for n in table.notices if isinstance(n, TrayProblem)]
    assert len(problems) == 1 and "HELLO" in problems[0].message and "boot" in problems[0].message
    assert table.link.counters.rejected[Reject.BAD_FIELD] >= 3


# --- seeded fuzzing of the byte stream -------------------------------------------------------------

def damage(data: bytes, rng: random.Random) -> bytes:
    """What a noisy line does to bytes: a cut, a flipped byte, a lost byte, a repeat, a stray
    "$", a burst of noise, a line far past 512 bytes. The CRC is left as it was."""
    choice = rng.randrange(7)
    b = bytearray(data)
    if choice == 0 and b:
        return bytes(b[:rng.randrange(len(b))])
    if choice == 1 and b:
        b[rng.randrange(len(b))] ^= rng.randrange(1, 256)
        return bytes(b)
    if choice == 2 and b:
        del b[rng.randrange(len(b))]
        return bytes(b)
    if choice == 3:
        return data + data
    if choice == 4 and b:
        b.insert(rng.randrange(len(b)), ord("$"))
        return bytes(b)
    if choice == 5:
        return b"$ROLL 1 " + bytes(rng.randrange(33, 127) for _ in range(rng.randrange(MAX_FRAME * 2))) + data
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))) + data


def forge(data: bytes, rng: random.Random) -> bytes:
    """What a hostile or broken tray sends: a frame changed in one place and checksummed
    again, so it arrives intact."""
    if not data.startswith(b"$") or b"*" not in data:
        return data
    body = bytearray(data[1:data.index(b"*")])
    body[rng.randrange(len(body))] = rng.choice(b"abcdefABCDEF0123456789:,= ~-")
    return b"$" + bytes(body) + b"*%04X\r\n" % binascii.crc_hqx(bytes(body), 0xFFFF)


def fuzz_run(seed: int, spoil, rate: float) -> Table:
    """30 rolls with a spoiled share of the tray's bytes; at most 30 x 20 steps, then the line
    clears (at most 2,000 more)."""
    table = Table(seed % 1000)
    table.rng = random.Random(seed)
    table.spoil, table.rate = spoil, rate
    for i in range(30):
        table.throw(i)
        table.step(table.rng.randrange(1, 20))
    table.spoil = None
    return table


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1))
def test_a_noisy_line_loses_no_roll_and_counts_none_twice(seed):
    """A third of the tray's bytes damaged as a line damages them: every roll is acknowledged
    once the line clears, reaches the books once, in order, with its own faces."""
    table = fuzz_run(seed, damage, 0.3)
    table.settle()
    assert len(table.tray.acked) == 30 and table.tray.naked == [] and table.tray.stray == []
    assert table.faces_got() == [faces_of(p) for p in table.tray.acked]
    assert len({r.device for r in table.got}) == 30


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(0, 2**32 - 1))
def test_forged_frames_never_break_the_host_nor_make_it_name_a_roll_nobody_sent(seed):
    """Frames changed and checksummed again (a hostile tray): the host never raises, holds
    at most one frame's bytes, answers only rolls that came intact, and never passes two
    rolls under one name."""
    table = fuzz_run(seed, forge, 0.3)
    for data in table.host_sent:
        for reply in Reader().feed(data):
            if reply is not None and reply.type in ("ACK", "NAK"):
                assert (reply.fields["boot"], int(reply.fields["seq"])) in table.intact_rolls
    assert len({r.device for r in table.got}) == len(table.got)
