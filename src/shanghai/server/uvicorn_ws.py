"""The WebSocket protocol ``shanghai serve`` runs on uvicorn: its ``websockets-sansio`` one, lighter.

Two changes, both about the cost of each message at many tables (``benchmarks/bench_server.py``):

- Reading is paused only when a connection has ``READ_QUEUE`` messages that the application has not
  taken yet, not after every message (uvicorn pauses after each and resumes once it is taken: two
  system calls per message received).
- The ASGI scope's ``extensions`` hold ``"shanghai.send_texts"``: a plain function that writes several
  text messages at once (one system call), their frames made here, while the connection is open and
  its transport is not over its high-water mark. It answers False and writes nothing otherwise (the
  caller then sends through ASGI, which waits for the transport to drain). Other servers (tests, other
  ASGI servers) have no such extension, and the application sends each message through ASGI.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.protocol import State

SEND_TEXTS = "shanghai.send_texts"
# The uvicorn versions whose sans-I/O protocol this subclass was written and tested against (it
# overrides one of its methods and reads its attributes); with another, ``shanghai serve`` runs
# uvicorn's own protocol (``protocol_for``).
TESTED_UVICORN = ((0, 54),)
READ_QUEUE = 8   # messages received and not yet taken by the application before reading pauses

_LEN16 = struct.Struct("!BBH").pack
_LEN64 = struct.Struct("!BBQ").pack


def protocol_for(version: str) -> type[WebSocketsSansIOProtocol] | str:
    """The WebSocket protocol to run on uvicorn ``version``: this module's where it was tested,
    uvicorn's own ``"websockets-sansio"`` otherwise.

    >>> protocol_for("0.54.0").__name__, protocol_for("0.99.1")
    ('ShanghaiWebSocketProtocol', 'websockets-sansio')
    """
    try:
        major, minor = (int(x) for x in version.split(".")[:2])
    except ValueError:
        return "websockets-sansio"
    return ShanghaiWebSocketProtocol if (major, minor) in TESTED_UVICORN else "websockets-sansio"


def text_frame(data: bytes) -> bytes:
    """The header of an unmasked, unfragmented text frame (a server's) carrying ``data`` (RFC 6455 5.2).

    >>> text_frame(b"hi"), text_frame(b"x" * 200)[:4], len(text_frame(b"x" * 70000))
    (b'\\x81\\x02', b'\\x81~\\x00\\xc8', 10)
    """
    n = len(data)
    if n < 126:
        return bytes((0x81, n))
    if n < 65536:
        return _LEN16(0x81, 126, n)
    return _LEN64(0x81, 127, n)


class ShanghaiWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol with fewer system calls per message (see the module)."""

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][SEND_TEXTS] = self.send_texts

    def send_receive_event_to_app(self) -> None:
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.close_sent:  # past "websocket.close": discarded (as uvicorn does)
            return
        if self.curr_msg_data_type == "text":
            try:
                self.queue.put_nowait({"type": "websocket.receive", "text": data.decode()})
            except UnicodeDecodeError:  # pragma: no cover - as uvicorn answers it
                self.logger.exception("Invalid UTF-8 sequence received from client.")
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
        else:
            self.queue.put_nowait({"type": "websocket.receive", "bytes": data})
        if not self.read_paused and self.queue.qsize() >= READ_QUEUE:
            self.read_paused = True
            self.transport.pause_reading()

    def send_texts(self, texts: Sequence[str]) -> bool:
        """Write these text messages now, in one write; False (nothing written) when the connection
        is not open or its transport wants the writer to wait."""
        transport = self.transport
        if (not self.handshake_complete or self.close_sent or self.disconnected or self.initial_response is not None
                or not self.writable.is_set() or transport.is_closing() or self.conn.state is not State.OPEN):
            return False
        if self.conn.extensions:  # an extension (compression) makes the frames
            for text in texts:
                self.conn.send_text(text.encode())
            transport.write(b"".join(self.conn.data_to_send()))
            return True
        parts = []
        for text in texts:
            data = text.encode()
            parts.append(text_frame(data))
            parts.append(data)
        transport.write(b"".join(parts))
        return True
