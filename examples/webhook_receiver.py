"""Take crewline's pushed events: verify each signature, drop repeats by cursor, print them.

Standard library only. Run it where crewline can reach it:

    CREWLINE_URL=http://127.0.0.1:8765 CREWLINE_SESSION_KEY=... \\
    CREWLINE_WEBHOOK_SECRET="$(python -c 'import secrets; print(secrets.token_hex(32))')" \\
    python examples/webhook_receiver.py --port 8900

It listens on 127.0.0.1 (``--host`` to change), registers its own URL as the session's
webhook (``PUT /api/session/webhook``; ``--public-url`` when crewline must reach it by
another address, ``--no-register`` to skip), then prints each new event as one JSON line.
``--state FILE`` keeps the last cursor across restarts of the receiver.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import hmac
import json
import os
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

TOLERANCE = 300  # seconds a signature's timestamp may differ from this clock


def verify(secret: str, header: str, body: bytes) -> bool:
    """``X-Crewline-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>." + body>``."""
    fields = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    timestamp, signature = fields.get("t", ""), fields.get("v1", "")
    if not timestamp.isdigit() or abs(time.time() - int(timestamp)) > TOLERANCE:
        return False
    expected = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return hmac.compare_digest(expected.hexdigest(), signature)


class Cursor:
    """The last cursor handled, kept in a file when one is given (so restarts dedupe too)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.lock = threading.Lock()
        self.value = int(path.read_text()) if path is not None and path.exists() else 0

    def advance(self, cursor: int) -> bool:
        """True when ``cursor`` is new; False for a repeat (crewline delivers at least once)."""
        with self.lock:
            if cursor <= self.value:
                return False
            self.value = cursor
            if self.path is not None:
                self.path.write_text(str(cursor))
            return True


def handler(secret: str, cursor: Cursor) -> type[BaseHTTPRequestHandler]:
    class Receive(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if not verify(secret, self.headers.get("X-Crewline-Signature", ""), body):
                self.send_response(401)  # not from crewline (or too old): do nothing
                self.end_headers()
                return
            event = json.loads(body)
            if cursor.advance(event["cursor"]):
                print(json.dumps(event), flush=True)  # act on the event here
            self.send_response(204)  # 2xx: crewline moves on to the next event
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass  # quiet: stdout carries the events

    return Receive


def register(crewline: str, key: str, url: str, secret: str) -> None:
    request = urllib.request.Request(
        f"{crewline.rstrip('/')}/api/session/webhook",
        method="PUT",
        data=json.dumps({"url": url, "secret": secret}).encode(),
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        registered = json.load(response)
    print(f"registered {registered['url']}", file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8900, help="0: any free port")
    parser.add_argument("--public-url", help="the URL crewline posts to (default: this one)")
    parser.add_argument("--state", type=Path, help="a file keeping the last cursor")
    parser.add_argument("--no-register", action="store_true")
    args = parser.parse_args()
    secret = os.environ["CREWLINE_WEBHOOK_SECRET"]
    server = ThreadingHTTPServer((args.host, args.port), handler(secret, Cursor(args.state)))
    url = args.public_url or f"http://{args.host}:{server.server_address[1]}/"
    print(f"listening on {url}", file=sys.stderr, flush=True)
    if not args.no_register:
        register(os.environ["CREWLINE_URL"], os.environ["CREWLINE_SESSION_KEY"], url, secret)
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()


if __name__ == "__main__":
    main()
