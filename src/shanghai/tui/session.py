"""A game at one screen, without the screen: who sits where, the computer players and the record.

:class:`GameSession` holds a contract game, :class:`ManipulationSession` a game of manipulation
rummy (what they share, the seats and the record, is :class:`Seats`); :func:`resume_session`
continues either from its record. Nothing here imports Textual, so
the logic can be tested and reused on its own. The record is the plain game's
(:class:`shanghai.cli.play.RecordFile`): written after every action, so that a game that was killed
is resumed exactly where it stopped. Which seats are people and the level of each computer player
are kept beside the record, in ``<record>.seats.json`` (see :func:`shanghai.cli.play.save_seats`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Generic, Self, TypeVar

from shanghai.cards import Card
from shanghai.cli.play import (
    HUMAN,
    LEVELS,
    Bot,
    RecordFile,
    bot_action,
    bot_to_act,
    load_saved_game,
    load_seats,
    make_bots,
    save_seats,
)
from shanghai.engine.actions import Action, Discard, DrawStock
from shanghai.engine.game import Game, RoundResult
from shanghai.engine.manipulation import (
    HandResult,
    ManipulationAction,
    ManipulationGame,
    ManipulationView,
    manipulation_view,
)
from shanghai.engine.record import GameRecord
from shanghai.engine.take_back import TakeBackError, take_back
from shanghai.engine.view import PlayerView, view
from shanghai.errors import IllegalActionError
from shanghai.scorepad.played import keep_played, pad_names
from shanghai.table_solver import Meld

__all__ = ["HUMAN", "Applied", "GameSession", "ManipulationApplied", "ManipulationSession", "Seats",
           "available_levels", "load_seats", "resume_session", "save_seats"]

GameT = TypeVar("GameT", bound="Game | ManipulationGame")
AppliedT = TypeVar("AppliedT")


def available_levels() -> tuple[str, ...]:
    """The opponents' levels this installation knows (``easy`` ... ``expert``), or the basic
    players (``random``, ``greedy``) while the levels are not registered."""
    from shanghai.bots.registry import make_opponent

    known = []
    for level in LEVELS:
        try:
            make_opponent(level, 0)
        except (ValueError, ImportError):
            continue
        known.append(level)
    return tuple(known) if known else ("random", "greedy")


@dataclass
class Applied:
    """What one action did: the round it ended, if any."""

    action: Action
    ended: RoundResult | None
    note: str | None = None
    top: Card | None = None  # the discard pile's top card before the action (public)


class Seats(Generic[GameT, AppliedT]):
    """What a session of either game holds: the game, the seats' names and kinds (people and the
    computer players' levels) and the record file, written after every action."""

    KIND: ClassVar[str] = "a game"  # the game in words, for the resume's refusal

    def __init__(self, game: GameT, names: Sequence[str], kinds: Sequence[str],
                 record: Path | None = None) -> None:
        if len(names) != game.players or len(kinds) != game.players:
            raise ValueError(f"{len(names)} names and {len(kinds)} kinds for {game.players} seats")
        if HUMAN not in kinds:
            raise ValueError("at least one seat must be a person")
        self.game = game
        self.names = list(names)
        self.kinds = list(kinds)
        self.record = RecordFile(record, names) if record is not None else None
        self.save_error: str | None = None
        self.cut_off: int | None = None  # resumed from a record whose last line, cut off, was left out

    @classmethod
    def resume(cls, path: Path, default_level: str) -> Self:
        """The game of this kind saved in ``path``; raises ``OSError`` or ``ShanghaiError`` when it
        cannot (``ValueError`` when the record holds the other game: see :func:`resume_session`)."""
        session = resume_session(path, default_level)
        if not isinstance(session, cls):
            raise ValueError(f"the game in {path} is {session.KIND}, not {cls.KIND}")
        return session

    @property
    def humans(self) -> list[int]:
        return [s for s, k in enumerate(self.kinds) if k == HUMAN]

    def bot_to_act(self) -> int | None:
        """The computer player who must act now, if one must."""
        raise NotImplementedError

    def human_to_act(self) -> int | None:
        """The person who must act now (none while a computer player is to act)."""
        raise NotImplementedError

    def bot_step(self) -> AppliedT | None:
        """One computer player's action, if one is to act."""
        raise NotImplementedError

    def start(self) -> None:
        """Write the whole record (and the seats) once at the start."""
        if self.record is not None:
            try:
                self.record.write_all(self.game)
                save_seats(self.record.path, self.kinds)
            except OSError as exc:
                self._lost(exc)

    def _save(self) -> None:
        if self.record is None:
            return
        try:
            self.record.sync(self.game)
        except OSError as exc:
            self._lost(exc)

    def _lost(self, exc: OSError) -> None:
        assert self.record is not None
        self.save_error = f"Could not save the game to {self.record.path}: {exc}. Playing on without saving."
        self.record = None


class GameSession(Seats[Game, Applied]):
    """One game: the engine's game, the seats' names and kinds, the bots and the record file."""

    KIND = "a contract game"

    def __init__(self, game: Game, names: Sequence[str], kinds: Sequence[str],
                 record: Path | None = None) -> None:
        super().__init__(game, names, kinds, record)
        self.bots: dict[int, Bot] = make_bots(game, [None if k == HUMAN else k for k in kinds])
        self.history: Path | None = None  # the score pad database that keeps the game once it is over
        self._kept: list[str] | None = None

    def keep_in_history(self) -> list[str]:
        """Once the game is over, keep it in the score pad's history (:attr:`history`, once) and
        return what to tell the people: where it is kept and each person's record."""
        if self.history is None or not self.game.is_over:
            return []
        if self._kept is None:
            names = pad_names(self.names, {s: k for s, k in enumerate(self.kinds) if k != HUMAN})
            self._kept = keep_played(self.history, self.game, names, self.humans,
                                     note=f"terminal game, seed {self.game.seed}")
        return self._kept

    def view(self, seat: int) -> PlayerView:
        return view(self.game, seat)

    def bot_to_act(self) -> int | None:
        return None if self.game.is_over else bot_to_act(self.game, self.bots)

    def human_to_act(self) -> int | None:
        """The person who must act now (none while a computer player is to act)."""
        if self.game.is_over or self.bot_to_act() is not None:
            return None
        return next((s for s in self.game.to_act() if s not in self.bots), None)

    def apply(self, action: Action) -> Applied:
        """Apply an action (``IllegalActionError`` leaves everything unchanged) and save."""
        results = len(self.game.round_results)
        top = self.game.discard_top
        self.game.apply(action)
        self._save()
        ended = self.game.round_results[-1] if len(self.game.round_results) > results else None
        return Applied(action, ended, top=top)

    def take_back(self, seat: int) -> Discard:
        """Take back the discard ``seat`` (a person) just made, while nobody has acted on it
        (:func:`shanghai.engine.take_back.take_back`), and save the shorter record; the discard taken
        back is returned. ``TakeBackError`` changes nothing."""
        if seat in self.bots:
            raise TakeBackError(f"{self.names[seat]} is a computer player: only a person takes back a discard")
        last = self.game.actions[-1] if self.game.actions else None
        self.game = take_back(self.game, seat)
        assert isinstance(last, Discard)
        self._save()  # the record is rewritten without the discard
        return last

    def bot_step(self) -> Applied | None:
        """One computer player's action, if one is to act."""
        seat = self.bot_to_act()
        if seat is None:
            return None
        action, note = bot_action(self.game, seat, self.bots[seat])
        applied = self.apply(action)
        applied.note = note
        return applied


@dataclass
class ManipulationApplied:
    """What one action of manipulation rummy did: the table before it, the hand it ended (if any),
    the card it drew (a draw), and a note when a computer player's choice was replaced."""

    action: ManipulationAction
    before: tuple[Meld, ...]
    ended: HandResult | None
    drawn: Card | None = None
    note: str | None = None


class ManipulationSession(Seats[ManipulationGame, ManipulationApplied]):
    """One game of manipulation rummy: the game, the seats' names and kinds, the computer players
    (:func:`shanghai.cli.play_manipulation.manipulation_bots`, the plain game's, so that a game goes
    on the same in either) and the record file, written after every action."""

    KIND = "manipulation rummy"

    def __init__(self, game: ManipulationGame, names: Sequence[str], kinds: Sequence[str],
                 record: Path | None = None) -> None:
        from shanghai.cli.play_manipulation import manipulation_bots

        super().__init__(game, names, kinds, record)
        self.bots = manipulation_bots(game, [None if k == HUMAN else k for k in kinds])

    def view(self, seat: int) -> ManipulationView:
        return manipulation_view(self.game, seat)

    def bot_to_act(self) -> int | None:
        g = self.game
        return None if g.is_over or g.turn not in self.bots else g.turn

    def human_to_act(self) -> int | None:
        g = self.game
        return None if g.is_over or g.turn in self.bots else g.turn

    def apply(self, action: ManipulationAction) -> ManipulationApplied:
        """Apply an action (``IllegalActionError`` leaves everything unchanged) and save."""
        g = self.game
        results = len(g.hand_results)
        before = g.table
        g.apply(action)
        self._save()
        ended = g.hand_results[-1] if len(g.hand_results) > results else None
        drawn = g.drawn[-1] if isinstance(action, DrawStock) and g.drawn else None
        return ManipulationApplied(action, before, ended, drawn)

    def bot_step(self) -> ManipulationApplied | None:
        """One computer player's action, if one is to act; a bot's illegal choice (a bug) must not
        stop the game: the engine's first offer is made instead, with a note saying what it tried."""
        seat = self.bot_to_act()
        if seat is None:
            return None
        g = self.game
        action = self.bots[seat].choose(manipulation_view(g, seat))
        try:
            return self.apply(action)  # a refused action changes nothing
        except IllegalActionError as exc:
            applied = self.apply(next(iter(g.legal_actions(seat))))
            applied.note = f"tried {action}: {exc}; it plays another move"
            return applied


AnySession = GameSession | ManipulationSession


def session_of(record: GameRecord, game: Game | ManipulationGame, path: Path | None,
               kinds: Sequence[str]) -> AnySession:
    """The session of the right kind for ``game``."""
    if isinstance(game, ManipulationGame):
        return ManipulationSession(game, record.players, kinds, path)
    return GameSession(game, record.players, kinds, path)


def resume_session(path: Path, default_level: str) -> AnySession:
    """The game saved in ``path``, a contract game or manipulation rummy, with its seats (saved
    beside the record); raises ``OSError``, ``ShanghaiError`` or ``ValueError`` when it cannot."""
    record, game = load_saved_game(path)
    kinds = load_seats(path, game.players, default_level)
    session = session_of(record, game, path, kinds)
    session.cut_off = record.cut_off
    session.start()  # the record file is rewritten whole: later actions are appended to it
    return session
