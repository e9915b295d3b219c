"""A club's folder: its store (club.sqlite) and its two tokens (club.json, readable by its
owner only): the join token tablets join with (in the club's QR code) and the organiser's
token (reads the refused forks). Made on first use, the same ever after."""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from .ledger import Ledger
from .store import STORE_FILE, SqliteStore, StoreError

TOKENS_FILE = "club.json"


@dataclass(frozen=True)
class Tokens:
    join: str
    organiser: str


def tokens_of(folder: Path) -> Tokens:
    path = Path(folder) / TOKENS_FILE
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        tokens = Tokens(secrets.token_urlsafe(18), secrets.token_urlsafe(24))
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump({"join_token": tokens.join, "organiser_token": tokens.organiser}, out, indent=1)
        return tokens
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Tokens(str(data["join_token"]), str(data["organiser_token"]))
    except (ValueError, KeyError, TypeError):
        raise StoreError(f"{path}: is not the club's token file (join_token, organiser_token); move it away "
                         f"to make new tokens") from None


def open_club(folder: Path, database: str = "") -> Ledger:
    """The club kept in ``folder``: its ledger over its SQLite store there, or over the
    PostgreSQL database ``database`` names (a postgresql:// address) when given (its tokens
    then are the database's: the first server's folder's)."""
    folder = Path(folder)
    tokens = tokens_of(folder)
    if database:
        try:
            from .postgres import PostgresStore
        except ImportError:
            raise StoreError("a PostgreSQL store needs psycopg: pip install 'touchline[postgres]'") from None
        store = PostgresStore(database)
        # Every server of the club reads the same tokens: the database's, set by the first.
        tokens = Tokens(store.setting("join_token", tokens.join), store.setting("organiser_token", tokens.organiser))
    else:
        store = SqliteStore(folder / STORE_FILE)
    return Ledger(store, tokens.join, tokens.organiser)
