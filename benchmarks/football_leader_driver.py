"""An automatic player for Football Leader: answers whatever the rules core is waiting for.

Used by the property tests to shake the rules with thousands of commands. It plays through
the public surface only: it reads ``match.pending()`` and the folded state, and submits the
commands the tablet and the devices send (rolls, choices, strategy sheets, movements,
passes, dodges, shots, tackles, ends of turn).

Two kinds of command, as in benchmarks/driver.py:

- *expected* commands are ones the driver has made sure are legal (the requested dice, a
  one-space move of a free counter with a card its deck still holds, ending a turn after
  its main action...). A refusal of one raises ``UnexpectedRefusal``.
- *speculative* commands (a random pass, shot, dodge, tackle, a longer move, a sheet
  change...) may be refused; the refusal is recorded in ``driver.refusals`` and the driver
  falls back to an expected command.

Run it on its own to watch a match: ``python benchmarks/football_leader_driver.py --seed 3``.
"""

from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.commands import Choose, SubmitRoll
from companion.dice import Die, DieResult, Roll
from companion.events import Source
from companion.football_leader import commands as c
from companion.football_leader import queries as q
from companion.football_leader.components import Card, load_components, shipped_team
from companion.football_leader.model import DodgePlan, Options, Phase, Stage, StrategySheet
from companion.football_leader.rules import FootballLeaderRules
from companion.match import Match
from companion.ruleset import Command
from companion.teams import PlayerRef, Team

from benchmarks.driver_core import Refusal, Speculating, UnexpectedRefusal  # noqa: F401  (re-exported)

# Home defends x = 0 (rows 0..3); Away uses the mirror image.
KICK_OFF = {2: (0, 1), 3: (0, 3), 4: (1, 1), 5: (1, 4), 6: (2, 0), 7: (2, 4), 8: (2, 2), 9: (3, 2), 10: (3, 3),
            11: (3, 1)}
GOAL_KICK = {2: (0, 1), 3: (0, 3), 4: (1, 2), 5: (1, 3), 6: (2, 1), 7: (2, 3), 8: (2, 2), 9: (3, 2), 10: (3, 3),
             11: (3, 4)}


def mirror(space):
    r, lane = space
    return (6 - r, (4 if r % 2 == 0 else 5) - lane)


def default_sheet(team: Team) -> StrategySheet:
    f = (lambda sp: sp) if team is Team.HOME else mirror
    return StrategySheet(1, {n: f(sp) for n, sp in GOAL_KICK.items()}, {n: f(sp) for n, sp in KICK_OFF.items()})


@dataclass
class AutoDriver(Speculating):
    match: Match
    seed: int = 0
    source: Source = Source.MANUAL
    rng: random.Random = field(init=False)
    refusals: list[Refusal] = field(default_factory=list)
    commands: int = 0

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    @classmethod
    def new(cls, seed: int = 0, journal=None, options: Options = Options(), **kwargs: Any) -> "AutoDriver":
        m = Match(FootballLeaderRules(), journal)
        m.submit(c.CreateMatch(shipped_team("lions"), shipped_team("blues"), load_components(), options))
        return cls(m, seed=seed, **kwargs)

    @property
    def over(self) -> bool:
        return self.match.state.phase is Phase.OVER

    def where(self) -> str:
        s = self.match.state
        return (f"phase {s.phase.value}, turn {s.turn}, ball {s.ball}, restart {s.restart}")

    def _submit(self, cmd: Command) -> None:
        source = cmd.roll.source if isinstance(cmd, SubmitRoll) else self.source
        self.match.submit(cmd, source)
        self.commands += 1

    # --- choosing a command ----------------------------------------------------------------------
    def propose(self) -> tuple[list[Command], Command]:
        m, s, rng = self.match, self.match.state, self.rng
        requests = m.pending()
        dice = [r for r in requests if r.kind == "dice"]
        if dice:
            r = rng.choice(dice)
            return [], SubmitRoll(self.roll(r.dice.kinds, r.team), r.id)
        choices = [r for r in requests if r.kind == "choice"]
        if choices:
            r = choices[0]
            options = [o for o in r.options if o != "cancel"] or list(r.options)
            speculative = [Choose(r.id, "cancel")] if "cancel" in r.options and rng.random() < 0.05 else []
            return speculative, Choose(r.id, rng.choice(options))
        if s.phase is Phase.STRATEGY:
            team = next(t for t in (Team.HOME, Team.AWAY) if t not in s.sheets)
            return [], c.WriteStrategy(team, default_sheet(team))
        if s.phase is Phase.SET_UP:
            team = next(t for t in (Team.HOME, Team.AWAY) if t not in s.ready)
            return self.sheet_changes(team), c.ConfirmSetUp(team)
        if s.phase is Phase.KICK_OFF:
            team = s.restart.team
            b = q.board(s)
            central = [p.ref for p in q.outfield(s, team) if p.space is not None and b.space(p.space).central]
            return [], c.KickOff(rng.choice(central or [p.ref for p in q.outfield(s, team)]))
        if s.phase is Phase.SHOOTOUT:
            for team in (Team.HOME, Team.AWAY):
                if team not in s.shootout_order:
                    kickers = [p.ref for p in q.on_pitch(s, team)]
                    rng.shuffle(kickers)
                    return [], c.SetShootoutOrder(team, tuple(kickers))
            from companion.football_leader.shootout import next_team
            team = next_team(s)
            return [], c.TakeShootoutKick(team, self.card(team))
        if s.phase is Phase.TURN:
            return self.turn_commands()
        raise AssertionError(f"the driver does not know what to do in phase {s.phase}")

    def roll(self, kinds, team: Team | None) -> Roll:
        colours = ("black", "white") if len(kinds) == 2 else ("",)
        dice = tuple(DieResult(Die(kind, colours[i], team), self.rng.randint(kind.lowest, kind.highest))
                     for i, kind in enumerate(kinds))
        return Roll(dice, Source.MANUAL, "driver")

    def card(self, team: Team, colour=None) -> Card:
        left = q.cards_left(self.match.state, team)
        ordered = sorted(left, key=lambda cd: cd.sort_key)
        cards = [cd for cd in ordered if colour is None or cd.colour is colour] or ordered
        return self.rng.choice(cards)

    def sheet_changes(self, team: Team) -> list[Command]:
        s, rng = self.match.state, self.rng
        out: list[Command] = []
        if rng.random() < 0.1:
            p = rng.choice(q.outfield(s, team))
            free = [sp.key for sp in q.board(s).pitch_spaces()]
            out.append(c.ChangeStrategy(team, p.ref, kick_off=rng.choice(free), goal_kick=rng.choice(free)))
        if rng.random() < 0.1 and q.bench(s, team):
            out.append(c.Replace(team, rng.choice(q.outfield(s, team)).ref, rng.choice(q.bench(s, team)).ref))
        return out

    def safe_move(self, team: Team) -> Command | None:
        """A one-space move of a counter without the ball, no marker, into a space with room."""
        s, rng = self.match.state, self.rng
        b = q.board(s)
        movers = [p for p in q.outfield(s, team) if p.ref != s.ball and q.can_take_marker(s, p.ref)
                  and p.space is not None]
        rng.shuffle(movers)
        for p in movers:
            spaces = [sp for sp, _ in b.neighbours(p.space) if not b.space(sp).goal and q.room(s, sp, team) > 0]
            if spaces:
                return c.Move(p.ref, rng.choice(spaces), self.card(team))
        return None

    def receivers(self, team: Team) -> list[PlayerRef]:
        s = self.match.state
        return [p.ref for p in q.outfield(s, team) if p.ref != s.ball and not q.offside(s, p.ref)]

    def turn_commands(self) -> tuple[list[Command], Command]:
        s, rng = self.match.state, self.rng
        team = s.turn.team
        stage = s.turn.stage
        end = c.EndTurn(team)
        if s.cards[team].hand == 0:
            return [], end
        carrier = s.ball
        b = q.board(s)
        if stage is Stage.GOAL_KICK or stage is Stage.FREE_KICK:
            return [], c.Pass(rng.choice(self.receivers(team)), self.card(team))
        if stage is Stage.DIRECT_KICK:
            taker = rng.choice([p.ref for p in q.outfield(s, team)])
            return [], c.Shoot(self.card(team), taker=taker)
        attacking = carrier is not None and carrier.team is team
        spec: list[Command] = []
        if stage is Stage.START:
            if attacking and s.players[carrier].goalkeeper:
                expected = c.Pass(rng.choice(self.receivers(team)), self.card(team))
                spec = [c.CallGoalKick(team)] if rng.random() < 0.3 else []
                return spec, expected
            if attacking:
                here = s.players[carrier].space
                roll = rng.random()
                if roll < 0.25:
                    spec.append(c.Shoot(self.card(team)))
                if roll < 0.6 and self.receivers(team):
                    dodge = self.card(team) if rng.random() < 0.2 else None
                    spec.append(c.Pass(rng.choice(self.receivers(team)), self.card(team), dodge_card=dodge))
                if rng.random() < 0.3:
                    mates = [p.ref for p in q.in_space(s, here, team) if p.ref != carrier]
                    supporter = rng.choice(mates) if mates and rng.random() < 0.5 else None
                    spec.append(c.Dodge(self.card(team), supporter=supporter,
                                        support_card=self.card(team) if supporter and rng.random() < 0.5 else None))
                if rng.random() < 0.5:
                    near = [sp for sp, _ in b.neighbours(here) if not b.space(sp).goal]
                    plans = (DodgePlan(self.card(team)),) if rng.random() < 0.5 else ()
                    spec.append(c.Move(carrier, rng.choice(near), self.card(team) if rng.random() < 0.7 else None,
                                       dodges=plans))
            elif carrier is not None:
                here = s.players[carrier].space
                tacklers = [p for p in q.on_pitch(s, team) if p.space == here or p.goalkeeper]
                near = [p for p in q.outfield(s, team) if p.space is not None and b.adjacent(p.space, here)]
                if tacklers and rng.random() < 0.6:
                    t = rng.choice(tacklers)
                    colour = (t.keeper_defence if t.goalkeeper else t.counter.defence).colour
                    spec.append(c.Tackle(t.ref, self.card(team, colour), hard=rng.random() < 0.4))
                if near and rng.random() < 0.3:
                    t = rng.choice(near)
                    spec.append(c.Tackle(t.ref, self.card(team, t.counter.defence.colour), move_card=self.card(team)))
            if rng.random() < 0.3:
                p = rng.choice(q.outfield(s, team))
                spec.append(c.Move(p.ref, rng.choice([sp.key for sp in b.pitch_spaces()]),
                                   self.card(team) if rng.random() < 0.8 else None))
            expected = self.safe_move(team)
            if expected is None:
                raise AssertionError(f"{team.label} has cards but no counter can move one space")
            return spec, expected
        if stage in (Stage.CARRIER_MOVED, Stage.PASSED, Stage.VISION_PASSED) and rng.random() < 0.4:
            spec.append(c.Shoot(self.card(team)))
        if stage is Stage.AFTER_MAIN and attacking and rng.random() < 0.3 and self.receivers(team):
            spec.append(c.Pass(rng.choice(self.receivers(team)), self.card(team)))  # Game Vision, if he has it
        if stage is not Stage.VISION_PASSED and rng.random() < 0.5:
            move = self.safe_move(team)
            if move is not None:
                spec.append(move)
        return spec, end


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Watch the Football Leader auto-driver play a match.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--commands", type=int, default=None)
    args = parser.parse_args(argv)
    driver = AutoDriver.new(seed=args.seed)
    m = driver.match
    while not driver.over and (args.commands is None or driver.commands < args.commands):
        before = m.state
        first = m.last_seq + 1
        driver.step()
        for event in m.events[first - 1:]:
            line = m.ruleset.log_line(before, event)
            if line:
                print(line)
            before = m.ruleset.evolve(before, event)
    print(m.summary()["result"] or m.summary()["score"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
