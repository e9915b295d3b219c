"""Which coach owns which of the tray's dice: host configuration, validated on load.

A small JSON file (``fublet_dice.json`` beside this module is the Fublet convention for
the reference tray, and the default; copy it to make your own)::

    {"version": 1,
     "dice": {"home-black": {"owner": "home", "colour": "black", "kind": "d10"},
              "green":      {"owner": null, "colour": "green"}},
     "trays": {"TL-7F3A": "home"}}

``dice`` maps a die id (as the tray's HELLO names it) to its owner (``home``, ``away`` or
null for a shared die) and optionally its colour (what the rules read: black is the tens)
and kind (checked against the tray's). ``trays`` gives an owner to every die of a tray
that ``dice`` does not list, for a table with one tray per coach.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from companion.dice import Die, DieKind
from companion.errors import DataFileError
from companion.teams import Team

log = logging.getLogger(__name__)

# The default, and the content of fublet_dice.json (kept here so an install needs no data files).
FUBLET = {
    "version": 1,
    "about": "Fublet: each coach rolls a black (tens) and a white d10; the green d8 scatter die is shared. "
             "Die ids are the reference tray's.",
    "dice": {
        "home-black": {"owner": "home", "colour": "black", "kind": "d10"},
        "home-white": {"owner": "home", "colour": "white", "kind": "d10"},
        "away-black": {"owner": "away", "colour": "black", "kind": "d10"},
        "away-white": {"owner": "away", "colour": "white", "kind": "d10"},
        "green": {"owner": None, "colour": "green", "kind": "d8"},
    },
    "trays": {},
}


def _per_coach(kind: str, about: str, colours: tuple[str, ...]) -> dict:
    """A convention for the reference tray's wiring (die ids home-black, home-white, ...)
    holding ``kind`` dice: one per colour for each coach."""
    dice = {f"{team}-{colour}": {"owner": team, "colour": colour, "kind": kind}
            for team in ("home", "away") for colour in colours}
    return {"version": 1, "about": about, "dice": dice, "trays": {}}


# The other games on the reference tray's wiring (firmware config.py lists their DICE too).
GAME_DICE = {
    "fublet": FUBLET,
    "football_leader": _per_coach("d12", "Football Leader: each coach a black and a white d12 (a two-dice roll "
                                         "keeps the best; only the black die's 1 misses).", ("black", "white")),
    "futboard": _per_coach("d12", "Futboard: each coach one d12.", ("black",)),
    "fussball_liga": _per_coach("d6", "Fussball-Liga variant: each coach one d6.", ("black",)),
}
_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,15}\Z")
_DEVICE = re.compile(r"[A-Za-z0-9._-]{1,32}\Z")
_OWNERS = {"home": Team.HOME, "away": Team.AWAY, None: None}


@dataclass(frozen=True, slots=True)
class DieOwner:
    owner: Team | None
    colour: str = ""
    kind: DieKind | None = None


@dataclass(frozen=True, slots=True)
class DiceOwners:
    dice: Mapping[str, DieOwner] = field(default_factory=dict)
    trays: Mapping[str, Team | None] = field(default_factory=dict)
    name: str = "no dice file"

    def die(self, device: str, die_id: str, kind: DieKind, colour: str = "") -> Die:
        """The rules' view of one tray die: kind, colour (config, else the tray's, else its
        id) and owner (config by die id, else by tray, else none: either coach)."""
        entry = self.dice.get(die_id)
        if entry is not None and (entry.kind is None or entry.kind is kind):
            return Die(kind, entry.colour or colour or die_id, entry.owner)
        return Die(kind, colour or die_id, self.trays.get(device))

    def check_tray(self, device: str, dice: Mapping[str, DieKind]) -> list[str]:
        """Problems between this file and the dice a tray says it holds, one line each."""
        problems = []
        for die_id, kind in dice.items():
            entry = self.dice.get(die_id)
            if entry is not None and entry.kind is not None and entry.kind is not kind:
                problems.append(f"{self.name}: die {die_id} is a {entry.kind.value} here but tray {device} says it "
                                f"is a {kind.value}; its owner is ignored until the file is fixed")
        return problems

    @classmethod
    def load(cls, path: Path) -> "DiceOwners":
        """Read and validate a dice file; a problem raises DataFileError naming the entry."""
        name = str(path)
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise DataFileError(name, "", "", "no such file; check the path (or leave the option out to use "
                                              "the Fublet convention)") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise DataFileError(name, "", "", f"cannot be read: {exc}") from None
        except json.JSONDecodeError as exc:
            raise DataFileError(name, "", "", f"not valid JSON ({exc.msg} at line {exc.lineno}, column "
                                              f"{exc.colno})") from None
        return cls.from_json(data, name)

    @classmethod
    def fublet(cls) -> "DiceOwners":
        """The Fublet convention for the reference tray: each coach a black (tens) and a
        white d10, and a shared green d8 for scatter."""
        return cls.from_json(FUBLET, "the Fublet dice convention")

    @classmethod
    def for_game(cls, game: str) -> "DiceOwners":
        """The convention of a game for the reference tray (Fublet's for a game without one)."""
        data = GAME_DICE.get(game)
        if data is None:
            log.warning("no dice convention for game %r: the Fublet one is used", game)
            return cls.fublet()
        return cls.from_json(data, f"the {game} dice convention")

    @classmethod
    def from_json(cls, data: Any, name: str) -> "DiceOwners":
        if not isinstance(data, dict):
            raise DataFileError(name, "", "", "expected a JSON object with 'version', 'dice' and 'trays'")
        unknown = set(data) - {"version", "dice", "trays", "about"}
        if unknown:
            raise DataFileError(name, "", sorted(unknown)[0], "unknown field; expected version, dice, trays, about")
        if data.get("version") != 1:
            raise DataFileError(name, "", "version", f"expected 1, got {data.get('version')!r}")
        dice_json, trays_json = data.get("dice", {}), data.get("trays", {})
        if not isinstance(dice_json, dict):
            raise DataFileError(name, "", "dice", "expected an object mapping die ids to {owner, colour, kind}")
        if not isinstance(trays_json, dict):
            raise DataFileError(name, "", "trays", "expected an object mapping tray ids to an owner")
        dice = {die_id: _die_entry(name, die_id, entry) for die_id, entry in dice_json.items()}
        trays = {}
        for device, owner in trays_json.items():
            if not _DEVICE.match(device):
                raise DataFileError(name, f"trays/{device}", "", "a tray id is 1-32 letters, digits, '.', '_', '-'")
            trays[device] = _owner(name, f"trays/{device}", "", owner)
        return cls(dice, trays, name)


def _owner(name: str, entry: str, field_name: str, value: Any) -> Team | None:
    if not (value is None or isinstance(value, str)) or value not in _OWNERS:
        raise DataFileError(name, entry, field_name, f"expected \"home\", \"away\" or null (a shared die), "
                                                     f"got {value!r}")
    return _OWNERS[value]


def _die_entry(name: str, die_id: str, entry: Any) -> DieOwner:
    where = f"dice/{die_id}"
    if not _ID.match(die_id):
        raise DataFileError(name, where, "", "a die id is a lower-case word of up to 16 letters, digits or '-', "
                                             "as the tray's HELLO names it")
    if not isinstance(entry, dict):
        raise DataFileError(name, where, "", "expected an object like {\"owner\": \"home\", \"colour\": \"black\"}")
    unknown = set(entry) - {"owner", "colour", "kind"}
    if unknown:
        raise DataFileError(name, where, sorted(unknown)[0], "unknown field; expected owner, colour, kind")
    if "owner" not in entry:
        raise DataFileError(name, where, "owner", "missing: say \"home\", \"away\" or null (shared)")
    owner = _owner(name, where, "owner", entry["owner"])
    colour = entry.get("colour", "")
    if not isinstance(colour, str) or (colour and not _ID.match(colour)):
        raise DataFileError(name, where, "colour", f"expected a lower-case word such as \"black\", got {colour!r}")
    kind = entry.get("kind")
    if kind is not None:
        try:
            kind = DieKind(kind)
        except ValueError:
            raise DataFileError(name, where, "kind", f"expected one of {', '.join(k.value for k in DieKind)}, "
                                                     f"got {kind!r}") from None
    return DieOwner(owner, colour, kind)
