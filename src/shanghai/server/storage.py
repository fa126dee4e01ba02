"""Storage with SQLAlchemy: SQLite by default (a file in the user's data directory, WAL mode),
PostgreSQL by URL. A game is its record: rules, seed, seats and the ordered actions.

Every call is one short transaction, committed before it returns: the server writes an accepted
action here before it tells anybody about it. ``Committer`` commits the actions that several tables
accepted at about the same time in one transaction (each table waits for the commit of its own).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection

from shanghai.engine.record import GameRecord, rules_from_spec
from shanghai.paths import data_dir

metadata = MetaData()

games = Table(
    "shanghai_games", metadata,
    Column("id", String(32), primary_key=True),
    Column("invite", String(64), nullable=False, unique=True),
    Column("status", String(16), nullable=False),          # lobby | playing | over
    Column("rules", Text, nullable=False),                 # the record's rules spec, JSON
    Column("seed", Integer, nullable=False),
    Column("settings", Text, nullable=False),              # timings, JSON
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
)

seats = Table(
    "shanghai_seats", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),             # human | bot
    Column("level", String(32), nullable=True),            # a bot's level (make_player's name)
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64), nullable=True, unique=True),
)

# the seat tokens a rematch moved on to the next game: the token still shows the games it played
# (``Storage.held_seats``: a browser's history) though it no longer opens their seats
past_seats = Table(
    "shanghai_past_seats", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("token_hash", String(64), nullable=False, index=True),
)

actions = Table(
    "shanghai_actions", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
)


_INSERT_ACTION = insert(actions)   # made once: a statement made per call costs more than the commit
_GAME_OVER = update(games).where(games.c.id == bindparam("over_id")).values(status="over",
                                                                          updated=bindparam("over_at"))

_SQLITE_INSERT_ACTION = "INSERT INTO shanghai_actions (game_id, n, text, at) VALUES (?, ?, ?, ?)"
_SQLITE_GAME_OVER = "UPDATE shanghai_games SET status = 'over', updated = ? WHERE id = ?"

log = logging.getLogger("shanghai.server")

BUSY_TIMEOUT_MS = 5000   # how long a write waits for another connection's write lock (SQLite)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def default_db_url() -> str:
    """``server.sqlite3`` in the user's data folder (:func:`shanghai.paths.data_dir`)."""
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'server.sqlite3'}"


@dataclass
class SeatRow:
    seat: int
    kind: str
    level: str | None
    name: str
    token_hash: str | None


@dataclass
class HeldSeat:
    """A seat a token holds at a game (or held, before a rematch moved the token on)."""
    game_id: str
    invite: str
    created: float
    seat: int
    names: list[str]   # every seat's name, in seat order
    past: bool = False  # a rematch moved the token on: it no longer opens this seat


@dataclass
class GameRow:
    id: str
    invite: str
    status: str
    rules: dict[str, Any]
    seed: int
    settings: dict[str, Any]
    seats: list[SeatRow]
    actions: list[str]

    def record(self) -> GameRecord:
        return GameRecord(rules_from_spec(self.rules), self.seed, [s.name for s in self.seats], list(self.actions))


class Storage:
    """The server's database."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url or default_db_url()
        kwargs: dict[str, Any] = {}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)
        # SQLite: the actions are committed through one connection kept for it, with the driver's
        # statements (SQLAlchemy's work around a transaction costs some three times SQLite's commit)
        self._sqlite_actions: Any = None
        self._sqlite_lock = threading.Lock()
        self._sqlite_autocheckpoint = 1000
        self._sqlite_busy_ms = BUSY_TIMEOUT_MS
        # False: the commits of actions leave SQLite's WAL checkpoints to ``checkpoint`` (``Committer``)
        self.autocheckpoint = True

    def close(self) -> None:
        with self._sqlite_lock:
            if self._sqlite_actions is not None:
                self._sqlite_actions.close()
                self._sqlite_actions = None
        self.engine.dispose()

    # -- writes ------------------------------------------------------------------------------------
    def create_game(self, game_id: str, invite: str, rules: dict[str, Any], seed: int,
                    settings: dict[str, Any], seat_rows: list[SeatRow], *,
                    moved_from: tuple[str, list[SeatRow]] | None = None) -> None:
        """A new game in the lobby; ``moved_from`` (a game and its seats without their tokens) moves the
        seat tokens of a finished game to this one in the same transaction (a rematch): the old game
        keeps them as past seats (the seats are the same, so ``seat_rows`` hold the moved tokens)."""
        now = time.time()
        with self.engine.begin() as c:
            if moved_from is not None:
                c.execute(delete(seats).where(seats.c.game_id == moved_from[0]))
                self._write_seats(c, moved_from[0], moved_from[1])
                moved = [{"game_id": moved_from[0], "seat": s.seat, "token_hash": s.token_hash}
                         for s in seat_rows if s.token_hash is not None]
                if moved:
                    c.execute(insert(past_seats), moved)
            c.execute(insert(games).values(id=game_id, invite=invite, status="lobby", rules=json.dumps(rules),
                                           seed=seed, settings=json.dumps(settings), created=now, updated=now))
            self._write_seats(c, game_id, seat_rows)

    def save_seats(self, game_id: str, seat_rows: list[SeatRow], status: str | None = None) -> None:
        with self.engine.begin() as c:
            c.execute(delete(seats).where(seats.c.game_id == game_id))
            self._write_seats(c, game_id, seat_rows)
            values: dict[str, Any] = {"updated": time.time()}
            if status is not None:
                values["status"] = status
            c.execute(update(games).where(games.c.id == game_id).values(**values))

    @staticmethod
    def _write_seats(c: Connection, game_id: str, seat_rows: list[SeatRow]) -> None:
        if seat_rows:
            c.execute(insert(seats), [{"game_id": game_id, "seat": s.seat, "kind": s.kind, "level": s.level,
                                       "name": s.name, "token_hash": s.token_hash} for s in seat_rows])

    def append_action(self, game_id: str, n: int, text: str, *, over: bool = False) -> None:
        """Commit action number ``n`` (the primary key refuses a second action ``n``)."""
        self.append_actions([(game_id, n, text, over)])

    def append_actions(self, rows: list[tuple[str, int, str, bool]], *, wait: bool = True) -> None:
        """Commit actions ``(game_id, n, text, over)`` of different games in one transaction: all or none.

        ``wait=False`` (SQLite): fail at once, instead of waiting up to 5 s, when another connection
        holds the database's write lock (the event loop must not wait)."""
        now = time.time()
        if self.engine.dialect.name == "sqlite":
            self._append_sqlite(rows, now, wait)
            return
        with self.engine.begin() as c:
            values = [{"game_id": g, "n": n, "text": text, "at": now} for g, n, text, _ in rows]
            c.execute(_INSERT_ACTION, values[0] if len(values) == 1 else values)
            for g, _, _, over in rows:
                if over:
                    c.execute(_GAME_OVER, {"over_id": g, "over_at": now})

    def remove_last_action(self, game_id: str, n: int) -> None:
        """Remove action number ``n``, the game's last (a discard taken back); ``ValueError`` where it is
        not there or not the last, and then nothing is removed."""
        with self.engine.begin() as c:
            later = c.execute(select(actions.c.n).where(actions.c.game_id == game_id, actions.c.n > n)).first()
            if later is not None:
                raise ValueError(f"action {n} of game {game_id} is not its last")
            gone = c.execute(delete(actions).where(actions.c.game_id == game_id, actions.c.n == n)).rowcount
            if gone != 1:
                raise ValueError(f"game {game_id} has no action {n}")

    def checkpoint(self) -> None:
        """Copy SQLite's WAL into the database as far as nobody is reading it (PASSIVE: waits for nobody)."""
        if self.engine.dialect.name == "sqlite":
            with self.engine.connect() as c:
                c.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def _append_sqlite(self, rows: list[tuple[str, int, str, bool]], now: float, wait: bool) -> None:
        with self._sqlite_lock:
            if self._sqlite_actions is None:
                self._sqlite_actions = self.engine.raw_connection()
                self._sqlite_autocheckpoint = 1000   # SQLite's default
                self._sqlite_busy_ms = BUSY_TIMEOUT_MS
            db = self._sqlite_actions.driver_connection
            want = 1000 if self.autocheckpoint else 0
            if self._sqlite_autocheckpoint != want:
                db.execute(f"PRAGMA wal_autocheckpoint={want}")
                self._sqlite_autocheckpoint = want
            busy = BUSY_TIMEOUT_MS if wait else 0
            if self._sqlite_busy_ms != busy:
                db.execute(f"PRAGMA busy_timeout={busy}")
                self._sqlite_busy_ms = busy
            try:  # the driver begins the transaction before the first insert
                db.executemany(_SQLITE_INSERT_ACTION, [(g, n, text, now) for g, n, text, _ in rows])
                for g, _, _, over in rows:
                    if over:
                        db.execute(_SQLITE_GAME_OVER, (now, g))
                db.commit()
            except BaseException:
                db.rollback()
                raise

    # -- reads -------------------------------------------------------------------------------------
    def load(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as c:
            row = c.execute(select(games).where(games.c.id == game_id)).first()
            if row is None:
                return None
            seat_rows = [SeatRow(r.seat, r.kind, r.level, r.name, r.token_hash) for r in
                         c.execute(select(seats).where(seats.c.game_id == game_id).order_by(seats.c.seat))]
            texts = [r.text for r in c.execute(select(actions.c.text).where(actions.c.game_id == game_id)
                                               .order_by(actions.c.n))]
        return GameRow(row.id, row.invite, row.status, json.loads(row.rules), row.seed, json.loads(row.settings),
                       seat_rows, texts)

    def game_of_invite(self, invite: str) -> str | None:
        with self.engine.connect() as c:
            row = c.execute(select(games.c.id).where(games.c.invite == invite)).first()
        return None if row is None else str(row.id)

    def seat_of_token(self, token: str) -> tuple[str, int] | None:
        with self.engine.connect() as c:
            row = c.execute(select(seats.c.game_id, seats.c.seat)
                            .where(seats.c.token_hash == hash_token(token))).first()
        return None if row is None else (str(row.game_id), int(row.seat))

    def held_seats(self, wanted: list[tuple[str, str]]) -> list[HeldSeat | None]:
        """For each ``(invite, token hash)``: the seat of that invite's game that the token holds, or
        held until a rematch moved it on; None where it holds none there, or no game has the invite."""
        invites = {invite for invite, _ in wanted}
        with self.engine.connect() as c:
            found = {r.invite: r for r in c.execute(select(games.c.id, games.c.invite, games.c.created)
                                                   .where(games.c.invite.in_(invites)))}
            ids = [r.id for r in found.values()]
            names: dict[str, list[str]] = {}
            holders: dict[tuple[str, str], tuple[int, bool]] = {}  # (game, token hash): seat, past
            for r in c.execute(select(seats).where(seats.c.game_id.in_(ids)).order_by(seats.c.seat)):
                names.setdefault(r.game_id, []).append(r.name)
                if r.token_hash is not None:
                    holders[(r.game_id, r.token_hash)] = (r.seat, False)
            for r in c.execute(select(past_seats).where(past_seats.c.game_id.in_(ids))):
                holders.setdefault((r.game_id, r.token_hash), (r.seat, True))
        out: list[HeldSeat | None] = []
        for invite, token_hash in wanted:
            game = found.get(invite)
            held = None if game is None else holders.get((game.id, token_hash))
            out.append(None if game is None or held is None else
                       HeldSeat(str(game.id), invite, float(game.created), held[0], names.get(game.id, []), held[1]))
        return out

    def unfinished(self) -> list[str]:
        """Games in the lobby or in play, oldest first."""
        with self.engine.connect() as c:
            return [str(r.id) for r in c.execute(select(games.c.id).where(games.c.status != "over")
                                                 .order_by(games.c.created))]


class Committer:
    """Group commit: ``await append(...)`` returns once the action is committed (or raises what its
    commit raised), as ``append_action`` in a worker thread would.

    SQLite: the actions appended during one turn of the event loop are committed together at its end,
    on the loop's thread (a commit in WAL mode without fsync takes some 40 microseconds: less than
    handing it to a thread and back), and the WAL is checkpointed in a worker thread now and then
    instead of by the commit that fills it (a checkpoint syncs the disk). That commit never waits: when
    it fails (another process holds the write lock, or an action is refused) the batch goes to the
    worker thread as for other databases, and so do the actions that arrive while the thread works.
    Other databases (a round trip over the network): the actions that arrive while a commit runs go
    together in the next transaction, in a worker thread. One writer at a time, so a table's actions
    (one at a time, under its lock) are committed in their order."""

    CHECKPOINT_EVERY = 200   # SQLite commits between checkpoints

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.inline = storage.engine.dialect.name == "sqlite"
        if self.inline:
            storage.autocheckpoint = False
        self._lock = threading.Lock()
        self._pending: list[tuple[tuple[str, int, str, bool], asyncio.Future[None]]] = []  # the thread's
        self._here: list[tuple[tuple[str, int, str, bool], asyncio.Future[None]]] = []     # the loop's
        self._busy = False   # the worker thread is committing (set and cleared under _lock)
        self._commits = 0
        self._checkpointing = False

    async def append(self, game_id: str, n: int, text: str, *, over: bool = False) -> None:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        if self.inline and not self._busy:
            self._here.append(((game_id, n, text, over), done))
            if len(self._here) == 1:
                loop.call_soon(self._commit_here, loop)
        else:
            self._to_thread([((game_id, n, text, over), done)], loop)
        await done

    def _to_thread(self, batch: list[tuple[tuple[str, int, str, bool], asyncio.Future[None]]],
                   loop: asyncio.AbstractEventLoop) -> None:
        with self._lock:
            self._pending.extend(batch)
            start, self._busy = not self._busy, True
        if start:
            loop.run_in_executor(None, self._drain, loop)

    def _commit_here(self, loop: asyncio.AbstractEventLoop) -> None:
        """Commit what is pending (SQLite, on the loop's thread), then tell the waiting tables."""
        batch, self._here = self._here, []
        if not batch:
            return
        if self._busy:  # the thread commits (it holds the connection): after what it has, in order
            self._to_thread(batch, loop)
            return
        try:
            self.storage.append_actions([row for row, _ in batch], wait=False)
        except Exception:  # locked by another process, or an action refused: the thread sorts it out
            self._to_thread(batch, loop)
            return
        _settle([done for _, done in batch], [None] * len(batch))
        self._commits += 1
        if self._commits >= self.CHECKPOINT_EVERY and not self._checkpointing:
            self._commits, self._checkpointing = 0, True
            loop.run_in_executor(None, self._checkpoint)

    def _checkpoint(self) -> None:
        try:
            self.storage.checkpoint()
        except Exception:  # the next one will do
            log.exception("the WAL checkpoint failed")
        finally:
            self._checkpointing = False

    def _commit(self, batch: list[tuple[tuple[str, int, str, bool], asyncio.Future[None]]],
                ) -> list[BaseException | None]:
        """Commit a batch: all in one transaction, or (when that fails) each action alone."""
        try:
            self.storage.append_actions([row for row, _ in batch])
            return [None] * len(batch)
        except Exception as exc:  # each action alone: one refusal fails only itself
            if len(batch) == 1:
                return [exc]
            outcomes: list[BaseException | None] = []
            for row, _ in batch:
                try:
                    self.storage.append_actions([row])
                    outcomes.append(None)
                except Exception as one:
                    outcomes.append(one)
            return outcomes

    def _drain(self, loop: asyncio.AbstractEventLoop) -> None:
        """Commit what is pending until nothing is (in a worker thread)."""
        while True:
            with self._lock:
                batch, self._pending = self._pending, []
                if not batch:
                    self._busy = False
                    return
            outcomes = self._commit(batch)
            try:
                loop.call_soon_threadsafe(_settle, [done for _, done in batch], outcomes)
            except RuntimeError:  # the loop is closed: nobody waits any more
                log.warning("%d committed actions had nobody to tell", len(batch))


def _settle(futures: list[asyncio.Future[None]], outcomes: list[BaseException | None]) -> None:
    for done, exc in zip(futures, outcomes, strict=True):
        if done.done():  # the waiting table was cancelled (the server is stopping)
            continue
        if exc is None:
            done.set_result(None)
        else:
            done.set_exception(exc)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")   # WAL + NORMAL: a committed write survives a killed process
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
