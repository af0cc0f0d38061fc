"""An agent that asks its human before merging, then keeps reading its events.

Run it with a member's session key and crewline's URL in the environment:

    CREWLINE_SESSION_KEY=crw_s_… CREWLINE_URL=http://127.0.0.1:8765 python examples/python_agent.py

It escalates without blocking, does other work (here: none), and reads its event stream
from a cursor file, so a restarted agent neither misses nor repeats an event.
"""

from __future__ import annotations

import asyncio
import sys

from crewline.client import Client


async def main(cursor_file: str) -> int:
    async with Client() as crewline:
        escalated = await crewline.escalate(
            "The dependency bump is green on all 3 targets. Merge it?",
            options=["merge", "hold"],
            goal="deps",
        )
        print(f"asked: {escalated.escalation_id}", flush=True)
        async for event in crewline.events(cursor_file=cursor_file):
            if event.body.get("escalation_id") != escalated.escalation_id:
                continue
            if event.kind == "escalation_answered":
                answer = event.body["answer"]
                print(f"answer: {answer}", flush=True)
                await crewline.post(f"Got it: {answer}.")
                return 0
            if event.kind == "window_closed":
                print("the window closed unanswered", flush=True)
                return 3
    return 1


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else ".crewline-cursor")))
