"""The dice tray's figures, measured on this machine (README, "Dice tray").

    .venv/bin/python benchmarks/tray_bench.py [--latency 1000] [--rolls 1000] [--outages 20]
                                              [--fuzz 100000] [--seed 1]

1. Frame in to event out: the simulated tray writes a ROLL into a pty; the time until its
   notice leaves the session's queue in the consuming thread (goal: median <= 2 ms). One
   roll at a time, so no roll waits behind another.
2. Soak: rolls through a line with 1% of the bytes corrupted both ways, and outages spread
   evenly through the run, half disconnects (the port disappears for 0.3 s) and half
   restarts in the middle of a frame. Every roll the tray made is compared with what the
   host passed on (goal: 0 lost, 0 duplicated, 0 corrupted accepted), and each reconnect is
   timed from the moment the port is back to the tray's HELLO reaching the consumer
   (goal: <= 1 s).
3. Decoder fuzz: hypothesis feeds mutated frames to the host's decoder and the firmware's
   (benchmarks/tray_fuzz.py): neither may raise, no frame whose checksum fails may be
   accepted, and both must agree (goal: >= 100,000 mutated streams, no failure).

Nothing here asserts on time; a failed correctness goal exits with status 1.
"""

from __future__ import annotations

import argparse
import queue
import statistics
import sys
import threading
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the project importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.run import machine, percentile
from firmware_bridge.faults import Faults
from firmware_bridge.notices import RollReceived, TrayConnected
from firmware_bridge.session import TraySession
from firmware_bridge.sim import TraySim

WAIT = 30.0
GROUPS = ("home", "away", "scatter")


class Consumer(threading.Thread):
    """Takes notices off the session's queue as the UI would, stamping when each left it."""

    def __init__(self, notices: queue.Queue) -> None:
        super().__init__(daemon=True)
        self.notices = notices
        self.rolls: list[tuple[float, object]] = []          # (perf_counter, Roll)
        self.connected: list[float] = []                      # monotonic times of TrayConnected
        self.changed = threading.Condition()
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                notice = self.notices.get(timeout=0.1)
            except queue.Empty:
                continue
            with self.changed:
                if isinstance(notice, RollReceived):
                    self.rolls.append((time.perf_counter(), notice.roll))
                elif isinstance(notice, TrayConnected):
                    self.connected.append(time.monotonic())
                self.changed.notify_all()

    def wait_rolls(self, count: int, timeout: float = WAIT) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: len(self.rolls) >= count, timeout)


def key_of(roll) -> tuple[str, int]:
    label = roll.device.split("boot=", 1)[1]
    boot, seq = label.split("#")
    return boot, int(seq)


def latency(count: int, seed: int) -> dict:
    with TraySim(seed=seed) as sim:
        session = TraySession(str(sim.link)).start()
        consumer = Consumer(session.notices)
        consumer.start()
        try:
            if not session.connected.wait(WAIT):
                raise SystemExit("the session never connected to the simulator")
            for i in range(count + 20):  # the first 20 warm up
                sim.roll(GROUPS[i % 3])
                if not consumer.wait_rolls(i + 1):
                    raise SystemExit(f"roll {i + 1} never arrived")
        finally:
            consumer.stop.set()
            session.stop()
        delays = []
        for stamp, roll in consumer.rolls[20:]:
            delays.append((stamp - sim.first_sent[key_of(roll)]) * 1000)
    return {"median": statistics.median(delays), "p95": percentile(delays, 0.95), "max": max(delays),
            "count": len(delays)}


def soak(rolls: int, outages: int, seed: int) -> dict:
    faults = Faults(corrupt=0.01, reply_corrupt=0.01)
    every = max(1, rolls // (outages + 1))
    started = time.monotonic()
    with TraySim(seed=seed, faults=faults) as sim:
        session = TraySession(str(sim.link)).start()
        consumer = Consumer(session.notices)
        consumer.start()
        done_outages = 0
        try:
            if not session.connected.wait(WAIT):
                raise SystemExit("the session never connected to the simulator")
            for i in range(rolls):
                while sim.backlog >= 4:  # a coach does not throw faster than the tray reports
                    time.sleep(0.002)
                sim.roll(GROUPS[i % 3])
                if (i + 1) % every == 0 and done_outages < outages:
                    if done_outages % 2 == 0:
                        sim.disconnect(0.3)
                    else:
                        sim.reboot(mid_frame=True)
                    done_outages += 1
            settled = sim.wait_idle(120) and len(sim.made) == rolls
            time.sleep(0.5)  # the last notices reach the consumer
        finally:
            consumer.stop.set()
            session.stop()
    made = {(m.boot, m.seq): m.dice for m in sim.made}
    got: dict[tuple[str, int], list] = {}
    for _, roll in consumer.rolls:
        got.setdefault(key_of(roll), []).append(roll)
    lost = [k for k in made if k not in got]
    duplicated = [k for k, v in got.items() if len(v) > 1]
    wrong = [k for k, v in got.items() if k not in made or
             any(r.faces != tuple(int(d.rsplit(":", 1)[1]) for d in made[k].split(",")) for r in v)]
    reconnects = []
    for back in sim.returned:
        after = [t for t in consumer.connected if t >= back]
        reconnects.append((after[0] - back) * 1000 if after else float("inf"))
    counters = session.counters.as_dict()
    return {"made": len(made), "received": sum(len(v) for v in got.values()), "lost": len(lost),
            "duplicated": len(duplicated), "corrupted": len(wrong), "settled": settled,
            "outages": done_outages, "disconnects": len(sim.returned), "reboots": len(sim.boots) - 1,
            "reconnect_median": statistics.median(reconnects) if reconnects else 0.0,
            "reconnect_max": max(reconnects) if reconnects else 0.0,
            "checksum_rejects": counters["rejected"].get("checksum", 0),
            "duplicates_dropped": counters["rejected"].get("duplicate", 0),
            "seconds": time.monotonic() - started}


def fuzz(examples: int) -> dict:
    from hypothesis import HealthCheck, given, settings

    from benchmarks.tray_fuzz import check, mutated_streams

    tally = {"streams": 0, "accepted": 0}

    @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(mutated_streams)
    def run(example):
        tally["streams"] += 1
        tally["accepted"] += check(*example)

    started = time.monotonic()
    run()
    tally["seconds"] = time.monotonic() - started
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=int, default=1000, metavar="N", help="rolls timed one by one")
    parser.add_argument("--rolls", type=int, default=1000, metavar="N", help="rolls through the faulty line")
    parser.add_argument("--outages", type=int, default=20, metavar="N", help="disconnects and restarts in the soak")
    parser.add_argument("--fuzz", type=int, default=100_000, metavar="N", help="mutated streams (0 skips)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    ok = True
    if args.latency:
        lat = latency(args.latency, args.seed)
        print(f"| frame in to event out, over a pty ({lat['count']} rolls) | {lat['median']:.2f} ms | "
              f"{lat['p95']:.2f} ms | <= 2 ms median |  (max {lat['max']:.2f} ms)")
    if args.rolls:
        s = soak(args.rolls, args.outages, args.seed)
        print(f"| {s['made']} rolls, 1% of bytes corrupted both ways, {s['disconnects']} disconnects + {s['reboots']} "
              f"restarts mid-frame | {s['lost']} lost, {s['duplicated']} duplicated, {s['corrupted']} corrupted "
              f"accepted | | 0, 0, 0 |  ({s['received']} received, {s['checksum_rejects']} frames failed their "
              f"checksum, {s['duplicates_dropped']} resends dropped, {s['seconds']:.0f} s)")
        print(f"| reconnect after the port returns ({s['disconnects']} times) | {s['reconnect_median']:.0f} ms | "
              f"max {s['reconnect_max']:.0f} ms | <= 1 s |")
        ok &= s["lost"] == s["duplicated"] == s["corrupted"] == 0 and s["settled"]
    if args.fuzz:
        f = fuzz(args.fuzz)
        print(f"| decoder fuzz, host and firmware decoders | {f['streams']:,} mutated streams, no failure | | "
              f">= 100,000 |  ({f['accepted']:,} frames accepted, all with their checksum; {f['seconds']:.0f} s)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
