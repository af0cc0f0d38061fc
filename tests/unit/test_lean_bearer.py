"""The lean routes read a key from the Authorization header as FastAPI's HTTPBearer does."""

from __future__ import annotations

import pytest
from fastapi.security import HTTPBearer
from starlette.requests import Request

from crewline.api.http import bearer_key

HEADERS: list[list[tuple[bytes, bytes]]] = [
    [],
    [(b"authorization", b"Bearer crw_s_abc")],
    [(b"authorization", b"bearer crw_s_abc")],
    [(b"authorization", b"BEARER   crw_s_abc  ")],
    [(b"authorization", b"Bearer\tcrw_s_abc")],
    [(b"authorization", b"Bearer")],
    [(b"authorization", b"Bearer ")],
    [(b"authorization", b"Bearer    ")],
    [(b"authorization", b"")],
    [(b"authorization", b" Bearer crw_s_abc")],
    [(b"authorization", b"Basic crw_s_abc")],
    [(b"authorization", b"Bearer a b")],
    [(b"authorization", "Bearer k\u00e9y".encode("latin-1"))],
    [(b"authorization", b"Bearer first"), (b"authorization", b"Bearer second")],
    [(b"authorization", b"Basic first"), (b"authorization", b"Bearer second")],
    [(b"x-authorization", b"Bearer crw_s_abc")],
]


@pytest.mark.parametrize("headers", HEADERS)
async def test_the_key_is_what_http_bearer_finds(headers: list[tuple[bytes, bytes]]) -> None:
    scope = {"type": "http", "method": "POST", "path": "/", "headers": headers}
    credentials = await HTTPBearer(auto_error=False)(Request(scope))
    assert bearer_key(scope) == (credentials.credentials if credentials else None)
