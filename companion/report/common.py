"""What the four games' report adapters share: cards, substitutions, goals and periods are
journaled alike everywhere, only spelt in each game's own event classes."""

from __future__ import annotations

from ..teams import PlayerRef, Team
from .engine import Recorder


def card(rec: Recorder, player: PlayerRef, colour: str, sent_off: bool) -> None:
    """A booking: every yellow (a second one too) counts as a yellow card; every sending off
    (straight red or second yellow) counts as a red card."""
    if colour.startswith("yellow"):
        rec.count(player.team, "yellow_cards")
    if sent_off or colour == "red":
        rec.count(player.team, "red_cards")
    what = "second yellow card, sent off" if sent_off and colour.startswith("yellow") else f"{colour} card"
    rec.note(player.team, "red_card" if sent_off or colour == "red" else "yellow_card", f"{what}: {player}")


def substitution(rec: Recorder, off: PlayerRef, on: PlayerRef | None) -> None:
    rec.count(off.team, "substitutions")
    rec.note(off.team, "substitution", f"{off} off" + (f", {on} on" if on is not None else ""))


def goal(rec: Recorder, team: Team, scorer: PlayerRef | None) -> None:
    rec.goal(team)
    rec.count(team, "goals")
    rec.note(team, "goal", "GOAL" + (f" by {scorer}" if scorer else ""))


def period(rec: Recorder, label: str) -> None:
    rec.close_all()
    rec.note(None, "period", label)


def foul(rec: Recorder, player: PlayerRef | None, team: Team) -> None:
    rec.count(team, "fouls")
    rec.note(team, "foul", f"foul by {player}" if player else "foul")


def injury(rec: Recorder, player: PlayerRef) -> None:
    rec.count(player.team, "injuries")
    rec.note(player.team, "injury", f"{player} injured")
