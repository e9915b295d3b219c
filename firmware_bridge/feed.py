"""The pump from the bridge's queue into a match: each roll becomes a ``SubmitRoll``.

The rules core decides: a roll that fits no pending request (wrong kind, count or coach)
is refused by ``SubmitRoll`` with a ``RuleViolation``, and the feed only passes that
message on (``on_refused``); it never retries or guesses. Made for a UI thread: the Kivy
controller calls ``pump()`` from a ``Clock.create_trigger`` that the session's ``wake``
fires, and nothing here blocks unless asked to.
"""

from __future__ import annotations

import logging
import queue
from dataclasses import dataclass
from typing import Callable

from companion.commands import SubmitRoll
from companion.dice import Roll, rolls_in
from companion.errors import RuleViolation
from companion.events import Event, Source
from companion.match import Match

from .notices import Notice, RollReceived

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Refusal:
    """A roll the rules refused, and their reason (the text to show the coaches)."""

    roll: Roll
    message: str
    request: str | None = None


def journaled_tray_rolls(events: tuple[Event, ...]) -> set[str]:
    """The device labels (tray, boot, seq) of tray rolls already in a match's journal."""
    return {roll.device for roll in rolls_in(events) if roll.source is Source.TRAY and roll.device}


class Feed:
    """Drains notices into ``match``: rolls are submitted, everything else goes to
    ``on_notice``. A tray roll already journaled (the host restarted before the tray heard
    its ACK, so the tray sent it again) is dropped: its label names tray, boot and seq."""

    def __init__(self, match: Match, notices: "queue.Queue[Notice]", *,
                 on_refused: Callable[[Refusal], None] | None = None,
                 on_accepted: Callable[[Roll, tuple[Event, ...]], None] | None = None,
                 on_notice: Callable[[Notice], None] | None = None) -> None:
        self.match = match
        self.notices = notices
        self.on_refused = on_refused
        self.on_accepted = on_accepted
        self.on_notice = on_notice
        self._journaled = journaled_tray_rolls(match.events)
        self._held: RollReceived | None = None   # a roll whose submit failed for a reason not of the rules

    def pump(self, block: bool = False, timeout: float | None = None, limit: int | None = None) -> int:
        """Handle what is queued (waiting up to ``timeout`` for the first item if ``block``);
        returns how many notices were handled."""
        done = 0
        if self._held is not None:
            held, self._held = self._held, None
            self._submit(held)
            done += 1
        while limit is None or done < limit:
            try:
                notice = self.notices.get(block=block and done == 0, timeout=timeout)
            except queue.Empty:
                break
            done += 1
            if isinstance(notice, RollReceived):
                self._submit(notice)
            elif self.on_notice is not None:
                self.on_notice(notice)
        return done

    def _submit(self, notice: RollReceived) -> None:
        roll = notice.roll
        if roll.source is Source.TRAY and roll.device in self._journaled:
            log.info("dropped %s: already in the journal", roll.device)
            return
        try:
            events = self.match.submit(SubmitRoll(roll, notice.request), roll.source)
        except RuleViolation as exc:
            log.info("refused %s (%s): %s", roll.describe(), roll.device, exc)
            if self.on_refused is not None:
                self.on_refused(Refusal(roll, str(exc), notice.request))
            return
        except Exception:
            self._held = notice  # e.g. the journal's disk is full: keep the roll, try it again next pump
            raise
        if roll.source is Source.TRAY:
            self._journaled.add(roll.device)
        if self.on_accepted is not None:
            self.on_accepted(roll, events)
