"""The ASGI application (Starlette): the lobby's JSON API, one WebSocket per client, static files.

``create_app(storage)`` builds it; ``shanghai serve`` runs it on uvicorn. Routes:

- ``GET  /api``                       the protocol version, presets, options and computer levels
- ``POST /api/tables``                create a table (the creator takes seat 0 and is the host)
- ``GET  /api/invite/{invite}``       a table's public description (seats, rules, status)
- ``POST /api/invite/{invite}/join``  take an open seat with a display name: a seat token
- ``GET  /api/invite/{invite}/record`` a finished game's record (JSON lines; refused while in play)
- ``POST /api/history``               the games of a browser's seat tokens, and its statistics per preset
- ``WS   /ws``                        the game (see ``docs/protocol.md``)
- ``/``                               the browser front end, when a static directory is there
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from shanghai.bots.coach import REVIEW_DEALS
from shanghai.rules import OTHER_GAMES, PRESETS
from shanghai.rules.manipulation import MELD_TWO
from shanghai.rules.presets import OPTION_PRESETS, OPTIONS
from shanghai.server.protocol import (
    MAX_BODY_BYTES,
    MAX_MESSAGE_BYTES,
    MAX_STRIKES,
    PROTOCOL_VERSION,
    RATE_BURST,
    RATE_PER_SECOND,
    ProtocolError,
    dumps,
    read_json,
)
from shanghai.server.storage import Storage
from shanghai.server.tables import (
    Conn,
    Manager,
    Settings,
    TokenBucket,
    default_level,
    game_kind,
    guide_json,
    known_levels,
    levels_for,
    rules_of,
)
from shanghai.server.uvicorn_ws import SEND_TEXTS

log = logging.getLogger("shanghai.server")

HELLO_SECONDS = 60.0  # time a new connection has to say hello

_STATUS = {"not-found": 404, "not-over": 409, "table-full": 409, "seat-taken": 409, "name-taken": 409, "game-over": 409,
           "too-large": 413}


def default_static_dir() -> Path | None:
    """The browser front end's built files, when they are installed (``shanghai/web/static``)."""
    here = Path(__file__).resolve().parent.parent / "web" / "static"
    return here if here.is_dir() else None


def create_app(storage: Storage, *, defaults: Settings | None = None, static_dir: Path | None = None,
               review_deals: int = REVIEW_DEALS) -> Starlette:
    manager = Manager(storage, defaults, review_deals=review_deals)
    static = static_dir if static_dir is not None else default_static_dir()

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await manager.startup()
        # what is loaded by now (modules, the unfinished games) stays: the collector need not look at it
        # again in every full collection (with many tables these took some 100 ms each)
        gc.freeze()
        try:
            yield
        finally:
            await manager.shutdown()
            storage.close()

    presets = [{"name": r.name, "title": r.title, "description": r.description, "game": "contract",
                "min_players": r.min_players, "max_players": r.max_players,
                "options": list(OPTIONS) if r.name in OPTION_PRESETS else [], "levels": list(levels_for(r))}
               for r in PRESETS.values()]
    presets += [{"name": g.name, "title": g.title, "description": g.description, "game": game_kind(g),
                 "min_players": g.min_players, "max_players": g.max_players, "options": [MELD_TWO],
                 "levels": list(levels_for(g)), "target_score": g.target_score} for g in OTHER_GAMES.values()]

    async def api_info(_request: Request) -> Response:
        return JSONResponse({
            "protocol": PROTOCOL_VERSION,
            "presets": presets,
            "levels": list(known_levels()), "default_level": default_level(),
            "settings": manager.defaults.to_json(),
        })

    async def create_table(request: Request) -> Response:
        return await _guard(lambda body: manager.create(body), request)

    async def invite_info(request: Request) -> Response:
        try:
            return JSONResponse(manager.info(request.path_params["invite"]))
        except ProtocolError as exc:
            return _error_response(exc)

    async def join(request: Request) -> Response:
        invite = request.path_params["invite"]
        return await _guard(lambda body: manager.join(invite, body), request)

    async def history(request: Request) -> Response:
        return await _guard(lambda body: manager.history(body), request)

    async def finished_record(request: Request) -> Response:
        try:
            text = manager.finished_record(request.path_params["invite"])
        except ProtocolError as exc:
            return _error_response(exc)
        return PlainTextResponse(text, media_type="application/x-ndjson")

    async def replay_step(request: Request) -> Response:
        try:
            return JSONResponse(manager.replay_step(request.path_params["invite"], request.path_params["n"]))
        except ProtocolError as exc:
            return _error_response(exc)

    async def table_guide(request: Request) -> Response:
        try:
            return JSONResponse(manager.guide(request.path_params["invite"]))
        except ProtocolError as exc:
            return _error_response(exc)

    async def preset_guide(request: Request) -> Response:
        name = request.path_params["preset"].strip().lower()
        rules = PRESETS.get(name) or OTHER_GAMES.get(name)
        if rules is None:
            return _error_response(ProtocolError(f"no rule set {name!r}", "not-found"))
        return JSONResponse(guide_json(rules))

    async def rules_guide(request: Request) -> Response:  # the lobby's rules, options and house rules
        return await _guard(lambda body: _guide_of(body), request)

    async def join_page(request: Request) -> Response:
        if static is not None and (static / "index.html").is_file():
            return FileResponse(static / "index.html")
        try:
            return JSONResponse(manager.info(request.path_params["invite"]))
        except ProtocolError as exc:
            return _error_response(exc)

    async def websocket(ws: WebSocket) -> None:
        await serve_socket(manager, ws)

    routes: list[Route | WebSocketRoute | Mount] = [
        Route("/api", api_info, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/invite/{invite}", invite_info, methods=["GET"]),
        Route("/api/invite/{invite}/join", join, methods=["POST"]),
        Route("/api/invite/{invite}/record", finished_record, methods=["GET"]),
        Route("/api/invite/{invite}/guide", table_guide, methods=["GET"]),
        Route("/api/invite/{invite}/replay/{n}", replay_step, methods=["GET"]),
        Route("/api/guide/{preset}", preset_guide, methods=["GET"]),
        Route("/api/guide", rules_guide, methods=["POST"]),
        Route("/api/history", history, methods=["POST"]),
        Route("/join/{invite}", join_page, methods=["GET"]),
        WebSocketRoute("/ws", websocket),
    ]
    if static is not None:
        routes.append(Mount("/", app=StaticFiles(directory=static, html=True), name="static"))
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.manager = manager
    return app


async def _guard(run: Any, request: Request) -> Response:
    body = await request.body()
    if len(body) > MAX_BODY_BYTES:
        return _error_response(ProtocolError(f"a request may be at most {MAX_BODY_BYTES} bytes", "too-large"))
    try:
        obj = read_json(body or b"{}", "the request body")
    except ProtocolError as exc:
        return _error_response(exc)
    if not isinstance(obj, dict):
        return _error_response(ProtocolError("the request body is a JSON object", "bad-json"))
    try:
        return JSONResponse(await run(obj))
    except ProtocolError as exc:
        return _error_response(exc)


async def _guide_of(body: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/guide``: the guide of the rules in ``body["rules"]`` (as ``POST /api/tables`` takes them)."""
    return guide_json(rules_of(body.get("rules", {"preset": "isra"}))[0])


def _error_response(exc: ProtocolError) -> Response:
    return JSONResponse({"error": exc.code, "message": exc.message}, status_code=_STATUS.get(exc.code, 400))


async def serve_socket(manager: Manager, ws: WebSocket) -> None:
    """One client: read messages (checked for size, rate and form), answer through the outbox."""
    await ws.accept()
    # uvicorn with shanghai's WebSocket protocol (``shanghai serve``) writes messages without the writer
    conn = Conn((ws.scope.get("extensions") or {}).get(SEND_TEXTS))

    async def write() -> None:
        try:
            while True:
                msg = await conn.next_message()
                if msg is None:
                    break
                conn.writing = True
                try:
                    await ws.send_text(msg if isinstance(msg, str) else dumps(msg))
                finally:
                    conn.writing = False
        except WebSocketDisconnect:  # the client went away: the reader ends the connection
            conn.close()
            return
        with contextlib.suppress(Exception):
            await ws.close()

    writer_task = asyncio.get_running_loop().create_task(write())
    bucket = TokenBucket(RATE_PER_SECOND, RATE_BURST)
    strikes = 0
    try:
        while not conn.closed:
            if conn.table is None:  # a connection that never says hello is let go
                try:
                    message = await asyncio.wait_for(ws.receive(), HELLO_SECONDS)
                except TimeoutError:
                    conn.send({"type": "error", "code": "hello-first", "message": "no hello: closing"})
                    break
            else:
                message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                data = message.get("bytes") or b""
                try:
                    text = data.decode("utf-8")
                except UnicodeDecodeError:
                    text = "\x00"  # not JSON: refused below
            checked = _check(text, bucket)
            if isinstance(checked, ProtocolError):
                strikes += 1
                conn.send({"type": "error", "code": checked.code, "message": checked.message})
                if strikes >= MAX_STRIKES:
                    conn.send({"type": "error", "code": "closing", "message": "too many refused messages"})
                    conn.close()
                continue
            try:
                await manager.handle(conn, checked)
            except Exception:  # never let one message take the server down
                log.exception("a message could not be handled")
                failed = {"type": "error", "code": "internal", "message": "the server could not handle that"}
                if checked.get("id") is not None:
                    failed["ref"] = checked["id"]  # answers the message, as other errors do
                conn.send(failed)
    except WebSocketDisconnect:
        pass
    finally:
        await manager.bye(conn)
        conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer_task, 2.0)
        writer_task.cancel()


def _check(text: str, bucket: TokenBucket) -> dict[str, Any] | ProtocolError:
    if not bucket.take():
        return ProtocolError(f"too many messages: at most {RATE_PER_SECOND:g} a second", "rate-limited")
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        return ProtocolError(f"a message may be at most {MAX_MESSAGE_BYTES} bytes", "too-large")
    try:
        obj = read_json(text)
    except ProtocolError as exc:
        return exc
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str):
        return ProtocolError("a message is a JSON object with a string \"type\"", "bad-message")
    return obj
