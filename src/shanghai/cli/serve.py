"""``shanghai serve``: the multiplayer game server (Starlette on uvicorn, SQLite or PostgreSQL)."""

from __future__ import annotations

import argparse
import gc
import logging
import sys
from pathlib import Path
from typing import Any

from shanghai.cli.common import EXIT_OK, CliError

DESCRIPTION = """\
Serve Shanghai Rummy to browsers and other clients: tables with private invite links, computer
players, reconnects with a seat token, and every accepted action committed to the database before
anybody is told of it (a killed server resumes every unfinished game when it starts again).
The protocol is in docs/protocol.md."""


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``serve`` command to the ``shanghai`` command's subparsers."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "serve", help="run the multiplayer game server", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    parser.add_argument("--db", metavar="URL", default=None,
                        help="a SQLAlchemy database URL, e.g. postgresql+psycopg://user@host/db (default: "
                             "SQLite in $SHANGHAI_DATA_DIR, $XDG_DATA_HOME/shanghai or ~/.local/share/shanghai)")
    parser.add_argument("--buy-seconds", type=float, default=15.0, metavar="S",
                        help="default time a person has to answer a buy window (default 15)")
    parser.add_argument("--bot-pause", type=float, default=1.0, metavar="S",
                        help="default pause of a computer player before it acts (default 1)")
    parser.add_argument("--standin-seconds", type=float, default=30.0, metavar="S",
                        help="how long a disconnected person's turn waits before a computer player stands in "
                             "(default 30)")
    parser.add_argument("--idle-seconds", type=float, default=120.0, metavar="S",
                        help="how long a connected person's turn waits, while another person at the table waits on "
                             "it, before a computer player stands in until they are back (default 120; 0: for ever)")
    parser.add_argument("--take-back-seconds", type=float, default=2.0, metavar="S",
                        help="at a table of computer players, how long they wait after a person's discard, which "
                             "the person may take back until one of them acts (default 2; 0: the usual pause)")
    parser.add_argument("--no-hints", action="store_true",
                        help="tables switch the coach's hints off unless their host switches them on")
    parser.add_argument("--review-deals", type=int, default=None, metavar="N",
                        help="the coach's review of a finished game weighs each difference over N deals of the "
                             "cards the player could not see (default 16; 0: the review without costs, seconds "
                             "less CPU a review)")
    parser.add_argument("--static", metavar="DIR", type=Path, default=None,
                        help="serve the browser front end from DIR (default: the installed one, if any)")
    parser.add_argument("--ws-deflate", action="store_true",
                        help="offer WebSocket compression (permessage-deflate; off by default: it costs the server "
                             "more CPU per message than a state message of a few KiB saves on a fast network)")
    parser.add_argument("--log-level", default="info", choices=["critical", "error", "warning", "info", "debug"])
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from shanghai.bots.coach import REVIEW_DEALS
        from shanghai.server.app import create_app
        from shanghai.server.storage import Storage
        from shanghai.server.tables import Settings
    except ImportError as exc:  # pragma: no cover - the dependencies are installed with the package
        raise CliError(f"the server cannot start: {exc}", code=1) from exc
    if not 0 < args.port < 65536:
        raise CliError(f"--port must be from 1 to 65535, not {args.port}")
    try:
        defaults = Settings().changed({"buy_seconds": args.buy_seconds, "bot_pause": args.bot_pause,
                                       "standin_seconds": args.standin_seconds,
                                       "take_back_seconds": args.take_back_seconds,
                                       "idle_seconds": args.idle_seconds, "hints": not args.no_hints})
    except ValueError as exc:  # the settings' field names, in the options' words
        message = str(exc)
        for field in ("buy_seconds", "bot_pause", "standin_seconds", "take_back_seconds", "idle_seconds"):
            message = message.replace(field, "--" + field.replace("_", "-"))
        raise CliError(message) from exc
    review_deals = REVIEW_DEALS if args.review_deals is None else args.review_deals
    if review_deals < 0 or review_deals == 1:
        raise CliError(f"--review-deals is 0 (weigh nothing) or at least 2, not {review_deals}")
    if args.static is not None and not args.static.is_dir():
        raise CliError(f"--static {args.static}: no such directory")
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from sqlalchemy.exc import ArgumentError
    try:
        storage = Storage(args.db)
    except ArgumentError as exc:  # not a URL, or a database SQLAlchemy has no dialect for
        raise CliError(f"--db {args.db!r} is not a database URL this server can use "
                       f"(e.g. sqlite:///games.db or postgresql+psycopg://user@host/db): {exc}") from exc
    except Exception as exc:  # a database that cannot be reached or opened now
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise CliError(f"cannot open the database: {first}", code=1) from exc
    app = create_app(storage, defaults=defaults, static_dir=args.static, review_deals=review_deals)
    print(f"shanghai: serving on http://{args.host}:{args.port}/ (database {_safe_url(storage.url)})\n"
          f"shanghai: open http://{args.host}:{args.port}/ in a browser to play; Ctrl+C stops the server",
          file=sys.stderr, flush=True)
    from shanghai.server.protocol import MAX_FRAME_BYTES
    from shanghai.server.uvicorn_ws import protocol_for

    # With the collector's default thresholds (700, 10, 10) it ran some 800 times a minute under load
    # (benchmarks/bench_server.py, 500 tables), 6 of them through everything the tables hold: pauses of
    # up to a third of a second, 2.5 s of CPU in all (0.7 s with these). The server's objects are freed
    # by their reference counts; cycles (exceptions, tasks) are still collected, every 50,000 objects.
    gc.set_threshold(50_000, 20, 10)

    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, ws_max_size=MAX_FRAME_BYTES,
                ws=protocol_for(uvicorn.__version__), ws_per_message_deflate=args.ws_deflate, lifespan="on")
    return EXIT_OK


def _safe_url(url: str) -> str:
    """The URL without its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)
