"""A match as a coach reads it in a terminal (``touchline demo --text``): the teams and the
score, the period and minute or the result, the goals with their scorers' names, the cards,
and the last things that happened, in words with names (never "home#8").

Read-only, from the match's summary and its events' log lines; any game's summary works
(a section a game does not keep is left out).
"""

from __future__ import annotations

import re
from typing import Any

from .match import Match

PLAYER_ID = re.compile(r"\b(home|away)#(\d{1,2})\b")
SIDE_NUMBER = re.compile(r"\b(Home|Away): #(\d{1,2})\b")     # "Away: #8 declares ..."
PLACE = re.compile(r" (?:to|at) \(\d+, \d+\)")                  # board coordinates the board does not print
# The rules' bookkeeping, which a coach reads on the bars, not in a story of the match.
BOOKKEEPING = re.compile(r"^(?:(?:Home|Away) MP [+-]|Round pace |Round \d+$)")
LAST_EVENTS = 10


class Names:
    """Team and player names from a summary's "teams" and "players"."""

    def __init__(self, summary: dict[str, Any]) -> None:
        teams = summary.get("teams")
        self.teams = {k: str(v) for k, v in teams.items()} if isinstance(teams, dict) else {}
        players = summary.get("players")
        self.players = {str(p.get("player")): str(p.get("name") or "") for p in players or ()
                        if isinstance(p, dict)} if isinstance(players, list) else {}

    def team(self, side: Any) -> str:
        side = str(side)
        return self.teams.get(side) or side.capitalize()

    def player(self, ref: Any, with_team: bool = True) -> str:
        side, _, number = str(ref).partition("#")
        parts = [self.team(side) if with_team else "", f"#{number}", self.players.get(str(ref), "")]
        return " ".join(part for part in parts if part)

    def line(self, text: str) -> str:
        """A rules' log line with its figures named and its board coordinates left out."""
        text = SIDE_NUMBER.sub(lambda m: f"{self.team(m.group(1).lower())}: "
                                         f"{self.player(f'{m.group(1).lower()}#{m.group(2)}', False)}", text)
        said: set[str] = set()

        def one(m: re.Match) -> str:
            out = self.player(m.group(0), with_team=m.group(1) not in said)
            said.add(m.group(1))
            return out
        return PLACE.sub("", PLAYER_ID.sub(one, text))


def minute(value: Any) -> str:
    return f"{value}'" if isinstance(value, int) else ""


def headline(summary: dict[str, Any], names: Names) -> list[str]:
    score = summary.get("score")
    if not names.teams or not isinstance(score, dict):
        return [f"{summary.get('game', 'match')}: not started"]
    # Which side is which: the lines below say "Home" and "Away" as the rules do.
    lines = [f"{names.team('home')} (home) {score.get('home', 0)} - {score.get('away', 0)} {names.team('away')} (away)"]
    shootout = summary.get("shootout")
    result = summary.get("result")
    if isinstance(result, dict):
        winner = result.get("winner")
        verdict = f"{names.team(winner)} win" if winner else "a draw"
        how = str(result.get("decided_by") or "")
        if isinstance(shootout, dict):
            verdict += f" on penalties ({shootout.get('home')} - {shootout.get('away')})"
        elif how and how not in ("full time", "draw"):
            verdict += f" ({how})"
        lines.append(f"Full time: {verdict}")
        return lines
    when = [str(summary.get("half") or summary.get("period") or "").replace("_", " "), minute(summary.get("minute"))]
    phase = str(summary.get("phase") or "").replace("_", " ")
    if summary.get("round"):
        phase = f"round {summary.get('round')}, {phase}" if phase else f"round {summary.get('round')}"
    lines.append(", ".join(part for part in (*when, phase) if part))
    return lines


def goals(summary: dict[str, Any], names: Names) -> list[str]:
    out = []
    for goal in summary.get("goals") or ():
        if not isinstance(goal, dict):
            continue
        scorer = goal.get("scorer")
        who = names.player(scorer) if scorer else names.team(goal.get("team"))
        out.append(f"  {minute(goal.get('minute')):>4}  {who}")
    return out


def cards(summary: dict[str, Any], names: Names) -> list[str]:
    out = []
    for card in summary.get("cards") or ():
        if not isinstance(card, dict):
            continue
        colour = str(card.get("colour") or "card")
        what = "second yellow, sent off" if colour == "yellow" and card.get("sent_off") else \
            f"{colour} card" + (", sent off" if card.get("sent_off") and colour != "red" else "")
        out.append(f"  {minute(card.get('minute')):>4}  {names.player(card.get('player'))}: {what}")
    return out


def story(match: Match, names: Names, last: int = LAST_EVENTS) -> list[str]:
    """The last things that happened, as the rules say them, named, without the bookkeeping."""
    rules = match.ruleset
    state = rules.initial_state()
    lines: list[str] = []
    for event in match.events:
        line = rules.log_line(state, event)
        state = rules.evolve(state, event)
        if line and not BOOKKEEPING.match(line):
            lines.append(names.line(line))
    return [f"  {line}" for line in lines[-last:]]


def match_text(match: Match, last: int = LAST_EVENTS) -> str:
    summary = match.summary()
    names = Names(summary)
    out = headline(summary, names)
    for title, lines in (("Goals", goals(summary, names)), ("Cards", cards(summary, names)),
                         ("Last events", story(match, names, last))):
        out += ["", title, *(lines or ["  none"])]
    return "\n".join(out)
