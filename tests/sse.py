"""Reading a server-sent event stream as a client does, for the tests of the event stream."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx

__all__ = ["sse_frames"]


async def sse_frames(response: httpx.Response) -> AsyncIterator[dict[str, str]]:
    """Each SSE frame as its fields (``comment`` for a comment line), in order."""
    fields: dict[str, str] = {}
    async for line in response.aiter_lines():
        if not line:
            if fields:
                yield fields
            fields = {}
        elif line.startswith(":"):
            yield {"comment": line[1:].strip()}
        else:
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")
