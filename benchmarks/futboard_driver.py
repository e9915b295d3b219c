"""An automatic player for Futboard: answers whatever the rules core is waiting for.

Used by the property tests (to shake the rules with thousands of commands) and to watch a
match. It plays through the public surface only: it reads ``match.pending()`` and the folded
state, and submits the same commands the tablet and the devices send (rolls, placements,
movements, passes, kicks, attempts to take the ball, turn ends, clock readings).

Two kinds of command, as in the Fublet driver (benchmarks/driver.py):

- *expected* commands are ones the driver has made sure are legal; a refusal of one raises
  ``UnexpectedRefusal`` with the command, the refusal and the state.
- *speculative* commands (a random movement, a pass that may be out of range or offside, a
  kick from too far, a substitution...) may be refused; the refusal is recorded in
  ``driver.refusals`` and the driver falls back to an expected command.

Run it on its own to watch a match: ``python benchmarks/futboard_driver.py --seed 3``.
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

from companion.commands import PlaceFigure, SubmitRoll
from companion.dice import Die, DieKind, DieResult, Roll
from companion.errors import RuleViolation
from companion.events import Source
from companion.futboard import commands as c
from companion.futboard import queries as q
from companion.futboard.components import Position, load_components, shipped_team
from companion.futboard.kicks import kick_problem
from companion.futboard.model import Corner, FutboardState, Options, Penalty, Phase, Variant, request_id
from companion.futboard.move_the_ball import ball_can_move
from companion.futboard.movement import must_leave_area
from companion.futboard.passing import pass_problem
from companion.futboard.ranges import reachable
from companion.futboard.rules import FutboardRules
from companion.match import Match
from companion.ruleset import Command
from companion.teams import PlayerRef, Team

from benchmarks.driver_core import Refusal, Speculating, UnexpectedRefusal  # noqa: F401  (re-exported)

T0 = datetime(2026, 12, 5, 18, 0, 0, tzinfo=timezone.utc)

# Home's shapes (Away's are mirrored); the first outfield slot is the centre-circle spot.
SHAPE = {Variant.FUTBOARD: ((0, 6), [(9, 6), (3, 2), (3, 5), (3, 7), (3, 10), (6, 2), (6, 5), (6, 7), (6, 10),
                                     (8, 4)]),
         Variant.STREET: ((0, 6), [(9, 6), (3, 4), (3, 8), (6, 4), (6, 8), (8, 3)])}
ORDER = {Position.ATTACKER: 0, Position.MIDFIELDER: 1, Position.DEFENDER: 2, Position.GOALKEEPER: 3}


@dataclass
class FutboardDriver(Speculating):
    match: Match
    seed: int = 0
    variant: Variant = Variant.FUTBOARD
    time_limit_min: int | None = None
    goal_limit: int | None = 3
    seconds_per_command: float = 3.0
    rng: random.Random = field(init=False)
    refusals: list[Refusal] = field(default_factory=list)
    commands: int = 0
    now: datetime = T0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    @classmethod
    def new(cls, seed: int = 0, journal=None, variant: Variant | None = None, **kwargs: Any) -> "FutboardDriver":
        """A driver; without a variant the seed picks one, and a time or goal limit."""
        pick = random.Random(f"setup:{seed}")
        if variant is None:
            variant = pick.choice((Variant.FUTBOARD, Variant.STREET))
        if "time_limit_min" not in kwargs and "goal_limit" not in kwargs and pick.random() < 0.4:
            kwargs.update(time_limit_min=pick.choice((3, 8)), goal_limit=None)
        return cls(Match(FutboardRules(), journal, clock=lambda: datetime.now(timezone.utc)), seed=seed,
                   variant=variant, **kwargs)

    # --- playing ---------------------------------------------------------------------------------
    @property
    def state(self) -> FutboardState:
        return self.match.state

    @property
    def over(self) -> bool:
        s = self.state
        return s.created and s.phase is Phase.OVER

    def step(self) -> Command:
        """Submit one accepted command (a few seconds of table time later); returns it."""
        self.now += timedelta(seconds=self.seconds_per_command)
        return super().step()

    def where(self) -> str:
        s = self.match.state
        return (f"phase {s.phase.value}, turn {s.turn} ({s.actions_left} left), ball {s.ball}, "
                f"restart {s.restart}\n  last outcome: {s.last_outcome}")

    def _submit(self, cmd: Command) -> None:
        source = Source.MANUAL
        if isinstance(cmd, SubmitRoll):
            source = cmd.roll.source
        elif isinstance(cmd, PlaceFigure) and not cmd.correction:
            source = Source.VISION
        self.match.submit(cmd, source)
        self.commands += 1

    # --- choosing a command -------------------------------------------------------------------------
    def propose(self) -> tuple[list[Command], Command]:
        s = self.state
        if not s.created:
            board = "street" if self.variant is Variant.STREET else "futboard"
            options = Options(variant=self.variant, kick_off=self.rng.choice(list(Team)),
                              time_limit_min=self.time_limit_min, goal_limit=self.goal_limit)
            return [], c.CreateMatch(shipped_team("estrela"), shipped_team("mare"), load_components(board=board),
                                     options)
        clock = self.clock_command()
        if clock is not None:
            return [], clock
        if s.queue:
            return [], self.roll()
        if s.phase is Phase.LINEUP:
            return self.lineup()
        if s.phase is Phase.CORNER:
            return [], self.corner_taker()
        if s.phase is Phase.PENALTY:
            return [], self.penalty_step()
        return self.turn()

    def clock_command(self) -> Command | None:
        s = self.state
        limit = s.options.time_limit_min
        if limit is None or s.time_up:
            return None
        if not s.clock.running and s.phase is not Phase.LINEUP:
            return c.StartClock(self.now)
        if s.clock.running and s.clock.elapsed_at(self.now) >= limit * 60:
            return c.CallTimeUp(self.now)
        if s.clock.running and self.rng.random() < 0.01:
            return c.PauseClock(self.now)
        return None

    def roll(self) -> Command:
        s = self.state
        head = s.queue[0]
        open_tests = [(i, t) for i, t in enumerate(head.tests) if t.result is None]
        i, t = self.rng.choice(open_tests)
        face = self.rng.randint(1, 12)
        owner = t.team if self.rng.random() < 0.8 else None
        roll = Roll((DieResult(Die(DieKind.D12, "", owner), face),), Source.SOFTWARE,
                    f"software seed={self.seed}#{self.commands}")
        request = None if owner is not None and self.rng.random() < 0.5 else request_id(head, i)
        return SubmitRoll(roll, request)

    # --- line-ups and restarts ------------------------------------------------------------------------
    def targets(self) -> dict[PlayerRef, tuple[int, int]]:
        s = self.state
        gk_slot, outfield_slots = SHAPE[self.variant]
        out = {}
        for team in (Team.HOME, Team.AWAY):
            players = q.on_field(s, team)
            keepers = [p for p in players if p.goalkeeper]
            rest = sorted((p for p in players if not p.goalkeeper), key=lambda p: (ORDER[p.tile.position], p.ref))
            mirror = (lambda sq: sq) if team is Team.HOME else (lambda sq: (19 - sq[0], sq[1]))
            for p in keepers:
                out[p.ref] = mirror(gk_slot)
            for p, slot in zip(rest, outfield_slots):
                out[p.ref] = mirror(slot)
        return out

    def lineup(self) -> tuple[list[Command], Command]:
        s = self.state
        speculative: list[Command] = []
        if self.rng.random() < 0.05:
            team = self.rng.choice(list(Team))
            off = [p for p in q.on_field(s, team)]
            on = q.reserves(s, team)
            if off and on:
                speculative.append(c.Substitute(self.rng.choice(off).ref, self.rng.choice(on).ref))
        targets = self.targets()
        wrong = [ref for ref, sq in targets.items() if s.players[ref].space != sq]
        lifted = [ref for ref in wrong if s.players[ref].space is None]
        placed_wrong = [ref for ref in wrong if s.players[ref].space is not None]
        if placed_wrong:
            return speculative, PlaceFigure(placed_wrong[0], None)
        if lifted:
            ref = lifted[0]
            return speculative, PlaceFigure(ref, targets[ref])
        team = s.restart.team
        kicker = next(ref for ref, sq in targets.items()
                      if ref.team is team and sq in q.pitch(s).centre_circle and not s.players[ref].goalkeeper)
        mates = [p.ref for p in q.on_field(s, team) if p.ref != kicker]
        options = [m for m in mates if pass_problem(s, kicker, m) is None]
        return speculative, c.Pass(kicker, self.rng.choice(options))

    def corner_taker(self) -> Command:
        s = self.state
        corner: Corner = s.restart
        slots = q.pitch(s).corners(q.attacked_end(corner.team))
        for slot in self.rng.sample(list(slots), len(slots)):
            occupant = q.occupant(s, slot)
            if occupant is not None and occupant.team is corner.team:
                return PlaceFigure(occupant, slot)
            if occupant is None:
                players = [p.ref for p in q.on_field(s, corner.team)
                           if not p.goalkeeper and not q.line_full(s, p.ref, slot)]
                if players:
                    return PlaceFigure(self.rng.choice(players), slot)
        slot = slots[0]
        return PlaceFigure(q.occupant(s, slot), self.free_space_near(q.occupant(s, slot), slot), correction=True)

    def penalty_step(self) -> Command:
        s = self.state
        pen: Penalty = s.restart
        b = q.pitch(s)
        leave = must_leave_area(s)
        if leave:
            ref = leave[0]
            end = q.own_end(ref.team)
            outs = [sq for sq in reachable(s, ref) if not b.in_penalty_area(sq, end)]
            if outs:
                return c.Move(ref, self.rng.choice(sorted(outs)))
            return PlaceFigure(ref, self.free_space_near(ref, s.players[ref].space, avoid_area=end),
                               correction=True)
        spot = b.spot(q.attacked_end(pen.team))
        occupant = q.occupant(s, spot)
        if occupant is not None and occupant.team is not pen.team:
            # The defending keeper (who may stay in the area) stands on the spot: the rules say
            # "move him first", and at the table he is set beside it by hand.
            return PlaceFigure(occupant, self.free_space_near(occupant, spot), correction=True)
        if occupant is not None:
            return PlaceFigure(occupant, spot)
        kickers = [p.ref for p in q.on_field(s, pen.team) if not p.goalkeeper]
        return PlaceFigure(self.rng.choice(kickers), spot)

    def free_space_near(self, ref: PlayerRef, sq, avoid_area=None) -> tuple[int, int]:
        s = self.state
        b = q.pitch(s)
        field_ = b.field(s.street)
        taken = q.occupied(s, but=ref)
        options = [x for x in field_.squares() if x not in taken and not q.line_full(s, ref, x)
                   and not (avoid_area is not None and b.in_penalty_area(x, avoid_area))]
        return min(options, key=lambda x: (max(abs(x[0] - sq[0]), abs(x[1] - sq[1])), x))

    # --- a coach's turn ------------------------------------------------------------------------------------
    def turn(self) -> tuple[list[Command], Command]:
        legal = self.legal_actions()
        speculative = self.speculative_actions()
        expected = self.pick(legal)
        return speculative, expected

    def speculative_actions(self) -> list[Command]:
        """An occasional random command that the rules may well refuse."""
        s = self.state
        team = s.turn
        r = self.rng.random()
        if r > 0.15:
            return []
        mine = [p for p in q.on_field(s, team) if p.space is not None]
        if not mine:
            return []
        p = self.rng.choice(mine)
        kind = self.rng.randrange(5)
        if kind == 0:
            dl, dr = self.rng.randint(-5, 5), self.rng.randint(-5, 5)
            return [c.Move(p.ref, (p.space[0] + dl, p.space[1] + dr))]
        if kind == 1 and s.ball is not None:
            return [c.Pass(s.ball, self.rng.choice(mine).ref)]
        if kind == 2 and s.ball is not None:
            return [c.Kick(s.ball)]
        if kind == 3:
            return [c.TakeBall(p.ref)]
        return [c.EndTurn(team)]

    def legal_actions(self) -> dict[str, list[Command]]:
        """Every kind of action the coach may legally take now (the driver's own reading of the
        rules, with the rules' queries)."""
        s = self.state
        team = s.turn
        corner = s.restart if isinstance(s.restart, Corner) else None
        carrier = s.ball
        has_ball = carrier is not None and carrier.team is team
        out: dict[str, list[Command]] = {"pass": [], "kick": [], "carry": [], "move": [], "take": [], "end": []}
        corner_pass = corner is not None and corner.step == "attack" and carrier == corner.taker
        must_move_ball = has_ball and not s.ball_moved and s.actions_left == 1 and ball_can_move(s)
        if has_ball:
            for mate in q.on_field(s, team):
                if mate.ref != carrier and pass_problem(s, carrier, mate.ref, corner_pass) is None:
                    out["pass"].append(c.Pass(carrier, mate.ref))
            if corner_pass and not out["pass"]:
                keeper = q.keeper(s, team.other)
                if keeper is not None:
                    out["pass"].append(c.Pass(carrier, keeper.ref))
            if kick_problem(s, carrier) is None:
                out["kick"].append(c.Kick(carrier))
            if carrier not in s.moved and not corner_pass:
                out["carry"] = [c.Move(carrier, sq) for sq in sorted(reachable(s, carrier))]
        if must_move_ball or (corner_pass and s.actions_left == 1):
            out["move"] = []
        else:
            movers = [p for p in q.on_field(s, team) if p.ref not in s.moved and p.ref != carrier]
            for p in self.rng.sample(movers, min(4, len(movers))):  # a few candidates keep the driver quick
                spaces = sorted(reachable(s, p.ref))
                if spaces:
                    out["move"].append(c.Move(p.ref, self.rng.choice(spaces)))
        if not has_ball and carrier is not None and not (corner is not None and corner.step == "defence"):
            cs = s.players[carrier].space
            for p in q.on_field(s, team):
                if p.space is not None and cs is not None and q.pitch(s).adjacent(p.space, cs):
                    out["take"].append(c.TakeBall(p.ref))
        if not corner_pass and not (has_ball and not s.ball_moved and ball_can_move(s)):
            out["end"].append(c.EndTurn(team))
        return out

    def pick(self, legal: dict[str, list[Command]]) -> Command:
        """A plausible coach: kick when it can, pass or run forward with the ball, close down
        and tackle without it, and end the turn now and then."""
        s = self.state
        team = s.turn
        weights = {"kick": 6.0, "pass": 3.0, "carry": 2.0, "move": 2.0, "take": 5.0, "end": 0.6}
        if legal["kick"]:
            # Kick from close in; from further out now and then: attacks reach the area.
            kicker = s.players[legal["kick"][0].player]
            far = q.pitch(s).lines_from_goal(kicker.space, q.attacked_end(team)) > 3
            weights["kick"] = 0.4 if far else 6.0
        kinds = [k for k, cmds in legal.items() if cmds]
        if not kinds:
            raise UnexpectedRefusal(c.EndTurn(team), RuleViolation("driver", "no legal action found"), self.match)
        kind = self.rng.choices(kinds, [weights[k] for k in kinds])[0]
        cmds = legal[kind]
        forward = 1 if q.attacked_end(team).value == "high" else -1
        if kind == "pass":
            return max(cmds, key=lambda cmd: (s.players[cmd.to].space[0] * forward if s.players[cmd.to].space else 0)
                       + self.rng.random() * 4)
        if kind == "carry":
            return max(cmds, key=lambda cmd: cmd.to[0] * forward + self.rng.random() * 3)
        if kind == "move" and s.ball is not None and s.players[s.ball].space is not None:
            target = s.players[s.ball].space
            if self.rng.random() < 0.6 and s.ball.team is not team:
                # Close down the ball carrier.
                best = []
                for cmd in cmds:
                    options = reachable(s, cmd.player)
                    near = min(options, key=lambda sq: max(abs(sq[0] - target[0]), abs(sq[1] - target[1])))
                    best.append(c.Move(cmd.player, near))
                return self.rng.choice(best)
        return self.rng.choice(cmds)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--commands", type=int, default=3000)
    parser.add_argument("--street", action="store_true")
    args = parser.parse_args(argv)
    driver = FutboardDriver.new(seed=args.seed, variant=Variant.STREET if args.street else None)
    driver.play(commands=args.commands)
    rules = driver.match.ruleset
    state = FutboardRules().initial_state()
    for event in driver.match.events:
        line = rules.log_line(state, event)
        state = rules.evolve(state, event)
        if line:
            print(f"{event.seq:5d}  {line}")
    s = driver.match.summary()
    print(f"{driver.commands} commands, {driver.match.last_seq} events, {len(driver.refusals)} refusals; "
          f"score {s['score']}, phase {s['phase']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
