"""3.6 Tackle, Hard Tackle, 4.6 Move and Tackle, the goalkeeper's tackle, 3.7 Foul Check,
yellow and red cards, free kicks, and 6.2 the expelled goalkeeper.

A missed tackle is followed by a foul check: two dice, the lower for a tackle, the higher
for a hard tackle, read on the table (12 red, 10-11 yellow, 6-9 foul, else nothing). A foul
ends the defender's turn at once; the attacker then takes a penalty (a foul in the goal
area), a direct kick (a space with three shooting numbers) or an indirect kick.
"""

from __future__ import annotations

from ..dice import DiceSpec, DieKind
from ..teams import PlayerRef
from . import events as ev
from . import flow
from . import queries as q
from .commands import Tackle
from .components import Ability
from .difficulty import foul_check, tackle_difficulty
from .model import Choice, FoulCheckCtx, KeeperCtx, REPLACEMENTS, RestartKind, Roll, Stage, TackleCtx, Test
from .movement import place_marker
from .pitch import Space
from .resolve import close, verdict
from .tx import Tx, refuse

TACKLE = "3.6 Tackle"
HARD = "3.6 Tackle (Hard Tackle)"
LOOP = '3.6 Tackle (Problem of the "tackle loop")'
KEEPER = "3.6 Tackle (Goalkeeper Tackle)"
MOVE_TACKLE = "4.6 Move and Tackle"
FOUL = "3.7 Foul Check"
EXPELLED = "6.2 Expelled Goalkeeper"


def tackle(tx: Tx, cmd: Tackle) -> None:
    s = tx.state
    p = s.players.get(cmd.player)
    if p is None or not p.on_pitch:
        raise refuse(TACKLE, f"{cmd.player} is not on the pitch")
    team = cmd.player.team
    flow.check_turn(s, team, TACKLE)
    carrier = s.ball
    if carrier is None or carrier.team is team:
        raise refuse(TACKLE, "tackles are made on the opposing counter carrying the ball")
    if s.turn.stage is not Stage.START:
        raise refuse(TACKLE, "a tackle is the turn's main action; the main action is over")
    b = q.board(s)
    space = s.players[carrier].space
    if b.space(space).goal:
        raise refuse(TACKLE, "the goalkeeper holds the ball in his goal space, where nobody tackles him")
    moved = cmd.move_card is not None
    hard = cmd.hard or moved
    if p.goalkeeper:
        if not q.in_goal_area(s, space, team):
            raise refuse(KEEPER, f"the goalkeeper tackles the ball carrier in his goal area, not in {b.label(space)}")
        if moved:
            raise refuse(KEEPER, "the goalkeeper moves and tackles freely: no movement card")
    elif moved:
        if not b.adjacent(p.space, space):
            raise refuse(MOVE_TACKLE, "just one-space movement is allowed: the tackler moves into the carrier's "
                                      "space from a space next to it")
        if q.room(s, space, team, ignore=cmd.player) <= 0:
            raise refuse("1.2 The Pitch", f"{b.label(space)} has no room for another {team.label} counter")
    elif p.space != space:
        raise refuse(TACKLE, f"{cmd.player} tackles from the carrier's space ({b.label(space)}); from a space "
                             f"next to it, move and tackle")
    if hard and not p.goalkeeper and not q.can_take_marker(s, cmd.player):
        raise refuse(MOVE_TACKLE if moved else HARD,
                     f"{cmd.player} has a Moved Marker: a hard tackle is a movement and needs a new one")
    if s.options.tackle_loop_rule and s.guard == (carrier, s.turn.number - 1):
        raise refuse(LOOP, f"{carrier} won the ball by a tackle last turn and cannot be tackled back now")
    unmarked = q.is_unmarked(s, carrier)
    if unmarked and not hard:
        raise refuse(TACKLE, "basic tackle cannot be made against unmarked players: only a hard tackle")
    defence = p.keeper_defence if p.goalkeeper else p.counter.defence
    if cmd.card.colour is not defence.colour:
        raise refuse(TACKLE, f"a tackle is played with a card of the colour of the defence characteristic "
                             f"({defence.colour.value.upper()})")
    flow.check_cards(s, team, [cmd.card] + ([cmd.move_card] if moved else []), TACKLE)
    difficulty = tackle_difficulty(hard, unmarked, moved)
    tx.emit(ev.TackleDeclared(cmd.player, cmd.card, cmd.hard, cmd.move_card))
    if moved:
        flow.play(tx, team, cmd.move_card, "movement (move and tackle)")
        tx.emit(ev.CounterMoved(cmd.player, space))
        place_marker(tx, cmd.player)
    elif hard and not p.goalkeeper:
        place_marker(tx, cmd.player)  # a hard tackle "is considered a movement"
    what = "move and tackle" if moved else ("hard tackle" if hard else "tackle")
    flow.play(tx, team, cmd.card, what)
    two = q.has(s, cmd.player, Ability.DEFENCE) and not moved
    kinds = (DieKind.D12, DieKind.D12) if two else (DieKind.D12,)
    test = Test(team, f"{what} by #{cmd.player.number} on #{carrier.number}", DiceSpec(kinds, team), cmd.player,
                difficulty, cmd.card.bonus)  # the defence number is not a minimum
    flow.open_roll(tx, (test,), TackleCtx(cmd.player, carrier, space, hard))


def resolve_tackle(tx: Tx, item: Roll) -> None:
    ctx: TackleCtx = item.ctx
    t = item.tests[0]
    s = tx.state
    if t.success:
        close(tx, item, verdict(t) + f": #{ctx.tackler.number} wins the ball")
        if s.unmarked is not None:
            tx.emit(ev.UnmarkedSet(None))
        tx.emit(ev.BallSet(ctx.tackler, "tackle"))
        tx.emit(ev.GuardSet(ctx.tackler, s.turn.number))
        flow.set_stage(tx, Stage.AFTER_MAIN)
        return
    close(tx, item, verdict(t) + ": foul check")
    team = ctx.tackler.team
    check = Test(team, f"foul check ({'higher' if ctx.hard else 'lower'} of two dice)",
                 DiceSpec((DieKind.D12, DieKind.D12), team), ctx.tackler, pick="high" if ctx.hard else "low")
    flow.open_roll(tx, (check,), FoulCheckCtx(ctx.tackler, ctx.carrier, ctx.space, ctx.hard))


def resolve_foul_check(tx: Tx, item: Roll) -> None:
    ctx: FoulCheckCtx = item.ctx
    value = item.tests[0].result
    outcome = foul_check(value)
    if not outcome:
        close(tx, item, f"Foul check {value}: nothing happens")
        flow.set_stage(tx, Stage.AFTER_MAIN)
        return
    text = {"foul": "foul", "yellow": "foul, YELLOW CARD", "red": "foul, RED CARD"}[outcome]
    close(tx, item, f"Foul check {value}: {text}")
    if outcome != "foul":
        book(tx, ctx.tackler, outcome)
    award_free_kick(tx, ctx.space, ctx.carrier)
    flow.turn_over(tx)  # "the turn of the defending player finishes immediately"


def book(tx: Tx, ref: PlayerRef, colour: str) -> None:
    s = tx.state
    p = s.players[ref]
    second = colour == "yellow" and p.yellow >= 1 and s.options.second_yellow_sends_off
    sent_off = colour == "red" or second
    keeper = p.goalkeeper
    tx.emit(ev.CardShown(ref, colour, sent_off))
    if sent_off and keeper:
        open_keeper_choice(tx, ref)


def award_free_kick(tx: Tx, space: Space, fouled: PlayerRef) -> None:
    s = tx.state
    attacker = fouled.team
    numbers = q.board(s).space(space).shoot
    if q.in_goal_area(s, space, attacker.other):
        flow.award(tx, RestartKind.PENALTY, attacker, "foul in the goal area", space, fouled)
    elif numbers is not None and numbers.three and q.board(s).end_of(space) == q.attacked_end(s, attacker):
        flow.award(tx, RestartKind.DIRECT_KICK, attacker, "foul in a space with three shooting numbers", space, fouled)
    else:
        flow.award(tx, RestartKind.INDIRECT_KICK, attacker, "foul", space, fouled)


def open_keeper_choice(tx: Tx, sent_off: PlayerRef) -> None:
    """6.2: a substitute goes in goal (a replacement); if none can, a counter on the pitch."""
    s = tx.state
    team = sent_off.team
    subs = [p.ref for p in q.bench(s, team)]
    can_replace = s.replacements_used[team] < REPLACEMENTS and bool(subs)
    options = subs if can_replace else [p.ref for p in q.outfield(s, team)]
    if not options:
        return
    what = "which substitute goes in goal (a replacement)" if can_replace else "which counter goes in goal"
    flow.open_choice(tx, team, f"{team.label}: the goalkeeper is sent off: {what}? He plays with BRONZE-8 parry "
                               f"and defence", tuple(str(r) for r in sorted(options)),
                     KeeperCtx(sent_off, can_replace), front=True)


def choose_keeper(tx: Tx, choice: Choice, option: str) -> None:
    ctx: KeeperCtx = choice.ctx
    tx.emit(ev.KeeperAssigned(PlayerRef.parse(option), ctx.substitute))
