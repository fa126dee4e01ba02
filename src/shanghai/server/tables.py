"""The table manager: tables in memory over the storage, their connections, timers and computer players.

One ``Table`` per game. Everything that changes a table happens under its lock; an accepted action is
applied to a copy of the game, committed to the database, and only then made the table's state and
sent to the seats (each its own view) and the spectators (the public view).

A driver task per table plays the computer players (after ``bot_pause``), passes for a person who
does not answer a buy window in ``buy_seconds``, and lets a computer player stand in for a person
whose turn has waited ``standin_seconds`` without a connection, until that person comes back.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import functools
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from shanghai.bots.coach import REVIEW_DEALS, advise, review, review_summary
from shanghai.bots.match import seat_seed
from shanghai.bots.player import AnyPlayer, ManipulationPlayer, Player
from shanghai.bots.registry import KNOWN_LEVELS, KNOWN_PLAYERS, make_opponent
from shanghai.cards import card_text
from shanghai.engine.actions import Buy, CallShanghai, Discard, Pass
from shanghai.engine.game import Game, Phase, RoundResult
from shanghai.engine.games import AnyAction, AnyGame, AnyView, apply_action, new_game, view_of
from shanghai.engine.manipulation import ManipulationGame, ManipulationView, manipulation_view, play_exactly
from shanghai.engine.record import GameRecord, rules_from_spec, rules_to_spec
from shanghai.engine.take_back import TakeBackError, take_back
from shanghai.engine.view import meld_view, view
from shanghai.errors import IllegalActionError, RecordError, RuleNotImplementedError, ShanghaiError
from shanghai.rules import AnyRules, ManipulationRules
from shanghai.rules.describe import describe
from shanghai.rules.guide import how_to_play
from shanghai.scorepad.model import ScorePad, ScorePadError
from shanghai.scorepad.played import pad_of_game
from shanghai.scorepad.stats import RECENT, PlayerStats, stats_of
from shanghai.server.protocol import (
    PROTOCOL_VERSION,
    PROTOCOLS,
    PlayRequest,
    ProtocolError,
    action_from_json,
    action_to_json,
    cards,
    cards_text,
    check_name,
    dumps,
    fill_some,
    fill_template,
    fill_texts,
    hand_result_json,
    json_template,
    legal_text,
    manipulation_action_from_json,
    manipulation_action_to_json,
    manipulation_view_to_json,
    meld_json,
    melds_text,
    placed_counts_ok,
    round_result_json,
    view_to_json,
)
from shanghai.server.storage import Committer, HeldSeat, SeatRow, Storage, hash_token
from shanghai.table_solver import placeable_alone, placeable_cards, placeable_words

log = logging.getLogger("shanghai.server")
REVIEWS_KEPT = 512  # the coach's reviews kept in memory (a few kilobytes each)
HISTORY_SEATS = 150   # the seats one history request may name (well inside the 16 KiB a body may have)
PLAYED_KEPT = 4096    # finished games kept as the history lists them (a score pad each: a few kilobytes)

HUMAN, BOT = "human", "bot"
WINDOW_PHASES = (Phase.BUY, Phase.SHANGHAI)
CONTRACT_PRIVATE = ("seat", "hand")                          # a seat's own part of its contract view
MANIPULATION_PRIVATE = ("seat", "hand", "drawn", "placeable", "alone")  # ... and of its manipulation view
OUTBOX_LIMIT = 256
SETTING_LIMITS = {"buy_seconds": (0.0, 600.0), "bot_pause": (0.0, 30.0), "standin_seconds": (0.0, 3600.0),
                  "take_back_seconds": (0.0, 30.0), "idle_seconds": (0.0, 3600.0)}
CREATE_FIELDS = frozenset({"name", "rules", "seats", "seed", "settings"})  # of POST /api/tables
NUDGE_SECONDS = 15.0  # a person's turn may be nudged once it has waited this long (or a quarter of the
#                       table's idle_seconds, if less), and again as often


def rules_of(spec: object) -> tuple[AnyRules, dict[str, Any]]:
    """The rules a request names (a preset name, or ``{"preset", "options", "changes"}``) and their spec;
    ``bad-rules`` where they cannot be played."""
    if isinstance(spec, str):
        spec = {"preset": spec}
    if not isinstance(spec, dict):
        raise ProtocolError("\"rules\" is a preset name or {\"preset\": ..., \"options\": [...], "
                            "\"changes\": {...}}", "bad-rules")
    try:
        rules = rules_from_spec(spec)
        return rules, rules_to_spec(rules)
    except (RecordError, ShanghaiError, RuleNotImplementedError) as exc:
        raise ProtocolError(str(exc), "bad-rules") from exc


def guide_json(rules: AnyRules) -> dict[str, Any]:
    """A rule set's guide for newcomers (``shanghai.rules.guide``; none for manipulation rummy) and its
    every rule in words (``shanghai rules PRESET``), as ``GET /api/guide/...`` sends them."""
    steps = [] if isinstance(rules, ManipulationRules) else [
        {"key": s.key, "title": s.title, "text": s.text} for s in how_to_play(rules)]
    return {"rules": rules.name, "title": rules.title, "steps": steps, "rules_text": describe(rules)}


def known_levels() -> tuple[str, ...]:
    """Every computer player a seat may have: the levels (easy ... expert) first, then the others."""
    return tuple(dict.fromkeys((*KNOWN_LEVELS, *KNOWN_PLAYERS)))


def default_level() -> str:
    """The level of a computer player filling an open seat or standing in for an absent person."""
    return "medium"


def check_level(raw: object, rules: AnyRules | None = None) -> str:
    """A computer player's level that plays the game ``rules`` describe (a contract game when None)."""
    if not isinstance(raw, str) or not raw.strip() or len(raw) > 32:
        raise ProtocolError("a computer player's level is a name such as 'greedy'", "bad-level")
    level = raw.strip().lower()
    if level not in known_levels():
        # only the named players: a name with settings (search:100000, lookahead=true) could make
        # one table's computer player think for minutes a move on a server others share
        raise ProtocolError(f"unknown computer player {raw!r} (known: {', '.join(known_levels())})",
                            "bad-level")
    try:
        make_opponent(level, 0, rules)
    except (ValueError, ImportError) as exc:  # a known player that does not play this game
        raise ProtocolError(str(exc), "bad-level") from exc
    return level


def levels_for(rules: AnyRules) -> tuple[str, ...]:
    """The computer players (of ``known_levels``) that play the game ``rules`` describe."""
    out = []
    for level in known_levels():
        try:
            make_opponent(level, 0, rules)
        except (ValueError, ImportError):
            continue
        out.append(level)
    return tuple(out)


def game_kind(rules: AnyRules) -> str:
    """``"manipulation"`` for manipulation rummy, ``"contract"`` for the contract presets."""
    return "manipulation" if isinstance(rules, ManipulationRules) else "contract"


def history_request(body: dict[str, Any]) -> list[tuple[str, str]]:
    """The ``(invite, token)`` pairs a ``POST /api/history`` body names; ``bad-history`` saying what is wrong."""
    wanted = body.get("seats")
    if not isinstance(wanted, list):
        raise ProtocolError("\"seats\" is a list of {\"invite\": ..., \"token\": ...} objects", "bad-history")
    if len(wanted) > HISTORY_SEATS:
        raise ProtocolError(f"\"seats\" names {len(wanted)} seats: at most {HISTORY_SEATS}", "bad-history")
    out = []
    for i, entry in enumerate(wanted):
        if not isinstance(entry, dict) or not isinstance(entry.get("invite"), str) \
                or not isinstance(entry.get("token"), str):
            raise ProtocolError(f"seats[{i}] is not {{\"invite\": ..., \"token\": ...}} with two strings",
                                "bad-history")
        out.append((entry["invite"], entry["token"]))
    return out


@dataclass(frozen=True, slots=True)
class Played:
    """A game as the history of a browser's games lists it (the same for every seat)."""

    rules: AnyRules
    status: str                       # lobby | playing | over
    round: int                        # the round (or hand) in play, the last once the game is over; 0: the lobby
    totals: tuple[int, ...]
    winners: tuple[int, ...] | None   # once the game is over
    pad: ScorePad | None              # a finished contract game's score pad: what its statistics count

    def to_json(self, held: HeldSeat) -> dict[str, Any]:
        rules = self.rules
        return {"invite": held.invite, "preset": rules.name, "title": rules.title, "game": game_kind(rules),
                "created": held.created, "players": held.names, "seat": held.seat, "past": held.past,
                "status": self.status,
                "finished": self.status == "over", "round": self.round,
                "rounds": None if isinstance(rules, ManipulationRules) else len(rules.rounds),
                "totals": list(self.totals), "winners": None if self.winners is None else list(self.winners)}


def played_of(rules: AnyRules, game: AnyGame | None, players: int) -> Played:
    """``game`` (None: still in the lobby) as the history lists it; a finished contract game is written on a
    score pad (a millisecond: in a worker thread where there are many)."""
    if game is None:
        return Played(rules, "lobby", 0, (0,) * players, None, None)
    over = game.is_over
    if isinstance(game, ManipulationGame):
        return Played(rules, "over" if over else "playing", len(game.hand_results) if over else game.hand_number,
                      tuple(game.totals), game.winners() if over else None, None)
    pad = None
    if over:
        try:
            # the names of the seats: one seat's statistics need none, and a table's names need not be a
            # score pad's (the same name twice, a reserved word such as "q"); the table's own rules, which
            # may change what no score pad database keeps (the rounds, the card values)
            pad = pad_of_game(game, [f"Seat {i + 1}" for i in range(game.players)], own_rules=True)
        except ScorePadError as exc:  # the pad scores a round otherwise than the engine did: a bug
            log.error("a finished %s game is left out of the statistics: %s", rules.name, exc)
    return Played(rules, "over" if over else "playing", min(game.round_number, len(game.rules.rounds)),
                  tuple(game.totals), game.winners() if over else None, pad)


def read_played(storage: Storage, game_id: str) -> Played | None:
    """A game of the database, replayed from its record (as ``Manager.load`` does), as the history lists
    it; None (logged) where it cannot be replayed."""
    row = storage.load(game_id)
    if row is None:
        return None
    try:
        game = None if row.status == "lobby" else row.record().replay()
        return played_of(rules_from_spec(row.rules), game, len(row.seats))
    except (RecordError, ShanghaiError, RuleNotImplementedError) as exc:
        log.error("game %s cannot be replayed for a history: %s", game_id, exc)
        return None


def stats_json(preset: str, s: PlayerStats) -> dict[str, Any]:
    """One seat's statistics over its finished games of ``preset`` (``shanghai.scorepad.stats``)."""
    return {"preset": preset, "games": s.games, "wins": s.wins, "shared_wins": s.shared_wins,
            "win_rate": s.win_rate, "average": s.average_total, "recent_average": s.recent_average,
            "best": s.best_total, "worst": s.worst_total, "rounds_won": s.rounds_won,
            "rounds_played": s.rounds_played, "longest_streak": s.longest_streak,
            "current_streak": s.current_streak}


@dataclass
class Settings:
    """A table's timings (seconds)."""

    buy_seconds: float = 15.0       # a person's time to answer a buy / "May I?" / "Shanghai" window
    bot_pause: float = 1.0          # a computer player's pause before it acts
    standin_seconds: float = 30.0   # how long a disconnected person's turn waits for them
    take_back_seconds: float = 0.0  # at a table of computer players, how long they wait after a person's
    #                                 discard, which the person may take back until one of them acts
    idle_seconds: float = 120.0     # how long a connected person's turn waits, while another person at the
    #                                 table waits on it, before a computer player stands in (0: for ever)
    hints: bool = True              # may the people at the table ask the coach for a hint

    def to_json(self) -> dict[str, float | bool]:
        return {"buy_seconds": self.buy_seconds, "bot_pause": self.bot_pause,
                "standin_seconds": self.standin_seconds, "take_back_seconds": self.take_back_seconds,
                "idle_seconds": self.idle_seconds, "hints": self.hints}

    def changed(self, obj: object) -> Settings:
        """These settings with the fields of ``obj`` (a JSON object) changed, each checked."""
        if obj is None:
            return dataclasses.replace(self)
        if not isinstance(obj, dict):
            raise ProtocolError("settings are an object", "bad-settings")
        out = dataclasses.replace(self)
        for key, value in obj.items():
            if key == "hints":
                if not isinstance(value, bool):
                    raise ProtocolError(f"hints is true or false, not {value!r}", "bad-settings")
                out.hints = value
                continue
            if key not in SETTING_LIMITS:
                raise ProtocolError(f"unknown setting {key!r}", "bad-settings")
            lo, hi = SETTING_LIMITS[key]
            if isinstance(value, bool) or not isinstance(value, int | float) or not lo <= value <= hi:
                raise ProtocolError(f"{key} must be a number from {lo:g} to {hi:g}", "bad-settings")
            setattr(out, key, float(value))
        return out


class TokenBucket:
    """At most ``burst`` messages at once and ``rate`` a second on average."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, float(burst), clock
        self.tokens, self.last = float(burst), clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class Conn:
    """One client connection: an outbox of messages (a JSON object, or its text already encoded; None
    ends the connection's writer).

    With ``direct`` (a function writing several texts at once, or answering False when it cannot now:
    ``uvicorn_ws.ShanghaiWebSocketProtocol.send_texts``), what is sent during one turn of the event loop
    is written together at its end, without waking the writer task; the writer takes over while the
    transport must drain (and for the close). Without it the writer task sends each message through
    ASGI. A plain deque with one waiter: lighter than an ``asyncio.Queue``."""

    def __init__(self, direct: Callable[[Sequence[str]], bool] | None = None) -> None:
        self.outbox: collections.deque[dict[str, Any] | str | None] = collections.deque()
        self._waiter: asyncio.Future[None] | None = None
        self.table: Table | None = None
        self.seat: int | None = None
        self.spectator = False
        self.closed = False
        self.direct = direct
        self.writing = False   # the writer task is sending a message through ASGI
        self._flushing = False  # a flush is scheduled
        self.reviewing = False  # the coach's review of this seat's play is being worked out

    def send(self, msg: dict[str, Any] | str) -> None:
        if self.closed:
            return
        if len(self.outbox) >= OUTBOX_LIMIT:  # a client that does not read: let it go
            self.close()
            return
        self.outbox.append(msg)
        if self.direct is None:
            self._wake()
        elif not self._flushing:
            self._flushing = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Write what the outbox holds at once (``direct``), or leave it to the writer task."""
        self._flushing = False
        out = self.outbox
        if self.writing or self.direct is None:
            self._wake()
            return
        texts = []
        while out and out[0] is not None:
            msg = out.popleft()
            texts.append(msg if isinstance(msg, str) else dumps(msg))
        if texts and not self.direct(texts):  # the transport is full or closing: the writer waits for it
            out.extendleft(reversed(texts))
            self._wake()
        elif out:  # the close
            self._wake()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.outbox.append(None)
            self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def next_message(self) -> dict[str, Any] | str | None:
        """The next message to write (waiting for one): None once the connection is closed."""
        while not self.outbox:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self.outbox.popleft()


@dataclass
class Seat:
    kind: str                        # human | bot
    name: str
    level: str | None = None         # a computer player's level
    token_hash: str | None = None    # a person's seat token (hashed); None: the seat is open
    conns: set[Conn] = field(default_factory=set)
    away_since: float = 0.0          # monotonic time the last connection went away
    standin: bool = False            # a computer player is playing for the absent (or idle) person
    standin_since: float = 0.0
    nudged_at: float = 0.0           # monotonic time somebody last nudged this person
    back_at: float = 0.0             # monotonic time the person last came (back) to the seat: their idle
    #                                  time counts from then at the latest
    bot: AnyPlayer | None = None

    @property
    def connected(self) -> bool:
        return bool(self.conns)

    @property
    def open(self) -> bool:
        return self.kind == HUMAN and self.token_hash is None

    def row(self, index: int) -> SeatRow:
        return SeatRow(index, self.kind, self.level, self.name, self.token_hash)


_NOT_WAITING = object()  # Table._planned while the driver is not waiting


def _wall(moment: float) -> float:
    """A monotonic moment as epoch seconds, for the clients' clocks."""
    return round(time.time() + (moment - time.monotonic()), 3)


def _error(code: str, message: str, ref: object = None, **extra: Any) -> dict[str, Any]:
    msg: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if ref is not None:
        msg["ref"] = ref
    msg.update(extra)
    return msg


class Table:
    """A game in memory: its seats, connections, game and timers."""

    def __init__(self, manager: Manager, game_id: str, invite: str, status: str, rules_spec: dict[str, Any],
                 rules: AnyRules, seed: int, settings: Settings, seats: list[Seat]) -> None:
        self.manager = manager
        self.id = game_id
        self.invite = invite
        self.status = status
        self.rules_spec = rules_spec
        self.rules = rules
        self.seed = seed
        self.settings = settings
        self.seats = seats
        self.game: AnyGame | None = None
        self.spectators: set[Conn] = set()
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.changed_at = time.monotonic()
        self.window_key: tuple[object, ...] | None = None
        self.window_version = 0
        self.window_deadline = 0.0
        self.driver: asyncio.Task[None] | None = None
        self._public: tuple[int, dict[str, Any]] | None = None   # (version, the spectators' view in JSON)
        self._texts: list[str] = []                              # every action's text, in order
        self._results: list[dict[str, Any]] = []                 # every scored round (or hand) in JSON
        self._private: dict[int, tuple[int, dict[str, Any], list[dict[str, Any]]]] = {}  # seat: (version, ...)
        # the public view's text cut around the seat's own part, and whole (spectators, made when asked for)
        self._public_text: tuple[int, tuple[tuple[str, ...], tuple[str, ...]], str | None] | None = None
        self._history_json: list[str] = []                       # every action's text in JSON, in order
        self._results_json: str | None = None                   # ``_results`` in JSON
        self._table_text: tuple[tuple[object, ...], str] | None = None  # (what it shows, table_json's text)
        self._planned: object = _NOT_WAITING   # the event the driver waits for (None: no event)
        # every change of the game counted, never going back (the version goes back one on a take-back,
        # so a computer player's choice for the version before must not be applied to a later one)
        self.changes = 0
        self.own_discard: int | None = None  # the index of the last discard a person sent themself

    # -- state -------------------------------------------------------------------------------------
    @property
    def version(self) -> int:
        return 0 if self.game is None else len(self.game.actions)

    def seat_json(self, i: int, s: Seat) -> dict[str, Any]:
        return {"seat": i, "kind": s.kind, "level": s.level, "name": s.name, "open": s.open,
                "connected": s.connected, "standin": s.standin}

    @property
    def manipulation(self) -> bool:
        return isinstance(self.rules, ManipulationRules)

    def table_json(self) -> dict[str, Any]:
        return {"id": self.id, "invite": self.invite, "status": self.status, "rules": self.rules_spec,
                "game": game_kind(self.rules),
                "rules_title": self.rules.title, "min_players": self.rules.min_players,
                "max_players": self.rules.max_players, **self.card_rules_json(),
                "settings": self.settings.to_json(), "host_seat": 0,
                "seats": [self.seat_json(i, s) for i, s in enumerate(self.seats)]}

    def card_rules_json(self) -> dict[str, Any]:
        """What a page needs to arrange a run the player builds: the wild cards, the aces, the wild limit."""
        rules = self.rules
        if isinstance(rules, ManipulationRules):
            return {"wilds": [], "aces": "low-only", "wild_limit": "none", "run_min": 3}
        return {"wilds": sorted(card_text(c) for c in rules.wild_cards()), "aces": rules.aces,
                "wild_limit": rules.wild_limit, "run_min": rules.run_min}

    def _catch_up(self, game: AnyGame) -> None:
        """Every action's text (and in JSON) and every scored round's (or hand's) JSON, up to this version."""
        if len(self._texts) > len(game.actions):
            self._texts, self._history_json = [], []
        known = len(self._texts)
        if known < len(game.actions):
            self._texts.extend(str(a) for a in game.actions[known:])
            self._history_json.extend(dumps(t) for t in self._texts[known:])
        scored = len(self._results)
        if isinstance(game, ManipulationGame):
            while len(self._results) < len(game.hand_results):
                self._results.append(hand_result_json(game.hand_results[len(self._results)]))
            del self._results[len(game.hand_results):]
        else:
            while len(self._results) < len(game.round_results):
                self._results.append(round_result_json(game.round_results[len(self._results)]))
            del self._results[len(game.round_results):]
        if len(self._results) != scored:
            self._results_json = None

    def public_json(self) -> dict[str, Any]:
        """The spectators' view of the game in JSON, made once per version (each seat's view is this with
        its own seat, hand and legal actions)."""
        game = self.game
        assert game is not None
        if self._public is None or self._public[0] != len(game.actions):
            self._catch_up(game)
            if isinstance(game, ManipulationGame):
                j = manipulation_view_to_json(manipulation_view(game, None), history=self._texts[game.hand_start:],
                                              hand_results=list(self._results))
            else:
                j = view_to_json(view(game, None), history=self._texts[game.round_start:],
                                 round_results=list(self._results))
            self._public = (len(game.actions), j)
        return self._public[1]

    def state_for(self, conn: Conn) -> dict[str, Any]:
        """A connection's state message as a JSON object (what ``state_text`` encodes, made the plain way:
        the reference its faster text is checked against)."""
        seat = None if conn.spectator else conn.seat
        msg: dict[str, Any] = {"type": "state", "protocol": PROTOCOL_VERSION, "version": self.version,
                               "you": seat, "host": seat == 0, "table": self.table_json(),
                               "game": None, "legal": [], "deadline": None, "waiting": None}
        game = self.game
        if game is not None:
            public = self.public_json()
            if seat is None:
                msg["game"] = public
            elif isinstance(game, ManipulationGame):
                private, legal = self.manipulation_private(game, seat)
                msg["game"] = {**public, **private}
                msg["legal"] = legal
            else:
                v = view(game, seat)
                msg["game"] = {**public, "seat": seat, "hand": cards(v.hand)}
                msg["legal"] = [action_to_json(a) for a in v.legal]
            msg["deadline"] = self.deadline()
            msg["waiting"] = self.waiting()
        return msg

    def public_text(self) -> tuple[str, tuple[tuple[str, ...], tuple[str, ...]]]:
        """``public_json`` as JSON text, and cut around the seat's own part (``json_template``), once per
        version: each seat's state then encodes only its own hand and legal actions. The history and the
        scored rounds (or hands), which only grow, are spliced in from their texts kept per action and
        per round, and a contract game's melds from their texts kept per meld: a version encodes little
        more than what is new."""
        template, whole = self._public_parts()
        if whole is None:
            assert self._public_text is not None
            if isinstance(self.game, ManipulationGame):
                public = self.public_json()
                keys = template[1]
                # the whole text is the template with the public values (when the public view has every key)
                whole = fill_template(template, public) if all(k in public for k in keys) else dumps(public)
            else:  # a spectator's contract view: no seat, no hand
                whole = fill_texts(template, {"seat": "null", "hand": "[]"})
            self._public_text = (self._public_text[0], template, whole)
        return whole, template

    def _public_parts(self) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], str | None]:
        game = self.game
        assert game is not None
        cached = self._public_text
        if cached is None or cached[0] != len(game.actions):
            self._catch_up(game)
            if self._results_json is None:
                self._results_json = dumps(self._results)
            if isinstance(game, ManipulationGame):
                keys = (*MANIPULATION_PRIVATE, "history", "hand_results")
                template = fill_some(json_template(self.public_json(), keys),
                                     {"history": f"[{','.join(self._history_json[game.hand_start:])}]",
                                      "hand_results": self._results_json})
            else:
                v = view(game, None)
                rest = view_to_json(v, history=[], round_results=[], table=[])  # those three spliced in
                template = fill_some(json_template(rest, (*CONTRACT_PRIVATE, "table", "history", "round_results")),
                                     {"table": melds_text(v.table),
                                      "history": f"[{','.join(self._history_json[game.round_start:])}]",
                                      "round_results": self._results_json})
            cached = self._public_text = (len(game.actions), template, None)
        return cached[1], cached[2]

    def deadline(self) -> float | None:
        game = self.game
        if isinstance(game, Game) and game.phase in WINDOW_PHASES:
            return _wall(self.window_deadline)
        return None

    def waited_seat(self) -> int | None:
        """The person whose turn the table waits for (not a buy window's, which has its deadline): None
        where it is a computer player's turn, a stand-in's, or nobody's."""
        game = self.game
        if game is None or self.status != "playing" or game.is_over:
            return None
        if isinstance(game, Game) and game.phase in WINDOW_PHASES:
            return None
        seat = game.to_act()[0]
        s = self.seats[seat]
        return None if s.kind == BOT or s.open or s.standin else seat

    def others_present(self, seat: int) -> bool:
        """Is another person connected at the table (somebody kept waiting by ``seat``)?"""
        return any(s.kind == HUMAN and s.connected for i, s in enumerate(self.seats) if i != seat)

    def standin_at(self, seat: int) -> float | None:
        """When (monotonic) a computer player stands in for the person whose turn it is: ``standin_seconds``
        after they left (or the turn began, if later), or while they are connected but play nothing and
        another person waits, ``idle_seconds`` after the turn's last action (or their coming back, if
        later); None: the turn waits."""
        s = self.seats[seat]
        if not s.connected:
            return max(s.away_since, self.changed_at) + self.settings.standin_seconds
        if self.settings.idle_seconds > 0 and self.others_present(seat):
            return max(self.changed_at, s.back_at) + self.settings.idle_seconds
        return None

    def nudge_after(self) -> float:
        """How long a person's turn must wait before they may be nudged (and between two nudges)."""
        idle = self.settings.idle_seconds
        return NUDGE_SECONDS if idle <= 0 else min(NUDGE_SECONDS, idle / 4)

    def waiting(self) -> dict[str, Any] | None:
        """The state's ``waiting``: whose turn (a person's) the table waits for, since when and until when
        (epoch seconds), or None."""
        seat = self.waited_seat()
        if seat is None:
            return None
        at = self.standin_at(seat)
        nudged = max(self.changed_at, self.seats[seat].nudged_at)
        return {"seat": seat, "since": _wall(self.changed_at), "standin_at": None if at is None else _wall(at),
                "nudge_at": _wall(nudged + self.nudge_after())}

    def table_text(self) -> str:
        """``dumps(self.table_json())``, made again only when something it shows has changed."""
        settings = self.settings
        key = (self.status, settings.buy_seconds, settings.bot_pause, settings.standin_seconds, settings.idle_seconds,
               *[(s.kind, s.level, s.name, s.token_hash is None, bool(s.conns), s.standin) for s in self.seats])
        cached = self._table_text
        if cached is None or cached[0] != key:
            cached = self._table_text = (key, dumps(self.table_json()))
        return cached[1]

    def shared_text(self) -> tuple[str, str]:
        """The part of a state message that is the same for every connection: version, table, deadline,
        waiting."""
        deadline = self.deadline()
        deadline_text = "null" if deadline is None else repr(deadline)  # as json.dumps writes a float
        return f',"table":{self.table_text()}', f',"deadline":{deadline_text},"waiting":{dumps(self.waiting())}}}'

    def state_text(self, conn: Conn, shared: tuple[str, str] | None = None) -> str:
        """``dumps(state_for(conn))``, the public part encoded once per version for every seat
        (``shared``: this table's ``shared_text()``, made once for every connection of a broadcast)."""
        if shared is None:
            shared = self.shared_text()
        seat = None if conn.spectator else conn.seat
        game = self.game
        head = (f'{{"type":"state","protocol":{PROTOCOL_VERSION},"version":{self.version},'
                f'"you":{"null" if seat is None else seat},"host":{"true" if seat == 0 else "false"}{shared[0]}')
        if game is None:
            return f'{head},"game":null,"legal":[]{shared[1]}'
        if seat is None:
            return f'{head},"game":{self.public_text()[0]},"legal":[]{shared[1]}'
        template = self._public_parts()[0]
        if isinstance(game, ManipulationGame):
            private, legal = self.manipulation_private(game, seat)
            own = fill_template(template, private)
            return f'{head},"game":{own},"legal":{dumps(legal)}{shared[1]}'
        hand = cards_text(() if game.phase is Phase.GAME_OVER else game.hands[seat])   # as ``view`` shows it
        pieces = template[0]
        if template[1] == CONTRACT_PRIVATE:  # "seat", then "hand"
            own = f"{pieces[0]}{seat}{pieces[1]}{hand}{pieces[2]}"
        else:
            own = fill_texts(template, {"seat": str(seat), "hand": hand})
        return f'{head},"game":{own},"legal":{legal_text(game.legal_list(seat))}{shared[1]}'

    def manipulation_private(self, game: ManipulationGame, seat: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """A seat's own part of its manipulation view (its hand, the cards it drew, the cards it can place)
        and its legal offers, made once per version and seat (the offers ask the table solver)."""
        version = len(game.actions)
        cached = self._private.get(seat)
        if cached is not None and cached[0] == version:
            return cached[1], cached[2]
        v = manipulation_view(game, seat)
        legal = [manipulation_action_to_json(a) for a in v.legal]
        placeable: list[str] = []
        alone: list[str] = []
        if v.legal and legal[0]["action"]["verb"] == "play" and self.settings.hints:  # they are hints
            can = placeable_cards(v.table, list(v.hand))
            by_itself = placeable_alone(v.table, list(v.hand), can) if game.min_placed() == 1 else frozenset()
            placeable = [card_text(c) for c in dict.fromkeys(c for c in v.hand if c in can)]
            alone = [card_text(c) for c in dict.fromkeys(c for c in v.hand if c in by_itself)]
        private = {"seat": seat, "hand": cards(v.hand), "drawn": cards(v.drawn), "placeable": placeable,
                   "alone": alone}
        self._private[seat] = (version, private, legal)
        return private, legal

    async def prepare(self) -> None:
        """Work out the offers of the seat in turn of a manipulation game in a worker thread (the table
        solver takes some milliseconds), so that the states sent next only copy them (under the lock)."""
        game = self.game
        if isinstance(game, ManipulationGame) and not game.is_over:
            await asyncio.to_thread(self.manipulation_private, game, game.turn)

    def conns(self) -> list[Conn]:
        out = [c for s in self.seats for c in s.conns]
        out.extend(self.spectators)
        return out

    def broadcast(self) -> None:
        conns = self.conns()
        if conns:
            shared = self.shared_text()
            for conn in conns:
                conn.send(self.state_text(conn, shared))

    def rows(self) -> list[SeatRow]:
        return [s.row(i) for i, s in enumerate(self.seats)]

    def _note_window(self) -> None:
        """Start the buy window's clock when a new window opens."""
        game = self.game
        if not isinstance(game, Game) or game.phase not in WINDOW_PHASES:
            self.window_key = None
            return
        w = game.buy_window if game.phase == Phase.BUY else game.shanghai_window
        key = (game.round_index, game.phase, game.turn, len(game.discards), None if w is None else w.seats)
        if key != self.window_key:
            self.window_key = key
            self.window_version = len(game.actions)
            self.window_deadline = time.monotonic() + self.settings.buy_seconds

    # -- applying actions ----------------------------------------------------------------------------
    async def apply(self, action: AnyAction) -> None:
        """Validate with the engine, commit, then make it the state and tell everybody (under the lock).

        The commit runs in a worker thread (with the actions of the other tables that arrive meanwhile:
        ``Committer``), so that other tables go on meanwhile; this table's lock keeps its actions in order."""
        game = self.game
        assert game is not None
        after = game.copy()
        apply_action(after, action)  # raises IllegalActionError and changes nothing
        await self.manager.committer.append(self.id, len(game.actions), str(action), over=after.is_over)
        self.game = after
        self.changes += 1
        self.changed_at = time.monotonic()
        if after.is_over:
            self.status = "over"
        self._note_window()
        if isinstance(after, ManipulationGame):
            await self.prepare()
        self.broadcast()
        self.nudge()

    def nudge(self) -> None:
        """Wake the driver after an action, unless the event it waits for is still the next one (the
        tables of people who are all there: nothing to do). An event it then fires late finds the
        version changed and plans again."""
        if self._planned is _NOT_WAITING or self.next_event() != self._planned:
            self.wake.set()

    def check_version(self, sent: object, action: AnyAction | PlayRequest) -> None:
        if isinstance(sent, bool) or not isinstance(sent, int):
            raise ProtocolError("an action needs the state \"version\" it was sent for", "no-version")
        if sent == self.version:
            return
        # An answer to a buy window answers that window, whoever answered it in between.
        game = self.game
        if (isinstance(action, Buy | Pass | CallShanghai) and isinstance(game, Game) and game.phase in WINDOW_PHASES
                and self.window_version <= sent < self.version):
            return
        raise ProtocolError(f"the game has moved on: your message was for version {sent}, the game is at "
                            f"{self.version}", "stale")

    # -- the driver ----------------------------------------------------------------------------------
    def next_event(self) -> tuple[float, str, int] | None:
        game = self.game
        if game is None or self.status != "playing" or game.is_over:
            return None
        best: tuple[float, str, int] | None = None
        window = isinstance(game, Game) and game.phase in WINDOW_PHASES
        pause = self.settings.bot_pause
        if self.settings.take_back_seconds > pause and self.take_back_seat() is not None:
            pause = self.settings.take_back_seconds  # a person's discard they may take back: the bots wait
        for seat in game.to_act():
            s = self.seats[seat]
            if s.kind == BOT or s.open or s.standin:
                event = (max(self.changed_at, s.standin_since) + pause, "bot", seat)
            elif window:
                event = (self.window_deadline, "timeout", seat)
            else:
                # the turn waits for the person: standin_seconds from when they left, or idle_seconds
                # while they are there but another person waits on them
                at = self.standin_at(seat)
                if at is None:
                    continue
                event = (at, "standin", seat)
            if best is None or event[0] < best[0]:
                best = event
        return best

    def take_back_seat(self) -> int | None:
        """The person whose discard, the game's last action, may be taken back now: at a table where
        every other seat is a computer player's (``shanghai.engine.take_back``); None where none may."""
        game = self.game
        if not isinstance(game, Game) or self.status != "playing" or not game.actions:
            return None
        last = game.actions[-1]
        if not isinstance(last, Discard) or self.own_discard != len(game.actions) - 1:
            return None  # a person's own discard (sent from their connection), not a stand-in's
        if not self.others_are_computers(last.seat):
            return None
        if game.phase is Phase.GAME_OVER or (game.round_results and game.round_start == len(game.actions)):
            return None  # the discard went out: the round is scored
        return last.seat

    def others_are_computers(self, seat: int) -> bool:
        """Is every seat but ``seat`` a computer player's (or open, which one plays)?"""
        return all(s.kind == BOT or s.open for i, s in enumerate(self.seats) if i != seat)

    async def take_back(self, seat: int) -> Discard:
        """Take back ``seat``'s discard (the game's last action; see ``take_back_seat``): the record loses
        it in the database first, then the table is the game before it and everybody is told."""
        game = self.game
        assert isinstance(game, Game)
        before = take_back(game, seat)  # raises TakeBackError and changes nothing
        last = game.actions[-1]
        assert isinstance(last, Discard)
        await asyncio.to_thread(self.manager.storage.remove_last_action, self.id, len(game.actions) - 1)
        self.game = before
        self.changes += 1
        # what was made for a version is made again: the same version number now holds another state
        self._public = self._public_text = None
        self._texts, self._history_json, self._private = [], [], {}
        self.changed_at = time.monotonic()
        self._note_window()
        self.broadcast()
        self.nudge()
        return last

    async def drive(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            self.wake.clear()
            async with self.lock:
                event = self.next_event()
                version = self.changes
                self._planned = event
            try:
                if event is None:
                    await self.wake.wait()
                    continue
                delay = event[0] - time.monotonic()
                if delay > 0:
                    # the wake, or the event's time (a timer that sets the wake: lighter than wait_for)
                    timer = loop.call_later(delay, self.wake.set)
                    try:
                        await self.wake.wait()
                    finally:
                        timer.cancel()
                    if time.monotonic() < event[0]:
                        continue  # something changed: plan again
            finally:
                self._planned = _NOT_WAITING
            try:
                await self.fire(event[1], event[2], version)
            except asyncio.CancelledError:
                raise
            except Exception:  # a computer player's or the database's failure must not stop the table
                log.exception("table %s: %s for seat %d failed", self.id, event[1], event[2])
                await asyncio.sleep(1.0)

    def bot_for(self, seat: int) -> AnyPlayer:
        s = self.seats[seat]
        if s.bot is None:
            level = s.level if s.kind == BOT and s.level else default_level()
            s.bot = make_opponent(level, seat_seed(self.seed, seat), self.rules)
        return s.bot

    def bot_choose(self, seat: int, seat_view: AnyView) -> AnyAction:
        """The computer player's choice for ``seat`` (run in a worker thread)."""
        bot = self.bot_for(seat)
        if isinstance(seat_view, ManipulationView):
            return cast(ManipulationPlayer, bot).choose(seat_view)
        return cast(Player, bot).choose(seat_view)

    async def fire(self, kind: str, seat: int, version: int) -> None:
        """Fire the driver's event, planned at ``version`` (``changes``): nothing where the game has changed."""
        async with self.lock:
            game = self.game
            if game is None or self.changes != version or seat not in game.to_act():
                return
            s = self.seats[seat]
            if kind == "standin":
                s.standin, s.standin_since = True, time.monotonic()
                self.broadcast()
                return
            seat_view = view_of(game, seat) if isinstance(game, Game) else await asyncio.to_thread(view_of, game, seat)
            if kind == "timeout" and Pass(seat) in seat_view.legal:
                await self.apply(Pass(seat))
                return
            self.bot_for(seat)
        try:
            action = await asyncio.to_thread(self.bot_choose, seat, seat_view)
        except Exception:
            log.exception("table %s: the computer player of seat %d failed; it plays a legal action", self.id, seat)
            action = Pass(seat) if Pass(seat) in seat_view.legal else seat_view.legal[0]
        async with self.lock:
            if self.game is None or self.changes != version:
                return
            s = self.seats[seat]
            if kind == "bot" and not (s.kind == BOT or s.open or s.standin):
                return  # the person came back while the stand-in was thinking: the turn is theirs
            try:
                await self.apply(action)
            except IllegalActionError:
                log.error("table %s: seat %d's computer player chose an illegal %s", self.id, seat, action)
                await self.apply(Pass(seat) if Pass(seat) in seat_view.legal else seat_view.legal[0])

    def start_driver(self) -> None:
        if self.driver is None:
            self.driver = asyncio.get_running_loop().create_task(self.drive(), name=f"table-{self.id}")


class Manager:
    """Every table of the server, over one ``Storage``."""

    def __init__(self, storage: Storage, defaults: Settings | None = None, *,
                 review_deals: int = REVIEW_DEALS) -> None:
        if review_deals < 0 or review_deals == 1:
            raise ValueError(f"review_deals is 0 (weigh nothing) or at least 2, not {review_deals}")
        self.storage = storage
        self.review_deals = review_deals  # a review weighs each difference over this many deals
        self.committer = Committer(storage)
        self.defaults = defaults or Settings()
        self.tables: dict[str, Table] = {}
        self.by_token: dict[str, str] = {}  # seat token hash -> table id
        self.by_invite: dict[str, str] = {}
        self.review_lock = asyncio.Lock()  # one coach's review at a time: each takes seconds of CPU
        self.reviews: collections.OrderedDict[tuple[str, int, int], dict[str, Any]] = collections.OrderedDict()
        self.reviews_made = 0  # reviews worked out (not taken from ``reviews``)
        self.played: collections.OrderedDict[str, Played] = collections.OrderedDict()  # finished games, by id
        self._tasks: set[asyncio.Task[None]] = set()

    # -- loading -----------------------------------------------------------------------------------
    async def startup(self) -> None:
        """Load every unfinished game (replaying its record) and start its computer players."""
        for game_id in self.storage.unfinished():
            try:
                self.load(game_id)
            except (RecordError, ShanghaiError, RuleNotImplementedError) as exc:
                log.error("game %s cannot be resumed: %s", game_id, exc)

    async def shutdown(self) -> None:
        for table in self.tables.values():
            if table.driver is not None:
                table.driver.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await table.driver
            for conn in table.conns():
                conn.close()

    def load(self, game_id: str) -> Table | None:
        if game_id in self.tables:
            return self.tables[game_id]
        row = self.storage.load(game_id)
        if row is None:
            return None
        now = time.monotonic()
        seats = [Seat(r.kind, r.name, r.level, r.token_hash, away_since=now) for r in row.seats]
        table = Table(self, row.id, row.invite, row.status, row.rules, rules_from_spec(row.rules), row.seed,
                      self.defaults.changed(row.settings), seats)
        if row.status != "lobby":
            table.game = row.record().replay()
            if table.game.is_over:
                table.status = "over"
            table._note_window()
        self.tables[row.id] = table
        self.by_invite[row.invite] = row.id
        for s in seats:
            if s.token_hash:
                self.by_token[s.token_hash] = row.id
        if table.status == "playing":
            table.start_driver()
        return table

    def table_of_invite(self, invite: str) -> Table | None:
        if not isinstance(invite, str) or len(invite) > 64:
            return None
        game_id = self.by_invite.get(invite) or self.storage.game_of_invite(invite)
        return None if game_id is None else self.load(game_id)

    def table_of_token(self, token: str) -> tuple[Table, int] | None:
        if not isinstance(token, str) or len(token) > 128:
            return None
        h = hash_token(token)
        game_id = self.by_token.get(h)
        if game_id is None:
            found = self.storage.seat_of_token(token)
            game_id = None if found is None else found[0]
        table = None if game_id is None else self.load(game_id)
        if table is None:
            return None
        for i, s in enumerate(table.seats):
            if s.token_hash == h:
                return table, i
        return None

    # -- the lobby (HTTP) --------------------------------------------------------------------------
    async def create(self, body: dict[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(body) - CREATE_FIELDS)
        if unknown:
            raise ProtocolError(f"unknown field {unknown[0]!r}: a table is made of "
                                f"{', '.join(sorted(CREATE_FIELDS))}", "bad-request")
        name = check_name(body.get("name"))
        rules, spec = rules_of(body.get("rules", {"preset": "isra"}))
        kinds = body.get("seats")
        if kinds is None:
            kinds = [HUMAN] + [default_level()] * (max(rules.min_players, 4 if rules.max_players >= 4 else 2) - 1)
        if not isinstance(kinds, list) or not 1 <= len(kinds) <= rules.max_players:
            raise ProtocolError(f"\"seats\" is a list of 1 to {rules.max_players} seats: \"human\" or a computer "
                                f"level", "bad-seats")
        if kinds[0] != HUMAN:
            raise ProtocolError(f"seat 0 is the creator's, \"human\", not {kinds[0]!r}", "bad-seats")
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbits(31)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**31:
            raise ProtocolError("\"seed\" is an integer from 0 to 2**31-1", "bad-seed")
        settings = self.defaults.changed(body.get("settings"))
        token = secrets.token_urlsafe(24)
        seats = [Seat(HUMAN, name, token_hash=hash_token(token))]
        for i, kind in enumerate(kinds[1:], 1):
            if kind == HUMAN:
                seats.append(Seat(HUMAN, f"Seat {i + 1}"))
            else:
                level = check_level(kind, rules)
                seats.append(Seat(BOT, _bot_name(level, i), level))
        game_id, invite = secrets.token_urlsafe(9), secrets.token_urlsafe(18)
        self.storage.create_game(game_id, invite, spec, seed, settings.to_json(),
                                 [s.row(i) for i, s in enumerate(seats)])
        table = Table(self, game_id, invite, "lobby", spec, rules, seed, settings, seats)
        self.tables[game_id] = table
        self.by_invite[invite] = game_id
        self.by_token[hash_token(token)] = game_id
        return {"table": game_id, "invite": invite, "invite_path": f"/join/{invite}", "seat": 0, "token": token,
                "host": True}

    def info(self, invite: str) -> dict[str, Any]:
        table = self.table_of_invite(invite)
        if table is None:
            raise ProtocolError("no table has this invitation", "not-found")
        return table.table_json()

    def guide(self, invite: str) -> dict[str, Any]:
        """How to play at this table: its rules (house rules included) in a few steps, and in full."""
        table = self.table_of_invite(invite)
        if table is None:
            raise ProtocolError("no table has this invitation", "not-found")
        return guide_json(table.rules)

    def replay_step(self, invite: str, step: str) -> dict[str, Any]:
        """A finished contract game as it stood after its first ``step`` actions, every hand shown (the
        game is over: nothing is secret any more), with the action that led there and where each round
        starts, for stepping through the game (``GET /api/invite/{invite}/replay/{n}``)."""
        table = self.table_of_invite(invite)
        if table is None:
            raise ProtocolError("no table has this invitation", "not-found")
        game = table.game
        if game is None or not game.is_over:
            raise ProtocolError("a game is replayed once it is over (it would tell every hand)", "not-over")
        if not isinstance(game, Game):
            raise ProtocolError("manipulation rummy is not replayed here; its record is (GET .../record)",
                                "no-replay")
        total = len(game.actions)
        if not step.isdigit() or int(step) > total:
            raise ProtocolError(f"a step is a number of actions from 0 to {total}, not {step!r}", "bad-step")
        n = int(step)
        starts: list[int] = [0]
        at = new_game(table.rules, game.players, table.seed)
        assert isinstance(at, Game)
        ended: RoundResult | None = None  # the round that action n ended: the state shown is the next deal
        for i, action in enumerate(game.actions):
            if i == n:
                shown = at.copy()
            rounds = len(at.round_results)
            at.apply(action)
            if i == n - 1 and len(at.round_results) > rounds:
                ended = at.round_results[-1]
            if at.round_start != starts[-1] and at.round_start < total:
                starts.append(at.round_start)
        if n == total:
            shown = at
        public = view_to_json(view(shown, None))
        round_end = None if ended is None else {
            **round_result_json(ended),
            "table": [meld_json(meld_view(tm, game.rules)) for tm in ended.table]}
        return {"n": n, "total": total, "action": str(game.actions[n - 1]) if n else None, "round_starts": starts,
                "names": [s.name for s in table.seats], "hands": [cards(h) for h in shown.hands], "game": public,
                "round_end": round_end}

    def finished_record(self, invite: str) -> str:
        """A finished game's record (JSON lines): while a game is in play it would tell every hand."""
        table = self.table_of_invite(invite)
        if table is None:
            raise ProtocolError("no table has this invitation", "not-found")
        if table.game is None or not table.game.is_over:
            raise ProtocolError("the record is given once the game is over", "not-over")
        return GameRecord.of(table.game, [s.name for s in table.seats]).to_jsonl()

    async def history(self, body: dict[str, Any]) -> dict[str, Any]:
        """``POST /api/history``: the games whose seats a browser's tokens hold (or held, before a rematch
        moved them on), oldest first, and that seat's statistics per contract preset over the finished
        ones. A token that holds no seat at its invite's table is only counted (``unknown``): the answer
        tells nothing of that table. The database and the replays are read in a worker thread; a
        finished game is kept as listed (``PLAYED_KEPT``), so that the lobby asking again costs little."""
        wanted = history_request(body)
        found = await asyncio.to_thread(self.storage.held_seats, [(i, hash_token(t)) for i, t in wanted])
        held: dict[str, HeldSeat] = {}  # by game: an invite named twice is listed once
        for h in found:
            if h is not None:
                held.setdefault(h.game_id, h)
        played: dict[str, Played | None] = {}
        work: dict[str, Callable[[], Played | None]] = {}
        for game_id in held:
            table = self.tables.get(game_id)
            if game_id in self.played:
                played[game_id] = self.played[game_id]
                self.played.move_to_end(game_id)
            elif table is None:
                work[game_id] = functools.partial(read_played, self.storage, game_id)
            elif table.game is not None and table.game.is_over:  # a finished game changes no more: a thread may read it
                work[game_id] = functools.partial(played_of, table.rules, table.game, len(table.seats))
            else:  # a game in play (or in the lobby): no score pad to write
                played[game_id] = played_of(table.rules, table.game, len(table.seats))
        if work:
            played.update(await asyncio.to_thread(lambda: {g: make() for g, make in work.items()}))
            for game_id in work:
                done = played[game_id]
                if done is not None and done.status == "over":
                    self.played[game_id] = done
            while len(self.played) > PLAYED_KEPT:
                self.played.popitem(last=False)
        games: list[dict[str, Any]] = []
        pads: dict[str, list[tuple[ScorePad, int]]] = {}  # by preset, oldest first (the streaks and trend)
        for h in sorted(held.values(), key=lambda h: (h.created, h.game_id)):
            p = played[h.game_id]
            if p is None:
                continue
            games.append(p.to_json(h))
            if p.pad is not None:
                pads.setdefault(p.rules.name, []).append((p.pad, h.seat))
        stats = sorted((stats_json(preset, stats_of(preset, seats)) for preset, seats in pads.items()),
                       key=lambda s: (-s["games"], s["preset"]))
        return {"games": games, "stats": stats, "unknown": found.count(None), "recent": RECENT}

    async def join(self, invite: str, body: dict[str, Any]) -> dict[str, Any]:
        table = self.table_of_invite(invite)
        if table is None:
            raise ProtocolError("no table has this invitation", "not-found")
        name = check_name(body.get("name"))
        async with table.lock:
            if table.status == "over":
                raise ProtocolError("this game is over", "game-over")
            if any(s.name.casefold() == name.casefold() for s in table.seats if not s.open):
                raise ProtocolError(f"somebody at this table is already called {name!r}", "name-taken")
            want = body.get("seat")
            open_seats = [i for i, s in enumerate(table.seats) if s.open]
            if want is not None:
                seat = _open_seat(table, want)
            elif open_seats:
                seat = open_seats[0]
            else:
                raise ProtocolError("no seat is open at this table", "table-full")
            token = secrets.token_urlsafe(24)
            s = table.seats[seat]
            s.name, s.token_hash = name, hash_token(token)
            s.bot, s.standin, s.away_since = None, table.status == "playing", time.monotonic()
            s.standin_since = time.monotonic()
            self.storage.save_seats(table.id, table.rows())
            self.by_token[s.token_hash] = table.id
            table.broadcast()
            table.wake.set()
        return {"table": table.id, "invite": table.invite, "seat": seat, "token": token, "host": seat == 0}

    # -- connections ---------------------------------------------------------------------------------
    async def hello(self, conn: Conn, msg: dict[str, Any]) -> None:
        ref = msg.get("id")
        if conn.table is not None:
            conn.send(_error("already-joined", "this connection has already said hello", ref))
            return
        proto = msg.get("protocol", PROTOCOL_VERSION)
        if isinstance(proto, bool) or proto not in PROTOCOLS:
            conn.send(_error("protocol", f"this server speaks protocol {' and '.join(map(str, PROTOCOLS))}, "
                             f"not {proto!r}", ref))
            return
        if "token" in msg:
            found = self.table_of_token(msg["token"])
            if found is None:
                conn.send(_error("bad-token", "no seat has this token (it may have been removed)", ref))
                return
            table, seat = found
            if not _speaks(table, proto):
                conn.send(_error("protocol", f"this table plays {table.rules.title}: protocol {PROTOCOL_VERSION} "
                                 f"is needed", ref))
                return
            async with table.lock:
                conn.table, conn.seat = table, seat
                s = table.seats[seat]
                s.conns.add(conn)
                s.standin, s.back_at = False, time.monotonic()
                conn.send({"type": "welcome", "protocol": PROTOCOL_VERSION, "table": table.id, "seat": seat,
                           "role": "player", "ref": ref})
                table.broadcast()
                table.wake.set()
            return
        if "invite" in msg:
            spectated = self.table_of_invite(msg["invite"])
            if spectated is None:
                conn.send(_error("not-found", "no table has this invitation", ref))
                return
            if not _speaks(spectated, proto):
                conn.send(_error("protocol", f"this table plays {spectated.rules.title}: protocol "
                                 f"{PROTOCOL_VERSION} is needed", ref))
                return
            async with spectated.lock:
                conn.table, conn.spectator = spectated, True
                spectated.spectators.add(conn)
                conn.send({"type": "welcome", "protocol": PROTOCOL_VERSION, "table": spectated.id, "seat": None,
                           "role": "spectator", "ref": ref})
                conn.send(spectated.state_text(conn))
            return
        conn.send(_error("bad-hello", "hello needs a seat \"token\", or an \"invite\" to watch", ref))

    async def bye(self, conn: Conn) -> None:
        table = conn.table
        conn.close()
        if table is None:
            return
        async with table.lock:
            table.spectators.discard(conn)
            if conn.seat is not None and conn.seat < len(table.seats):
                s = table.seats[conn.seat]
                if conn in s.conns:
                    s.conns.discard(conn)
                    if not s.conns:
                        s.away_since = time.monotonic()
                        table.broadcast()
                        table.wake.set()
            if table.status == "over" and not table.conns():  # a finished game nobody watches leaves memory
                self.unload(table)

    def unload(self, table: Table) -> None:
        """Forget a table (it is loaded again from the database when somebody asks for it)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        if self.by_invite.get(table.invite) == table.id:
            del self.by_invite[table.invite]
        for s in table.seats:
            if s.token_hash is not None and self.by_token.get(s.token_hash) == table.id:
                del self.by_token[s.token_hash]
        if table.driver is not None:
            table.driver.cancel()

    async def handle(self, conn: Conn, msg: dict[str, Any]) -> None:
        """One client message (already checked to be a JSON object with a string "type")."""
        kind = msg["type"]
        ref = msg.get("id")
        if kind == "ping":
            conn.send({"type": "pong", "ref": ref})
            return
        if kind == "hello":
            await self.hello(conn, msg)
            return
        handler = _HANDLERS.get(kind)
        if handler is None:
            conn.send(_error("unknown-type", f"unknown message type {kind!r}", ref))
            return
        table = conn.table
        if table is None:
            conn.send(_error("hello-first", "say hello first (with your seat token, or an invite to watch)", ref))
            return
        if conn.spectator or conn.seat is None:
            conn.send(_error("spectator", "a spectator can only watch", ref))
            return
        if kind == "review":  # seconds of the coach's work: a task of its own, not under the table's lock
            if conn.reviewing:
                conn.send(_error("review-pending", "your review is on its way", ref, version=table.version))
                return
            conn.reviewing = True
            task = asyncio.create_task(self._review_task(table, conn, msg))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return
        async with table.lock:
            try:
                await handler(self, table, conn, msg)
                if kind in ("start", "add_bot", "remove_seat", "rematch", "take_back", "back", "nudge"):
                    conn.send({"type": "ok", "ref": ref, "request": kind, "version": table.version})
            except ProtocolError as exc:
                conn.send(_error(exc.code, exc.message, ref, version=table.version))
            except IllegalActionError as exc:
                conn.send(_error("illegal", str(exc), ref, version=table.version))

    # -- message handlers (under the table's lock) ------------------------------------------------------
    async def on_action(self, table: Table, conn: Conn, msg: dict[str, Any]) -> None:
        seat = conn.seat
        assert seat is not None
        if table.game is None or table.status == "lobby":
            raise ProtocolError("the game has not started", "not-started")
        if table.status == "over":
            raise ProtocolError("the game is over", "game-over")
        if "action" not in msg:
            raise ProtocolError("an action message needs an \"action\"", "bad-action")
        game = table.game
        sent: AnyAction | PlayRequest
        sent = manipulation_action_from_json(msg["action"], seat) if isinstance(game, ManipulationGame) \
            else action_from_json(msg["action"], seat)
        table.check_version(msg.get("version"), sent)
        if seat not in game.to_act():
            raise ProtocolError("it is not your turn", "not-your-turn")
        action: AnyAction
        if isinstance(sent, PlayRequest):
            assert isinstance(game, ManipulationGame)
            action = await _arrange(game, sent)
        else:
            action = sent
        s = table.seats[seat]
        if s.standin:  # the person plays again: the computer player that stood in for them stops
            s.standin = False
            table.wake.set()
            try:
                await table.apply(action)
            except IllegalActionError:
                table.broadcast()
                raise
        else:
            await table.apply(action)
        if isinstance(action, Discard):
            table.own_discard = len(game.actions)  # its index (``game`` is the state before it)
        conn.send({"type": "accepted", "ref": msg.get("id"), "action": str(action), "version": table.version})

    async def on_take_back(self, table: Table, conn: Conn, msg: dict[str, Any]) -> None:
        """The person takes back the discard they just made, at a table of computer players, while
        none of them has acted on it (they wait ``take_back_seconds`` after it)."""
        seat = conn.seat
        assert seat is not None
        game = table.game
        if game is None or table.status == "lobby":
            raise ProtocolError("the game has not started", "not-started")
        if table.status == "over":
            raise ProtocolError("the game is over", "game-over")
        if isinstance(game, ManipulationGame):
            raise ProtocolError("manipulation rummy has no discard to take back", "no-take-back")
        if not table.others_are_computers(seat):
            raise ProtocolError("a discard is taken back only at a table of computer players: the people at this "
                                "table have seen it", "no-take-back")
        sent = msg.get("version")
        if isinstance(sent, bool) or not isinstance(sent, int):
            raise ProtocolError("a take-back needs the state \"version\" it was sent for", "no-version")
        if sent != table.version:
            raise ProtocolError(f"the game has moved on: your message was for version {sent}, the game is at "
                                f"{table.version}", "stale")
        if table.take_back_seat() != seat:
            raise ProtocolError("only your own discard can be taken back, and only before anybody has acted on "
                                "it", "no-take-back")
        try:
            await table.take_back(seat)
        except TakeBackError as exc:
            raise ProtocolError(str(exc), "no-take-back") from exc

    async def on_back(self, table: Table, conn: Conn, msg: dict[str, Any]) -> None:
        """The person is back at the seat a computer player has been playing for them (they had let
        their turn wait ``idle_seconds``): their turns are theirs again."""
        assert conn.seat is not None
        s = table.seats[conn.seat]
        if not s.standin:
            raise ProtocolError("no computer player is playing for you", "not-away")
        s.standin, s.back_at = False, time.monotonic()
        table.broadcast()
        table.wake.set()

    async def on_nudge(self, table: Table, conn: Conn, msg: dict[str, Any]) -> None:
        """Remind the person whose turn the table waits for (a ``nudge`` message to their connections),
        once their turn has waited ``Table.nudge_after()``, and at most that often."""
        seat = msg.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise ProtocolError("a nudge needs the \"seat\" to nudge (a number)", "bad-nudge")
        if seat == conn.seat:
            raise ProtocolError("you cannot nudge yourself", "bad-nudge")
        if table.waited_seat() != seat:
            raise ProtocolError("the table is not waiting for that seat's turn", "not-waiting")
        s = table.seats[seat]
        if not s.connected:
            raise ProtocolError(f"{s.name} is not connected: a computer player plays for them after "
                                f"{table.settings.standin_seconds:g} seconds", "away")
        now = time.monotonic()
        waited = now - max(table.changed_at, s.nudged_at)
        after = table.nudge_after()
        if waited < after:
            raise ProtocolError(f"{s.name} has had {waited:.0f} seconds: nudge after {after:g}", "too-soon")
        s.nudged_at = now
        assert conn.seat is not None
        for c in s.conns:
            c.send({"type": "nudge", "by": conn.seat, "name": table.seats[conn.seat].name, "version": table.version})
        table.broadcast()  # everybody's state says when the next nudge may come

    async def on_hint(self, table: Table, conn: Conn, msg: dict[str, Any]) -> None:
        if table.game is None:
            raise ProtocolError("the game has not started", "not-started")
        if not table.settings.hints:
            raise ProtocolError("the host switched hints off at this table", "hints-off")
        if isinstance(table.game, ManipulationGame):
            await self.manipulation_hint(table, table.game, conn, msg)
            return
        seat_view = view(table.game, conn.seat)
        if not seat_view.legal:
            raise ProtocolError("you have nothing to do now", "not-your-turn")
        advice = await asyncio.to_thread(advise, seat_view, seed=0)
        conn.send({"type": "hint", "ref": msg.get("id"), "version": table.version,
                   **action_to_json(advice.action), "reason": str(advice.reason)})

    async def _review_task(self, table: Table, conn: Conn, msg: dict[str, Any]) -> None:
        """``on_review`` beside the connection's other messages, its errors reported as a handler's."""
        ref = msg.get("id")
        try:
            await self.on_review(table, conn, msg)
        except ProtocolError as exc:
            conn.send(_error(exc.code, exc.message, ref, version=table.version))
        except Exception:  # as serve_socket does for a handler
            log.exception("a review could not be worked out")
            conn.send(_error("internal", "the server could not handle that", ref, version=table.version))
        finally:
            conn.reviewing = False

    async def on_review(self, table: Table, conn: Conn, msg: dict[str, Any]) -> None:
        """The coach's review of the seat's play once the game is over (``shanghai.bots.coach.review``:
        the coach asked before each of its choices, from its view, each difference weighed over
        ``review_deals`` deals): worked out once a seat (kept for
        the last ``REVIEWS_KEPT`` asked, beyond the table's life in memory), one at a time on the
        server, in a worker thread."""
        seat = conn.seat
        assert seat is not None
        game = table.game
        if game is None or table.status == "lobby":
            raise ProtocolError("the game has not started", "not-started")
        if table.status != "over" or not game.is_over:
            raise ProtocolError("the coach reviews a game once it is over", "not-over")
        if isinstance(game, ManipulationGame):
            raise ProtocolError("the coach reviews the contract games, not manipulation rummy", "no-review")
        key = (table.id, len(game.actions), seat)
        summary = self.reviews.get(key)
        if summary is None:
            record = GameRecord.of(game, [s.name for s in table.seats])
            async with self.review_lock:
                summary = self.reviews.get(key)
                if summary is None:
                    deals = self.review_deals
                    summary = await asyncio.to_thread(lambda: review_summary(review(record, seat, deals=deals)))
                    self.reviews_made += 1
        self.reviews[key] = summary
        self.reviews.move_to_end(key)
        while len(self.reviews) > REVIEWS_KEPT:
            self.reviews.popitem(last=False)
        if conn.table is not table or conn.seat != seat:
            return  # the connection moved on (a rematch) while the coach worked
        conn.send({"type": "review", "ref": msg.get("id"), "version": table.version, "seat": seat,
                   "name": table.seats[seat].name, **summary})

    async def manipulation_hint(self, table: Table, game: ManipulationGame, conn: Conn, msg: dict[str, Any]) -> None:
        """The largest play (the table solver's), or the draw or pass when no card can be placed, and
        every card of the hand that some legal play places."""
        assert conn.seat is not None
        if conn.seat not in game.to_act():
            raise ProtocolError("you have nothing to do now", "not-your-turn")
        private, legal = table.manipulation_private(game, conn.seat)
        best = legal[0]
        if best["action"]["verb"] == "play":
            n = len(best["action"]["cards"])
            fewest = game.min_placed()
            words = placeable_words(game.table, game.hands[conn.seat], single=fewest == 1)
            reason = (f"the largest play places {n} card{'s' if n != 1 else ''}; you may place fewer "
                      f"(at least {'two' if fewest > 1 else 'one'}). Cards that can be placed: {words}")
        elif best["action"]["verb"] == "draw":
            reason = "no card of your hand can be placed on the table, even rearranged: draw"
        else:
            reason = "no card of your hand can be placed and the stock is empty: pass"
        conn.send({"type": "hint", "ref": msg.get("id"), "version": table.version, **best, "reason": reason,
                   "placeable": private["placeable"], "alone": private["alone"]})

    async def on_start(self, table: Table, conn: Conn, msg: dict[str, Any]) -> None:
        _host_only(conn)
        if table.status != "lobby":
            raise ProtocolError("the game has already started", "started")
        n = len(table.seats)
        if not table.rules.min_players <= n <= table.rules.max_players:
            raise ProtocolError(f"{table.rules.name} is played by {table.rules.min_players} to "
                                f"{table.rules.max_players} players, not {n}", "bad-seats")
        level = default_level()
        for i, s in enumerate(table.seats):  # computer players fill the empty seats
            if s.open:
                s.kind, s.level, s.name = BOT, level, _bot_name(level, i)
        game = new_game(table.rules, n, table.seed)
        self.storage.save_seats(table.id, table.rows(), status="playing")
        table.game, table.status = game, "playing"
        table.changes += 1
        table.changed_at = time.monotonic()
        table._note_window()
        await table.prepare()
        table.broadcast()
        table.start_driver()
        table.wake.set()

    async def on_add_bot(self, table: Table, conn: Conn, msg: dict[str, Any]) -> None:
        _host_only(conn)
        level = check_level(msg.get("level", default_level()), table.rules)
        want = msg.get("seat")
        if want is not None:
            seat = _open_seat(table, want)
        elif table.status == "lobby":
            if len(table.seats) >= table.rules.max_players:
                raise ProtocolError(f"the table is full ({table.rules.max_players} players at most)", "table-full")
            table.seats.append(Seat(BOT, "", level))
            seat = len(table.seats) - 1
        else:
            raise ProtocolError("during a game a computer player can only take an open seat", "started")
        s = table.seats[seat]
        s.kind, s.level, s.name, s.bot, s.standin = BOT, level, _bot_name(level, seat), None, False
        self.storage.save_seats(table.id, table.rows())
        table.broadcast()
        table.wake.set()

    async def on_rematch(self, table: Table, conn: Conn, msg: dict[str, Any]) -> None:
        """A new table with the same rules, timings and seats once the game is over: every person's seat
        token now leads there, and every connection of the old table moves to the new one."""
        _host_only(conn)
        if table.status != "over":
            raise ProtocolError("a rematch can be asked for once the game is over", "not-over")
        seats = [Seat(s.kind, s.name, s.level, s.token_hash) for s in table.seats]
        game_id, invite = secrets.token_urlsafe(9), secrets.token_urlsafe(18)
        new = Table(self, game_id, invite, "lobby", table.rules_spec, table.rules, secrets.randbits(31),
                    table.settings, seats)
        old_rows = [SeatRow(i, s.kind, s.level, s.name, None) for i, s in enumerate(table.seats)]
        self.storage.create_game(game_id, invite, new.rules_spec, new.seed, new.settings.to_json(), new.rows(),
                                 moved_from=(table.id, old_rows))
        self.tables[game_id] = new
        self.by_invite[invite] = game_id
        for i, s in enumerate(table.seats):
            if s.token_hash is not None:
                self.by_token[s.token_hash] = game_id
            s.token_hash = None
            for c in list(s.conns):
                c.table = new
                new.seats[i].conns.add(c)
            s.conns.clear()
        for c in list(table.spectators):
            c.table = new
            new.spectators.add(c)
        table.spectators.clear()
        for c in new.conns():
            c.send({"type": "rematch", "table": game_id, "invite": invite, "seat": None if c.spectator else c.seat})
        new.broadcast()

    async def on_remove(self, table: Table, conn: Conn, msg: dict[str, Any]) -> None:
        _host_only(conn)
        seat = msg.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(table.seats):
            raise ProtocolError(f"no seat {seat!r}", "bad-seat")
        if seat == 0:
            raise ProtocolError("the host cannot remove their own seat", "bad-seat")
        s = table.seats[seat]
        if s.kind == HUMAN and s.connected:
            raise ProtocolError("only an absent player can be removed", "present")
        if s.kind == HUMAN and not s.open:  # the person leaves; the seat opens for someone else
            if s.token_hash is not None:
                self.by_token.pop(s.token_hash, None)
            s.token_hash, s.name, s.bot = None, f"Seat {seat + 1}", None
            s.standin, s.standin_since = table.status == "playing", time.monotonic()
        elif table.status == "lobby":  # a computer player or an open seat goes away
            if len(table.seats) <= 1:
                raise ProtocolError("the table needs a seat", "bad-seat")
            del table.seats[seat]
            for i, other in enumerate(table.seats):
                for c in other.conns:
                    c.seat = i
        else:
            raise ProtocolError("the number of players cannot change during a game", "started")
        self.storage.save_seats(table.id, table.rows())
        table.broadcast()
        table.wake.set()


def _speaks(table: Table, proto: object) -> bool:
    """Can a client speaking protocol ``proto`` play this table? (Protocol 1 knows the contract games only.)"""
    return proto != 1 or not table.manipulation


async def _arrange(game: ManipulationGame, request: PlayRequest) -> AnyAction:
    """The play placing exactly the requested cards, the table arranged by the solver."""
    missing = placed_counts_ok(game.hands[request.seat], request.cards)
    if missing is not None:
        raise IllegalActionError(f"{card_text(missing)} is not in your hand"
                                 + (" that many times" if request.cards.count(missing) > 1 else ""))
    play = await asyncio.to_thread(play_exactly, game, request.cards, request.seat)
    if play is None:
        raise IllegalActionError("those cards cannot all be placed together, even with the table rearranged")
    return play


def _host_only(conn: Conn) -> None:
    if conn.seat != 0:
        raise ProtocolError("only the host (seat 0) can do that", "not-host")


def _open_seat(table: Table, want: object) -> int:
    """The seat number ``want`` names, once it is a seat of ``table`` (``bad-seat``) and open (``seat-taken``)."""
    if not isinstance(want, int) or isinstance(want, bool):
        raise ProtocolError(f"a seat is a whole number from 0, not {want!r}", "bad-seat")
    if not 0 <= want < len(table.seats):
        raise ProtocolError(f"this table has seats 0 to {len(table.seats) - 1}, not {want}", "bad-seat")
    if not table.seats[want].open:
        raise ProtocolError(f"seat {want} is not open", "seat-taken")
    return want


def _bot_name(level: str, seat: int) -> str:
    return f"Computer {seat + 1} ({level})"


_HANDLERS = {
    "action": Manager.on_action,
    "hint": Manager.on_hint,
    "take_back": Manager.on_take_back,
    "back": Manager.on_back,
    "nudge": Manager.on_nudge,
    "review": Manager.on_review,  # run without the table's lock (see ``handle``)
    "start": Manager.on_start,
    "add_bot": Manager.on_add_bot,
    "remove_seat": Manager.on_remove,
    "rematch": Manager.on_rematch,
}
