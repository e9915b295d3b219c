"""An automatic player for Fublet: answers whatever the rules core is waiting for.

Used by the benchmarks (to build long, realistic matches) and by tests (to shake the rules
with thousands of commands). It plays through the public surface only: it reads
``match.pending()`` and the folded state, and submits the same commands the tablet and the
devices send (rolls, choices, declarations, movements, placements, passes).

Two kinds of command:

- *expected* commands are ones the driver has made sure are legal (a roll of exactly the
  dice a request asks for, a pass of the turn by the coach whose turn it is, a short pass
  to a square in range...). A refusal of one of those raises ``UnexpectedRefusal`` with the
  command, the refusal and the state: it is worth a look in the rules.
- *speculative* commands (a random movement, a deflection call, a substitution...) may be
  refused; the refusal is recorded in ``driver.refusals`` and the driver falls back to an
  expected command.

``positions=True`` lines the figures up at every kick-off, so distances are measured from
the board (engagements, disputes and offside can happen); ``positions=False`` plays the
"positions unknown" way, giving distances with each declaration and saying who reaches a
loose ball.

Run it on its own to watch a match: ``python benchmarks/driver.py --seed 3 --commands 400``.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.board import grid_distance
from companion.commands import Choose, PlaceFigure, SubmitRoll
from companion.dice import Die, DieKind, DieResult, Roll
from companion.events import Source
from companion.fublet import commands as c
from companion.fublet import queries as q
from companion.fublet.components import Action, Components, MovementCosts, MpGain, load_components, shipped_team
from companion.fublet.model import ActionCtx, Phase, RestartKind, RoundKind, ShotPlan, Status, VolleyChoiceCtx, Zone
from companion.fublet.rules import FubletRules
from companion.match import Match
from companion.ruleset import Command, Request
from companion.teams import PlayerRef, Team

from benchmarks.driver_core import Refusal, Speculating, UnexpectedRefusal  # noqa: F401  (re-exported)

# Home defends x = 0. Outfield squares of a 4-4-2 in Home's half (MS), goalkeeper first.
HOME_SHAPE = ((1, 15), (8, 4), (8, 12), (8, 19), (8, 27), (16, 4), (16, 12), (18, 19), (16, 27), (22, 12),
              (22, 19))


@dataclass
class AutoDriver(Speculating):
    match: Match
    seed: int = 0
    positions: bool = True
    slow: bool = False  # short passes and many movements: long matches (for the benchmarks)
    components: Components | None = None  # the box data to play with; the shipped files by default
    source: Source = Source.MANUAL
    rng: random.Random = field(init=False)
    refusals: list[Refusal] = field(default_factory=list)
    commands: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    @classmethod
    def new(cls, seed: int = 0, positions: bool = True, journal=None, **kwargs: Any) -> "AutoDriver":
        return cls(Match(FubletRules(), journal), seed=seed, positions=positions, **kwargs)

    # --- playing ---------------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        s = self.match.state
        return s.created and s.phase is Phase.OVER

    def where(self) -> str:
        s = self.match.state
        return (f"phase {s.phase.value}, round {s.round}, turn {s.turn}, ball {s.ball}, restart {s.restart}\n"
                f"  last outcome: {s.last_outcome}")

    def _submit(self, cmd: Command) -> None:
        source = self.source
        if isinstance(cmd, SubmitRoll):
            source = cmd.roll.source
        elif isinstance(cmd, PlaceFigure) and cmd.square is not None:
            source = Source.VISION  # the camera sees the line-up
        self.match.submit(cmd, source)
        self.commands += 1

    # --- choosing a command -------------------------------------------------------------------------
    def propose(self) -> tuple[list[Command], Command]:
        """Speculative commands to try first (may be refused), then one expected to be legal."""
        m = self.match
        s = m.state
        requests = m.pending()
        if not s.created:
            return [], c.CreateMatch(shipped_team("rovers"), shipped_team("harbour"),
                                     self.components or load_components())
        for req in requests:
            if req.kind == "dice":
                return self.deflection(), self.roll_for(req)
        for req in requests:
            if req.kind == "choice":
                return self.choose(req)
        if not requests:
            raise AssertionError(f"nothing is pending in phase {s.phase.value} and the match is not over")
        req = requests[0]
        if req.id == "board":
            taken = set(s.boards.values())
            free = [b.id for b in s.components.tactical_boards if b.id not in taken]
            return [], c.ChooseBoard(req.team, self.rng.choice(free))
        if req.id == "kick_off":
            return [], self.kick_off(req.team)
        if req.id == "reach_ball":
            return [], self.reach_ball()
        if req.id == "move":
            return self.movement(req)
        if req.id == "shootout":
            return [], self.shootout_kick(req.team)
        if req.id == "declare":
            return self.declare()
        if req.id.startswith("restart"):
            return self.restart_step(requests)
        raise AssertionError(f"the driver does not know request {req.id!r}: {req.text}")

    # --- dice and choices ---------------------------------------------------------------------------
    def roll_for(self, req: Request) -> SubmitRoll:
        spec = req.dice
        colours = ("black", "white") if spec.kinds == (DieKind.D10, DieKind.D10) else ()
        dice = []
        for i, kind in enumerate(spec.kinds):
            face = self.rng.randint(kind.lowest, kind.highest)
            dice.append(DieResult(Die(kind, colours[i] if i < len(colours) else "", spec.owner), face))
        source = self.rng.choice((Source.TRAY, Source.MANUAL, Source.SOFTWARE))
        device = {Source.TRAY: "tray-1", Source.MANUAL: "keypad", Source.SOFTWARE: f"software seed={self.seed}"}
        return SubmitRoll(Roll(tuple(dice), source, device[source]), req.id)

    def deflection(self) -> list[Command]:
        """Now and then a defender tries to deflect a pass before it is rolled."""
        s = self.match.state
        d = s.declaration
        if (s.phase is not Phase.OUTCOME or d is None or not d.action.is_pass or not s.queue
                or not isinstance(getattr(s.queue[0], "ctx", None), ActionCtx)
                or s.queue[0].tests[0].result is not None or self.rng.random() > 0.15):
            return []
        passer = s.players[d.player]
        defenders = [p.ref for p in q.on_pitch(s, d.team.other) if not p.injured and p.ref not in d.deflectors
                     and (passer.ms is None or p.ms is None
                          or abs(p.ms[0] - passer.ms[0]) + abs(p.ms[1] - passer.ms[1]) == 1)]
        return [c.CallDeflection(self.rng.choice(defenders))] if defenders else []

    def choose(self, req: Request) -> tuple[list[Command], Command]:
        s = self.match.state
        head = s.queue[0] if s.queue else None
        speculative: list[Command] = []
        if head is not None and isinstance(getattr(head, "ctx", None), VolleyChoiceCtx) and self.rng.random() < 0.5:
            keeper = q.goalkeeper(s, head.player.team.other)
            known = keeper is not None and keeper.ms is not None
            speculative.append(c.Volley(head.player, ShotPlan(tokens=(5,), save_token=5,
                                                              gk_dive=None if known else 1)))
        # "volley" is answered with a Volley command (it needs its tokens), never a bare choice.
        options = [o for o in req.options if o != "volley"] or list(req.options)
        return speculative, Choose(req.id, self.rng.choice(options))

    # --- set pieces -----------------------------------------------------------------------------------
    def shape(self, team: Team) -> list[tuple[int, int]]:
        b = q.board(self.match.state)
        if q.own_end(self.match.state, team) == "low":
            return list(HOME_SHAPE)
        return [(b.ms_cols - 1 - x, b.ms_rows - 1 - y) for x, y in HOME_SHAPE]

    def lineup_moves(self) -> list[PlaceFigure]:
        """Placements that bring every figure on the pitch to its kick-off square: first
        the misplaced figures are lifted off the board, then each is put down."""
        s = self.match.state
        wanted: dict[PlayerRef, tuple[int, int]] = {}
        for team in (Team.HOME, Team.AWAY):
            players = sorted(q.on_pitch(s, team), key=lambda p: (not p.goalkeeper, p.ref.number))
            for p, square in zip(players, self.shape(team)):
                wanted[p.ref] = square
        # Lift every misplaced figure first: one in the way could hold a square, or be the
        # third of a team in a pass square.
        lift = [PlaceFigure(ref) for ref, p in s.players.items()
                if p.on_pitch and p.ms is not None and p.ms != wanted.get(ref)]
        if lift:
            return lift[:1]
        facing = {Team.HOME: 0 if q.own_end(s, Team.HOME) == "low" else 180}
        facing[Team.AWAY] = 180 - facing[Team.HOME]
        return [PlaceFigure(ref, square=sq, facing=facing[ref.team]) for ref, sq in wanted.items()
                if s.players[ref].ms != sq][:1]

    def kick_off(self, team: Team) -> Command:
        s = self.match.state
        if self.positions:
            moves = self.lineup_moves()
            if moves:
                return moves[0]
        else:  # positions unknown, except where the rules put someone: lift those off
            for p in q.on_pitch(s):
                if p.ms is not None:
                    return PlaceFigure(p.ref)
        mates = [p for p in q.on_pitch(s, team) if not p.goalkeeper]
        if self.positions:
            mates = [p for p in mates if p.ms is not None and q.zone_of(s, team, p.ms) is Zone.MIDFIELD]
        return c.KickOff(self.rng.choice(mates).ref)

    def shootout_kick(self, team: Team) -> Command:
        s = self.match.state
        taken = [k.kicker for k in s.shootout if k.team is team]
        eligible = [p.ref for p in q.on_pitch(s, team)]
        fewest = min(taken.count(r) for r in eligible)
        return c.TakeShootoutKick(self.rng.choice([r for r in eligible if taken.count(r) == fewest]))

    def restart_step(self, requests: tuple[Request, ...]) -> tuple[list[Command], Command]:
        from companion.fublet.restarts import (FREE_KICK_DISTANCE_MS, kicker_off_the_spot, place_kicker, step_team,
                                               steps)

        s = self.match.state
        r = s.restart
        # Defenders too close to a free kick or corner spot, or players in the way of a
        # penalty: a coach's hand puts them elsewhere (placement is free at a restart).
        blocked = []
        if r.spot_ms is not None and r.kind in (RestartKind.FREE_KICK, RestartKind.CORNER):
            blocked = [p for p in q.on_pitch(s, r.team.other)
                       if p.ms is not None and grid_distance(p.ms, r.spot_ms) <= FREE_KICK_DISTANCE_MS]
        if r.kind is RestartKind.PENALTY:
            end = q.own_end(s, r.team.other)
            blocked = [p for p in q.on_pitch(s) if p.ms is not None and q.ms_in(s, "penalty_area", end, p.ms)
                       and p.ref != r.taker and not (p.goalkeeper and p.ref.team is r.team.other)]
        if blocked:
            p = blocked[0]
            return [], PlaceFigure(p.ref, square=self.free_square(p.ref, away_from=r.spot_ms or p.ms,
                                                                  min_distance=6,
                                                                  avoid_area=r.kind is RestartKind.PENALTY))
        if r.kind is RestartKind.PENALTY and kicker_off_the_spot(s, r):
            spot = place_kicker(s, r)   # one of the two MS by the penalty spot (F43a)
            if spot is not None:
                return [], PlaceFigure(r.taker, square=spot)
        if r.step < steps(r.kind):
            team = step_team(r)
            if (r.kind is RestartKind.FREE_KICK and r.step == 0 and not r.wall and team is r.team.other
                    and self.rng.random() < 0.5):
                wall = [p.ref for p in q.on_pitch(s, team) if not p.goalkeeper and not p.injured]
                self.rng.shuffle(wall)
                return [c.SetWall(team, tuple(wall[:self.rng.randint(1, 4)]))], c.PassTurn(team)
            return [], c.PassTurn(team)
        if r.taker is None:
            players = q.on_pitch(s, r.team)
            if r.kind is RestartKind.GOAL_KICK:
                takers = [p for p in players if p.goalkeeper]
            else:
                takers = [p for p in players if not p.goalkeeper and not p.injured]
            if r.spot_ms is not None and all(p.ms is not None for p in takers):
                takers.sort(key=lambda p: grid_distance(p.ms, r.spot_ms))
                takers = takers[:3]
            return [], c.ChooseTaker(self.rng.choice(takers).ref)
        raise AssertionError("restart blockers the driver cannot clear: " + "; ".join(x.text for x in requests))

    def free_square(self, ref: PlayerRef, away_from, min_distance: int, avoid_area: bool) -> tuple[int, int]:
        """A free MS in the player's own half, at least ``min_distance`` from a spot."""
        s = self.match.state
        b = q.board(s)
        end = q.own_end(s, ref.team)
        candidates = [(x, y) for x in range(b.ms_cols) for y in range(b.ms_rows)]
        self.rng.shuffle(candidates)
        for sq in candidates:
            if away_from is not None and grid_distance(sq, away_from) < min_distance:
                continue
            if avoid_area and (q.ms_in(s, "penalty_area", "low", sq) or q.ms_in(s, "penalty_area", "high", sq)):
                continue
            if not q.ms_in(s, "half", end, sq) or not self.square_ok(ref, sq):
                continue
            return sq
        raise AssertionError(f"no free square for {ref}")

    def square_ok(self, ref: PlayerRef, sq, ignore: tuple[PlayerRef, ...] = ()) -> bool:
        """One figure per MS, at most two of a team per PS."""
        s = self.match.state
        b = q.board(s)
        if not b.is_ms(sq) or q.occupant(s, sq, ignore=(ref,) + ignore) is not None:
            return False
        mates = [r for r in q.players_in_ps(s, b.ms_to_ps(sq), ref.team) if r != ref and r not in ignore]
        return len(mates) < 2

    # --- declarations -------------------------------------------------------------------------------------
    def declare(self) -> tuple[list[Command], Command]:
        s = self.match.state
        carrier = s.ball.carrier
        team = carrier.team
        p = s.players[carrier]
        b = q.board(s)
        restart = s.restart if s.phase is Phase.RESTART else None
        start_ps = b.ms_to_ps(p.ms) if p.ms is not None else None
        if restart is not None and restart.spot_ps is not None:
            start_ps = restart.spot_ps  # a set piece starts where the ball was placed
        attacked = q.attacked_end(s, team)
        allowed = {
            None: (Action.SHORT_PASS, Action.LONG_PASS, Action.CROSS, Action.FINALIZATION, Action.LONG_SHOT,
                   Action.KEEP_AND_RUN, Action.SPEED_DRIBBLING),
            RestartKind.FREE_KICK: (Action.SHORT_PASS, Action.LONG_PASS, Action.CROSS, Action.LONG_SHOT),
            RestartKind.CORNER: (Action.CROSS, Action.SHORT_PASS, Action.LONG_PASS, Action.LONG_SHOT),
            RestartKind.GOAL_KICK: (Action.SHORT_PASS, Action.LONG_PASS),
            RestartKind.THROW_IN: (Action.SHORT_PASS,),
            RestartKind.PENALTY: (Action.FINALIZATION,),
        }[restart.kind if restart else None]
        if restart is not None and restart.kind is RestartKind.PENALTY:
            return [], c.Declare(carrier, Action.FINALIZATION)
        speculative: list[Command] = []
        roll = self.rng.random() * (20 if self.slow else 1)
        in_their_half = start_ps is None or q.ps_in(s, "half", attacked, start_ps)
        in_box = start_ps is not None and q.ps_in(s, "penalty_area", attacked, start_ps)
        if roll < 0.25 and in_their_half:
            action = Action.FINALIZATION if (in_box or start_ps is None) else Action.LONG_SHOT
            if action in allowed:
                speculative.append(self.shot(carrier, action))
        elif roll < 0.35 and Action.CROSS in allowed and (start_ps is None or q.ps_in(s, "cross_area", attacked,
                                                                                        start_ps)):
            box = b.area_squares(f"penalty_area_{attacked}")
            target = self.rng.choice(box)
            speculative.append(c.Declare(carrier, Action.CROSS, target_ps=target,
                                         distance=None if start_ps is not None else 8))
        elif roll < 0.45 and Action.LONG_PASS in allowed:
            speculative.append(self.pass_to(carrier, Action.LONG_PASS, start_ps))
        elif roll < 0.55 and Action.KEEP_AND_RUN in allowed:
            speculative.append(self.run(carrier, Action.KEEP_AND_RUN))
        elif roll < 0.6 and Action.SPEED_DRIBBLING in allowed:
            speculative.append(self.run(carrier, Action.SPEED_DRIBBLING))
        speculative = [cmd for cmd in speculative if cmd is not None]
        if Action.SHORT_PASS in allowed:
            expected = self.pass_to(carrier, Action.SHORT_PASS, start_ps)
        else:
            expected = self.pass_to(carrier, Action.LONG_PASS, start_ps)
        if expected is None:
            expected = speculative.pop() if speculative else self.shot(carrier, Action.FINALIZATION)
        return speculative, expected

    def pass_to(self, carrier: PlayerRef, action: Action, start_ps) -> Command | None:
        """A pass to a teammate's PS in range when possible, else to any PS in range."""
        s = self.match.state
        b = q.board(s)
        low, high = (1, 6) if action is Action.SHORT_PASS else (7, 12)
        if self.slow and action is Action.SHORT_PASS:
            high = 1
        if start_ps is None:
            target = (self.rng.randrange(b.ps_cols), self.rng.randrange(b.ps_rows))
            return c.Declare(carrier, action, target_ps=target, distance=self.rng.randint(low, high))
        mates = [b.ms_to_ps(p.ms) for p in q.on_pitch(s, carrier.team)
                 if p.ref != carrier and p.ms is not None and low <= grid_distance(start_ps, b.ms_to_ps(p.ms)) <= high]
        if mates and self.rng.random() < 0.8:
            return c.Declare(carrier, action, target_ps=self.rng.choice(mates))
        squares = [(x, y) for x in range(b.ps_cols) for y in range(b.ps_rows)
                   if low <= grid_distance(start_ps, (x, y)) <= high]
        if not squares:
            return None
        return c.Declare(carrier, action, target_ps=self.rng.choice(squares))

    def shot(self, carrier: PlayerRef, action: Action) -> Command:
        s = self.match.state
        tokens = tuple(self.rng.choice((5, 10)) for _ in range(self.rng.randint(1, 3)))
        gk = q.goalkeeper(s, carrier.team.other)
        dive = None
        if gk is None or gk.ms is None or s.players[carrier].ms is None:
            dive = self.rng.randint(0, 3)
        return c.Declare(carrier, action, shot=ShotPlan(tokens=tokens, save_token=self.rng.choice((5, 10)),
                                                        gk_dive=dive))

    def run(self, carrier: PlayerRef, action: Action) -> Command | None:
        s = self.match.state
        p = s.players[carrier]
        opponents = tuple(o.ref for o in q.on_pitch(s, carrier.team.other) if not o.injured)
        opponents = (self.rng.choice(opponents),) if action is Action.SPEED_DRIBBLING and opponents else ()
        if p.ms is None:
            b = q.board(s)
            target = (self.rng.randrange(b.ms_cols), self.rng.randrange(b.ms_rows))
            return c.Declare(carrier, action, target_ms=target, distance=self.rng.randint(1, p.speed),
                             opponents=opponents)
        fwd = q.forward(s, carrier.team)
        for _ in range(10):
            dx = fwd * self.rng.randint(1, p.speed)
            dy = self.rng.randint(-2, 2)
            to = (p.ms[0] + dx, p.ms[1] + dy)
            if self.square_ok(carrier, to) and (q.move_cost(s, p, to) or 0) <= p.speed:
                return c.Declare(carrier, action, target_ms=to, opponents=opponents)
        return None

    # --- movement ---------------------------------------------------------------------------------------------
    def movement(self, req: Request) -> tuple[list[Command], Command]:
        s = self.match.state
        team = req.team or self.rng.choice((Team.HOME, Team.AWAY))
        speculative: list[Command] = []
        offside = self.offside()
        if offside is not None:
            speculative.append(offside)
        if self.positions and self.rng.random() < (0.9 if self.slow else 0.6) and self.affordable(team):
            move = self.some_move(team)
            if move is not None:
                speculative.append(move)
        elif not self.positions and s.phase is Phase.MOVEMENT and self.rng.random() < 0.05:
            speculative.append(self.some_substitution(team))
        return [m for m in speculative if m is not None], c.PassTurn(team)

    def affordable(self, team: Team) -> bool:
        s = self.match.state
        if s.phase is Phase.MOVEMENT and s.round_kind is RoundKind.TRANSITION:
            return True  # zone movements are free in a transition round
        board = q.tactical_board(s, team)
        kind = "tactical" if s.phase is Phase.TACTICAL_MOVEMENT else "single"
        return board is None or s.mp[team] >= getattr(board.costs, kind)

    def offside(self) -> Command | None:
        """Now and then the defending coach springs the offside trap after a pass."""
        s = self.match.state
        d = s.declaration
        if (s.phase is not Phase.MOVEMENT or s.moves_this_phase or s.queue or d is None or not d.action.is_pass
                or s.ball.carrier is not None or self.rng.random() > 0.1):
            return None
        attackers = [p for p in q.on_pitch(s, d.team) if p.ref != d.player and not p.goalkeeper]
        defenders = [p for p in q.on_pitch(s, d.team.other) if p.status is Status.READY and not p.goalkeeper
                     and not p.injured]
        if not attackers or len(defenders) < 2:
            return None
        attacker = self.rng.choice(attackers)
        line = self.rng.sample(defenders, 2)
        if attacker.ms is None or any(p.ms is None for p in line):
            return c.CallOffside(attacker.ref, tuple(p.ref for p in line))
        back = -q.forward(s, d.team)
        destinations = ((attacker.ms[0] + back, attacker.ms[1] - 1), (attacker.ms[0] + back, attacker.ms[1] + 1))
        return c.CallOffside(attacker.ref, tuple(p.ref for p in line), destinations)

    def some_move(self, team: Team) -> Command | None:
        s = self.match.state
        ready = [p for p in q.on_pitch(s, team) if p.status is Status.READY and not p.injured
                 and p.ms is not None and s.ball.carrier != p.ref]
        if not ready:
            return None
        target = self.ball_ms()
        if s.phase is Phase.MOVEMENT and s.round_kind is RoundKind.TRANSITION:
            zone = self.rng.choice(list(Zone))
            movers = [p for p in ready if q.zone_of(s, team, p.ms) is zone][:3]
            moves = []
            taken: set = set()
            for p in movers:
                to = self.step_towards(p, target, min(s.zone_pace, p.speed), tuple(r.ref for r in movers), taken)
                if to is not None:
                    moves.append((p.ref, to))
                    taken.add(to)
            return c.ZoneMove(team, zone, tuple(moves)) if moves else None
        p = self.rng.choice(ready)
        limit = min(s.pace, p.speed)
        if s.phase is Phase.MOVEMENT and s.ball.carrier is not None and s.ball.carrier.team is not team:
            engage = self.engage(p, limit)
            if engage is not None:
                return engage
        to = self.step_towards(p, target, limit, (), set())
        if to is None:
            return None
        if s.phase is Phase.TACTICAL_MOVEMENT:
            return c.TacticalMove(p.ref, to)
        return c.Move(p.ref, to)

    def engage(self, p, limit: int) -> Command | None:
        s = self.match.state
        carrier = s.players[s.ball.carrier]
        if carrier.ms is None:
            return None
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            to = (carrier.ms[0] + dx, carrier.ms[1] + dy)
            cost = q.move_cost(s, p, to)
            if cost is not None and cost + 1 <= limit and self.square_ok(p.ref, to):
                return c.Move(p.ref, to, engage=True)
        return None

    def ball_ms(self):
        s = self.match.state
        b = q.board(s)
        ps = q.ball_ps(s)
        return b.ps_cells(ps)[0] if ps is not None else (b.ms_cols // 2, b.ms_rows // 2)

    def step_towards(self, p, target, limit: int, ignore, taken) -> tuple[int, int] | None:
        s = self.match.state
        best = None
        for dx in range(-limit, limit + 1):
            for dy in range(-limit, limit + 1):
                to = (p.ms[0] + dx, p.ms[1] + dy)
                if to == p.ms or to in taken:
                    continue
                cost = q.move_cost(s, p, to)
                if cost is None or cost > limit or (q.is_backward(p, to) and s.pace <= 2):
                    continue
                if not self.square_ok(p.ref, to, ignore):
                    continue
                key = grid_distance(to, target)
                if best is None or key < best[0]:
                    best = (key, to)
        return best[1] if best else None

    def some_substitution(self, team: Team) -> Command | None:
        s = self.match.state
        on = q.bench(s, team)
        off = [p for p in q.on_pitch(s, team) if not p.goalkeeper]
        if not on or not off:
            return None
        return c.CallSubstitution(team, self.rng.choice(off).ref, self.rng.choice(on).ref)

    # --- transition rounds ---------------------------------------------------------------------------------------
    def reach_ball(self) -> Command:
        s = self.match.state
        candidates = [p.ref for p in q.on_pitch(s) if not p.injured and p.status is not Status.STUNNED
                      and not p.goalkeeper]
        return c.ReachBall((self.rng.choice(candidates),), self.rng.randint(0, 6))


def busy_components() -> Components:
    """The shipped box data with every tactical board earning 10 MP per declaration and
    charging 1 MP per movement: coaches move most of their players every round, so a match
    runs to several thousand events (for the benchmarks)."""
    comps = load_components()
    boards = tuple(replace(b, mp={a: MpGain(10, 10) for a in b.mp}, costs=MovementCosts(1, 1, 1, 1))
                   for b in comps.tactical_boards)
    return replace(comps, tactical_boards=boards)


def long_match(min_events: int, seed: int = 0, journal=None) -> AutoDriver:
    """A Fublet match of at least ``min_events`` events, played by the driver in its slow
    style on busy boards (a seed whose match ends too early is skipped)."""
    for attempt in range(seed, seed + 50):
        driver = AutoDriver.new(seed=attempt, slow=True, components=busy_components(), journal=journal)
        driver.play(events=min_events)
        if driver.match.last_seq >= min_events:
            return driver
        if journal is not None:
            raise RuntimeError(f"seed {attempt}: the match ended after {driver.match.last_seq} events")
    raise RuntimeError(f"no match reached {min_events} events")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--commands", type=int, default=300)
    parser.add_argument("--unknown-positions", action="store_true")
    parser.add_argument("--slow", action="store_true", help="short passes, many movements: a long match")
    parser.add_argument("--out", help="write the match as JSON Lines here")
    args = parser.parse_args(argv)
    driver = AutoDriver.new(seed=args.seed, positions=not args.unknown_positions, slow=args.slow)
    driver.play(commands=args.commands)
    summary = driver.match.summary()
    print(f"{driver.commands} commands, {driver.match.last_seq} events, {len(driver.refusals)} speculative "
          f"refusals; {summary['teams']['home']} {summary['score']['home']} - {summary['score']['away']} "
          f"{summary['teams']['away']}, {summary['half']} {summary['minute']}', phase {summary['phase']}")
    if args.out:
        from companion.jsonl import export_lines
        with open(args.out, "w", encoding="utf-8") as out:
            export_lines(((e, "active") for e in driver.match.events), out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
