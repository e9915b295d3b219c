"""Phase 4 (Event): ball control, disputes and engagements, following the challenges chart.

| situation | both succeed | one fails | both fail |
| aerial / ground dispute | higher wins (tie: roll again) | the failer fouls | 1 PS scatter |
| engagement (dribbling vs tackle) | higher wins, loser not stunned | the failer fouls | (not printed: 1 PS scatter) |
"""

from __future__ import annotations

from ..teams import PlayerRef
from . import events as ev
from . import flow
from . import queries as q
from .fouls import foul
from .model import Contest
from .resolve import challenge, close, open_scatter, verdict
from .tx import Tx


def resolve_ball_control(tx: Tx, contest: Contest) -> None:
    """Success: he has the ball. Failure: a 2 PS scatter, and he is stunned."""
    s = tx.state
    t = contest.tests[0]
    if t.success:
        close(tx, contest, verdict(s, t) + f"; {t.player} controls the ball")
        flow.give_ball(tx, t.player)
        return
    close(tx, contest, verdict(s, t) + f"; {t.player} loses the ball and is stunned")
    flow.stun(tx, t.player)
    open_scatter(tx, s.ball.ps, 2, "ball_control", t.player.team)


def resolve_dispute(tx: Tx, contest: Contest) -> None:
    s = tx.state
    a, b = contest.tests
    outcome = challenge(a, b)
    text = f"{verdict(s, a)}; {verdict(s, b)}"
    if outcome == "tie":
        flow.reopen(tx, contest, text + "; tie: both roll again")
        return
    if outcome == "both_fail":
        close(tx, contest, text + "; both fail: the ball scatters 1 PS")
        last = a.player.team if a.result >= b.result else b.player.team
        open_scatter(tx, s.ball.ps, 1, "challenge", last)
        return
    winner, loser = (a, b) if outcome == "a" else (b, a)
    if not loser.success:
        close(tx, contest, text + f"; {loser.player} fouls {winner.player}")
        foul(tx, loser.player, loser, winner.player, "ball_to_fouled")
        return
    close(tx, contest, text + f"; {winner.player} wins the ball")
    flow.give_ball(tx, winner.player)


def resolve_engagement(tx: Tx, contest: Contest) -> None:
    """Tackle or engagement: the winner has the ball; if both succeeded the loser is not
    stunned. A failed test against a good one is a foul by the failer."""
    s = tx.state
    attacker, defender = contest.tests
    outcome = challenge(attacker, defender)
    text = f"{verdict(s, attacker)}; {verdict(s, defender)}"
    if outcome == "tie":
        flow.reopen(tx, contest, text + "; tie: both roll again")
        return
    if outcome == "both_fail":
        close(tx, contest, text + "; both fail: the ball scatters 1 PS")
        ps = q.ps_of(s, attacker.player)
        last = attacker.player.team if attacker.result >= defender.result else defender.player.team
        tx.emit(ev.BallSet(type(s.ball)(ps=ps, flight=None, last_touch=last)))
        open_scatter(tx, ps, 1, "challenge", last)
        return
    winner, loser = (attacker, defender) if outcome == "a" else (defender, attacker)
    if not loser.success:
        close(tx, contest, text + f"; {loser.player} fouls {winner.player}")
        foul(tx, loser.player, loser, winner.player,
             "ball_to_fouled" if winner is defender else "play_on")
        return
    if winner is defender:
        close(tx, contest, text + f"; {defender.player} steals the ball")
        flow.give_ball(tx, defender.player)
    else:
        close(tx, contest, text + f"; {attacker.player} keeps the ball")


def on_receiver_choice(tx: Tx, choice, option: str) -> None:
    flow.receive(tx, PlayerRef.parse(option), after_tactical=tx.state.phase.value == "round_end")
