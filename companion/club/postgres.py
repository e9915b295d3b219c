"""The club's store on PostgreSQL (psycopg 3), for when one laptop is outgrown: several club
server processes, behind any load balancer, share one database and nothing else.

The same queries and migrations as SQLite's (store.py), with psycopg's ``%s`` placeholders.
What SQLite's single writer gave for free is asked for here: a publish or a confirmation
takes a transaction-scoped advisory lock on its match (``lock_match``), so two processes
given uploads of one match at once take them one after the other, each seeing what the other
committed.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable, Sequence

import psycopg

from .store import SqlStore, StoreError


log = logging.getLogger(__name__)
CHANNEL = "touchline_club"


class PostgresStore(SqlStore):
    placeholder = "%s"

    def __init__(self, dsn: str) -> None:
        super().__init__()
        self.dsn = dsn
        try:
            self._conn = psycopg.connect(dsn, autocommit=True)
            self.migrate()
        except psycopg.Error as exc:
            raise StoreError(f"the club's PostgreSQL store cannot be used ({_one_line(exc)})") from None

    def _connection(self) -> psycopg.Connection:
        """The connection, made again when the database went away (PostgreSQL restarted, the
        network dropped), but never inside a transaction: that one fails, and is retried whole."""
        if self._conn.closed or self._conn.broken:
            if self._depth:
                raise StoreError("the club's PostgreSQL store went away during a write; it was not made")
            self._conn.close()
            self._conn = psycopg.connect(self.dsn, autocommit=True)
            log.warning("the club's PostgreSQL store was reached again")
        return self._conn

    def _execute(self, sql: str, params: Sequence = ()) -> list[tuple]:
        return self._once_more(lambda conn: self._run(conn, sql, params))

    @staticmethod
    def _run(conn: psycopg.Connection, sql: str, params: Sequence) -> list[tuple]:
        with conn.cursor() as cur:
            cur.execute(sql, params)
            return cur.fetchall() if cur.description is not None else []

    def _once_more(self, work):
        """``work(connection)``; outside a transaction, once more on a new connection when the
        old one turns out to be gone (a restarted database is only found out by using it)."""
        try:
            return work(self._connection())
        except psycopg.OperationalError:
            if self._depth or not self._conn.broken:
                raise
            return work(self._connection())

    def _begin(self) -> None:
        self._once_more(lambda conn: conn.execute("BEGIN"))

    def _commit(self) -> None:
        self._conn.execute("COMMIT")

    def _rollback(self) -> None:
        if not (self._conn.closed or self._conn.broken):   # a broken one has rolled back already
            self._conn.execute("ROLLBACK")

    def migrate(self) -> int:
        # Two processes starting at once must not both build the schema: a lock for the migration.
        with self.transaction():
            self._execute("SELECT pg_advisory_xact_lock(7033)")   # any constant of ours
            return super().migrate()

    def lock_match(self, match_id: str) -> None:
        self._execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (match_id,))

    def notify_change(self) -> None:
        self._execute(f"NOTIFY {CHANNEL}")   # delivered when the transaction commits, to every listener

    def listen(self, changed: Callable[[], None]) -> Callable[[], None]:
        """Call ``changed()`` (on a thread of its own) whenever any server of the club changed
        the tables; returns what stops listening. When the database goes away the thread
        listens again once it is back (and calls ``changed()``: it may have missed news)."""
        stopping = threading.Event()
        held: list[psycopg.Connection] = []

        def connect() -> psycopg.Connection:
            conn = psycopg.connect(self.dsn, autocommit=True)
            conn.execute(f"LISTEN {CHANNEL}")
            held[:] = [conn]
            return conn

        def run(conn: psycopg.Connection) -> None:
            delay = 0.5
            while not stopping.is_set():
                try:
                    if conn is None:
                        conn = connect()
                        changed()
                        delay = 0.5
                    for _ in conn.notifies(timeout=0.5, stop_after=1):
                        changed()
                except psycopg.Error:
                    if stopping.is_set():
                        return
                    log.warning("the club's database stopped telling this server of changes; listening again "
                                "in %.1f s", delay)
                    if conn is not None:
                        conn.close()
                    conn = None
                    stopping.wait(delay)
                    delay = min(delay * 2, 10.0)

        thread = threading.Thread(target=run, args=(connect(),), name="touchline-club-listen", daemon=True)
        thread.start()

        def stop() -> None:
            stopping.set()
            thread.join(timeout=5)
            for conn in held:
                conn.close()
        return stop

    def close(self) -> None:
        with self._lock:
            self._conn.close()


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())[:300]
