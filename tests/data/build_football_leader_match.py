"""Build tests/data/football_leader_full_match.jsonl: a whole Football Leader match played
through the rules core command by command, exported as JSON Lines.

Strategy sheets, the opening roll, kick-offs with the start-up rule, passes (one lost to a
defender's choice, one with Game Vision, a pass and dodge), dodges (simple, supported, and
in a movement, with cards named when the camera saw the move), shots (move and shoot, pass
and shoot), tackles (basic, hard, move and tackle, the goalkeeper's, with the tackle-loop
guard), foul checks with a yellow card, a second yellow and a red card for the goalkeeper
(a substitute goes in goal with BRONZE-8), direct, indirect and penalty kicks, goal kicks
after sheet changes and a replacement, halves ended by empty decks, extra time with
25-card decks and a penalty kick series decided by sudden death. Turns that only spend
cards (two movements each) fill the halves between the scenes.

The times in the file are fixed (one second per command from a fixed start) so rebuilding
it gives the same bytes; tests/test_football_leader_full_match.py checks that, and replays
the file through ``touchline replay``.

Run: python tests/data/build_football_leader_match.py [OUT.jsonl]
"""

from __future__ import annotations

import io
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from companion.commands import Choose, PlaceFigure, SubmitRoll  # noqa: E402
from companion.dice import DieKind, roll_of  # noqa: E402
from companion.football_leader import commands as c  # noqa: E402
from companion.football_leader import queries as q  # noqa: E402
from companion.football_leader.components import Card, load_components, shipped_team  # noqa: E402
from companion.football_leader.model import DodgePlan, Period, Phase, StrategySheet  # noqa: E402
from companion.football_leader.rules import FootballLeaderRules  # noqa: E402
from companion.jsonl import export_lines  # noqa: E402
from companion.match import Match  # noqa: E402
from companion.teams import PlayerRef, Team  # noqa: E402

START = datetime(2026, 11, 30, 18, 0, 0, tzinfo=timezone.utc)
HOME, AWAY = Team.HOME, Team.AWAY


def H(n: int) -> PlayerRef:
    return PlayerRef(HOME, n)


def A(n: int) -> PlayerRef:
    return PlayerRef(AWAY, n)


def C(text: str) -> Card:
    return Card.parse(text)


KICK_OFF = {2: (0, 1), 3: (0, 3), 4: (1, 1), 5: (1, 4), 6: (2, 0), 7: (2, 4), 8: (2, 2), 9: (3, 2), 10: (3, 3),
            11: (3, 1)}
GOAL_KICK = {2: (0, 1), 3: (0, 3), 4: (1, 2), 5: (1, 3), 6: (2, 1), 7: (2, 3), 8: (2, 2), 9: (3, 2), 10: (3, 3),
             11: (3, 4)}


def mirror(space):
    r, lane = space
    return (6 - r, (4 if r % 2 == 0 else 5) - lane)


def sheet(team: Team) -> StrategySheet:
    f = (lambda sp: sp) if team is HOME else mirror
    return StrategySheet(1, {n: f(sp) for n, sp in GOAL_KICK.items()}, {n: f(sp) for n, sp in KICK_OFF.items()})


class Script:
    def __init__(self) -> None:
        ticks = iter(range(10**6))
        self.m = Match(FootballLeaderRules(), clock=lambda: START + timedelta(seconds=next(ticks)))

    @property
    def s(self):
        return self.m.state

    def do(self, command):
        return self.m.submit(command)

    def roll(self, team: Team, *faces: int):
        colours = ("black", "white") if len(faces) == 2 else ()
        self.do(SubmitRoll(roll_of(DieKind.D12, *faces, owner=team, colours=colours)))

    def choose(self, option: str):
        req = next(r for r in self.m.pending() if r.kind == "choice")
        self.do(Choose(req.id, option))

    def confirm(self):
        for team in (HOME, AWAY):
            if self.s.phase is Phase.SET_UP and team not in self.s.ready:
                self.do(c.ConfirmSetUp(team))

    def card(self, team: Team, colour: str | None = None) -> Card:
        """The lowest card of a colour the deck still holds (low cards make the filler turns)."""
        left = sorted(q.cards_left(self.s, team), key=lambda cd: cd.sort_key, reverse=True)
        return next(cd for cd in left if colour is None or cd.colour.value == colour)

    def filler_move(self, team: Team) -> bool:
        """Move a counter without the ball one space, back towards its sheet place if it can."""
        s = self.s
        b = q.board(s)
        for p in sorted(q.outfield(s, team), key=lambda p: p.ref.number):
            if p.ref == s.ball or not q.can_take_marker(s, p.ref) or p.space is None:
                continue
            near = sorted(sp for sp, _ in b.neighbours(p.space) if not b.space(sp).goal and q.room(s, sp, team) > 0
                          and not (q.count_in(s, sp, team.other) and s.ball is not None and s.ball.team is team))
            if near:
                self.do(c.Move(p.ref, near[(p.ref.number + s.turns) % len(near)], self.card(team)))
                return True
        return False

    def filler_turn(self):
        """A turn of two movements (main and extra), or an end of turn with no card left."""
        team = self.s.turn.team
        if self.s.cards[team].hand == 0:
            self.do(c.EndTurn(team))
            return
        number = self.s.turn.number
        self.filler_move(team)
        if self.s.turn is not None and self.s.turn.number == number and self.s.cards[team].hand:
            if not self.filler_move(team):
                self.do(c.EndTurn(team))
        if self.s.turn is not None and self.s.turn.number == number:
            self.do(c.EndTurn(team))

    def until(self, team: Team, turns_left: int = 0):
        """Filler turns until it is ``team``'s turn (and no fewer than ``turns_left`` remain in the half)."""
        while self.s.turn.team is not team:
            self.filler_turn()


def build() -> Script:
    sc = Script()
    do = sc.do
    do(c.CreateMatch(shipped_team("lions"), shipped_team("blues"), load_components()))
    do(c.WriteStrategy(HOME, sheet(HOME)))
    do(c.WriteStrategy(AWAY, sheet(AWAY)))
    sc.roll(HOME, 9)
    sc.roll(AWAY, 4)
    # First half. Away changes a position before the kick-off (6.1); Home kicks off to #9.
    do(c.ChangeStrategy(AWAY, A(7), kick_off=(4, 1)))
    sc.confirm()
    do(c.KickOff(H(9)))
    # T1 Home: a sideways pass out of a marked space (3 + 3 + 3 = 9), an extra movement.
    do(c.Pass(H(10), C("silver-4-10")))
    sc.roll(HOME, 6)
    do(c.Move(H(6), (3, 0), C("gold-2-4")))
    # T2 Away: a basic tackle on #10 misses; the foul check keeps the lower die (5): nothing.
    do(c.Tackle(A(9), C("bronze-3-9")))
    sc.roll(AWAY, 3)
    sc.roll(AWAY, 5, 8)
    do(c.Move(A(8), (3, 2), C("gold-2-4")))
    # T3 Home: #10 (Dodge: two dice) dodges #9 (6 + 4 = 10) and is unmarked.
    do(c.Dodge(C("gold-4-11")))
    sc.roll(HOME, 7, 3)
    do(c.Move(H(4), (2, 1), C("gold-2-5")))
    # T4 Away: only a hard tackle on an unmarked counter (12 + 4); it misses and the foul check
    # keeps the higher die: 11, a yellow card. D4 has no shooting numbers: an indirect kick.
    do(c.Tackle(A(9), C("bronze-4-12"), hard=True))
    sc.roll(AWAY, 2)
    sc.roll(AWAY, 11, 3)
    # T5 Home: the indirect kick (an extra card first) to #7, who starts the turn. Then #5 moves:
    # the camera saw the move, so the coach is asked which card he played.
    do(c.Pass(H(7), C("gold-3-9")))
    sc.roll(HOME, 8)
    do(c.Move(H(5), (2, 3)))
    sc.choose("gold-3-7")
    do(c.EndTurn(HOME))
    # T6 Away: #11 moves into C5 and tackles #7: always hard, +4 (16). It misses; the foul
    # check keeps the higher die, 4: play on.
    do(c.Tackle(A(11), C("bronze-3-8"), move_card=C("silver-2-4")))
    sc.roll(AWAY, 4)
    sc.roll(AWAY, 3, 4)
    do(c.EndTurn(AWAY))
    # T7 Home: #7 (Running Dodge: two dice a dodge) moves through D5 and E5 to F5, dodging out
    # of C5 and E5 (cards asked at each dodge), and shoots: 10 + parry 10 + 4 = 24.
    do(c.Move(H(7), (5, 4), path=((3, 4), (4, 4), (5, 4))))
    sc.choose("gold-3-9")
    sc.choose("gold-4-10")
    sc.roll(HOME, 8, 2)
    sc.choose("gold-4-11")
    sc.roll(HOME, 4, 6)
    do(c.Shoot(C("silver-4-12")))
    sc.roll(HOME, 12)
    # T8 Away kicks off after the goal. In the set-up Away replaces the booked #9 with #14
    # (who takes his places) and Home changes #11's kick-off place.
    do(c.Replace(AWAY, A(9), A(14)))
    do(c.ChangeStrategy(HOME, H(11), kick_off=(3, 0)))
    sc.confirm()
    do(c.KickOff(A(14)))
    # #14 passes sideways to #11; a 1 always misses. Nobody defends D5, so a counter next to it
    # takes the ball: Home picks #7, who moves into D5 (no movement, no marker).
    do(c.Pass(A(11), C("bronze-4-11")))
    sc.roll(AWAY, 1)
    sc.choose("home#7")
    # T9 Home: pass and dodge: #9 dodges #10 in D3 first (6 + 5 = 11, SILVER-3-8 against his
    # SILVER-7: +8), then #7's pass (6 + 3 + 3 = 12) reaches him; he stays unmarked.
    do(c.Pass(H(9), C("silver-4-11"), dodge_card=C("silver-3-8")))
    sc.roll(HOME, 5)
    sc.roll(HOME, 6)
    do(c.EndTurn(HOME))
    # T10 Away: on the unmarked #9 only a hard tackle (12 + 4 = 16); it misses, the foul check
    # keeps the higher die: 11, a yellow card for #10. D3 prints no shooting numbers: indirect.
    do(c.Tackle(A(10), C("bronze-3-7"), hard=True))
    sc.roll(AWAY, 3)
    sc.roll(AWAY, 11, 5)
    # T11 Home: the indirect kick from #9 back to #6 in C1: no defender at C1 nor next to it
    # (D3's own defenders do not count for an indirect kick), so it never fails. #11 moves up
    # to E2 and #6 (Game Vision, not moved this turn) passes to him instead of an extra movement.
    do(c.Pass(H(6), C("gold-2-6")))
    do(c.Move(H(11), (4, 1), C("gold-2-5")))
    do(c.Pass(H(11), C("gold-3-8")))
    sc.roll(HOME, 4)
    do(c.EndTurn(HOME))
    # T12 Away: #7 tackles #11 in E2 and wins the ball: 6 + 10 = 16.
    do(c.Tackle(A(7), C("bronze-4-10")))
    sc.roll(AWAY, 6)
    do(c.EndTurn(AWAY))
    # T13 Home: #7 won the ball last turn: nobody may tackle him back now (the tackle-loop
    # rule refuses it); Home spends the turn moving.
    sc.filler_turn()
    # T14 Away: #7 runs from E2 through D2 and C2 to B2, dodging out of E2 (two dice: 10).
    do(c.Move(A(7), (1, 1), C("gold-3-9"), path=((3, 1), (2, 1), (1, 1)), dodges=(DodgePlan(C("gold-3-8")),)))
    sc.roll(AWAY, 6, 9)
    do(c.EndTurn(AWAY))
    # T15 Home: #4 tackles #7 in B2 and misses; the lower die is 7: a foul. B2 prints three
    # shooting numbers: a direct kick.
    do(c.Tackle(H(4), C("gold-2-6")))
    sc.roll(HOME, 2)
    sc.roll(HOME, 7, 9)
    # T16 Away: #14 (Shoot: two dice) takes it: 10 + parry 12 = 22; 7 + 12 misses: goal kick.
    do(c.Shoot(C("gold-4-12"), taker=A(14)))
    sc.roll(AWAY, 4, 7)
    # T17 Home: before the goal kick Home replaces #8 with #12 and moves #2's goal-kick place;
    # the hands are completed (Home to six), and the goalkeeper passes with any card.
    do(c.Replace(HOME, H(8), H(12)))
    do(c.ChangeStrategy(HOME, H(2), goal_kick=(1, 1)))
    sc.confirm()
    do(c.Pass(H(10), C("bronze-4-12")))
    sc.roll(HOME, 9)
    do(c.Pass(H(11), C("gold-3-8")))
    sc.roll(HOME, 2)
    do(c.EndTurn(HOME))
    while sc.s.period is Period.FIRST_HALF:
        sc.filler_turn()
    # Second half: decks shuffled, five cards each; Away, who defended first, kicks off.
    sc.confirm()
    do(c.KickOff(A(14)))
    # T46 Away: a sideways pass to #11, then #8 runs four spaces into A3, in Home's goal area.
    do(c.Pass(A(11), C("silver-4-11")))
    sc.roll(AWAY, 8)
    do(c.Move(A(8), (0, 2), C("gold-4-12"), path=((3, 3), (2, 3), (1, 3), (0, 2))))
    # T47 Home moves #6 up and #5 along.
    do(c.Move(H(6), (2, 1), C("gold-3-7")))
    do(c.Move(H(5), (2, 4), C("gold-2-4")))
    # T48 Away: #11 passes to #8 in A3 (three spaces forward, 12): onside, two Home defenders
    # stand in his row.
    do(c.Pass(A(8), C("silver-4-12")))
    sc.roll(AWAY, 5)
    do(c.EndTurn(AWAY))
    # T49 Home: the goalkeeper hard tackles #8 in his goal area and misses; the higher die is
    # 12: a red card. A substitute goes in goal (a replacement) with BRONZE-8; a penalty.
    do(c.Tackle(H(1), C("silver-3-9"), hard=True))
    sc.roll(HOME, 2)
    sc.roll(HOME, 12, 4)
    sc.choose("home#13")
    # T50 Away: #14 (Shoot: two dice) scores the penalty: 4 + 8 = 12.
    do(c.Shoot(C("gold-3-7"), taker=A(14)))
    sc.roll(AWAY, 6, 2)
    # T51 Home kicks off; #6 moves.
    sc.confirm()
    do(c.KickOff(H(9)))
    do(c.Move(H(6), (2, 1), C("gold-2-6")))
    do(c.EndTurn(HOME))
    # T52 Away: #10, booked in the first half, tackles #9 and misses; the lower die is 10: a
    # second yellow card sends him off. An indirect kick in D3.
    do(c.Tackle(A(10), C("bronze-3-9")))
    sc.roll(AWAY, 2)
    sc.roll(AWAY, 10, 11)
    # T53 Home: the kick from #9 to #10. The camera had #5 in the wrong space: the coach
    # corrects it by hand. #10 makes the turn's main action: #12 moves.
    do(c.Pass(H(10), C("silver-3-8")))
    sc.roll(HOME, 6)
    do(PlaceFigure(H(5), square=(1, 4), correction=True))
    do(c.Move(H(12), (2, 1), C("gold-2-5")))
    do(c.EndTurn(HOME))
    while sc.s.period is Period.SECOND_HALF:
        sc.filler_turn()
    # Extra time: each coach splits his deck into two parts of 25; Home kicks off the first.
    sc.confirm()
    do(c.KickOff(H(9)))
    # T96 Home: #11 runs four spaces up the wing into G2, in Away's goal area.
    do(c.Move(H(11), (6, 1), C("gold-4-12"), path=((4, 0), (5, 0), (6, 0), (6, 1))))
    do(c.EndTurn(HOME))
    # T97 Away moves #4 and #5.
    do(c.Move(A(4), (4, 4), C("gold-2-6")))
    do(c.Move(A(5), (4, 1), C("gold-2-5")))
    # T98 Home: #9 passes to #11 (three spaces forward and a defender: 15).
    do(c.Pass(H(11), C("silver-4-12")))
    sc.roll(HOME, 7)
    do(c.EndTurn(HOME))
    # T99 Away: the goalkeeper tackles #11 in his goal area and wins the ball.
    do(c.Tackle(A(1), C("gold-4-11")))
    sc.roll(AWAY, 6)
    do(c.EndTurn(AWAY))
    # T100 Home moves #6 and #12.
    do(c.Move(H(6), (2, 1), C("gold-2-4")))
    do(c.Move(H(12), (3, 2), C("gold-3-7")))
    # T101 Away: with the ball in his hands the goalkeeper calls a goal kick. Away changes #7's
    # goal-kick place, Home replaces #7 with #14 (its third replacement); then the kick.
    do(c.CallGoalKick(AWAY))
    do(c.ChangeStrategy(AWAY, A(7), goal_kick=(4, 0)))
    do(c.Replace(HOME, H(7), H(14)))
    sc.confirm()
    do(c.Pass(A(14), C("silver-4-11")))
    sc.roll(AWAY, 12)
    do(c.Move(A(11), (3, 0), C("gold-3-9")))
    do(c.EndTurn(AWAY))
    while sc.s.period is Period.EXTRA_FIRST:
        sc.filler_turn()
    # The second part of extra time, with the other 25 cards; Away kicks off.
    sc.confirm()
    do(c.KickOff(A(14)))
    while sc.s.phase is not Phase.SHOOTOUT:
        sc.filler_turn()
    # The penalty kick series: orders first; Home (the first player) kicks first. Home needs
    # 4 + 10 = 14 against Walsh's parry, Away 4 + 8 = 12 against the BRONZE-8 substitute.
    do(c.SetShootoutOrder(HOME, (H(9), H(11), H(10), H(6), H(4), H(12))))
    do(c.SetShootoutOrder(AWAY, (A(14), A(7), A(6), A(8), A(11), A(4))))
    kicks = [(HOME, "gold-4-12", (6,)), (AWAY, "gold-4-12", (5, 3)),
             (HOME, "gold-3-7", (1, 12)),  # Shoot: two dice, but the black die's 1 misses
             (AWAY, "silver-4-11", (9,)), (HOME, "gold-4-11", (4,)), (AWAY, "bronze-4-12", (7,)),
             (HOME, "silver-4-12", (1,)), (AWAY, "silver-3-9", (10,)), (HOME, "bronze-4-12", (8,)),
             (AWAY, "gold-4-10", (1,)),
             # 3-3 after five each: sudden death.
             (HOME, "bronze-4-11", (9,)), (AWAY, "bronze-3-9", (2,))]
    for team, card, faces in kicks:
        do(c.TakeShootoutKick(team, C(card)))
        sc.roll(team, *faces)
    return sc


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else HERE / "football_leader_full_match.jsonl"
    sc = build()
    buf = io.StringIO()
    export_lines(((e, "active") for e in sc.m.events), buf)
    out.write_text(buf.getvalue(), encoding="utf-8")
    print(f"{len(sc.m.events)} events, {sc.m.summary()['result']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
