"""What the demo plays and says: a highlight of a whole Fublet match, from the opening roll
to the final whistle and the report, each moment with a caption a newcomer can follow.

It plays through the director (ui/demo.py), which owns the devices: rolls are thrown in the
simulated dice tray, figures moved by a hand on the rendered table that the camera watches,
and every decision is a command the rules core decides, as at a real table. The rounds
between the highlights are played too (quickly, and said so), so the clock really runs to
90 minutes. No Kivy here.
"""

from __future__ import annotations

from companion.board import grid_distance
from companion.fublet import commands as c
from companion.fublet import queries as q
from companion.fublet.components import Action
from companion.fublet.model import Phase, ShotPlan
from companion.fublet.restarts import ORDERED_STEPS, step_team, too_close
from companion.teams import PlayerRef, Team

from .demo_table import SHAPE, A, H

CHAPTERS = ("Setting up", "Kick-off", "The camera", "Override", "Undo", "A goal", "A foul and a card",
            "The clock", "Half time", "Second half", "Full time", "The report")


def owner(name: str) -> str:
    """A team's possessive: "Harbour Athletic's", "Touchline Rovers'"."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def highlight(d) -> None:
    """The match, chapter by chapter. ``d`` is the DemoDirector."""
    s = lambda: d.state  # noqa: E731  (the newest fold, read again at every use)

    d.chapter("Setting up")
    d.start_devices()
    d.say("This demo plays the highlights of a whole Fublet match by itself: the tablet keeps the match, a "
          "camera watches the table and a dice tray rolls the dice. Nothing to do but watch.", hold=1.5)
    d.say("Each coach rolls a die in the dice tray: the higher roll picks a tactical board first, "
          "the lower roll kicks off.")
    d.roll("home-black", [7], "Home's opening roll")
    d.roll("away-black", [3], "Away's opening roll")
    d.say(f"{d.team(Team.HOME)} rolled 7, {d.team(Team.AWAY)} 3: {d.team(Team.HOME)} pick their tactical "
          f"board first (high defence line, short passing, offensive), then {d.team(Team.AWAY)} pick theirs.")
    d.submit(c.ChooseBoard(Team.HOME, "high_short_offensive"), "Home's tactical board")
    d.submit(c.ChooseBoard(Team.AWAY, "low_long_offensive"), "Away's tactical board")
    d.say("The figures stand in their kick-off shape: the camera finds all 22 and the tablet places them.")
    d.wait("the camera to see the line-up", lambda: all(s().players[r].ms == ms for r, ms in SHAPE.items()))

    d.chapter("Kick-off")
    d.say(f"{d.team(Team.AWAY)} kick off: {d.who(A(8))} gives the ball to a teammate.")
    d.submit(c.KickOff(A(8)), "the kick-off")
    d.say(f"Round 1. {d.who(A(8))} declares a short pass to {d.who(A(9))}. {d.team(Team.AWAY)} roll the "
          f"two dice in the tray: 12, not over his short-pass skill, so the pass arrives.")
    d.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(12, 9)), "Away's short pass")
    d.roll("away", [1, 2], "the pass's dice")

    d.chapter("The camera")
    d.say(f"Movement: the coaches move their figures by hand. {owner(d.team(Team.HOME))} coach moves "
          f"{d.who(H(8))} up the pitch; the camera sees the move and the tablet checks it against the rules.")
    d.hand_move(H(8), (20, 19), "Home's #8 moving up")

    d.chapter("Override")
    d.say(f"The coach has the last word: with Override on, a tap puts a figure where the coach says. "
          f"{d.team(Team.HOME)} set {d.who(H(5))} one square forward; the journal keeps it as a correction.",
          hold=1.5)
    d.override(H(5), (9, 27), "Home's correction of #5")
    d.say("Neither coach moves anyone else: both pass, and the round ends.")
    d.pass_phase(Phase.MOVEMENT)
    d.pass_phase(Phase.TACTICAL_MOVEMENT)
    d.wait("#9 to have the ball", lambda: s().ball.carrier == A(9))

    d.chapter("Undo")
    d.say(f"Round 2. {owner(d.team(Team.AWAY))} coach declares a short pass for {d.who(A(9))}...")
    d.submit(c.Declare(A(9), Action.SHORT_PASS, target_ps=(15, 9)), "#9's short pass")
    d.say("...and changes his mind before rolling. Undo takes the declaration back: the match is as it "
          "was, and the journal keeps what was undone.", hold=1.5)
    d.undo("the short pass undone", lambda: s().phase is Phase.DECLARATION)
    d.say(f"Instead {d.who(A(9))} keeps the ball and runs at goal; his figure goes where he ran.")
    d.submit(c.Declare(A(9), Action.KEEP_AND_RUN, target_ms=(18, 17)), "#9's run")
    d.follow("the camera to see #9's run")
    d.pass_phase(Phase.MOVEMENT)
    d.pass_phase(Phase.TACTICAL_MOVEMENT)

    d.chapter("A goal")
    d.say(f"Round 3. {d.who(A(9))} shoots from distance. {d.team(Team.AWAY)} roll 05: a good shot, on "
          f"target.")
    plan = ShotPlan(tokens=(10, 10, 5, 5, 5), save_token=5, save_ms=(1, 14))
    d.submit(c.Declare(A(9), Action.LONG_SHOT, target_ps=(0, 7), shot=plan), "#9's long shot")
    d.roll("away", [0, 5], "the shot's dice")
    d.pass_phase(Phase.MOVEMENT)
    d.say(f"{owner(d.team(Team.HOME))} {d.who(H(1))} dives: his save roll, 96, is over his save skill...")
    d.roll("home", [9, 6], "the keeper's save")
    d.wait("the goal", lambda: s().score[Team.AWAY] == 1)
    d.say(f"GOAL! {d.team(Team.AWAY)} lead 1-0: {d.name(A(9))} scores at {d.minute()}. "
          f"The coaches set the figures back for the kick-off (Line-up on the tablet places all 22 in one tap).",
          hold=1.5)
    d.lineup("the line-up after the goal")

    d.chapter("A foul and a card")
    d.say(f"{d.team(Team.HOME)} kick off, and {d.who(H(8))} runs at the {d.team(Team.AWAY)} defence.")
    d.submit(c.KickOff(H(8)), "Home's kick-off")
    with d.faster():
        run_carrier_to(d, (31, 14))
    runner = s().ball.carrier
    d.say(f"{d.who(runner)} runs on, and {owner(d.team(Team.AWAY))} {d.who(A(4))} steps in to tackle him.")
    d.submit(c.Declare(runner, Action.KEEP_AND_RUN, target_ms=spot_for(s(), runner, (36, 14),
                                                                        within=s().players[runner].speed)),
             "#8's run into the tackle")
    d.follow("the camera to see #8's run")
    engage(d, A(4))
    d.say(f"A challenge: both coaches roll. {d.name(runner)}'s dribble (33) succeeds, {d.name(A(4))}'s "
          f"tackle (84) fails: a foul.")
    d.roll("home", [3, 3], "the dribble")
    d.roll("away", [8, 4], "the tackle")
    d.say(f"{d.team(Team.HOME)} take the free kick rather than play on. A tackle that bad is a yellow card on "
          f"the referee's call board: {d.who(A(4))} is booked.", hold=1.5)
    d.choose("free_kick", "the free kick")
    d.wait("the booking", lambda: any(b.player == A(4) for b in s().bookings))
    d.say(f"Defenders within 5 squares of the free kick step back; then the coaches position their players "
          f"in turn: {d.team(Team.HOME)} bring {d.who(H(9))} forward for a short free kick.")
    clear_spot(d)
    positioning(d, H(9), (31, 8))
    d.say(f"{d.name(runner)} plays the free kick short to {d.name(H(9))}.")
    d.submit(c.ChooseTaker(runner), "the free kick's taker")
    d.submit(c.Declare(runner, Action.SHORT_PASS, target_ps=q.board(s()).ms_to_ps((31, 8))), "the free kick")
    d.roll("home", [3, 0], "the free kick's dice")
    end_round(d)

    d.chapter("The clock")
    d.say(f"The clock at the top counts match minutes: each round adds the minutes of its pace. Skipping "
          f"ahead: the next rounds are played quickly, up to half time ({s().minute}').", hold=1.5)
    with d.faster():
        burn(d, "Skipping ahead to half time")

    d.chapter("Half time")
    d.say(f"Half time, {d.score()}. Both coaches choose a tactical board again; {d.team(Team.AWAY)} pick "
          f"first this time.")
    d.submit(c.ChooseBoard(Team.AWAY, "high_long_offensive"), "Away's second-half board")
    d.submit(c.ChooseBoard(Team.HOME, "wing_offensive"), "Home's second-half board")
    d.lineup("the second half's line-up")

    d.chapter("Second half")
    d.say(f"{d.team(Team.HOME)} kick off the second half. Skipping ahead to full time.")
    d.submit(c.KickOff(H(7)), "the second half's kick-off")
    with d.faster():
        burn(d, "Skipping ahead to full time")

    d.chapter("Full time")
    d.wait("the final whistle", lambda: s().phase is Phase.OVER)
    d.say(f"The final whistle: 90 minutes played. {d.result()}.", hold=1.5)

    d.chapter("The report")
    d.show_report()
    d.say("The match report, written from the match's journal: the score, the goals and cards, the "
          "possession and every event. It can be saved or shared from here.", hold=3)


# --- playing rounds ------------------------------------------------------------------------------------

def end_round(d) -> None:
    """Both coaches pass through Movement and Tactical movement: the round ends."""
    rnd = d.state.round
    while d.state.round == rnd and d.state.phase in (Phase.MOVEMENT, Phase.TACTICAL_MOVEMENT):
        d.pass_phase(d.state.phase)


def spot_for(s, ref: PlayerRef, wanted, within: int | None = None):
    """The free MS nearest ``wanted`` that ``ref`` may stand on (at most two teammates a PS),
    within ``within`` MS of where he stands when given."""
    here = s.players[ref].ms
    taken = {p.ms for p in s.players.values() if p.on_pitch and p.ref != ref}
    mates = [p.ms for p in s.players.values() if p.on_pitch and p.ref.team is ref.team and p.ref != ref
             and p.ms is not None]
    b = q.board(s)

    def ok(t) -> bool:
        if t in taken or sum(1 for m in mates if b.ms_to_ps(m) == b.ms_to_ps(t)) >= 2:
            return False
        return within is None or grid_distance(here, t) <= within

    options = [(x, y) for x in range(b.ms_cols) for y in range(b.ms_rows) if ok((x, y))]
    return min(options, key=lambda t: (grid_distance(t, wanted), t))


def run_carrier_to(d, target) -> None:
    """The ball carrier keeps the ball and runs towards ``target``, a round at a time."""
    for _ in range(20):
        s = d.state
        carrier = s.ball.carrier
        p = s.players[carrier]
        if p.ms == target:
            return
        dx = max(-1, min(1, target[0] - p.ms[0]))
        dy = max(-1, min(1, target[1] - p.ms[1]))
        pos = p.ms
        while pos != target:
            nxt = (pos[0] + (dx if pos[0] != target[0] else 0), pos[1] + (dy if pos[1] != target[1] else 0))
            if grid_distance(p.ms, nxt) > p.speed - 1:
                break
            pos = nxt
        pos = spot_for(s, carrier, pos, within=p.speed - 1)
        d.submit(c.Declare(carrier, Action.KEEP_AND_RUN, target_ms=pos), f"#{carrier.number}'s run")
        d.follow(f"the camera to see #{carrier.number}'s run")
        end_round(d)
    raise RuntimeError(f"the run to {target} did not arrive")


def burn(d, caption: str, max_rounds: int = 40) -> None:
    """Rounds of short passes between teammates, rolled in the tray, until the period ends:
    the clock runs by the rounds' pace as at a table, only faster, and no figure moves."""
    period = d.state.period
    for _ in range(max_rounds):
        s = d.state
        if s.period is not period or s.phase is Phase.OVER:
            return
        if s.phase is not Phase.DECLARATION:
            raise RuntimeError(f"expected a declaration, got the {s.phase.label} phase")
        d.say(f"{caption}: {d.minute()}, {d.score()}.", hold=0)
        carrier = s.ball.carrier
        mate = pass_target(s, carrier)
        target = q.board(s).ms_to_ps(s.players[mate].ms)
        d.submit(c.Declare(carrier, Action.SHORT_PASS, target_ps=target), f"#{carrier.number}'s pass")
        d.roll(carrier.team.value, [2, 0], "the pass's dice")
        end_round(d)
    if d.state.period is period:
        raise RuntimeError(f"the {period.label} did not end in {max_rounds} rounds")


def pass_target(s, carrier: PlayerRef) -> PlayerRef:
    """The outfield teammate a short pass reaches farthest (the longer the pass, the more
    minutes the round takes), never the one who passed last."""
    b = q.board(s)
    here = b.ms_to_ps(s.players[carrier].ms)
    last = s.last_passer if hasattr(s, "last_passer") else None
    options = []
    for p in s.players.values():
        if p.ref.team is not carrier.team or p.ref == carrier or not p.on_pitch or p.ms is None or p.goalkeeper:
            continue
        far = grid_distance(here, b.ms_to_ps(p.ms))
        if 1 <= far <= 6 and p.ref != last:
            options.append((far, p.ref.number, p.ref))
    if not options:
        raise RuntimeError(f"nobody within a short pass of {carrier}")
    return max(options)[2]


def engage(d, defender: PlayerRef) -> None:
    """``defender`` moves next to the ball carrier to tackle him (the Event phase settles it)."""
    s = d.state
    carrier = s.ball.carrier
    cms = s.players[carrier].ms
    taken = {p.ms for p in s.players.values() if p.on_pitch}
    b = q.board(s)
    spots = [t for t in ((cms[0] + 1, cms[1]), (cms[0] - 1, cms[1]), (cms[0], cms[1] + 1), (cms[0], cms[1] - 1))
             if t not in taken and b.is_ms(t)]
    p = s.players[defender]
    reachable = [t for t in spots if (cost := q.move_cost(s, p, t)) is not None and cost <= min(s.pace, p.speed)]
    if not reachable:
        raise RuntimeError(f"{defender} cannot reach {carrier} this round")
    target = min(reachable, key=lambda t: (q.move_cost(s, p, t), t))
    if s.turn is carrier.team:
        d.submit(c.PassTurn(carrier.team), f"{carrier.team.label} passes")
    d.submit(c.Move(defender, target, engage=True), f"#{defender.number} engages")
    d.follow(f"the camera to see #{defender.number} step in")
    d.pass_phase(Phase.MOVEMENT)


def clear_spot(d) -> None:
    """Free kicks and corners: defenders within 5 MS of the spot step back to the nearest
    free MS beyond 5 MS."""
    s = d.state
    r = s.restart
    b = q.board(s)
    for ref in too_close(s, r):
        s = d.state
        here = s.players[ref].ms
        taken = {p.ms for p in s.players.values() if p.on_pitch}
        options = [(x, y) for x in range(b.ms_cols) for y in range(b.ms_rows)
                   if (x, y) not in taken and grid_distance((x, y), r.spot_ms) > 5]
        to = min(options, key=lambda t: (grid_distance(t, here), t))
        d.hand_move(ref, to, f"#{ref.number} stepping back from the free kick")


def positioning(d, ref: PlayerRef, to) -> None:
    """A free kick's positioning steps in turn, each passed; ``ref`` is brought to ``to`` by
    hand in his zone's step (the camera sees him go)."""
    while True:
        r = d.state.restart
        team = step_team(r) if r is not None else None
        if team is None:
            return
        _, zone = ORDERED_STEPS[r.step]
        p = d.state.players[ref]
        if team is ref.team and p.ms != to and q.zone_of(d.state, team, p.ms) is zone:
            d.hand_move(ref, to, f"#{ref.number} positioned for the free kick")
        d.submit(c.PassTurn(team), f"{team.label} passes a positioning step")
