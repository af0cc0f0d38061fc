"""Session keys and owner tokens: random, shown once, stored hashed.

Keys carry 256 random bits, so a single SHA-256 is a sound hash for them: there is nothing
to brute-force that a slow password hash would protect.
"""

from __future__ import annotations

import hashlib
import secrets

__all__ = ["hash_key", "new_owner_token", "new_session_key"]


def new_session_key() -> str:
    return "crw_s_" + secrets.token_urlsafe(32)


def new_owner_token() -> str:
    return "crw_o_" + secrets.token_urlsafe(32)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()
