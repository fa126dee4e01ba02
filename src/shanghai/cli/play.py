"""``shanghai play``: a plain-text game in the terminal against computer players.

The human sits in seat 0; the other seats are computer players. Everything goes through the
engine: the screen is drawn from the human's :func:`~shanghai.engine.view.view`, each command
becomes an engine action, and an illegal one prints the engine's reason and changes nothing.
The game record is written after every action, so ``--resume`` continues a game exactly where it
stopped, even after the terminal was closed.

:class:`TextGame` reads commands from an input function and writes to an output function (by
default :func:`input` and :func:`print`), so that tests can script a whole game.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shlex
import sys
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from shanghai.cards import Card, card_text, parse_card, rank_sort_key, sort_key
from shanghai.cli.common import seat_words, split_options
from shanghai.engine.actions import (
    Action,
    Buy,
    CallShanghai,
    Cut,
    Discard,
    DrawStock,
    GoDown,
    LayOff,
    MeldSpec,
    Pass,
    ReplaceWild,
    TakeDiscard,
    parse_action,
)
from shanghai.engine.game import Game, Phase, RoundResult, TableMeld
from shanghai.engine.games import AnyGame
from shanghai.engine.manipulation import ManipulationGame
from shanghai.engine.record import GameRecord
from shanghai.engine.view import PlayerView, view
from shanghai.errors import IllegalActionError, ShanghaiError
from shanghai.fits import lay_off_options
from shanghai.melds import End, make_meld, run_arrangements
from shanghai.paths import data_dir
from shanghai.rules import OTHER_GAMES, PRESETS, ManipulationRules, game_rules, preset
from shanghai.rules.model import MeldKind
from shanghai.scorepad.played import keep_played, pad_names
from shanghai.scorepad.storage import default_db_path

BOT_NAMES = ("Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy")
RECORD_NAME = "last-game.jsonl"
BAR = "═" * 72
RULE = "─" * 72

HELP = """\
Commands (case does not matter; cards as 7H, 10D or TD, QS, JK; or the number shown by a card):
  draw                  draw the top card of the stock
  take                  take the top discard
  buy / pass            answer "Buy 7H?" (y / n work too)
  down                  go down with the suggested melds (shown first, to confirm)
  down set 7H 7S JK | run 5D 6D 7D 8D
                        go down with melds of your own (runs in any order)
  layoff 9D m3 high     lay a card off on meld m3 (the end is asked when it matters)
  replace 8D m2         put a natural card where a wild stands for it on meld m2
  discard KH            discard (or: discard 5, the fifth card of your hand)
  discard KH shanghai   discard and protect the card ("Shanghai" call rules only)
  shanghai m2 low       call "Shanghai" on a discard that fits a meld (those rules only)
  cut 45                cut the deck for the dealer (THE CUT, isra rules)
  sort / sort rank / sort suit   change the order of your hand
  look                  show the table again (or just press Enter)
  moves                 list every legal move        hint   what you can do now
  scores                the score pad                 help   this text
  quit                  save and stop; 'shanghai play --resume' continues the game"""


class Bot(Protocol):
    """A computer player: picks an action from its own view."""

    def choose(self, view: PlayerView) -> Action: ...


class ReplayablePlayer:
    """A computer player whose every choice depends only on the game's seed and the position.

    A game that is stopped and resumed therefore goes on exactly as it would have without the stop.
    """

    def __init__(self, seed: int, kind: str = "random") -> None:
        self.seed = seed
        self.player = _make_opponent(kind, seed)
        self.name = kind

    def choose(self, view: PlayerView) -> Action:
        key = f"{self.seed}:{view.seat}:{view.round_number}:{len(view.history)}"
        rng = getattr(self.player, "rng", None)
        if isinstance(rng, random.Random):
            rng.seed(key)
            forget = getattr(self.player, "forget", None)
            if callable(forget):
                forget()  # what it remembers of the round would not survive a stop and resume
            return self.player.choose(view)
        # a player without a reseedable generator is made afresh for each decision, with a seed
        # from the position: the same position always gets the same answer
        return _make_opponent(self.name, zlib.crc32(key.encode())).choose(view)


def _make_opponent(kind: str, seed: int) -> Bot:
    """A computer player of a level or name (level ``expert``: the strongest player we have)."""
    from shanghai.bots.registry import make_contract_opponent

    return make_contract_opponent(kind, seed)


def _opponents(game: Game, human: int, kind: str) -> dict[int, Bot]:
    return {s: ReplayablePlayer(game.seed * 31 + s, kind) for s in range(game.players) if s != human}


def make_bots(game: Game, kinds: Sequence[str | None]) -> dict[int, Bot]:
    """Computer players for the seats whose kind is given (``None``: a person sits there)."""
    return {s: ReplayablePlayer(game.seed * 31 + s, kind) for s, kind in enumerate(kinds) if kind is not None}


def bot_to_act(game: Game, bots: Mapping[int, Bot]) -> int | None:
    """The computer player that acts next, if any: in a buy window computer players answer
    before people (priority is the engine's business, so the order does not change the outcome)."""
    return next((s for s in game.to_act() if s in bots), None)


def bot_action(game: Game, seat: int, bot: Bot) -> tuple[Action, str | None]:
    """The action of computer player ``seat``; a bot bug must not stop the game: an illegal choice
    is replaced by the first legal action, with a note saying what it tried."""
    action = bot.choose(view(game, seat))
    if game.is_legal(action):
        return action, None
    try:
        game.copy().apply(action)
        why = "refused"
    except IllegalActionError as exc:
        why = str(exc)
    fallback = next(iter(game.legal_actions(seat)))
    return fallback, f"tried {action_text(action)!r}: {why}; it plays another move"


HUMAN = "human"  # a seat's kind when a person sits there


def seats_path(record: Path) -> Path:
    """Beside the record, who sits where (a person, or a computer player and its level):
    ``game.jsonl`` -> ``game.seats.json``."""
    return record.with_name(record.stem + ".seats.json")


def save_seats(record: Path, kinds: Sequence[str]) -> None:
    path = seats_path(record)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps({"kinds": list(kinds)}) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def load_seats(record: Path, players: int, default: str) -> list[str]:
    """The seats' kinds saved beside ``record``; without that file, seat 0 is a person and the
    others are computer players of level ``default``."""
    try:
        kinds = json.loads(seats_path(record).read_text(encoding="utf-8"))["kinds"]
        if isinstance(kinds, list) and len(kinds) == players and all(isinstance(k, str) for k in kinds):
            return [str(k) for k in kinds]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return [HUMAN] + [default] * (players - 1)


def people_seats(record: Path, players: int) -> list[int] | None:
    """The seats people took at the table of ``record``, from its seats file; None without one
    (a record the terminal game did not write)."""
    if not seats_path(record).exists():
        return None
    return [s for s, k in enumerate(load_seats(record, players, HUMAN)) if k == HUMAN]


def cut_off_note(path: Path | str, line: int) -> str:
    """What a reader of a record whose last line was cut off (``GameRecord.cut_off``) is told."""
    return (f"(The last line of {path}, line {line}, was cut off in the middle, as when the program writing it "
            f"stopped: it is left out, and the game goes on from the move before it.)")


def resume_command(record: Path) -> str:
    """The command that continues the game saved in ``record``.

    >>> resume_command(default_record_path())
    'shanghai play --resume'
    >>> resume_command(Path("my games/g.jsonl"))
    "shanghai play --resume --record 'my games/g.jsonl'"
    """
    if record == default_record_path():
        return "shanghai play --resume"
    return f"shanghai play --resume --record {shlex.quote(str(record))}"


def review_command(record: Path, seat_name: str | None = None) -> str:
    """The command with which the coach reviews a seat's play in ``record`` (``shanghai coach``):
    the record's path unless it is the terminal game's last game, and the seat unless the seats
    file makes it plain.

    >>> review_command(default_record_path())
    'shanghai coach --review'
    >>> review_command(Path("my games/g.jsonl"), "-Ann")
    "shanghai coach 'my games/g.jsonl' --review --seat=-Ann"
    >>> review_command(Path("g.jsonl"), "Ann Lee")
    "shanghai coach g.jsonl --review '--seat=Ann Lee'"
    """
    words = ["shanghai", "coach"]
    if record != default_record_path():
        words.append(shlex.quote(str(record)))
    words.append("--review")
    if seat_name is not None:
        words.append(shlex.quote(f"--seat={seat_name}"))
    return " ".join(words)


_PLAY_DEFAULTS: dict[str, object] = {"rules": "isra", "players": 4}  # add_play_arguments' defaults


def load_saved_game(path: Path) -> tuple[GameRecord, AnyGame]:
    """The game saved in ``path`` (a record), replayed; ``OSError`` or ``ShanghaiError`` when it
    cannot be read or replayed."""
    record = GameRecord.load(path)
    return record, record.replay()


def new_game(rules_name: str, options: Sequence[str], players: int, seed: int | None) -> Game:
    """A new game (a random seed when ``seed`` is None); bad rules or player counts raise
    ``ShanghaiError`` or ``NotImplementedError`` with the reason."""
    rules = preset(rules_name, options)
    rules.pack_for(players)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    return Game.new(rules, players, seed)


def new_manipulation_game(rules_name: str, options: Sequence[str], players: int,
                          seed: int | None) -> ManipulationGame:
    """A new game of manipulation rummy (a random seed when ``seed`` is None)."""
    rules = game_rules(rules_name, options)
    if not isinstance(rules, ManipulationRules):
        raise ValueError(f"{rules_name} is not manipulation rummy")
    rules.pack_for(players)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 2**31)
    return ManipulationGame.new(rules, players, seed)


def _run_manipulation(game: ManipulationGame, names: Sequence[str], path: Path, args: argparse.Namespace,
                      input_fn: Callable[[str], str], output_fn: Callable[[str], None], *,
                      resumed: bool) -> int:
    from shanghai.cli.play_manipulation import ManipulationTextGame, manipulation_bots

    if resumed:
        kinds = load_seats(path, game.players, args.opponents)
        bot_kinds = [None if s == 0 else (args.opponents if k == HUMAN else k) for s, k in enumerate(kinds)]
    else:
        bot_kinds = [None] + [args.opponents] * (game.players - 1)
        try:
            save_seats(path, [HUMAN] + [args.opponents] * (game.players - 1))
        except OSError:
            pass  # the record's own saving reports the problem
    try:
        bots = manipulation_bots(game, bot_kinds)
    except ValueError as exc:
        print(f"shanghai play: {exc}", file=sys.stderr)
        return 2
    record = RecordFile(path, names)
    try:
        record.write_all(game)
    except OSError as exc:
        output_fn(f"(The game cannot be saved in {path}: {exc})")
    text_game = ManipulationTextGame(game, names, record=path, input_fn=input_fn, output_fn=output_fn,
                                     bots=bots, save=record.sync)
    return text_game.run(resumed=resumed)


def default_record_path() -> Path:
    """``last-game.jsonl`` in the user's data folder (:func:`shanghai.paths.data_dir`)."""
    return data_dir() / RECORD_NAME


class RecordFile:
    """The game record on disk, kept up to date after every action.

    The whole record is written at the start and at the end of the game; in between each action
    is appended as one line, which gives the same file as ``GameRecord.of(game, names).save(path)``
    without rewriting thousands of lines after every move.
    """

    def __init__(self, path: Path, names: Sequence[str]) -> None:
        self.path = path
        self.names = list(names)
        self.written = 0

    def write_all(self, game: AnyGame) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        GameRecord.of(game, self.names).save(tmp)
        os.replace(tmp, self.path)
        self.written = len(game.actions)

    def sync(self, game: AnyGame) -> None:
        if game.is_over or self.written > len(game.actions):
            self.write_all(game)
            return
        if self.written == len(game.actions):
            return
        lines = "".join(json.dumps({"n": i, "action": str(game.actions[i])}) + "\n"
                        for i in range(self.written, len(game.actions)))
        with self.path.open("a", encoding="utf-8") as f:
            f.write(lines)
        self.written = len(game.actions)


class _Quit(Exception):
    """The player stops the game: 'quit', end of input."""


class _Problem(Exception):
    """A command that cannot be read; the message says why."""


@dataclass(frozen=True, slots=True)
class _Before:
    """What narration needs to know about the state just before an action."""

    results: int
    phase: Phase
    turn: int
    hand: tuple[Card, ...]
    counts: tuple[int, ...]
    buys_used: tuple[int, ...]
    discard_top: Card | None
    stock_renewals: int
    table: tuple[TableMeld, ...]
    shanghai_card: Card | None
    discarder: int | None


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _cards(cards: Iterable[int]) -> str:
    return " ".join(card_text(c) for c in cards)


def action_text(action: Action) -> str:
    """An action's text form without the seat number: what the player would type."""
    return str(action).split(" ", 1)[1]


_ENDS: dict[str, End] = {"low": "low", "lo": "low", "bottom": "low", "start": "low", "l": "low",
                         "high": "high", "hi": "high", "top": "high", "end": "high", "h": "high"}
_FILLER = {"on", "to", "onto", "in", "into", "at", "the", "end", "of", "meld", "card"}
_YES = {"y", "yes", "yeah", "ok", "sure"}
_NO = {"n", "no", "nope"}


class TextGame:
    """A game between one human (reading and writing text) and computer players.

    ``input_fn(prompt)`` returns the next line (raising ``EOFError`` at the end of input);
    ``output_fn(text)`` shows text. ``names`` names every seat, the human's first.
    """

    def __init__(self, game: Game, names: Sequence[str], *, human: int = 0,
                 bots: Mapping[int, Bot] | None = None, record: Path | None = None,
                 input_fn: Callable[[str], str] = input, output_fn: Callable[[str], None] = print,
                 sort_by: str = "suit", pause_between_rounds: bool = True,
                 history: Path | None = None, levels: Mapping[int, str] | None = None) -> None:
        if len(names) != game.players:
            raise ValueError(f"{len(names)} names for {game.players} seats")
        self.game = game
        self.names = list(names)
        self.human = human
        self.bots: dict[int, Bot] = dict(bots) if bots is not None else {
            s: ReplayablePlayer(game.seed * 31 + s) for s in range(game.players) if s != human}
        self.record = RecordFile(record, names) if record is not None else None
        self.history = history  # the score pad database that keeps the game once it is over
        self.levels = dict(levels or {})  # the computer players' levels, by seat, for the score pad's names
        self.input_fn = input_fn
        self.output_fn = output_fn
        self.sort_by = sort_by
        self.pause_between_rounds = pause_between_rounds
        self._shown: tuple[int, Phase] | None = None
        self._shown_before = False  # the first screen (of a new or resumed game) is always complete

    # -- running ----------------------------------------------------------------------------------
    def run(self, *, resumed: bool = False) -> int:
        """Play until the game ends or the player quits; the exit status (0, or 130 on Ctrl-C)."""
        try:
            self._save(full=True)
            self._welcome(resumed)
            while not self.game.is_over:
                self.step()
            self._game_over()
            return 0
        except _Quit:
            self._saved_message()
            return 0
        except KeyboardInterrupt:
            self.out("")
            self._saved_message()
            return 130

    def step(self) -> None:
        """One action: a computer player's, or one command of the human's."""
        game = self.game
        seat = bot_to_act(game, self.bots)
        if seat is not None:
            action, note = bot_action(game, seat, self.bots[seat])
            if note is not None:
                self.out(f"({self.names[seat]} {note})")
            self.apply(action)
            return
        self._human_step()

    def apply(self, action: Action) -> None:
        """Apply an action, save the record, and tell what happened."""
        before = self._before()
        self.game.apply(action)
        self._save()
        self._narrate(action, before)

    def out(self, text: str) -> None:
        self.output_fn(text)

    def ask(self, prompt: str) -> str:
        try:
            line = self.input_fn(prompt)
        except EOFError:
            self.out("")
            raise _Quit from None
        line = " ".join(line.strip().split())
        if line.lower() in ("quit", "exit", "q", "bye", ":q"):
            raise _Quit
        return line

    def view(self) -> PlayerView:
        return view(self.game, self.human)

    # -- saving -----------------------------------------------------------------------------------
    def _save(self, *, full: bool = False) -> None:
        if self.record is None:
            return
        try:
            if full:
                self.record.write_all(self.game)
            else:
                self.record.sync(self.game)
        except OSError as exc:
            self.out(f"(Could not save the game to {self.record.path}: {exc}. Playing on without saving.)")
            self.record = None

    def _saved_message(self) -> None:
        if self.record is not None:
            self.out(f"Game saved to {self.record.path}.")
            self.out(f"Continue it with: {resume_command(self.record.path)}")
        else:
            self.out("Game not saved.")

    # -- the human's turn -------------------------------------------------------------------------
    def _human_step(self) -> None:
        game = self.game
        key = (len(game.actions), game.phase)
        if key != self._shown:
            self._shown = key
            self._show_situation()
        line = self.ask(self._prompt())
        try:
            self._command(line)
        except _Problem as exc:
            self.out(str(exc))
        except IllegalActionError as exc:
            self.out(f"Not allowed: {seat_words(str(exc), self.names, self.human)}")
        except ShanghaiError as exc:
            self.out(str(exc))

    def _show_situation(self) -> None:
        game, v = self.game, self.view()
        if game.phase == Phase.CUT:
            needed = game.rules.hand_size * game.players + 1
            self.out(f"You cut the deck for {self.names[v.dealer]}'s deal. Cutting exactly {needed} cards "
                     f"is THE CUT: {game.rules.cut_bonus} points to everyone else.")
        elif game.phase == Phase.BUY:
            self.out(f"Your hand: {self._hand_line(v)}")
        elif game.phase == Phase.SHANGHAI:
            spots = ", ".join(action_text(a) for a in v.legal if isinstance(a, CallShanghai))
            card = card_text(v.shanghai_card) if v.shanghai_card is not None else "?"
            self.out(f"{card} fits the table: call “Shanghai” ({spots}) or pass.")
            self.out(f"Your hand: {self._hand_line(v)}")
        else:
            last = game.actions[-1] if game.actions else None
            compact = (last is not None and last.seat == self.human and game.phase == Phase.PLAY
                       and not isinstance(last, Cut) and len(game.actions) > game.round_start
                       and self._shown_before)
            self._shown_before = True
            self.out(self.screen(v, compact=compact))

    def _prompt(self) -> str:
        game, v = self.game, self.view()
        if game.phase == Phase.CUT:
            return f"How many cards do you cut? [{game.rules.hand_size * game.players + 1}] "
        if game.phase == Phase.BUY:
            card = card_text(v.discard_top) if v.discard_top is not None else "the discard"
            left = v.buy_limit - v.buys_used[self.human]
            return f"Buy {card}? ({_plural(left, 'buy')} left) [y/N] "
        if game.phase == Phase.SHANGHAI:
            return "Shanghai? [pass] "
        if game.phase == Phase.DRAW:
            if any(isinstance(a, TakeDiscard) for a in v.legal) and v.discard_top is not None:
                return f"Draw, or take {card_text(v.discard_top)}? > "
            return "Draw > "
        if v.pending_wild is not None:
            return f"Play the freed {card_text(v.pending_wild)} > "
        return "Your move > "

    def _command(self, line: str) -> None:
        game = self.game
        words = line.lower().split()
        verb = words[0] if words else ""
        rest = line.split()[1:]
        phase = game.phase
        seat = self.human
        if verb in ("help", "?", "commands"):
            self.out(HELP)
        elif verb in ("", "look", "l", "show", "table", "screen", "redraw"):
            if phase == Phase.CUT and verb == "":
                self._cut([])
            elif phase in (Phase.BUY, Phase.SHANGHAI) and verb == "":
                self.apply(Pass(seat))
            else:
                self.out(self.screen(self.view()))
        elif verb in ("sort", "order"):
            self._sort(words[1:])
        elif verb in ("moves", "legal", "actions", "all"):
            self.out(self._all_moves())
        elif verb in ("hint", "hints"):
            self.out(self._hint())
        elif verb in ("scores", "score", "pad", "scorepad", "totals"):
            self.out(self._score_pad())
        elif verb in ("hand", "cards"):
            self.out(f"Your hand: {self._hand_line(self.view())}")
        elif verb == "cut" or (phase == Phase.CUT and verb.isdigit()):
            self._cut(words[1:] if verb == "cut" else words)
        elif verb in ("draw", "stock", "d", "dr"):
            self.apply(DrawStock(seat))
        elif verb in ("take", "t", "pick", "pickup", "grab"):
            self.apply(TakeDiscard(seat))
        elif verb in ("buy", "may-i", "mayi", "may") or (verb in _YES and phase == Phase.BUY):
            self.apply(Buy(seat))
        elif verb in ("pass", "p", "no-buy") or (verb in _NO and phase in (Phase.BUY, Phase.SHANGHAI)):
            self.apply(Pass(seat))
        elif verb in ("down", "go-down", "meld", "lay", "laydown") and not (verb == "lay" and rest
                                                                             and rest[0].lower() == "off"):
            self._down(" ".join(rest))
        elif verb in ("layoff", "lay", "lo", "off", "add", "play", "put"):
            if verb == "lay" and rest and rest[0].lower() == "off":
                rest = rest[1:]
            self._layoff(rest)
        elif verb in ("replace", "swap", "rep", "r"):
            self._replace(rest)
        elif verb in ("discard", "dis", "x", "throw", "drop"):
            self._discard(rest)
        elif verb == "shanghai" or (verb in _YES and phase == Phase.SHANGHAI):
            self._shanghai(rest if verb == "shanghai" else [])
        else:
            try:
                action = parse_action(f"{seat} {line}")
            except IllegalActionError:
                raise _Problem(f"I don't know {line!r}. Type 'help' for the commands, 'moves' for the "
                               f"legal moves.") from None
            self.apply(action)

    # -- commands ---------------------------------------------------------------------------------
    def _sort(self, words: list[str]) -> None:
        if words and words[0] in ("rank", "ranks", "r", "number"):
            self.sort_by = "rank"
        elif words and words[0] in ("suit", "suits", "s", "colour", "color"):
            self.sort_by = "suit"
        elif words:
            raise _Problem("sort by 'suit' or by 'rank'")
        else:
            self.sort_by = "rank" if self.sort_by == "suit" else "suit"
        self.out(f"Your hand: {self._hand_line(self.view())}")

    def _cut(self, words: list[str]) -> None:
        needed = self.game.rules.hand_size * self.game.players + 1
        if not words:
            target = needed
        elif words[0].isdigit():
            target = int(words[0])
        else:
            raise _Problem(f"cut how many cards? e.g. 'cut {needed}'")
        self.apply(Cut(self.human, target))

    def _sorted_hand(self, v: PlayerView | None = None) -> list[Card]:
        hand = (v or self.view()).hand
        return sorted(hand, key=rank_sort_key if self.sort_by == "rank" else sort_key)

    def _card(self, token: str) -> Card:
        """A card from its text, or from its number in the hand as shown."""
        t = token.strip().strip(",").lstrip("#")
        if t.isdigit():
            hand = self._sorted_hand()
            n = int(t)
            if not 1 <= n <= len(hand):
                raise _Problem(f"there is no card number {n} in your hand (1-{len(hand)})")
            return hand[n - 1]
        try:
            return parse_card(t)
        except ShanghaiError as exc:
            raise _Problem(str(exc)) from None

    @staticmethod
    def _meld_id(token: str) -> int | None:
        m = re.fullmatch(r"m(?:eld)?#?(\d+)", token.lower())
        return int(m.group(1)) if m else None

    def _split_args(self, words: list[str]) -> tuple[list[str], int | None, End | None, list[str]]:
        """Card tokens, a meld id (m3), an end (low/high) and any other words."""
        cards: list[str] = []
        meld: int | None = None
        end: End | None = None
        other: list[str] = []
        for w in words:
            lw = w.lower()
            mid = self._meld_id(lw)
            if mid is not None:
                meld = mid
            elif lw in _ENDS and not (lw in ("end",) and end is not None):
                end = _ENDS[lw]
            elif lw in _FILLER:
                continue
            elif lw == "shanghai":
                other.append(lw)
            else:
                cards.append(w)
        return cards, meld, end, other

    def _choose(self, question: str, options: Sequence[Action], describe: Callable[[Action], str],
                default: int = 0) -> Action:
        """Ask which of several actions is meant."""
        self.out(question)
        for i, a in enumerate(options, 1):
            self.out(f"  {i}) {describe(a)}")
        while True:
            answer = self.ask(f"Which? [1-{len(options)}, Enter = {default + 1}, 'no' to cancel] ")
            if not answer:
                return options[default]
            if answer.lower() in _NO or answer.lower() in ("cancel", "c", "none", "back"):
                raise _Problem("Cancelled.")
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1]
            words = answer.lower().split()
            matches = [a for a in options if all(w in describe(a).lower() for w in words)]
            if len(matches) == 1:
                return matches[0]
            self.out(f"Answer with a number from 1 to {len(options)}.")

    def _meld_words(self, meld_id: int) -> str:
        game = self.game
        if not 0 <= meld_id < len(game.table):
            return f"m{meld_id}"
        tm = game.table[meld_id]
        return f"m{meld_id} ({self._possessive(tm.owner)} {tm.meld.kind} {tm.meld.text()})"

    def _describe_spot(self, a: Action) -> str:
        if isinstance(a, LayOff | CallShanghai):
            where = self._meld_words(a.meld)
            return f"{where}, {a.end} end" if a.end else where
        if isinstance(a, ReplaceWild):
            return self._meld_words(a.meld)
        return action_text(a)

    def _reason(self, action: Action) -> str:
        """The engine's reason for refusing an action, found on a copy of the game."""
        try:
            self.game.copy().apply(action)
        except IllegalActionError as exc:
            return str(exc)
        return "it is allowed"

    def _layoff(self, words: list[str]) -> None:
        seat, game = self.human, self.game
        tokens, meld, end, _ = self._split_args(words)
        if len(tokens) != 1:
            raise _Problem("lay off which card where? e.g. 'layoff 9D m3 high'")
        card = self._card(tokens[0])
        if meld is not None and 0 <= meld < len(game.table) and game.table[meld].meld.kind == "set":
            end = None  # a set has no ends: forgive the word
        legal = [a for a in self.view().legal if isinstance(a, LayOff) and a.card == card
                 and (meld is None or a.meld == meld) and (end is None or a.end == end)]
        if len(legal) == 1:
            self.apply(legal[0])
            return
        if len(legal) > 1:
            where = "both ends of the run" if len({a.meld for a in legal}) == 1 else "several melds"
            chosen = self._choose(f"{card_text(card)} fits {where}:", legal, self._describe_spot)
            self.apply(chosen)
            return
        if meld is not None and (end is not None or not (0 <= meld < len(game.table))
                                 or game.table[meld].meld.kind == "set"):
            self.apply(LayOff(seat, card, meld, end))  # the engine refuses it and says why
            return
        raise IllegalActionError(self._layoff_reason(card, meld))

    def _layoff_reason(self, card: Card, meld: int | None) -> str:
        """Why ``card`` cannot be laid off (on ``meld``, or anywhere): the engine's words."""
        seat, game = self.human, self.game
        melds = [meld] if meld is not None else list(range(len(game.table))) or [0]
        reasons: list[str] = []
        for m in melds:
            ends: tuple[End | None, ...] = (None,)
            if 0 <= m < len(game.table) and game.table[m].meld.kind == "run":
                ends = ("low", "high")
            for end in ends:
                reasons.append(self._reason(LayOff(seat, card, m, end)))
        not_fit = f"{card_text(card)} does not go on m"
        other = [r for r in reasons if not r.startswith(not_fit)]
        if other:
            return other[0]
        if meld is None:
            return f"{card_text(card)} goes on no meld on the table"
        if len(reasons) > 1:  # a run's two ends: say once what would go there
            run = game.table[meld].meld
            takes = sorted((c for c in lay_off_options(run, game.rules) if not game.rules.is_wild(c)), key=sort_key)
            fits = f"only {' or '.join(card_text(c) for c in takes)} (or a wild)" if takes else "nothing"
            return f"{card_text(card)} does not go on m{meld} ({run.text()}): {fits} goes on it"
        return reasons[0]

    def _replace(self, words: list[str]) -> None:
        seat, game = self.human, self.game
        tokens, meld, _, _ = self._split_args(words)
        if len(tokens) != 1:
            raise _Problem("replace a wild with which card, on which meld? e.g. 'replace 8D m2'")
        card = self._card(tokens[0])
        legal = [a for a in self.view().legal if isinstance(a, ReplaceWild) and a.card == card
                 and (meld is None or a.meld == meld)]
        if len(legal) == 1:
            self.apply(legal[0])
        elif legal:
            self.apply(self._choose(f"{card_text(card)} can replace a wild on several melds:", legal,
                                    self._describe_spot))
        elif meld is not None:
            self.apply(ReplaceWild(seat, card, meld))
        else:
            reasons = [self._reason(ReplaceWild(seat, card, m)) for m in range(len(game.table))] \
                or [self._reason(ReplaceWild(seat, card, 0))]
            other = [r for r in reasons if not r.startswith(("no wild in", "wilds in a set cannot"))]
            raise IllegalActionError(other[0] if other else
                                     f"no wild on the table that may be replaced stands for {card_text(card)}")

    def _discard(self, words: list[str]) -> None:
        tokens, _, _, other = self._split_args(words)
        if len(tokens) != 1:
            raise _Problem("discard which card? e.g. 'discard KH', or 'discard 3' for the third card")
        self.apply(Discard(self.human, self._card(tokens[0]), shanghai=bool(other)))

    def _shanghai(self, words: list[str]) -> None:
        seat = self.human
        _, meld, end, _ = self._split_args(words)
        legal = [a for a in self.view().legal if isinstance(a, CallShanghai)
                 and (meld is None or a.meld == meld) and (end is None or a.end == end)]
        if len(legal) == 1:
            self.apply(legal[0])
        elif legal:
            self.apply(self._choose("The discard fits several places:", legal, self._describe_spot))
        else:
            self.apply(CallShanghai(seat, meld if meld is not None else 0, end))

    def _down(self, text: str) -> None:
        seat, game = self.human, self.game
        if not text.strip():
            suggested = next((a for a in self.view().legal if isinstance(a, GoDown)), None)
            if suggested is None:
                if game.phase == Phase.PLAY and game.turn == seat and not game.down[seat] \
                        and game.pending_wild is None:
                    raise IllegalActionError(game.no_go_down_reason(seat))
                raise IllegalActionError(self._reason(GoDown(seat, ())))
            self.out("Suggested: " + self._describe_go_down(suggested.melds))
            answer = self.ask("Go down with these melds? [Y/n] ")
            if answer.lower() in _NO:
                self.out("Not going down. Type 'down set ... | run ...' for melds of your own.")
                return
            if answer and answer.lower() not in _YES:
                self._command(answer)
                return
            self.apply(suggested)
            return
        if game.phase != Phase.PLAY or game.turn != seat or game.down[seat]:
            raise IllegalActionError(self._reason(GoDown(seat, ())))
        specs = self._parse_melds(text)
        self.apply(GoDown(seat, specs))

    def _describe_go_down(self, specs: Sequence[MeldSpec]) -> str:
        rules = self.game.rules
        hand = Counter(self.game.hands[self.human])
        parts = []
        for spec in specs:
            hand.subtract(spec.cards)
            meanings = ""
            try:
                wild = make_meld(spec.cards, rules, spec.kind).wild_meanings(rules)
                meanings = f" ({', '.join(wild)})" if wild else ""
            except ShanghaiError:
                pass
            parts.append(f"{spec}{meanings}")
        left = sorted(hand.elements(), key=sort_key)
        points = sum(rules.points(c) for c in left)
        tail = f" — leaves {_cards(left)} ({_plural(points, 'point')})" if left else " — and you are out!"
        return " | ".join(parts) + tail

    def _parse_melds(self, text: str) -> tuple[MeldSpec, ...]:
        rules = self.game.rules
        parsed: list[tuple[MeldKind | None, list[Card]]] = []
        for part in re.split(r"[|;/]", text):
            words = part.replace(",", " ").split()
            if not words:
                raise _Problem("an empty meld: separate melds with '|', e.g. "
                               "'down set 7H 7S JK | run 5D 6D 7D 8D'")
            kind: MeldKind | None = None
            if words[0].lower() in ("set", "run", "sets", "runs"):
                kind = "set" if words[0].lower().startswith("set") else "run"
                words = words[1:]
            parsed.append((kind, [self._card(w) for w in words]))
        # the cards first, then where a run's wilds go (no question about cards one does not hold)
        missing = Counter(c for _, cards in parsed for c in cards) - Counter(self.game.hands[self.human])
        if missing:
            held = "are" if missing.total() > 1 else "is"
            raise _Problem(f"{_cards(sorted(missing.elements(), key=sort_key))} {held} not in your hand")
        specs: list[MeldSpec] = []
        for kind, cards in parsed:
            if kind is None:
                naturals = {c & 15 for c in cards if not rules.is_wild(c)}
                kind = "set" if len(naturals) <= 1 else "run"
            if kind == "run":
                cards = self._place_run(cards)
            specs.append(MeldSpec(kind, tuple(cards)))
        return tuple(specs)

    def _place_run(self, cards: list[Card]) -> list[Card]:
        """Runs may be typed in any order; ask where the wilds go when that is ambiguous."""
        rules = self.game.rules
        options = run_arrangements(cards, rules)
        if not options:
            return cards  # the engine will say what is wrong with it
        if len(options) == 1:
            return list(options[0].cards)
        typed = (tuple(cards), tuple(reversed(cards)))
        default = next((i for i, m in enumerate(options) if m.cards in typed), 0)
        self.out(f"The run {_cards(cards)} can be laid more than one way:")
        for i, m in enumerate(options, 1):
            self.out(f"  {i}) {m.text()}  ({', '.join(m.wild_meanings(rules)) or 'no wild'})")
        while True:
            answer = self.ask(f"Which? [1-{len(options)}, Enter = {default + 1}, 'no' to cancel] ")
            if not answer:
                return list(options[default].cards)
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return list(options[int(answer) - 1].cards)
            if answer.lower() in _NO or answer.lower() == "cancel":
                raise _Problem("Cancelled.")
            self.out(f"Answer with a number from 1 to {len(options)}.")

    # -- what is shown ----------------------------------------------------------------------------
    def _possessive(self, seat: int) -> str:
        return "your" if seat == self.human else f"{self.names[seat]}'s"

    def _who(self, seat: int) -> str:
        return "You" if seat == self.human else self.names[seat]

    def _does(self, seat: int, verb: str, verb_s: str | None = None) -> str:
        """'You draw' / 'Bob draws'."""
        if seat == self.human:
            return f"You {verb}"
        return f"{self.names[seat]} {verb_s or verb + 's'}"

    def _round_title(self) -> str:
        game = self.game
        spec = game.round_spec
        n = min(game.round_number, len(game.rules.rounds))
        shout = spec.name.replace(" (", ", ").removesuffix(")") if spec.name else game.contract.shout()
        return f"Round {n}/{len(game.rules.rounds)} — {game.contract.text()} ({shout})"

    def _stars(self, seat: int) -> int:
        return sum(1 for r in self.game.round_results if r.went_out == seat)

    def _hand_line(self, v: PlayerView) -> str:
        return _cards(self._sorted_hand(v))

    def screen(self, v: PlayerView, *, compact: bool = False) -> str:
        """The whole situation as the human sees it; ``compact`` leaves out the players' table (used
        between the human's own moves of one turn)."""
        rules = self.game.rules
        lines = [BAR, self._round_title(),
                 f"Rules: {rules.name} · dealer: {self.names[v.dealer]} · "
                 + ("your turn" if v.turn == self.human else f"{self.names[v.turn]}'s turn"), RULE]
        if compact:
            lines = [RULE]
        else:
            lines.extend(self._players_table(v))
        lines.extend(self._table_lines(v))
        return "\n".join(lines)

    def _players_table(self, v: PlayerView) -> list[str]:
        lines: list[str] = []
        labels = [self.names[s] + (" (you)" if s == self.human else "") + (" (dealer)" if s == v.dealer else "")
                  for s in range(v.players)]
        width = max(6, *(len(x) for x in labels))
        lines.append(f"  {'Player':<{width}}  cards  buys used/left  down   total  ★")
        for s in range(v.players):
            mark = ">" if s == v.turn else " "
            buys = f"{v.buys_used[s]}/{max(v.buy_limit - v.buys_used[s], 0)}"
            stars = "★" * self._stars(s)
            lines.append(f"{mark} {labels[s]:<{width}}  {v.hand_counts[s]:>5}  {buys:>14}  "
                         f"{'down' if v.down[s] else '  - ':<5}{v.totals[s]:>7}  {stars}".rstrip())
        lines.append(RULE)
        return lines

    def _table_lines(self, v: PlayerView) -> list[str]:
        rules = self.game.rules
        lines: list[str] = []
        name_width = max(3, *(len(x) for x in self.names))
        if v.table:
            lines.append("Table:")
            for owner in range(v.players):
                melds = [m for m in v.table if m.owner == owner]
                for i, m in enumerate(melds):
                    who = (self.names[owner] if owner != self.human else "You") if i == 0 else ""
                    wilds = f"   {', '.join(m.wilds)}" if m.wilds else ""
                    lines.append(f"  {who:<{name_width}} m{m.id:<3} {m.kind}  {m.text()}{wilds}")
        else:
            lines.append("Table: no melds yet")
        if v.discard_top is None:
            pile = "empty"
        elif v.discard_live:
            pile = f"{card_text(v.discard_top)} (live: it can be taken"
            pile += " or bought)" if v.buy_limit else ")"
        else:
            pile = f"{card_text(v.discard_top)} (dead: not in play)"
        lines.append(f"Stock: {_plural(v.stock_size, 'card')}   Discard pile: {pile}")
        if v.buy_claimant is not None and v.turn == self.human:
            lines.append(f"{self.names[v.buy_claimant]} wants to buy it: 'take' it yourself, or 'draw' "
                         f"and {self.names[v.buy_claimant]} gets it (+{_plural(rules.buy_penalty, 'card')})")
        lines.append(RULE)
        hand = self._sorted_hand(v)
        lines.append(f"Your hand ({_plural(len(hand), 'card')}, by {self.sort_by}):")
        items = [f"{i:>2}:{card_text(c):<3}" for i, c in enumerate(hand, 1)]
        for k in range(0, len(items), 10):
            lines.append("  " + "  ".join(items[k:k + 10]).rstrip())
        if v.pending_wild is not None:
            lines.append(f"The freed {card_text(v.pending_wild)} must be played on a meld this turn, before you "
                         f"discard or go out (cards of your hand may go first: a bridge).")
        if v.turn == self.human:
            lines.append(RULE)
            lines.extend(self._moves_summary(v))
        return lines

    def _moves_summary(self, v: PlayerView) -> list[str]:
        legal = v.legal
        game = self.game
        out: list[str] = []
        if not legal:
            return ["No move for you now."]
        draws = [a for a in legal if isinstance(a, DrawStock | TakeDiscard)]
        if draws:
            words = []
            if any(isinstance(a, TakeDiscard) for a in draws) and v.discard_top is not None:
                words.append(f"'take' {card_text(v.discard_top)}")
            if any(isinstance(a, DrawStock) for a in draws):
                words.append("'draw' from the stock")
            out.append("You may " + " or ".join(words) + ".")
        if any(isinstance(a, Cut) for a in legal):
            out.append(f"Cut: 'cut N' (1-{game.pack_size - 1}).")
        if any(isinstance(a, GoDown) for a in legal):
            out.append(f"You can go down ({game.contract.text()}): 'down' shows the suggested melds.")
        layoffs = [action_text(a) for a in legal if isinstance(a, LayOff)]
        if layoffs:
            shown = ", ".join(layoffs[:8]) + (f" … and {len(layoffs) - 8} more ('moves')" if len(layoffs) > 8
                                              else "")
            out.append(f"Lay off: {shown}")
        replaces = [action_text(a) for a in legal if isinstance(a, ReplaceWild)]
        if replaces:
            out.append("Replace a wild: " + ", ".join(replaces))
        discards = sorted({a.card for a in legal if isinstance(a, Discard)}, key=sort_key)
        if discards:
            if len(discards) == len(set(v.hand)):
                out.append("Discard to end your turn: 'discard KH' or 'discard 3' (the card's number).")
            else:
                out.append("Discard: " + _cards(discards))
            if any(isinstance(a, Discard) and a.shanghai for a in legal):
                out.append("  (add 'shanghai' to protect a discard that fits the table)")
        elif v.phase == Phase.PLAY and v.pending_wild is None and v.down[self.human] \
                and game.rules.going_out == "play-all":
            out.append("Your last card may not be discarded: play it onto the table to go out.")
        calls = [action_text(a) for a in legal if isinstance(a, CallShanghai)]
        if calls:
            out.append("Call “Shanghai”: " + ", ".join(calls) + " — or 'pass'.")
        if any(isinstance(a, Buy) for a in legal):
            out.append("'buy' or 'pass'.")
        return out

    def _all_moves(self) -> str:
        legal = self.view().legal
        if not legal:
            return "You have no move now: other players are to act."
        if all(isinstance(a, Cut) for a in legal):
            return f"cut N, for N from 1 to {len(legal)}"
        return "Legal moves:\n" + "\n".join(f"  {action_text(a)}" for a in legal)

    def _hint(self) -> str:
        v = self.view()
        lines = self._moves_summary(v) if v.legal else ["You have no move now: other players are to act."]
        down = next((a for a in v.legal if isinstance(a, GoDown)), None)
        if down is not None:
            lines.append("Suggested go-down: " + self._describe_go_down(down.melds))
        return "\n".join(lines)

    # -- narration --------------------------------------------------------------------------------
    def _before(self) -> _Before:
        g = self.game
        sw = g.shanghai_window
        return _Before(
            results=len(g.round_results), phase=g.phase, turn=g.turn, hand=tuple(g.hands[self.human]),
            counts=tuple(len(h) for h in g.hands), buys_used=tuple(g.buys_used), discard_top=g.discard_top,
            stock_renewals=g.stock_renewals, table=tuple(g.table),
            shanghai_card=sw.card if sw is not None else None, discarder=g.discarder)

    def _new_cards(self, before: _Before) -> list[Card]:
        added = Counter(self.game.hands[self.human])
        added.subtract(before.hand)
        return sorted(added.elements(), key=sort_key)

    def _lost_cards(self, before: _Before) -> list[Card]:
        lost = Counter(before.hand)
        lost.subtract(self.game.hands[self.human])
        return sorted(lost.elements(), key=sort_key)

    def _narrate(self, a: Action, b: _Before) -> None:
        game = self.game
        rules = game.rules
        new_round = len(game.round_results) > b.results
        lines: list[str] = []
        seat = a.seat
        if isinstance(a, Cut) and game.cut is not None:
            cut = game.cut
            dealer = "your" if game.dealer == self.human else f"{self.names[game.dealer]}'s"
            if cut.made:
                lines.append(f"{self._does(seat, 'cut')} {cut.actual} cards for {dealer} deal: THE CUT! "
                             f"Everyone else gets {rules.cut_bonus} points this round.")
            else:
                lines.append(f"{self._does(seat, 'cut')} for {dealer} deal, aiming at {cut.target}: the cut "
                             f"holds {cut.actual} cards ({cut.needed} would have been THE CUT).")
            if game.discard_top is not None:
                lines.append(f"Cards are dealt. The flip card is {card_text(game.discard_top)}.")
        if isinstance(a, Buy) and b.phase == Phase.BUY and game.rules.buy_flow == "ask-turn-player":
            card = card_text(b.discard_top) if b.discard_top is not None else "the discard"
            lines.append(f"{self._does(seat, 'ask')} to buy {card}.")
        for s in range(game.players):
            if not new_round and game.buys_used[s] > b.buys_used[s]:
                card = card_text(b.discard_top) if b.discard_top is not None else "the discard"
                penalty = _plural(rules.buy_penalty, "penalty card")
                if s == self.human:
                    extra = [c for c in self._new_cards(b)]
                    if b.discard_top in extra:
                        extra.remove(b.discard_top)
                    got = f": {_cards(extra)}" if extra else ""
                    lines.append(f"You buy {card} (+{penalty}{got}).")
                else:
                    lines.append(f"{self.names[s]} buys {card} (+{penalty}).")
        if not new_round and game.stock_renewals > b.stock_renewals:
            lines.append("The stock ran out: the discard pile, but its top card, is shuffled into a new stock.")
        drew = (not new_round and b.phase in (Phase.DRAW, Phase.BUY) and game.phase == Phase.PLAY
                and game.turn == b.turn)
        if drew:
            if isinstance(a, TakeDiscard):
                card = card_text(b.discard_top) if b.discard_top is not None else "the discard"
                lines.append(f"{self._does(b.turn, 'take')} {card} from the discard pile.")
            elif b.turn == self.human:
                new = self._new_cards(b)
                lines.append(f"You draw {_cards(new) or 'a card'} from the stock.")
            else:
                lines.append(f"{self.names[b.turn]} draws from the stock.")
        if isinstance(a, GoDown):
            laid = [tm for tm in game.table[len(b.table):]] if not new_round else []
            if laid:
                text = " | ".join(f"m{tm.id} {tm.meld.kind} {tm.meld.text()}"
                                  + (f" ({', '.join(tm.meld.wild_meanings(rules))})"
                                     if tm.meld.wild_meanings(rules) else "") for tm in laid)
            else:
                text = " | ".join(str(m) for m in a.melds)
            lines.append(f"{self._does(seat, 'go', 'goes')} down: {text}")
        elif isinstance(a, LayOff):
            where = f"m{a.meld}" + (f" ({a.end} end)" if a.end else "")
            result = ""
            if not new_round and 0 <= a.meld < len(game.table):
                result = f" → {game.table[a.meld].meld.text()}"
            lines.append(f"{self._does(seat, 'lay', 'lays')} off {card_text(a.card)} on {where}{result}")
        elif isinstance(a, ReplaceWild):
            freed = ""
            if 0 <= a.meld < len(b.table) and not new_round:
                old_cards, new_cards = b.table[a.meld].meld.cards, game.table[a.meld].meld.cards
                changed = [o for o, n in zip(old_cards, new_cards, strict=False) if o != n]
                freed = card_text(changed[0]) if changed else "a wild"
            if game.pending_wild is None:
                tail = f"the wild goes into {'your' if seat == self.human else 'their'} hand"
            else:
                tail = "the freed wild must be played on a meld this turn"
            lines.append(f"{self._does(seat, 'put')} {card_text(a.card)} into m{a.meld} in place of "
                         f"{freed or 'a wild'}: {tail}.")
        elif isinstance(a, Discard):
            protect = " and calls “Shanghai” to protect it" if a.shanghai and seat != self.human else (
                " and call “Shanghai” to protect it" if a.shanghai else "")
            lines.append(f"{self._does(seat, 'discard')} {card_text(a.card)}{protect}.")
        if b.shanghai_card is not None and game.shanghai_window is None and not new_round:
            lines.extend(self._shanghai_outcome(b))
        if new_round:
            ended = game.round_results[-1]
            if ended.went_out is not None:
                lines.append(f"{self._does(ended.went_out, 'go', 'goes')} out!")
            self.out("\n".join(lines))
            self._round_over(ended)
            return
        if lines:
            self.out("\n".join(lines))

    def _shanghai_outcome(self, b: _Before) -> list[str]:
        game = self.game
        changed = [tm for tm, old in zip(game.table, b.table, strict=False) if tm.meld != old.meld]
        if not changed:
            return []
        tm = changed[0]
        card = card_text(b.shanghai_card) if b.shanghai_card is not None else "the discard"
        counts = [len(h) for h in game.hands]
        caller = next((s for s in range(game.players) if counts[s] < b.counts[s]), None)
        discarder = b.discarder
        if caller is None or discarder is None:
            return [f"“Shanghai!” {card} goes on m{tm.id}."]
        lines = [f"{self._does(caller, 'call')} “Shanghai!”: {card} goes on m{tm.id} → {tm.meld.text()}, "
                 f"and {'you give' if caller == self.human else self.names[caller] + ' gives'} "
                 f"{'you' if discarder == self.human else self.names[discarder]} a card from "
                 f"{'your' if caller == self.human else 'their'} hand."]
        if discarder == self.human:
            lines.append(f"You receive {_cards(self._new_cards(b))}.")
        elif caller == self.human:
            lines.append(f"You give away {_cards(self._lost_cards(b))}.")
        return lines

    def _round_over(self, r: RoundResult) -> None:
        game = self.game
        n = game.players
        width = max(len(x) for x in self.names) + 2
        if r.went_out is None:
            how = "nobody went out: the stock is exhausted."
        else:
            how = ("you" if r.went_out == self.human else self.names[r.went_out]) + " went out" + (
                f" — {r.slam.upper()}! (down and out in one turn)" if r.slam else ".")
        lines = [BAR, f"Round {r.number} is over ({r.contract}): {how}"]
        for s in range(n):
            held = r.hands[s]
            star = " ★" if s == r.went_out else "  "
            what = "went out" if s == r.went_out else (f"held {_cards(sorted(held, key=sort_key))}" if held
                                                        else "held nothing")
            cut = ""
            if r.cut is not None and r.cut.made and s != r.cut.cutter:
                cut = f" (incl. {game.rules.cut_bonus} for THE CUT)"
            lines.append(f"  {self.names[s]:<{width}}{r.points[s]:>5}{star} {what}{cut}")
        if r.cut is not None:
            if r.cut.made:
                lines.append(f"THE CUT was made by {self.names[r.cut.cutter]} ({r.cut.actual} cards).")
            else:
                lines.append(f"The cut held {r.cut.actual} cards (THE CUT needs {r.cut.needed}).")
        if r.joker_free and game.rules.slam_records:
            lines.append("JOKER FREE: " + ", ".join(self.names[s] for s in r.joker_free)
                         + " went down without a joker.")
        if r.blind_bonus and r.went_out is not None:
            lines.append(f"{self.names[r.went_out]} went out blind: {r.blind_bonus} points off.")
        if not game.is_over:
            lines.append(self._score_pad())
        self.out("\n".join(lines))
        if not game.is_over:
            if self.pause_between_rounds:
                self.ask(f"Press Enter for round {game.round_number} (or 'quit' to stop here) ")
            self._round_start()

    def _score_pad(self) -> str:
        game = self.game
        results = game.round_results
        width = max(9, *(len(x) for x in self.names)) + 2
        head = f"  {'Score pad':<{width}}" + "".join(f"{'R' + str(r.number):>6}" for r in results) + "   Total"
        rows = [head]
        for s in range(game.players):
            cells = "".join(f"{str(r.points[s]) + ('★' if r.went_out == s else ' '):>6}" for r in results)
            rows.append(f"  {self.names[s]:<{width}}{cells}{game.totals[s]:>8}")
        return "\n".join(rows)

    def _round_start(self) -> None:
        game = self.game
        lines = [BAR, self._round_title(), f"{self._does(game.dealer, 'deal')}."]
        if game.phase != Phase.CUT and game.discard_top is not None:
            lines.append(f"The flip card is {card_text(game.discard_top)}.")
        self.out("\n".join(lines))

    def _welcome(self, resumed: bool) -> None:
        game, rules = self.game, self.game.rules
        others = ", ".join(self.names[s] for s in range(game.players) if s != self.human)
        lines = [f"Shanghai — {rules.title} ({rules.name}"
                 + (f", {', '.join(rules.options)}" if rules.options else "") + ")",
                 ("You" if self.names[self.human] == "You" else f"You ({self.names[self.human]})")
                 + f" against {others}. Seed {game.seed}."]
        if self.record is not None:
            lines.append(f"The game is saved after every move in {self.record.path}.")
        lines.append("Type 'help' for the commands.")
        if resumed:
            lines.append(f"Resuming after {_plural(len(game.actions), 'action')}: round {game.round_number}.")
            self.out("\n".join(lines))
            if game.round_results:
                self.out(self._score_pad())
            return
        if game.first_dealer_cuts:
            rounds = []
            for cuts in game.first_dealer_cuts:
                rounds.append(", ".join(f"{self.names[s]} {card_text(c)}" for s, c in cuts))
            lines.append("Cutting for the first deal: " + " / again: ".join(rounds)
                         + f" → {self._does(game.first_dealer, 'deal')} first.")
        self.out("\n".join(lines))
        self._round_start()

    def _game_over(self) -> None:
        game = self.game
        lines = [BAR, "The game is over.", self._score_pad()]
        winners = game.winners()
        names = " and ".join("you" if s == self.human else self.names[s] for s in winners)
        lines.append(f"♛ THE CROWN goes to {names} with {game.totals[winners[0]]} points"
                     + (" — congratulations!" if self.human in winners else "."))
        dunce = game.dunce()
        if dunce:
            names = " and ".join("you" if s == self.human else self.names[s] for s in dunce)
            lines.append(f"THE DUNCE CAP goes to {names} ({game.totals[dunce[0]]} points).")
        for s in range(game.players):
            stars = self._stars(s)
            if stars:
                lines.append(f"  {self.names[s]}: {'★' * stars} ({_plural(stars, 'round')} won)")
        if self.record is not None:
            lines.append(f"The record of the game is in {self.record.path}.")
            path = self.record.path
            plain = people_seats(path, game.players) in (None, [self.human])  # --review finds the seat
            review = review_command(path, None if plain else self.names[self.human])
            lines.append(f"Your play reviewed by the coach: {review}")
        if self.history is not None:
            lines += keep_played(self.history, game, pad_names(self.names, self.levels), [self.human],
                                 note=f"terminal game (plain), seed {game.seed}")
            self.history = None  # kept once
        self.out("\n".join(lines))


# -- the command line -----------------------------------------------------------------------------
def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``shanghai play``."""
    parser.add_argument("--rules", default="isra", metavar="PRESET",
                        help=f"the rule set: {', '.join([*PRESETS, *OTHER_GAMES])} (default: isra)")
    parser.add_argument("--players", type=int, default=4, metavar="N",
                        help="players at the table, you included; the others are computer players "
                             "(default: 4)")
    parser.add_argument("--name", default="You", metavar="NAME", help="your name (default: You)")
    parser.add_argument("--opponents", default="greedy", choices=opponent_kinds(),
                        help="the computer players' level (default: greedy; the full-screen game "
                             "lets each opponent's level be chosen on its start screen)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="seed of the shuffles, to play a game again (default: random)")
    parser.add_argument("--option", action="append", default=[], metavar="OPT",
                        help="a rule option (may-i, may-i-10: no-split, aces-high, shanghai-call; manipulation: "
                             "target=N, the target score; meld-two, at least two cards whenever two can "
                             "be placed); repeatable")
    parser.add_argument("--record", type=Path, default=None, metavar="FILE",
                        help=f"where the game record is saved after every move "
                             f"(default: {default_record_path()})")
    parser.add_argument("--resume", action="store_true",
                        help="continue the game saved in the record file")
    parser.add_argument("--plain", action="store_true",
                        help="the plain-text game (read and write lines) instead of the full-screen one; "
                             "used anyway when the input or output is not a terminal")
    parser.add_argument("--pause", type=float, default=0.6, metavar="SECONDS",
                        help="full-screen game: pause after each computer player's move (default: 0.6)")
    parser.add_argument("--buy-timeout", type=float, default=10.0, metavar="SECONDS",
                        help="full-screen game: time to answer a buy offer before it passes; 0 waits "
                             "for the answer (default: 10)")
    parser.add_argument("--take-back", type=float, default=2.0, metavar="SECONDS",
                        help="full-screen game: after your discard the computer players wait this long, and "
                             "until one acts U takes the discard back; 0: the usual --pause (default: 2)")
    parser.add_argument("--no-history", action="store_true",
                        help="do not keep the finished game in the score pad's history (by default it is kept "
                             "there, with the games played with real cards: see shanghai scorepad stats)")


LEVELS = ("easy", "medium", "hard", "expert")


def opponent_kinds() -> tuple[str, ...]:
    """Every name ``--opponents`` accepts: the basic players, the levels and any registered player."""
    from shanghai.bots.registry import KNOWN_PLAYERS

    return tuple(dict.fromkeys(("greedy", "random", *LEVELS, *KNOWN_PLAYERS)))


def record_path(args: argparse.Namespace) -> Path:
    """Where the game record is kept: ``--record`` or the default path, ``~`` expanded."""
    path: Path = args.record if args.record is not None else default_record_path()
    return Path(os.path.expanduser(str(path)))


def _names(name: str, players: int) -> list[str]:
    name = name.strip() or "You"
    bots = [b for b in BOT_NAMES if b.lower() != name.lower()]
    return [name, *bots[:players - 1]] + [f"Player {i + 1}" for i in range(len(bots) + 1, players)]


def run_play(args: argparse.Namespace, *, input_fn: Callable[[str], str] = input,
             output_fn: Callable[[str], None] = print) -> int:
    """``shanghai play``: start a new game, or continue the saved one with ``--resume``."""
    path = record_path(args)

    def fail(message: str, status: int = 2) -> int:
        print(f"shanghai play: {message}", file=sys.stderr)
        return status

    if args.resume:
        if not path.exists():
            return fail(f"no saved game in {path} to resume; start one without --resume")
        try:
            record = GameRecord.load(path)
        except (ShanghaiError, OSError) as exc:  # not a record: bad input, as replay and coach say
            return fail(f"cannot resume the game in {path}: {exc}")
        try:
            game = record.replay()
        except ShanghaiError as exc:  # a record whose actions the rules refuse
            return fail(f"cannot resume the game in {path}: {exc}", 1)
        ignored = [f"--{k.replace('_', '-')}" for k, v in (("rules", args.rules), ("players", args.players),
                                                           ("seed", args.seed), ("option", args.option))
                   if v not in (None, [], _PLAY_DEFAULTS.get(k))]
        if ignored:
            output_fn(f"Resuming the saved game: its own rules, players and seed stand ({', '.join(ignored)} "
                      f"not used).")
        if record.cut_off is not None:
            output_fn(cut_off_note(path, record.cut_off))
        if isinstance(game, ManipulationGame):
            return _run_manipulation(game, record.players, path, args, input_fn, output_fn, resumed=True)
        if game.is_over:
            output_fn(f"The game in {path} is over.")
            TextGame(game, record.players, record=None, input_fn=input_fn, output_fn=output_fn)._game_over()
            output_fn("Start a new game without --resume.")
            return 0
        # the seats saved beside the record (the full-screen game may have had several people and
        # levels); here seat 0 is the person and any other person's seat is played by the computer
        kinds = load_seats(path, game.players, args.opponents)
        bots = make_bots(game, [None if s == 0 else (args.opponents if k == HUMAN else k)
                                for s, k in enumerate(kinds)])
        text_game = TextGame(game, record.players, record=path, input_fn=input_fn, output_fn=output_fn,
                             bots=bots, history=history_path(args),
                             levels={s: args.opponents if k == HUMAN else k for s, k in enumerate(kinds) if s != 0})
        return text_game.run(resumed=True)
    try:
        if args.rules.strip().lower() in OTHER_GAMES:
            mgame = new_manipulation_game(args.rules, split_options(args.option), args.players, args.seed)
            keep_unfinished(path, output_fn)
            names = _names(args.name, args.players)
            return _run_manipulation(mgame, names, path, args, input_fn, output_fn, resumed=False)
        game = new_game(args.rules, split_options(args.option), args.players, args.seed)
    except (ShanghaiError, NotImplementedError) as exc:
        return fail(str(exc))
    names = _names(args.name, args.players)
    keep_unfinished(path, output_fn)
    text_game = TextGame(game, names, record=path, input_fn=input_fn, output_fn=output_fn,
                         bots=_opponents(game, 0, args.opponents), history=history_path(args),
                         levels={s: args.opponents for s in range(1, game.players)})
    try:
        save_seats(path, [HUMAN] + [args.opponents] * (game.players - 1))
    except OSError:
        pass  # the record's own saving reports the problem
    return text_game.run()


def history_path(args: argparse.Namespace) -> Path | None:
    """The score pad database that keeps the finished game (``--no-history``: none)."""
    return None if getattr(args, "no_history", False) else default_db_path()


def keep_unfinished(path: Path, output_fn: Callable[[str], None]) -> None:
    """A new game replaces the record file; an unfinished game there (one action at least), or a file
    that cannot be read as a record, is kept aside first, in ``NAME.previous.jsonl``, or
    ``NAME.previous-2.jsonl`` and so on where that is taken: a game put aside is never overwritten. A
    finished game is replaced (its score is in the score pad's history)."""
    if not path.exists():
        return
    try:
        old = GameRecord.load(path)
        if old.end_totals is not None or not old.actions:
            return
        what = "The unfinished game"
    except (ShanghaiError, OSError, UnicodeDecodeError):
        what = "The file, which is not a game record that can be read,"
    aside = path.with_name(path.stem + ".previous" + path.suffix)
    n = 1
    while aside.exists() or seats_path(aside).exists():
        n += 1
        aside = path.with_name(f"{path.stem}.previous-{n}{path.suffix}")
    try:
        os.replace(path, aside)
        if seats_path(path).exists():
            os.replace(seats_path(path), seats_path(aside))
    except OSError:
        return  # the new game's own saving reports a folder that cannot be written
    output_fn(f"({what} in {path} is kept in {aside}.)")
