"""The loopback brain every measure shares, and the streamed replies it plays."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from collections.abc import Callable

from keeltui_dev.loopback import LoopbackBrain, Reply

ON_TRACK = json.dumps({"drifting": False, "message": ""})
FILLER = (
    "steady words arrive one by one while the terminal keeps up with the stream and "
    "the reader follows along without losing the bottom of the conversation"
).split()


def stream_chunks(count: int, marker: str, paragraph_every: int = 80) -> list[str]:
    """``count`` word-sized pieces; paragraphs now and then; the last piece is ``marker``."""
    chunks = []
    for i in range(count - 1):
        word = FILLER[i % len(FILLER)]
        chunks.append(word + ("\n\n" if i % paragraph_every == paragraph_every - 1 else " "))
    chunks.append(marker)
    return chunks


@dataclass
class Arrival:
    at: float
    hook_value: object = None


class Switchboard:
    """One loopback server; streamed (chat) requests get the reply set by the measure.

    Non-streamed requests (the sentinel's judge) are answered "on track".
    """

    def __init__(self) -> None:
        self.stream_reply: Reply = Reply(text="ready")
        self.on_stream: Callable[[], object] | None = None
        self.arrivals: list[Arrival] = []
        self._lock = threading.Lock()
        self.brain = LoopbackBrain(responder=self._respond)

    @property
    def url(self) -> str:
        return self.brain.url

    def _respond(self, request: dict) -> Reply:
        if not request.get("stream"):
            return Reply(text=ON_TRACK)
        arrival = Arrival(time.monotonic())
        if self.on_stream is not None:
            arrival.hook_value = self.on_stream()
        with self._lock:
            self.arrivals.append(arrival)
            return self.stream_reply

    def answer(self, request: dict) -> Reply:
        """The reply for ``request``, recorded as an arrival (the Ollama shim asks through this)."""
        return self._respond(request)

    def expect(self, reply: Reply, on_stream: Callable[[], object] | None = None) -> None:
        with self._lock:
            self.stream_reply = reply
            self.on_stream = on_stream
            self.arrivals.clear()
        self.brain.chunks_sent = 0
        self.brain.last_chunk_sent_at = 0.0

    def first_arrival(self) -> Arrival | None:
        with self._lock:
            return self.arrivals[0] if self.arrivals else None

    def __enter__(self) -> Switchboard:
        self.brain.start()
        return self

    def __exit__(self, *exc) -> None:
        self.brain.stop()
