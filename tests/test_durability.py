"""A match process killed at any instant loses nothing it acknowledged.

A child process plays Fublet with the auto-driver into a journal and prints each
acknowledged seq (after ``Match.submit`` returned). The parent kills it with SIGKILL after it
has read a random number of acknowledgements (the child keeps writing meanwhile, so the kill
lands mid-command at an instant the test does not choose), reopens the journal, and checks
that every acknowledged event is there,
that the state is the fold of the stored events, and that it is exactly the state the same
(deterministic) driver reaches after that many events.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.driver import AutoDriver
from companion.fublet.rules import FubletRules
from companion.journal import Journal
from companion.match import Match

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import sys
sys.path.insert(0, sys.argv[1])
from benchmarks.driver import AutoDriver
from companion.journal import Journal

driver = AutoDriver.new(seed=int(sys.argv[3]), journal=Journal.create(sys.argv[2], "fublet"))
print("ready", flush=True)
while not driver.over:
    driver.step()
    print(driver.match.last_seq, flush=True)
print("over", flush=True)
sys.stdin.read()  # stay alive until killed: the test never depends on how fast the match was played
"""

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


@pytest.mark.parametrize("run", range(5))
def test_every_acknowledged_event_survives_sigkill(tmp_path, run):
    rng = random.Random(1000 + run)
    seed = rng.randrange(1000)
    path = tmp_path / "match.sqlite"
    # Killed after this many acknowledgements have been read (the whole match is ~670 commands);
    # a child that finished sooner waits on stdin to be killed, whatever the machine's speed.
    kill_after = rng.randrange(1, 400)
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(ROOT), str(path), str(seed)], cwd=ROOT,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready", child.stderr.read()
        lines = []
        while len(lines) < kill_after:
            line = child.stdout.readline()
            assert line, "".join(lines) + child.stderr.read()  # the child died before it was killed
            lines.append(line)
            if line.strip() == "over":
                break
        first = "".join(lines)
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    output = first + child.stdout.read()
    child.stdout.close()
    child.stderr.close()
    child.stdin.close()
    assert child.returncode == -signal.SIGKILL, "the child ended before it was killed"
    acknowledged = [int(line) for line in output.split("\n")[:-1] if line.strip().isdigit()]

    match = Match.open(path)
    try:
        stored = {e.seq for e in match.events}
        assert set(range(1, max(acknowledged) + 1)) <= stored
        assert match.last_seq >= max(acknowledged)
        # The state is the fold of exactly what the journal holds...
        journal = Journal.open(path)
        fresh = Match.from_events(FubletRules(), journal.load().events)
        journal.close()
        assert fresh.state == match.state
        # ...and it is what the same driver reaches after as many events: nothing half-written.
        replica = AutoDriver.new(seed=seed)
        while replica.match.last_seq < match.last_seq:
            replica.step()
        assert replica.match.last_seq == match.last_seq
        assert [e.payload for e in replica.match.events] == [e.payload for e in match.events]
        assert replica.match.state == match.state
    finally:
        match.close()
