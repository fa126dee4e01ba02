"""Score pads in a local SQLite database (standard library ``sqlite3``).

The database is ``$SHANGHAI_DATA_DIR/scorepad.sqlite3`` when that variable is set, else
``$XDG_DATA_HOME/shanghai/scorepad.sqlite3`` (``~/.local/share/shanghai/scorepad.sqlite3``); the
command line's ``--db PATH`` overrides both. It runs in WAL mode with foreign keys on; a
``schema_version`` table says which layout it holds, and a database written by a newer program is
refused rather than misread.

Every write is one transaction (``BEGIN IMMEDIATE``) made of rows that the model has already
validated, so a refused entry never leaves a trace and a game is never half written.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType

from shanghai.cards import parse_cards
from shanghai.paths import data_dir
from shanghai.scorepad.model import BLIND_KINDS, Blind, RoundEntry, ScorePad, ScorePadError, make_rules

SCHEMA_VERSION = 1
DB_NAME = "scorepad.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at TEXT NOT NULL,
    finished_at TEXT,
    preset TEXT NOT NULL,
    options TEXT NOT NULL,
    house TEXT NOT NULL,
    note TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS players (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS rounds (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    number INTEGER NOT NULL CHECK (number >= 1),
    went_out INTEGER,
    cut INTEGER,
    blind TEXT,
    entered_at TEXT NOT NULL,
    PRIMARY KEY (game_id, number)
);
CREATE TABLE IF NOT EXISTS scores (
    game_id INTEGER NOT NULL,
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    hand_points INTEGER NOT NULL CHECK (hand_points >= 0),
    cards TEXT,
    points INTEGER NOT NULL,
    PRIMARY KEY (game_id, number, seat),
    FOREIGN KEY (game_id, number) REFERENCES rounds(game_id, number) ON DELETE CASCADE
);
"""


def default_db_path() -> Path:
    """Where the score pads live unless ``--db`` says otherwise."""
    return data_dir() / DB_NAME


def now_text() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class ScorePadStore:
    """The score pads of one database file. Use as a context manager, or call :meth:`close`."""

    def __init__(self, path: Path | str, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.exists():
            raise ScorePadError(f"no score pad database at {self.path} (start a game with "
                                f"'shanghai scorepad new')")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(self.path, isolation_level=None, timeout=10)
        except (OSError, sqlite3.Error) as exc:
            raise ScorePadError(f"cannot open the score pad database {self.path}: {exc}") from None
        try:
            self.db.execute("PRAGMA foreign_keys = ON")
            self.db.execute("PRAGMA journal_mode = WAL")
            self._migrate()
        except sqlite3.OperationalError as exc:  # the file or its folder: not the data
            self.db.close()
            raise ScorePadError(f"cannot open the score pad database {self.path}: {exc} (the database "
                                f"and its folder must be writable)") from None
        except sqlite3.DatabaseError as exc:
            self.db.close()
            raise ScorePadError(f"{self.path} is not a score pad database: {exc}") from None
        except ScorePadError:
            self.db.close()
            raise

    # -- plumbing -----------------------------------------------------------------------------------
    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> ScorePadStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it or nothing. A database that cannot be written (a read-only
        file or folder, a full disk, a lock held too long) is a ``ScorePadError`` saying so."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise ScorePadError(f"cannot write the score pad database {self.path}: {exc}") from None
        try:
            yield self.db
        except sqlite3.OperationalError as exc:
            self.db.execute("ROLLBACK")
            raise ScorePadError(f"cannot write the score pad database {self.path}: {exc}; nothing was "
                                f"saved") from None
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        try:
            self.db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise ScorePadError(f"cannot write the score pad database {self.path}: {exc}; nothing was "
                                f"saved") from None

    def _version(self) -> int | None:
        has_table = self.db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = "
                                    "'schema_version'").fetchone()
        if not has_table:
            return None
        version = self.db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
        return None if version is None else int(version)

    def _migrate(self) -> None:
        version = self._version()
        if version == SCHEMA_VERSION:  # the usual case: no write lock needed
            return
        with self._write() as db:
            version = self._version()  # again, inside the transaction
            if version is None:
                tables = db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                                    "'sqlite_%' AND name != 'schema_version'").fetchall()
                if tables:
                    raise ScorePadError(f"{self.path} holds other tables ({', '.join(t[0] for t in tables)}): "
                                        f"it is not a score pad database")
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
            elif version > SCHEMA_VERSION:
                raise ScorePadError(f"{self.path} was written by a newer shanghai (score pad schema {version}; "
                                    f"this one reads up to {SCHEMA_VERSION})")
            # Older versions would be migrated here, one step at a time.

    @property
    def schema_version(self) -> int:
        return int(self.db.execute("SELECT MAX(version) FROM schema_version").fetchone()[0])

    # -- writing ------------------------------------------------------------------------------------
    def create(self, pad: ScorePad) -> ScorePad:
        """Store a new game (with any rounds it already has); returns it with its id."""
        created = pad.created_at or now_text()
        with self._write() as db:
            cur = db.execute("INSERT INTO games (created_at, finished_at, preset, options, house, note) "
                             "VALUES (?, NULL, ?, ?, ?, ?)",
                             (created, pad.preset, json.dumps(list(pad.options)),
                              json.dumps(dict(pad.house)), pad.note))
            game_id = int(cur.lastrowid or 0)
            db.executemany("INSERT INTO players (game_id, seat, name) VALUES (?, ?, ?)",
                           [(game_id, s, name) for s, name in enumerate(pad.players)])
            for entry in pad.rounds:
                self._insert_round(db, game_id, entry)
            finished = now_text() if pad.is_finished else None
            db.execute("UPDATE games SET finished_at = ? WHERE id = ?", (finished, game_id))
        return self.load(game_id)

    def save_round(self, pad: ScorePad, entry: RoundEntry) -> ScorePad:
        """Store a validated round (a new one, or a correction of one entered); returns the new pad.

        The database must still hold the game as ``pad`` shows it (same number of rounds), so two
        score keepers cannot silently overwrite each other."""
        if pad.id is None:
            raise ScorePadError("the game has not been stored yet")
        new_pad = pad.with_round(entry)
        with self._write() as db:
            stored = db.execute("SELECT COUNT(*) FROM rounds WHERE game_id = ?", (pad.id,)).fetchone()[0]
            if stored != len(pad.rounds):
                raise ScorePadError(f"game {pad.id} was changed meanwhile ({stored} rounds stored, "
                                    f"{len(pad.rounds)} shown): nothing was saved, try again")
            db.execute("DELETE FROM rounds WHERE game_id = ? AND number = ?", (pad.id, entry.number))
            self._insert_round(db, pad.id, entry)
            if new_pad.is_finished and not pad.is_finished:
                db.execute("UPDATE games SET finished_at = ? WHERE id = ?", (now_text(), pad.id))
        return self.load(pad.id)

    def undo_last_round(self, game_id: int) -> ScorePad:
        """Remove the last round entered (the game becomes unfinished again)."""
        pad = self.load(game_id)
        pad.without_last_round()  # refuses a game without rounds
        with self._write() as db:
            db.execute("DELETE FROM rounds WHERE game_id = ? AND number = ?", (game_id, len(pad.rounds)))
            db.execute("UPDATE games SET finished_at = NULL WHERE id = ?", (game_id,))
        return self.load(game_id)

    def delete(self, game_id: int) -> None:
        self.load(game_id)  # refuses an unknown id
        with self._write() as db:
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    @staticmethod
    def _insert_round(db: sqlite3.Connection, game_id: int, entry: RoundEntry) -> None:
        db.execute("INSERT INTO rounds (game_id, number, went_out, cut, blind, entered_at) VALUES (?, ?, ?, ?, ?, ?)",
                   (game_id, entry.number, entry.went_out, entry.cut, entry.blind, now_text()))
        db.executemany(
            "INSERT INTO scores (game_id, number, seat, hand_points, cards, points) VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, entry.number, s, entry.hand_points[s], entry.cards_text(s), entry.points[s])
             for s in range(len(entry.points))])

    # -- reading ------------------------------------------------------------------------------------
    def game_ids(self, *, unfinished: bool = False) -> list[int]:
        """Every game's id in the order they were started (only the unfinished ones if asked)."""
        where = " WHERE finished_at IS NULL" if unfinished else ""
        return [int(r[0]) for r in self.db.execute(f"SELECT id FROM games{where} ORDER BY created_at, id")]

    def load(self, game_id: int) -> ScorePad:
        row = self.db.execute("SELECT id, created_at, finished_at, preset, options, house, note FROM games "
                              "WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise ScorePadError(f"there is no game {game_id} in {self.path} (see 'shanghai scorepad history')")
        _, created, finished, preset_name, options_json, house_json, note = row
        options = tuple(json.loads(options_json))
        house = tuple(sorted(json.loads(house_json).items()))
        rules = make_rules(preset_name, options, dict(house))
        players = tuple(r[0] for r in self.db.execute(
            "SELECT name FROM players WHERE game_id = ? ORDER BY seat", (game_id,)))
        n = len(players)
        rounds: list[RoundEntry] = []
        for number, went_out, cut, blind in self.db.execute(
                "SELECT number, went_out, cut, blind FROM rounds WHERE game_id = ? ORDER BY number", (game_id,)
                ).fetchall():
            scores = self.db.execute("SELECT seat, hand_points, cards, points FROM scores WHERE game_id = ? "
                                     "AND number = ? ORDER BY seat", (game_id, number)).fetchall()
            if [s[0] for s in scores] != list(range(n)):
                raise ScorePadError(f"game {game_id}, round {number}: the stored scores are incomplete")
            kind: Blind | None = None
            for k in BLIND_KINDS:
                if blind == k:
                    kind = k
            rounds.append(RoundEntry(
                number=int(number), hand_points=tuple(int(s[1]) for s in scores),
                cards=tuple(None if s[2] is None else tuple(parse_cards(s[2])) for s in scores),
                went_out=went_out, cut=cut, blind=kind, points=tuple(int(s[3]) for s in scores)))
        return ScorePad(preset=preset_name, options=options, house=house, players=players, rules=rules,
                        rounds=tuple(rounds), id=int(game_id), created_at=created, finished_at=finished,
                        note=note)

    def load_all(self, *, unfinished: bool = False) -> list[ScorePad]:
        return [self.load(i) for i in self.game_ids(unfinished=unfinished)]

    def last_unfinished(self) -> ScorePad:
        ids = self.game_ids(unfinished=True)
        if not ids:
            raise ScorePadError("there is no unfinished game (start one with 'shanghai scorepad new')")
        return self.load(ids[-1])
