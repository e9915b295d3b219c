"""3.1 Movement, Moved Markers, 3.2 Extra Movement and 4.1 Move and Dodge.

A counter moves as many spaces as its card allows (colour matching, minimum values,
Outburst); crossing a dotted line counts half, rounded up over the whole move. It then gets
a Moved Marker and cannot move again (Run: a second marker); the fifth marker on the board
clears the others, except those put earlier in the same turn. The ball carrier may not go
through a space full of his own team, and leaving a space where defenders mark him
(forward or sideways) costs a dodge per space: the move stops where a dodge fails. Before he
moves, ``plan_move`` tells the tablet which dodges the movement will need and who could support
each (4.2), so their cards and support come with the Move.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..dice import DiceSpec, DieKind
from ..teams import PlayerRef
from . import events as ev
from . import flow
from . import queries as q
from .cards import allowance, bonus
from .commands import Move
from .components import Ability, Card, Colour
from .difficulty import dodge_difficulty, move_dodge_difficulty
from .model import (MARKERS, Choice, DodgeCardCtx, DodgePlan, MoveCardCtx, MoveDodgeCtx, Movement, Roll, Stage,
                    Test)
from .pitch import Space, Step
from .resolve import close, verdict
from .possession import lose_ball
from .tx import Tx, refuse

MOVEMENT = "3.1 Movement & Moved Markers"
EXTRA = "3.2 Extra Movement"
MOVE_DODGE = "4.1 Move and Dodge"
SUPPORT = "4.2 Supported Dodge"
NOT_ALLOWED = "4.7 Actions NOT allowed"
START_UP = '3.9 Kick Off ("Start Up" Rule)'
CANCEL = "cancel"


# --- costs ---------------------------------------------------------------------------------------

def step_cost(s, ref: PlayerRef, carrier: bool):
    """A step's price in half spaces (a dotted line counts half), None where the counter may
    not go: never into a goal space; the ball carrier never through his team's full spaces."""
    b = q.board(s)
    team = ref.team

    def cost(a: Space, nxt: Space, dotted: bool) -> int | None:
        if b.space(nxt).goal:
            return None
        if carrier and q.room(s, nxt, team, ignore=ref) <= 0:
            return None
        return 1 if dotted else 2
    return cost


def path_cost(s, start: Space, path: tuple[Space, ...]) -> int:
    b = q.board(s)
    halves, here = 0, start
    for nxt in path:
        halves += 1 if b.dotted(here, nxt) else 2
        here = nxt
    return (halves + 1) // 2


def move_allowance(s, ref: PlayerRef, card: Card) -> int:
    p = s.players[ref]
    return allowance(p.counter.movement, card, outburst=q.has(s, ref, Ability.OUTBURST))


def best_allowance(s, ref: PlayerRef) -> int:
    """The farthest the counter could move with any card its coach may still hold."""
    cards = q.cards_left(s, ref.team)
    return max((move_allowance(s, ref, c) for c in cards), default=0)


def dodges_needed(s, ref: PlayerRef, start: Space, path: tuple[Space, ...]) -> list[tuple[Space, Step]]:
    """The spaces a moving ball carrier must dodge out of, with the step's direction:
    each defended space left forward or sideways; backward is always free, and so is
    leaving the start space while unmarked."""
    b = q.board(s)
    high = q.towards_high(s, ref.team)
    unmarked = q.is_unmarked(s, ref)
    out = []
    here = start
    for nxt in path:
        step = b.step(here, nxt, high)
        defended = q.count_in(s, here, ref.team.other) > 0
        free = step is Step.BACKWARD or (here == start and unmarked)
        if defended and not free:
            out.append((here, step))
        here = nxt
    return out


# --- planning a ball carrier's movement (asked by the tablet before it moves him) ----------------

@dataclass(frozen=True, slots=True)
class SupportOption:
    """A teammate who could support a dodge (4.2): ``colour`` is the card colour his support
    costs, None when it is free (his pass colour is the dodger's dodge colour)."""

    supporter: PlayerRef
    colour: Colour | None


@dataclass(frozen=True, slots=True)
class DodgeNeed:
    """One dodge a movement will need, in path order: the space left, the step's direction,
    the defenders there, the difficulty (and supported), and who could support it (empty
    when it cannot be: a sideways step, nobody there, or the turn's one support used)."""

    leaving: Space
    step: Step
    defenders: tuple[PlayerRef, ...]
    difficulty: int
    supported_difficulty: int
    supporters: tuple[SupportOption, ...]


@dataclass(frozen=True, slots=True)
class MovePlan:
    """What a movement of ``player`` to ``path[-1]`` will ask: the path, its cost in spaces and
    the dodges on the way (none for a counter without the ball)."""

    player: PlayerRef
    path: tuple[Space, ...]
    cost: int
    dodges: tuple[DodgeNeed, ...]


def plan_move(s, ref: PlayerRef, to: Space, path: tuple[Space, ...] = ()) -> MovePlan | None:
    """The dodges a movement to ``to`` will need (the cheapest path the rules would take, or
    ``path``), each with its eligible supporters, or None when no path leads there. It checks
    the path only: the rest (turn, cards, markers) is the Move's."""
    p = s.players.get(ref)
    if p is None or not p.on_pitch or p.space is None:
        return None
    b = q.board(s)
    if not b.has(to) or to == p.space:
        return None
    carrier = s.ball == ref
    path = tuple(path) or _cheapest(s, ref, p.space, to, carrier)
    if not path or path[-1] != to or not b.path_ok(p.space, path) or len(set(path + (p.space,))) <= len(path):
        return None
    needs = []
    for leaving, step in (dodges_needed(s, ref, p.space, path) if carrier else []):
        defenders = q.in_space(s, leaving, ref.team.other)
        base = dodge_difficulty([d.counter.defence.value for d in defenders])
        needs.append(DodgeNeed(leaving, step, tuple(sorted(d.ref for d in defenders)),
                               move_dodge_difficulty(base, step, False), move_dodge_difficulty(base, step, True),
                               _supporters(s, ref, leaving, step)))
    return MovePlan(ref, path, path_cost(s, p.space, path), tuple(needs))


def _supporters(s, ref: PlayerRef, leaving: Space, step: Step) -> tuple[SupportOption, ...]:
    """4.2: teammates in the space left (not the goalkeeper), forward steps only, while the
    turn's one supported dodge is unused."""
    if step is not Step.FORWARD or (s.turn is not None and s.turn.supported):
        return ()
    dodge = s.players[ref].counter.dodge.colour
    out = []
    for mate in sorted(q.in_space(s, leaving, ref.team), key=lambda m: m.ref.number):
        if mate.ref == ref or mate.goalkeeper:
            continue
        colour = mate.counter.passing.colour
        out.append(SupportOption(mate.ref, None if colour is dodge else colour))
    return tuple(out)


# --- the command ---------------------------------------------------------------------------------

def move(tx: Tx, cmd: Move) -> None:
    s = tx.state
    p = s.players.get(cmd.player)
    if p is None:
        raise refuse(MOVEMENT, f"no counter {cmd.player} in this match")
    team = cmd.player.team
    flow.check_turn(s, team, MOVEMENT)
    if not p.on_pitch or p.space is None:
        raise refuse(MOVEMENT, f"{cmd.player} is not on the pitch")
    if p.goalkeeper:
        raise refuse("1.1 The Player Counters", "the goalkeeper always stays in the goal space")
    stage = s.turn.stage
    if stage in (Stage.FREE_KICK, Stage.GOAL_KICK, Stage.DIRECT_KICK):
        raise refuse(MOVEMENT, f"take the {stage.value.replace('_', ' ')} first")
    if stage is Stage.VISION_PASSED:
        raise refuse("5 Special Abilities (Game Vision)", "the Game Vision pass replaced the extra movement")
    extra = stage is not Stage.START
    carrier = s.ball == cmd.player
    if extra and carrier:
        raise refuse(EXTRA if stage is Stage.AFTER_MAIN else NOT_ALLOWED,
                     "the extra movement cannot be made with the counter carrying the ball")
    if not q.can_take_marker(s, cmd.player):
        raise refuse(MOVEMENT, f"{cmd.player} has a Moved Marker and cannot move again"
                               + (" (Run allows a second marker only)" if q.has(s, cmd.player, Ability.RUN) else ""))
    b = q.board(s)
    if not b.has(cmd.to) or b.space(cmd.to).goal:
        raise refuse(MOVEMENT, f"{cmd.to} is not a space of the pitch")
    if cmd.to == p.space:
        raise refuse(MOVEMENT, f"{cmd.player} is in {b.label(cmd.to)} already")
    path = tuple(cmd.path) or _cheapest(s, cmd.player, p.space, cmd.to, carrier)
    if not path or path[-1] != cmd.to or not b.path_ok(p.space, path) or len(set(path + (p.space,))) <= len(path):
        raise refuse(MOVEMENT, f"the path does not lead from {b.label(p.space)} to {b.label(cmd.to)} "
                               f"through touching spaces")
    cost_of = step_cost(s, cmd.player, carrier)
    here = p.space
    for nxt in path:
        if cost_of(here, nxt, b.dotted(here, nxt)) is None:
            if b.space(nxt).goal:
                raise refuse(MOVEMENT, "counters do not move into a goal space")
            raise refuse(MOVEMENT, f"the ball carrier cannot move through {b.label(nxt)}, full of his own team")
        here = nxt
    if q.room(s, cmd.to, team, ignore=cmd.player) <= 0:
        raise refuse("1.2 The Pitch", f"{b.label(cmd.to)} has no room for another {team.label} counter")
    cost = path_cost(s, p.space, path)
    if carrier and s.turn.startup == cmd.player and len(path) > 1:
        raise refuse(START_UP, "after a kick the counter with the ball cannot move more than a space")
    needed = dodges_needed(s, cmd.player, p.space, path) if carrier else []
    _check_plans(s, cmd, needed)
    if cmd.card is None and cmd.dodges:
        raise refuse(MOVE_DODGE, "name the movement's card together with its dodge plans")
    supports = sum(1 for plan in cmd.dodges if plan.support_card is not None)
    if s.cards[team].hand < 1 + len(needed) + supports:
        raise refuse(MOVE_DODGE, f"this movement needs a card to move and one for each of its {len(needed)} "
                                 f"dodge(s); {team.label} holds {s.cards[team].hand}")
    if cmd.card is not None:
        limit = move_allowance(s, cmd.player, cmd.card)
        if cost > limit:
            raise refuse(MOVEMENT, f"{cmd.player} moves {limit} space(s) with {cmd.card} (movement "
                                   f"{p.counter.movement}) and this move covers {cost}")
        flow.check_cards(s, team, [cmd.card] + _plan_cards(cmd.dodges), MOVEMENT)
    else:
        options = _card_options(s, cmd.player, cost)
        if not options:
            raise refuse(MOVEMENT, f"no card {team.label} can hold moves {cmd.player} {cost} space(s)")
        if s.cards[team].hand < 1:
            raise refuse(MOVEMENT, f"{team.label} has no card to play")
    tx.emit(ev.MoveDeclared(cmd.player, path, cmd.card, cmd.dodges))
    if cmd.card is None:
        flow.open_choice(tx, team, f"{team.label}: which card moved {q.label(cmd.player, s)} to "
                                   f"{b.label(cmd.to)} ({cost} space(s))?",
                         tuple(options) + (CANCEL,), MoveCardCtx(cmd.player, path))
        return
    start_move(tx, cmd.player, path, cmd.card, cmd.dodges)


def _cheapest(s, ref: PlayerRef, start: Space, to: Space, carrier: bool) -> tuple[Space, ...]:
    found = q.board(s).cheapest(start, to, step_cost(s, ref, carrier))
    return found[1] if found else ()


def _plan_cards(plans: tuple[DodgePlan, ...]) -> list[Card]:
    return [c for plan in plans for c in (plan.card, plan.support_card) if c is not None]


def _check_plans(s, cmd: Move, needed: list[tuple[Space, Step]]) -> None:
    if len(cmd.dodges) > len(needed):
        raise refuse(MOVE_DODGE, f"this path needs {len(needed)} dodge(s), and {len(cmd.dodges)} were planned")
    supported = [i for i, plan in enumerate(cmd.dodges) if plan.supporter is not None]
    if len(supported) > 1 or (supported and s.turn.supported):
        raise refuse(SUPPORT, "no more than one dodge of a turn can be supported")
    for i in supported:
        plan = cmd.dodges[i]
        leaving, step = needed[i]
        if step is not Step.FORWARD:
            raise refuse(SUPPORT, "a supported dodge in a movement is made only in forward movements")
        check_support(s, cmd.player, leaving, plan.supporter, plan.support_card)
    for plan in cmd.dodges:
        if plan.card is None and plan.supporter is not None:
            raise refuse(SUPPORT, "name the dodge card of a supported dodge")


def check_support(s, ref: PlayerRef, space: Space, supporter: PlayerRef, support_card: Card | None) -> None:
    """4.2: a teammate in the same space; a card of his pass colour, unless his pass colour is
    the dodger's dodge colour."""
    sup = s.players.get(supporter)
    if sup is None or supporter.team is not ref.team or supporter == ref or sup.space != space or sup.goalkeeper:
        raise refuse(SUPPORT, f"the supporting counter is another attacker in {q.where(s, space)}")
    free = sup.counter.passing.colour is s.players[ref].counter.dodge.colour
    if free and support_card is not None:
        raise refuse(SUPPORT, f"{supporter}'s pass colour is {ref}'s dodge colour: the support needs no card")
    if not free:
        colour = sup.counter.passing.colour
        if support_card is None or support_card.colour is not colour:
            raise refuse(SUPPORT, f"spend a {colour.value.upper()} card (the colour of {supporter}'s pass) for "
                                  f"the support")


def _card_options(s, ref: PlayerRef, cost: int) -> list[str]:
    return [c.to_json() for c in sorted(q.cards_left(s, ref.team), key=lambda c: c.sort_key)
            if move_allowance(s, ref, c) >= cost]


# --- carrying it out -----------------------------------------------------------------------------

def start_move(tx: Tx, ref: PlayerRef, path: tuple[Space, ...], card: Card, plans: tuple[DodgePlan, ...]) -> None:
    s = tx.state
    flow.play(tx, ref.team, card, "movement")
    start = s.players[ref].space
    if s.ball == ref and dodges_needed(s, ref, start, path):
        tx.emit(ev.MovementSet(Movement(ref, start, path, card, plans)))
        return  # advance() walks the path, a dodge at a time
    finish_move(tx, ref, path[-1])


def finish_move(tx: Tx, ref: PlayerRef, dest: Space) -> None:
    s = tx.state
    main = s.turn.stage is Stage.START
    if s.movement is not None:
        tx.emit(ev.MovementSet(None))
    tx.emit(ev.CounterMoved(ref, dest))
    place_marker(tx, ref)
    if s.unmarked is not None and s.unmarked.player == ref:
        tx.emit(ev.UnmarkedSet(None))  # 4.1: a movement cannot end unmarked
    if not main:
        flow.set_stage(tx, Stage.DONE)
    elif tx.state.ball == ref:
        flow.set_stage(tx, Stage.CARRIER_MOVED)
    else:
        flow.set_stage(tx, Stage.AFTER_MAIN)


def place_marker(tx: Tx, ref: PlayerRef) -> None:
    """3.1: a Moved Marker on the counter; the fifth on the board clears the others, except
    the counter's own (Run) and those put earlier this turn."""
    s = tx.state
    team = ref.team
    on_board = sum(p.markers for p in q.on_pitch(s, team))
    cleared: tuple[PlayerRef, ...] = ()
    if on_board + 1 >= MARKERS:
        kept = set(s.turn.markers) if s.turn is not None else set()
        cleared = tuple(sorted(p.ref for p in q.on_pitch(s, team)
                               if p.markers and p.ref != ref and p.ref not in kept))
    tx.emit(ev.MarkerPlaced(ref, cleared))


def continue_movement(tx: Tx) -> None:
    """Walk the ball carrier's path; stop for a dodge wherever he leaves a defended space.
    ``movement.at`` is the next step to take, ``movement.dodges`` the dodges rolled so far
    (they come in path order)."""
    s = tx.state
    m = s.movement
    if s.ball != m.player:
        tx.emit(ev.MovementSet(None))
        return
    order = [leaving for leaving, _ in dodges_needed(s, m.player, m.start, m.path)]
    for at in range(m.at, len(m.path)):
        here = m.start if at == 0 else m.path[at - 1]
        if here in order and order.index(here) >= m.dodges:
            if at != m.at:
                m = replace(m, at=at)
                tx.emit(ev.MovementSet(m))
            open_move_dodge(tx, m, here)
            return
    finish_move(tx, m.player, m.path[-1])


def open_move_dodge(tx: Tx, m: Movement, leaving: Space) -> None:
    s = tx.state
    plan = m.plans[m.dodges] if m.dodges < len(m.plans) else DodgePlan()
    if plan.card is None:
        team = m.player.team
        options = tuple(c.to_json() for c in sorted(q.cards_left(s, team), key=lambda c: c.sort_key))
        flow.open_choice(tx, team, f"{team.label}: {q.label(m.player, s)} dodges to leave {q.where(s, leaving)}: "
                                   f"which card?", options, DodgeCardCtx(leaving))
        return
    roll_move_dodge(tx, m, leaving, plan)


def roll_move_dodge(tx: Tx, m: Movement, leaving: Space, plan: DodgePlan) -> None:
    s = tx.state
    ref = m.player
    team = ref.team
    p = s.players[ref]
    step = _step_from(s, m, leaving)
    base = dodge_difficulty([d.counter.defence.value for d in q.in_space(s, leaving, team.other)])
    supported = plan.supporter is not None
    difficulty = move_dodge_difficulty(base, step, supported)
    flow.play(tx, team, plan.card, "dodge (move and dodge)")
    if plan.support_card is not None:
        flow.play(tx, team, plan.support_card, "supported dodge")
    if supported:
        flow.note(tx, "supported", plan.supporter)
    two = q.has(s, ref, Ability.RUNNING_DODGE)
    kinds = (DieKind.D12, DieKind.D12) if two else (DieKind.D12,)
    label = f"{'supported ' if supported else ''}{step.value} dodge by #{ref.number} leaving {q.where(s, leaving)}"
    test = Test(team, label, DiceSpec(kinds, team), ref, difficulty, bonus(p.counter.dodge, plan.card))
    tx.emit(ev.MovementSet(replace(m, dodges=m.dodges + 1)))
    flow.open_roll(tx, (test,), MoveDodgeCtx(leaving))


def _step_from(s, m: Movement, leaving: Space) -> Step:
    return q.board(s).step(leaving, m.path[m.at], q.towards_high(s, m.player.team))


def resolve_move_dodge(tx: Tx, item: Roll) -> None:
    s = tx.state
    t = item.tests[0]
    ctx: MoveDodgeCtx = item.ctx
    m = s.movement
    if t.success:
        close(tx, item, verdict(t) + ": he goes on")
        tx.emit(ev.MovementSet(replace(m, at=m.at + 1)))
        return
    close(tx, item, verdict(t) + f": the movement stops in {q.where(s, ctx.leaving)} and the ball is lost")
    tx.emit(ev.MovementSet(None))
    if s.players[m.player].space != ctx.leaving:
        tx.emit(ev.CounterMoved(m.player, ctx.leaving))
    place_marker(tx, m.player)  # 4.1: "in every case a Moved Marker is placed"
    lose_ball(tx, ctx.leaving, m.player.team.other, "failed dodge")


def choose_move_card(tx: Tx, choice: Choice, option: str) -> None:
    ctx: MoveCardCtx = choice.ctx
    if option == CANCEL:
        return  # the movement is withdrawn: the counter goes back where it stood
    start_move(tx, ctx.player, ctx.path, Card.parse(option), ())


def choose_dodge_card(tx: Tx, choice: Choice, option: str) -> None:
    ctx: DodgeCardCtx = choice.ctx
    roll_move_dodge(tx, tx.state.movement, ctx.leaving, DodgePlan(Card.parse(option)))
