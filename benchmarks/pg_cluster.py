"""A throwaway PostgreSQL cluster for the club's tests and benchmarks: initdb and pg_ctl in a
temporary folder, on a free loopback port, as an unprivileged user (as root: 'postgres', else
'nobody'), trust authentication, fsync off; stopped and removed on the way out."""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

BINARIES = ("initdb", "pg_ctl", "postgres")


def _bin_dirs() -> list[str]:
    """PATH, then Debian's own place for the server's programs (apt's postgresql puts initdb
    and pg_ctl in /usr/lib/postgresql/VERSION/bin, not on PATH), the newest version first."""
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                    key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0, reverse=True)
    return os.environ.get("PATH", "").split(os.pathsep) + [str(p) for p in debian]


def _which(name: str) -> str | None:
    return shutil.which(name, path=os.pathsep.join(_bin_dirs()))


def missing() -> str:
    """Why no cluster can be started here ('' when one can)."""
    absent = [b for b in BINARIES if _which(b) is None]
    if absent:
        return f"PostgreSQL's {', '.join(absent)} not found on PATH (apt-get install postgresql)"
    if os.geteuid() == 0 and _user() is None:
        return "running as root with no unprivileged user to run PostgreSQL as"
    return ""


def _user() -> str | None:
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    return None


class Cluster(str):
    """A running cluster's address (postgresql://club@127.0.0.1:PORT/postgres), and ``restart``."""

    restart: Callable[[], None]


@contextmanager
def throwaway_cluster() -> Iterator[Cluster]:
    """A running cluster (its address; ``restart()`` stops and starts it again)."""
    runner = ["runuser", "-u", _user(), "--"] if os.geteuid() == 0 else []
    base = Path(tempfile.mkdtemp(prefix="touchline-pg-"))
    if runner:
        shutil.chown(base, user=runner[2])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    data = base / "data"

    def run(program: str, *args: str) -> None:
        subprocess.run(runner + [_which(program) or program, *args], check=True, capture_output=True, text=True,
                       timeout=120)

    options = f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
    try:
        run("initdb", "-D", str(data), "-U", "club", "-A", "trust", "--no-sync", "-E", "UTF8")
        run("pg_ctl", "-D", str(data), "-l", str(base / "log"), "-w", "-t", "60", "start", "-o", options)
        cluster = Cluster(f"postgresql://club@127.0.0.1:{port}/postgres")
        cluster.restart = lambda: run("pg_ctl", "-D", str(data), "-l", str(base / "log"), "-w", "-t", "60",
                                      "-m", "fast", "restart", "-o", options)
        try:
            yield cluster
        finally:
            run("pg_ctl", "-D", str(data), "-w", "-t", "60", "-m", "fast", "stop")
    finally:
        shutil.rmtree(base, ignore_errors=True)


def new_database(cluster: str) -> str:
    """A fresh database in the cluster; its address."""
    import psycopg

    name = f"club_{os.urandom(4).hex()}"
    with psycopg.connect(cluster, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return cluster.rsplit("/", 1)[0] + "/" + name
