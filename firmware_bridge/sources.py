"""Roll sources behind one interface: the tray, the tablet's keypad, software dice.

Each puts ``RollReceived`` notices on the queue the ``Feed`` drains, so a roll from any
source meets the same rules and the same refusal messages. The keypad and software dice
answer a pending request (they build the roll it asks for); the tray rolls when the
coach throws, and the rules core finds the request its dice fit.
"""

from __future__ import annotations

import queue
import re
from abc import ABC
from typing import ClassVar, Sequence

from companion.dice import DiceSpec, Die, DieKind, DieResult, Roll, SoftwareDice, rolls_in
from companion.errors import TouchlineError
from companion.events import Source
from companion.match import Match
from companion.ruleset import Request

from .notices import Notice, RollReceived
from .owners import DiceOwners
from .session import TraySession
from .wire import FlashColour

_SEPARATORS = re.compile(r"[\s,;]+")
_SOFTWARE = re.compile(r"software seed=(-?\d+)#(\d+)\Z")
_ORDINALS = ("1st", "2nd", "3rd")


class EntryError(TouchlineError):
    """Typed faces that do not make the roll a request asks for; says what to type."""


class RollSource(ABC):
    """Something that hands rolls to the feed through ``notices``."""

    source: ClassVar[Source]

    def __init__(self, notices: "queue.Queue[Notice]") -> None:
        self.notices = notices

    def close(self) -> None:
        """Stop producing rolls (the tray's thread ends; others have nothing to stop)."""

    def _put(self, roll: Roll, request: str | None = None) -> Roll:
        self.notices.put(RollReceived(roll, request))
        return roll


def colours_for(kinds: Sequence[DieKind]) -> tuple[str, ...]:
    """Colours for dice typed in or drawn in software: two d10 are black (tens) and white,
    as the default percentile reading expects; a d8 is the green scatter die."""
    named = {DieKind.D10: ["black", "white"], DieKind.D8: ["green"]}
    out = []
    for kind in kinds:
        left = named.get(kind, [])
        out.append(left.pop(0) if left else "")
    return tuple(out)


def spec_of(request: Request | DiceSpec) -> tuple[DiceSpec, str | None]:
    if isinstance(request, DiceSpec):
        return request, None
    if request.dice is None:
        raise EntryError(f"request {request.id} ({request.kind}) asks for no dice: {request.text}")
    return request.dice, request.id


class TraySource(RollSource):
    """The dice tray, through a ``TraySession`` thread (started here)."""

    source = Source.TRAY

    def __init__(self, notices: "queue.Queue[Notice]", port: str, owners: DiceOwners | None = None,
                 **session_options) -> None:
        super().__init__(notices)
        self.session = TraySession(port, notices, owners, **session_options).start()

    def flash(self, colour: FlashColour) -> None:
        self.session.flash(colour)

    def close(self) -> None:
        self.session.stop()


class KeypadSource(RollSource):
    """Faces typed on the tablet for a pending request, checked before they are sent."""

    source = Source.MANUAL

    def enter(self, request: Request | DiceSpec, text: str) -> Roll:
        """Send the roll typed as ``text`` (``"4 0"``, ``"4,0"``, or ``"40"`` for single-digit
        dice; tens first for two d10); raises EntryError saying what to type instead."""
        spec, _ = spec_of(request)
        return self.roll_for(request, parse_faces(text, spec.kinds))

    def roll_for(self, request: Request | DiceSpec, faces: Sequence[int]) -> Roll:
        spec, request_id = spec_of(request)
        if len(faces) != len(spec.kinds):
            raise EntryError(f"{spec.describe()} is {len(spec.kinds)} faces; got {len(faces)}")
        dice = []
        for i, (kind, colour, face) in enumerate(zip(spec.kinds, colours_for(spec.kinds), faces)):
            try:
                dice.append(DieResult(Die(kind, colour, spec.owner), face))
            except ValueError as exc:
                raise EntryError(f"the {ordinal(i)} die: {exc}") from None
        return self._put(Roll(tuple(dice), Source.MANUAL, "keypad"), request_id)


def parse_faces(text: str, kinds: Sequence[DieKind]) -> tuple[int, ...]:
    want = len(kinds)
    hint = f"type {want} face{'s' if want > 1 else ''} for {DiceSpec(tuple(kinds)).describe()}" + (
        ", tens first (e.g. '4 0')" if tuple(kinds) == (DieKind.D10, DieKind.D10) else "")
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    if len(tokens) == 1 and want > 1 and len(tokens[0]) == want and all(k.highest <= 9 for k in kinds):
        tokens = list(tokens[0])  # "40": one digit a die
    if not tokens:
        raise EntryError(f"nothing typed: {hint}")
    bad = [t for t in tokens if not t.isdigit()]
    if bad:
        raise EntryError(f"{bad[0]!r} is not a face: {hint}")
    if len(tokens) != want:
        raise EntryError(f"{len(tokens)} face{'s' if len(tokens) > 1 else ''} typed ({text.strip()!r}): {hint}")
    faces = tuple(int(t) for t in tokens)
    for i, (kind, face) in enumerate(zip(kinds, faces)):
        try:
            kind.check_face(face)
        except ValueError as exc:
            raise EntryError(f"the {ordinal(i)} die: {exc}; {hint}") from None
    return faces


def ordinal(i: int) -> str:
    return _ORDINALS[i] if i < len(_ORDINALS) else f"{i + 1}th"


class SoftwareSource(RollSource):
    """Seeded software dice (``companion.dice.SoftwareDice``): each roll journals its seed
    and number (``software seed=42#7``), so a replay gives the same rolls."""

    source = Source.SOFTWARE

    def __init__(self, notices: "queue.Queue[Notice]", seed: int, count: int = 0) -> None:
        super().__init__(notices)
        self.dice = SoftwareDice(seed, count)

    @classmethod
    def resume(cls, notices: "queue.Queue[Notice]", match: Match, seed: int) -> "SoftwareSource":
        """Go on where this seed's rolls in ``match`` stopped (roll numbers never repeat)."""
        count = 0
        for roll in rolls_in(match.events):
            found = _SOFTWARE.match(roll.device)
            if found and int(found.group(1)) == seed:
                count = max(count, int(found.group(2)))
        return cls(notices, seed, count)

    def roll_for(self, request: Request | DiceSpec) -> Roll:
        spec, request_id = spec_of(request)
        return self._put(self.dice.roll(spec, colours_for(spec.kinds)), request_id)
