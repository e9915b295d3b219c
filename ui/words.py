"""What the tablet calls things: names for the ids and raw values the rules and the
settings use, so a coach reads "Touchline Rovers" and "Software dice", never "rovers" or
"software". Plain Python (no Kivy): the screens and the tests both read it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.teams import Team
from companion.view import Summary, summary_of

# Setup's dice sources and cameras: the stored value -> what the coach reads.
DICE = {"software": "Software dice", "manual": "Keypad (real dice)", "tray": "Dice tray"}
CAMERA = {"none": "No camera", "device": "USB camera", "demo": "Demo table"}
TEAM_SIDE = {"home": "Home", "away": "Away"}


# A figure as the rules write it ("home#7", companion.teams.PlayerRef), and a request's id. Either
# case: a line the panel begins with a capital ("Away#9 is 1 square from the ball") still names him.
PLAYER_ID = re.compile(r"\b(home|away)#(\d{1,2})\b", re.IGNORECASE)
REQUEST_ID = re.compile(r"\brequest c\d+\b")


def team_names(summary: Any) -> dict[str, str]:
    """"home"/"away" -> team name, from the game's summary JSON or a typed Summary (empty
    before the match is created)."""
    if isinstance(summary, Mapping):
        return {k: str(v) for k, v in (summary.get("teams") or {}).items() if v}
    if not getattr(summary, "created", False):
        return {}
    return {side: name for side, name in zip(("home", "away"), summary.teams) if name}


def team_name(summary: Summary, team) -> str:
    """A side as the panel says it: "Home (Touchline Rovers)", or "Home" before the names."""
    side = Team(getattr(team, "value", team))
    name = summary.name(side) if summary.created else ""
    return f"{side.label} ({name})" if name else side.label


class Names:
    """Says the figures in a line by name: "home#7 passes to home#9" -> "Touchline Rovers #7
    Kit passes to #9 Zed" (a team is named once a line; a figure with no card: "Home #7")."""

    def __init__(self, teams: dict[str, str], players: dict[str, str]) -> None:
        self.teams = teams        # "home" -> "Touchline Rovers"
        self.players = players    # "home#7" -> "Kit"

    @classmethod
    def of_summary(cls, summary: Any) -> "Names":
        """From the game's summary JSON (teams and players), or a typed Summary (teams only)."""
        teams = team_names(summary)
        players = {str(p.get("player")): str(p.get("name") or "") for p in summary.get("players") or ()
                   if isinstance(p, dict)} if isinstance(summary, Mapping) else {}
        return cls(teams, players)

    def player(self, ref: str, team_said: bool = False) -> str:
        side, _, number = ref.partition("#")
        name = self.players.get(ref, "")
        team = "" if team_said else self.teams.get(side) or TEAM_SIDE.get(side, side)
        return " ".join(part for part in (team, f"#{number}", name) if part)

    def line(self, text: str) -> str:
        if not text or "#" not in text:
            return text
        said: set[str] = set()

        def one(m: re.Match) -> str:
            side = m.group(1).lower()
            out = self.player(m.group(0).lower(), side in said)
            said.add(side)
            return out
        return PLAYER_ID.sub(one, text)


_NAMES: dict[tuple[int, int], tuple[Any, Any, Names]] = {}


def names_for(rules: Any, state: Any) -> Names:
    """The names of a match's figures, from its rosters (the same objects all match long, so
    the summary is read once per match, not once a line)."""
    home, away = getattr(state, "home", None), getattr(state, "away", None)
    key = (id(home), id(away))
    hit = _NAMES.get(key)
    if hit is not None and hit[0] is home and hit[1] is away:
        return hit[2]
    try:
        names = Names.of_summary(rules.summary(state)) if home is not None else Names({}, {})
    except Exception:   # a state the summary cannot read: the sides' words all the same
        names = Names({}, {})
    if len(_NAMES) > 16:
        _NAMES.clear()
    _NAMES[key] = (home, away, names)
    return names


def named(table: dict[str, str], value: str) -> str:
    return table.get(value, value.replace("_", " ").capitalize())


def value_of(table: dict[str, str], name: str) -> str:
    """The stored value behind a shown name (the name itself when it is already a value)."""
    for key, shown in table.items():
        if shown == name:
            return key
    return name


def phase_name(phase: str) -> str:
    """A phase id as a coach reads it: "tactical_movement" -> "Tactical movement"."""
    text = str(phase).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def option_name(option: str) -> str:
    """A request's option id as a button says it."""
    text = str(option).replace("_", " ").strip()
    return text[:1].upper() + text[1:] if text.islower() else text


def minute_of(summary: Summary | Mapping[str, Any]) -> str:
    """The match minute a game counts (Fublet's, by its rounds), as "12'"; "" for the others."""
    summary = summary_of(summary) if isinstance(summary, Mapping) else summary
    minute = summary.clock.minute
    return f"{minute}'" if minute is not None else ""


def match_line(summary: Summary | Mapping[str, Any], clock: str = "") -> str:
    """One line naming a match: "Touchline Rovers 0-0 Harbour Athletic, 12'" (from the typed
    summary, or a game's JSON summary)."""
    summary = summary_of(summary) if isinstance(summary, Mapping) else summary
    (home, away), (h, a) = summary.teams, summary.score
    line = f"{home} {h}-{a} {away}"
    if summary.over:
        return f"{line}, full time"
    when = minute_of(summary) or clock.strip()
    return f"{line}, {when}" if when else line


def journal_line(path: Path) -> str:
    """The match in a journal file as one line (read through a private copy: reading never
    changes it); the file's name when it cannot be read."""
    try:
        from companion.loading import load_match
        match = load_match(Path(path))
        summary = match.summary()
    except Exception:  # a damaged journal still gets a button; resuming it says what is wrong
        return Path(path).stem
    clock = ""
    try:
        from .games import face_for
        clock = face_for(match.ruleset.game).scoreboard(summary_of(summary)).clock
    except Exception:
        pass
    return match_line(summary, clock)


# Developer words a coach never reads: a file name, a folder path, a code span.
FILE_WORDS = re.compile(r"`|\b[\w./*-]+\.(?:json|py|md|txt|csv|sqlite|kv|html)\b|\b(?:docs|companion|ui|tests|data)/")
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(`])")
CODE_ASIDE = re.compile(r"\s*\([^()]*(?:`|\.json\b|/)[^()]*\)")   # "(configurable: `Reading.tens`)"
FILE_SPAN = re.compile(r"`[\w./*-]+\.json`")
CODE_SPAN = re.compile(r"`([^`]*)`")


def for_a_coach(text: str) -> str:
    """A note written for the project (a reading of the rulebook) as a coach reads it: asides
    that name files or code are left out, a data file is "the box's values", a setting's name
    is said in words, and a sentence with nothing left for a coach goes; where a value was a
    placeholder, the coach is told where to enter the printed one."""
    kept, placeholder = [], False
    for sentence in SENTENCE.split(text.strip()):
        if FILE_SPAN.match(sentence):   # "`rules.json`: `costs`, placeholder.": only where it is kept
            placeholder = placeholder or "placeholder" in sentence.lower()
            continue
        said = CODE_ASIDE.sub("", sentence)
        said = FILE_SPAN.sub("the box's values", said)
        said = CODE_SPAN.sub(lambda m: m.group(1).replace("_", " ") if re.fullmatch(r"[a-z_ ]+", m.group(1))
                             else "", said)
        said = re.sub(r"\s+([,.;:])", r"\1", re.sub(r"\s{2,}", " ", said)).strip()
        said = re.sub(r"[:;]\s*(?=[,.;])", "", said)
        said = said[:1].upper() + said[1:]
        if said != sentence:
            placeholder = placeholder or "placeholder" in sentence.lower()
        if FILE_WORDS.search(said) or len(re.findall(r"[A-Za-z]{3,}", said)) < 4:
            continue
        kept.append(said)
    if placeholder:
        kept.append("Touchline guessed this value: enter the one printed in your box with Settings > "
                    "Enter your box's values.")
    return " ".join(kept)
