"""The multiplayer server: tables with invite links, computer players, reconnects, nothing lost on a crash.

``create_app`` builds the ASGI application; ``shanghai serve`` runs it. See ``docs/protocol.md``.
"""

from shanghai.server.protocol import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION"]
