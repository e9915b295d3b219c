"""An automatic player for the Fußball-Liga variant: answers whatever the rules core waits for.

Used by property tests (to shake the rules with random legal play) and to build long
matches. It plays through the public surface only: it reads ``match.pending()`` and the
folded state, and submits the commands the tablet and the devices send (rolls from any
source, choices, kicks, interceptions, moves, tackles, placements, passes, time-up
proposals from a clock it moves itself).

Each step the driver builds candidate commands for what is pending, keeps those the rules
accept (``ruleset.decide`` is pure, so asking changes nothing) and submits one at random.
A state where no candidate is accepted raises ``Stuck``: the rules must always leave the
coaches a way on.

Run it on its own to watch a match: ``python benchmarks/fussball_liga_driver.py --seed 3``.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.commands import Choose, PlaceFigure, SubmitRoll
from companion.dice import Die, DieResult, Roll
from companion.errors import RuleViolation
from companion.events import Source
from companion.fussball_liga import commands as c
from companion.fussball_liga import queries as q
from companion.fussball_liga.clock import Instant
from companion.fussball_liga.components import load_components, shipped_team
from companion.fussball_liga.flow import follow_up_player
from companion.fussball_liga.model import Control, Options, Phase, PhaseLimit, RestartKind, SetupStep
from companion.fussball_liga.pitch import dist, straight_path
from companion.fussball_liga.ranges import reachable
from companion.fussball_liga.restarts import taker_squares
from companion.fussball_liga.rules import FussballLigaRules
from companion.match import Match
from companion.ruleset import Command
from companion.teams import PlayerRef, Team

START = datetime(2026, 11, 30, 18, 0, 0, tzinfo=timezone.utc)

# Kicking side's shape when defending the low goal (#9 on a kick-off square), and the other
# side's (out of the centre circle); mirrored for the high goal.
KICKING = {1: (0, 10), 2: (4, 3), 3: (4, 8), 4: (4, 12), 5: (4, 16), 6: (9, 4), 7: (9, 8), 8: (9, 12),
           10: (9, 16), 9: (14, 9), 11: (13, 12)}
WAITING = {1: (0, 10), 2: (4, 3), 3: (4, 8), 4: (4, 12), 5: (4, 16), 6: (9, 4), 7: (9, 8), 8: (9, 12),
           10: (9, 16), 9: (11, 9), 11: (11, 12)}


class Stuck(AssertionError):
    """No candidate command was accepted: the rules left the coaches no way on."""


@dataclass
class DriverClock:
    now: datetime = START

    def __call__(self) -> datetime:
        return self.now


@dataclass
class LigaDriver:
    match: Match
    seed: int = 0
    clock: DriverClock = field(default_factory=DriverClock)
    options: Options = Options()
    rng: random.Random = field(init=False)
    commands: int = 0
    refusals: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    @classmethod
    def new(cls, seed: int = 0, journal=None, **options: Any) -> "LigaDriver":
        clock = DriverClock()
        opts = Options(**{"half_minutes": 2, **options})
        return cls(Match(FussballLigaRules(), journal, clock=clock), seed=seed, clock=clock, options=opts)

    @property
    def over(self) -> bool:
        s = self.match.state
        return s.created and s.phase is Phase.OVER

    def play(self, commands: int | None = None) -> int:
        played = 0
        while not self.over and (commands is None or played < commands):
            self.step()
            played += 1
        return played

    def step(self) -> Command:
        self.clock.now += timedelta(seconds=self.rng.choice((0.5, 1, 2, 3, 5, 8)))
        s = self.match.state
        if not s.created:
            cmd = c.CreateMatch(shipped_team("rotstein"), shipped_team("gruenwald"), load_components(), self.options)
            self.match.submit(cmd)
            return cmd
        candidates = self.candidates()
        ruleset = self.match.ruleset
        self.rng.shuffle(candidates)
        candidates.sort(key=lambda wc: -wc[0] * self.rng.random())
        for _, cmd in candidates:
            try:
                ruleset.decide(s, cmd)
            except RuleViolation:
                self.refusals += 1
                continue
            source = cmd.roll.source if isinstance(cmd, SubmitRoll) else (
                Source.VISION if isinstance(cmd, (PlaceFigure, c.Move)) and self.rng.random() < 0.5 else Source.MANUAL)
            self.match.submit(cmd, source)
            self.commands += 1
            return cmd
        pending = "; ".join(f"{r.id}: {r.text}" for r in self.match.pending()) or "nothing"
        raise Stuck(f"no candidate accepted in phase {s.phase.value}, turn {s.turn_no}, ball {s.ball}, "
                    f"restart {s.restart}\n  pending: {pending}\n  tried: {[cmd for _, cmd in candidates][:12]}")

    # --- candidates: (weight, command) ---------------------------------------------------------------
    def candidates(self) -> list[tuple[float, Command]]:
        s = self.match.state
        out: list[tuple[float, Command]] = self.time_up()
        if s.queue:
            req = self.match.pending()[0]
            if req.kind == "dice":
                return out + [(5, self.roll(req))]
            return out + [(1, Choose(req.id, o)) for o in req.options]
        phase = s.phase
        if phase is Phase.LINE_UP:
            return out + self.line_up()
        if phase is Phase.SET_UP:
            return out + self.set_up()
        if phase is Phase.SHOT:
            return out + self.shot_phase()
        if phase is Phase.MOVEMENT:
            return out + self.movement()
        if phase is Phase.SHOOTOUT:
            return out + self.shootout()
        return out

    def time_up(self) -> list[tuple[float, Command]]:
        s = self.match.state
        at = Instant.of(self.clock.now)
        out: list[tuple[float, Command]] = []
        if s.clocks.half_on and not s.half_time_up:
            out.append((50, c.CallTimeUp("half", at)))
        if s.options.phase_limit is PhaseLimit.EGG_TIMER and s.phase.in_play and self.rng.random() < 0.3:
            out.append((3, c.CallTimeUp("phase", at)))
        if s.options.phase_limit is PhaseLimit.CHESS_CLOCK and s.phase.in_play and self.rng.random() < 0.3:
            out += [(3, c.CallTimeUp("phase", at, t)) for t in (Team.HOME, Team.AWAY)]
        if s.clocks.half_on and self.rng.random() < 0.02:
            out.append((1, c.ResumeClock() if s.clocks.paused else c.PauseClock("driver")))
        if s.clocks.paused:
            out.append((20, c.ResumeClock()))
        return out

    def roll(self, req) -> SubmitRoll:
        spec = req.dice
        faces = [DieResult(Die(k, "", spec.owner), self.rng.randint(1, 6)) for k in spec.kinds]
        source = self.rng.choice((Source.TRAY, Source.MANUAL, Source.SOFTWARE))
        device = {Source.TRAY: "tray-1", Source.MANUAL: "keypad", Source.SOFTWARE: f"software seed={self.seed}"}
        return SubmitRoll(Roll(tuple(faces), source, device[source]), req.id)

    # --- placing figures -----------------------------------------------------------------------------
    def shape(self, team: Team, kicking: bool) -> dict[int, tuple[int, int]]:
        s = self.match.state
        pitch = q.pitch(s)
        base = KICKING if kicking else WAITING
        if s.end_of(team) == "high":
            base = {n: (pitch.cols - 1 - sq[0], pitch.rows - 1 - sq[1]) for n, sq in base.items()}
        return base

    def wanted(self, kicker: Team) -> dict[PlayerRef, tuple[int, int]]:
        s = self.match.state
        out = {}
        for team in (Team.HOME, Team.AWAY):
            shape = self.shape(team, team is kicker)
            players = sorted(q.on_pitch(s, team), key=lambda p: (not p.goalkeeper, p.ref.number))
            for p, sq in zip(players, [shape[1]] + [sq for n, sq in shape.items() if n != 1], strict=False):
                out[p.ref] = sq
        return out

    def line_up(self) -> list[tuple[float, Command]]:
        s = self.match.state
        r = s.restart
        wanted = self.wanted(r.team)
        lift = [PlaceFigure(ref) for ref, sq in wanted.items()
                if s.players[ref].square is not None and s.players[ref].square != sq]
        if lift:
            return [(1, lift[0])]
        place = [PlaceFigure(ref, square=sq) for ref, sq in wanted.items() if s.players[ref].square != sq]
        if place:
            return [(1, place[0])]
        out = []
        for ref in (p.ref for p in q.placed(s, r.team) if p.square in q.pitch(s).kick_off_squares[s.end_of(r.team)]):
            for mate in q.placed(s, r.team):
                for sq in self.around(mate.square):
                    if mate.ref != ref and straight_path(s.players[ref].square, sq):
                        out.append((1, c.Kick(ref, sq, receiver=mate.ref if sq != mate.square else None)))
        return out

    def around(self, sq) -> list[tuple[int, int]]:
        return [(sq[0] + dc, sq[1] + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1)]

    def free_square(self, ref: PlayerRef, ok) -> tuple[int, int] | None:
        s = self.match.state
        taken = q.positions(s)
        squares = list(q.pitch(s).field_squares())
        self.rng.shuffle(squares)
        for sq in squares:
            if sq not in taken and ok(sq):
                return sq
        return None

    # --- stoppages ---------------------------------------------------------------------------------
    def set_up(self) -> list[tuple[float, Command]]:
        s = self.match.state
        r = s.restart
        if r.kind is RestartKind.PENALTY:
            return self.penalty_setup()
        from companion.fussball_liga.restarts import setup_problems

        mover = r.team.other if r.step is SetupStep.DEFENDER else r.team
        out: list[tuple[float, Command]] = [(1, c.PassTurn(mover))]
        problems = setup_problems(s, r, mover)
        if mover is not r.team:
            for p in q.placed(s, mover):
                bad = any(str(p.ref) in x for x in problems)
                if bad:
                    for sq in reachable(s, p.ref):
                        out.append((3, c.Move(p.ref, sq)))
                    if r.spot is not None:
                        spot = self.free_square(p.ref, lambda sq: dist(sq, r.spot) >= 4
                                                and not q.in_penalty_area(s, s.end_of(r.team), sq))
                    else:
                        spot = self.free_square(p.ref, lambda sq: not q.in_penalty_area(s, s.end_of(r.team), sq))
                    if spot is not None:
                        out.append((0.5, PlaceFigure(p.ref, square=spot, correction=True)))
        else:
            spots = taker_squares(s, r, r.team)
            if problems:
                for p in q.placed(s, r.team):
                    if p.goalkeeper and r.kind is not RestartKind.GOAL_KICK:
                        continue
                    for sq in spots:
                        out.append((5, c.Move(p.ref, sq)))
                nearest = min(q.placed(s, r.team), key=lambda p: min(dist(p.square, sq) for sq in spots))
                for sq in spots:
                    if q.occupant(s, sq) is None:
                        out.append((0.5, PlaceFigure(nearest.ref, square=sq, correction=True)))
            elif self.rng.random() < 0.3:
                for p in self.rng.sample(q.placed(s, r.team), 3):
                    for sq in list(reachable(s, p.ref))[:5]:
                        out.append((0.5, c.Move(p.ref, sq)))
        if self.rng.random() < 0.05:
            bench = [p.ref for p in s.players.values() if p.ref.team is mover and p.where.value == "bench"
                     and not p.card.goalkeeper]
            field = [p.ref for p in q.placed(s, mover) if not p.goalkeeper and p.ref != s.ball.holder]
            if bench and field:
                out.append((2, c.Substitute(self.rng.choice(field), self.rng.choice(bench))))
        return out

    def penalty_setup(self) -> list[tuple[float, Command]]:
        s = self.match.state
        r = s.restart
        end = s.end_of(r.team.other)
        areas = q.pitch(s).ends[end]
        gk = q.goalkeeper(s, r.team.other)
        kicker = next((p for p in q.placed(s, r.team) if p.square in areas.penalty_squares), None)
        for p in q.placed(s):
            if (gk is not None and p.ref == gk.ref) or (kicker is not None and p.ref == kicker.ref):
                continue
            wrong_half = p.ref.team is not r.team and q.pitch(s).half_of(p.square) == s.end_of(r.team)
            if areas.in_penalty_area(p.square) or p.square in areas.penalty_circle or wrong_half:
                spot = self.free_square(p.ref, lambda sq: not areas.in_penalty_area(sq) and sq not in
                                        areas.penalty_circle and q.pitch(s).half_of(sq) == end and dist(sq, areas.penalty_squares[0]) > 2)
                return [(1, PlaceFigure(p.ref, square=spot))]
        if kicker is None:
            for sq in areas.penalty_squares:
                if q.occupant(s, sq) is None:
                    taker = self.rng.choice([p for p in q.placed(s, r.team) if not p.goalkeeper])
                    return [(1, PlaceFigure(taker.ref, square=sq))]
        if gk is not None:
            numbers = areas.goal_numbers
            if gk.square not in numbers.values():
                return [(1, PlaceFigure(gk.ref, square=numbers[self.rng.randint(1, 4)]))]
        return [(1, c.TakePenalty(kicker.ref))]

    def shootout(self) -> list[tuple[float, Command]]:
        s = self.match.state
        team = s.attacking
        gk = q.goalkeeper(s, team.other)
        if gk is not None:
            numbers = q.pitch(s).ends[s.end_of(team.other)].goal_numbers
            if gk.square not in numbers.values():
                sq = numbers[self.rng.randint(1, 4)]
                other = q.occupant(s, sq)
                if other is not None:
                    return [(1, PlaceFigure(other, None))]
                return [(1, PlaceFigure(gk.ref, square=sq))]
        return [(1, c.TakePenalty(p.ref)) for p in q.on_pitch(s, team)]

    # --- the shot phase ----------------------------------------------------------------------------
    def targets(self, origin, limit: int) -> list[tuple[int, int]]:
        pitch = q.pitch(self.match.state)
        out = []
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                if (dc, dr) == (0, 0):
                    continue
                for k in range(1, limit + 1):
                    sq = (origin[0] + dc * k, origin[1] + dr * k)
                    if not pitch.on_board(sq):
                        break
                    out.append(sq)
        return out

    def kicks_for(self, ref: PlayerRef, origin, drop=None) -> list[tuple[float, Command]]:
        s = self.match.state
        pitch = q.pitch(s)
        out = []
        goal = s.attacked_end(ref.team)
        from companion.fussball_liga.kicks import offside_players

        offside = bool(offside_players(s, ref, origin))
        for sq in self.targets(origin, 12):
            weight = 1.0 + max(0, pitch.depth(origin, goal) - pitch.depth(sq, goal)) if pitch.in_field(sq) else 1
            if pitch.goal_end(sq) is not None:
                weight = 200.0 / max(1, dist(origin, sq))
            elif offside and pitch.depth(sq, goal) < pitch.depth(origin, goal):
                weight = 0.1  # a forward pass now would be off-side
            elif not pitch.in_field(sq):
                weight = 0.05
            mates = [p.ref for p in q.placed(s, ref.team) if p.ref != ref and dist(p.square, sq) <= 1]
            if mates:
                weight = 3.0
                out.append((weight, c.Kick(ref, sq, receiver=self.rng.choice(mates), drop=drop)))
            out.append((weight * 0.5, c.Kick(ref, sq, drop=drop)))
        return out

    def shot_phase(self) -> list[tuple[float, Command]]:
        s = self.match.state
        out: list[tuple[float, Command]] = []
        f = s.flight
        if f is not None:
            defenders = q.placed(s, f.kicker.team.other)
            for p in defenders:
                for sq in f.path[:-1]:
                    if dist(p.square, sq) <= 1:
                        out.append((2, c.Intercept(p.ref, sq)))
            return out + [(1.5, c.PassTurn(f.kicker.team.other))]
        att = s.attacking
        r = s.restart
        if r is not None:
            for sq in taker_squares(s, r, r.team):
                ref = q.occupant(s, sq)
                if ref is not None and ref.team is r.team:
                    origin = r.spot if r.kind in (RestartKind.FREE_KICK, RestartKind.INDIRECT_FREE_KICK) else sq
                    out += self.kicks_for(ref, origin)
            return out
        if s.holding is not None and s.hold_turn < s.turn_no:
            gk = s.players[s.holding]
            for drop in self.around(gk.square):
                if drop != gk.square and q.occupant(s, drop) is None:
                    out += [(w, k) for w, k in self.kicks_for(gk.ref, drop, drop=drop)]
            return out
        out.append((0.5, c.PassTurn(att)))
        follower = follow_up_player(s)
        if s.kicked and follower is not None:
            return out + self.kicks_for(follower, s.ball.square)
        h = s.ball.holder
        if h is not None and h.team is att:
            out += self.kicks_for(h, s.ball.square)
            if s.ball.control is Control.HANDS:
                out.append((3, c.HoldBall(h)))
                for p in q.placed(s, att):
                    if p.ref != h and dist(p.square, s.ball.square) <= 1:
                        out += self.kicks_for(p.ref, s.ball.square)
        return out

    # --- the movement phase ---------------------------------------------------------------------------
    def movement(self) -> list[tuple[float, Command]]:
        s = self.match.state
        m = s.movement
        team = m.turn
        out: list[tuple[float, Command]] = [(2, c.PassTurn(team))]
        players = q.placed(s, team)
        self.rng.shuffle(players)
        ball = s.ball
        pitch = q.pitch(s)
        goal = s.attacked_end(team)
        for p in players[:4]:
            squares = list(reachable(s, p.ref))
            self.rng.shuffle(squares)
            # Attackers head for the goal, defenders for the ball: matches with goals and tackles.
            if team is s.attacking:
                squares.sort(key=lambda sq: pitch.depth(sq, goal))
            elif ball.square is not None:
                squares.sort(key=lambda sq: dist(sq, ball.square))
            weight = 3 if p.ref == ball.holder else 1
            for i, sq in enumerate(squares[:3] + squares[-2:]):
                hand = None
                if p.ref == ball.holder and self.rng.random() < 0.1:
                    mates = [x.ref for x in q.placed(s, team) if x.ref != p.ref]
                    hand = self.rng.choice(mates)
                out.append((weight * (2 if i < 3 else 0.5), c.Move(p.ref, sq, hand_to=hand)))
            if self.rng.random() < 0.2 and squares:
                out.append((0.5, PlaceFigure(p.ref, square=self.rng.choice(squares))))
        if ball.holder is not None and ball.control in (Control.CLOSE, Control.LOOSE):
            holder = s.players[ball.holder]
            if team is ball.holder.team:
                for sq in self.around(holder.square):
                    out.append((0.5, c.MoveBall(ball.holder, sq)))
            else:
                near = [p.ref for p in q.placed(s, team) if dist(p.square, ball.square) <= 1]
                support = [p.ref for p in q.placed(s, team) if dist(p.square, holder.square) <= 1]
                for principal in near:
                    sup = tuple(x for x in support if x != principal)[: self.rng.randint(0, 2)]
                    out.append((4, c.Tackle(principal, sup, fair_play=self.rng.random() < 0.3)))
        if self.rng.random() < 0.01:
            mine = q.placed(s, team)
            if mine:
                out.append((0.3, c.CallMisconduct(self.rng.choice(mine).ref, "other")))
        return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--commands", type=int, default=None)
    args = parser.parse_args(argv)
    driver = LigaDriver.new(seed=args.seed)
    driver.play(commands=args.commands)
    s = driver.match.summary()
    print(f"{driver.commands} commands, {len(driver.match.events)} events, {driver.refusals} refused candidates")
    print(f"{s['teams']['home']} {s['score']['home']} - {s['score']['away']} {s['teams']['away']} "
          f"({s['period']}, {s['phase']})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
