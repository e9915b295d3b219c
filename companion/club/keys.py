"""Tablets' Ed25519 keys, and exactly what they sign.

A tablet signs two things: each write request it sends the club (``request_message``: the
method, the path and the SHA-256 of the body), and a finished match's result once both coaches
confirmed it (``result_message``: the match, its last seq, the journal's last hash and which
commands were undone or discarded, so a result is vouched for as the journal folded it). Each
message starts with its own label, so a signature made for one can never pass for the other.
A tablet is known by ``tablet_id``: the first 16 hex digits of its public key's SHA-256.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
from pathlib import Path
from typing import Iterable

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..errors import TouchlineError

REQUEST_LABEL = b"touchline-club-request/1"
RESULT_LABEL = b"touchline-club-result/1"
KEY_BYTES = 32


class KeyProblem(TouchlineError):
    """A key or a signature cannot be read."""


def b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def unb64(text: object, what: str, size: int | None = None) -> bytes:
    if not isinstance(text, str) or len(text) > 200:
        raise KeyProblem(f"{what} must be base64 text")
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise KeyProblem(f"{what} is not valid base64") from None
    if size is not None and len(raw) != size:
        raise KeyProblem(f"{what} must be {size} bytes, got {len(raw)}")
    return raw


def tablet_id(public_raw: bytes) -> str:
    return hashlib.sha256(public_raw).hexdigest()[:16]


def body_digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def request_message(method: str, path: str, body: bytes) -> bytes:
    return b"\n".join([REQUEST_LABEL, method.upper().encode("ascii"), path.encode("utf-8"),
                       body_digest(body).encode("ascii")])


def statuses_text(undone: Iterable[int], discarded: Iterable[int]) -> str:
    """The commands taken back, as signed: 'u:12,40;d:7' (batches sorted; empty lists stay)."""
    return f"u:{','.join(map(str, sorted(set(undone))))};d:{','.join(map(str, sorted(set(discarded))))}"


def result_message(match: str, last_seq: int, head: str, statuses: str) -> bytes:
    return b"\n".join([RESULT_LABEL, match.encode("ascii"), str(last_seq).encode("ascii"), head.encode("ascii"),
                       statuses.encode("ascii")])


JOIN_MARK = "#join="


def join_link(server: str, join_token: str) -> str:
    """What the club's QR code holds: its address, the join token in the fragment (a browser
    never sends a fragment, so scanned with a phone it opens the club's page and leaks nothing)."""
    return f"{server.rstrip('/')}/{JOIN_MARK}{join_token}"


def parse_join_link(link: str) -> tuple[str, str]:
    """(server, join token) from a join link, or KeyProblem."""
    server, mark, token = link.strip().partition(JOIN_MARK)
    server = server.rstrip("/")
    if not mark or not token or not server.startswith(("http://", "https://")):
        raise KeyProblem(f"{link[:80]!r} is not a club's join link (http://HOST:PORT/#join=TOKEN)")
    return server, token


def verify(public_raw: bytes, message: bytes, signature: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public_raw).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def check_public_key(public_raw: bytes) -> None:
    try:
        Ed25519PublicKey.from_public_bytes(public_raw)
    except ValueError:
        raise KeyProblem("the public key is not an Ed25519 key") from None


class TabletKey:
    """This tablet's key pair, kept in one PEM file readable by its owner only."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        self.public_raw = private.public_key().public_bytes(serialization.Encoding.Raw,
                                                            serialization.PublicFormat.Raw)
        self.id = tablet_id(self.public_raw)

    @classmethod
    def generate(cls) -> "TabletKey":
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def load_or_create(cls, path: Path) -> "TabletKey":
        path = Path(path)
        if path.exists():
            try:
                private = serialization.load_pem_private_key(path.read_bytes(), password=None)
            except ValueError:
                raise KeyProblem(f"{path}: is not this tablet's key (a PEM Ed25519 private key)") from None
            if not isinstance(private, Ed25519PrivateKey):
                raise KeyProblem(f"{path}: holds a key of another kind than Ed25519")
            return cls(private)
        key = cls.generate()
        path.parent.mkdir(parents=True, exist_ok=True)
        pem = key._private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                         serialization.NoEncryption())
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(pem)
        return key

    def sign(self, message: bytes) -> bytes:
        return self._private.sign(message)
