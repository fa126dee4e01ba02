"""The manipulation-rummy "Shanghai" of document 004: state machine, actions, views.

A turn is one of three actions (see ``docs/rules.md`` for the decisions):

* ``play``: the cards placed from hand and the whole table after the turn. Any rearrangement is
  accepted as long as every meld is legal at the end and the table holds exactly its old cards
  plus the cards placed (004: "A Shanghai occurs if a player can rearrange some or all of the
  melds on the table to allow them to play cards in their hand").
* ``draw``: only when no card of the hand can be placed; the same player goes on (plays the drawn
  card if it can be placed, or draws again).
* ``pass``: only when no card can be placed and the stock is empty; when every player has passed
  in a row the hand is blocked and ends with nobody out.

>>> from shanghai.rules import MANIPULATION
>>> game = ManipulationGame.new(MANIPULATION, players=4, seed=3)
>>> [len(h) for h in game.hands], len(game.stock), game.table
([10, 10, 10, 10], 64, ())
>>> action = next(game.legal_actions())
>>> game.apply(action)
>>> str(action).split()[1] in ("play", "draw")
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum

from shanghai.cards import Card, cards_text, make_pack, parse_card, sort_key
from shanghai.engine.actions import DrawStock, Pass
from shanghai.errors import IllegalActionError, InvalidMeldError
from shanghai.rules.manipulation import ManipulationRules
from shanghai.table_solver import (
    Meld,
    TablePlay,
    best_play,
    canonical_table,
    check_meld,
    parse_table,
    table_text,
)


class ManipulationPhase(Enum):
    PLAY = "play"
    GAME_OVER = "game-over"


@dataclass(frozen=True, slots=True)
class PlayToTable:
    """Place ``placed`` from hand, leaving the table as ``table`` (every meld legal).

    >>> from shanghai.cards import parse_cards
    >>> a = PlayToTable(2, tuple(parse_cards("7C")), parse_table("7S 7H 7D 7C | 4C 5C 6C"))
    >>> str(a)
    '2 play 7C : 4C 5C 6C | 7S 7H 7D 7C'
    >>> parse_manipulation_action(str(a)) == a
    True
    """

    seat: int
    placed: tuple[Card, ...]
    table: tuple[Meld, ...]

    def __str__(self) -> str:
        return f"{self.seat} play {cards_text(self.placed)} : {table_text(self.table)}"


ManipulationAction = PlayToTable | DrawStock | Pass


def _lay_off_alone(seat: int, table: tuple[Meld, ...], card: Card) -> PlayToTable | None:
    """The play adding ``card`` to the end of a run or to a set of three, when one takes it as it
    is (no rearranging: what a person would do first)."""
    r, su = card & 15, card >> 4
    for i, meld in enumerate(table):
        first, last = meld[0], meld[-1]
        grown: tuple[Card, ...]
        if first & 15 == last & 15:  # a set
            if len(meld) == 3 and r == first & 15 and all(c >> 4 != su for c in meld):
                grown = (*meld, card)
            else:
                continue
        elif first >> 4 == su and r == (first & 15) - 1:
            grown = (card, *meld)
        elif first >> 4 == su and r == (last & 15) + 1:
            grown = (*meld, card)
        else:
            continue
        return PlayToTable(seat, (card,), canonical_table((*table[:i], grown, *table[i + 1:])))
    return None


def make_play(seat: int, play: TablePlay) -> PlayToTable:
    """The action that makes the solver's ``play``."""
    return PlayToTable(seat, tuple(sorted(play.placed, key=sort_key)), canonical_table(play.table))


def parse_manipulation_action(text: str) -> ManipulationAction:
    """Read ``"<seat> play <cards> : <table>"``, ``"<seat> draw"`` or ``"<seat> pass"``.

    >>> parse_manipulation_action("1 draw")
    DrawStock(seat=1)
    >>> parse_manipulation_action("1 play : 7S 7H 7D")
    Traceback (most recent call last):
    ...
    shanghai.errors.IllegalActionError: cannot read action '1 play : 7S 7H 7D': a play places at least one card
    """
    words = text.split()
    if len(words) < 2 or not (words[0].isascii() and words[0].isdigit()):
        raise IllegalActionError(f"cannot read action {text!r}: expected '<seat> <verb> ...'")
    seat, verb = int(words[0]), words[1].lower()
    if verb == "draw" and len(words) == 2:
        return DrawStock(seat)
    if verb == "pass" and len(words) == 2:
        return Pass(seat)
    if verb == "play":
        rest = text.split(None, 2)[2] if len(words) > 2 else ""
        placed_text, sep, table = rest.partition(":")
        if not sep:
            raise IllegalActionError(
                f"cannot read action {text!r}: expected '<seat> play <cards> : <table>'")
        try:
            placed = tuple(parse_card(w) for w in placed_text.replace(",", " ").split())
            if not placed:
                raise IllegalActionError(f"cannot read action {text!r}: a play places at least one card")
            return PlayToTable(seat, placed, parse_table(table))
        except IllegalActionError:
            raise
        except ValueError as exc:
            raise IllegalActionError(f"cannot read action {text!r}: {exc}") from exc
    raise IllegalActionError(f"cannot read action {text!r}: the verbs are play, draw and pass")


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand (deal) scored: 004 "That player scores 0 points ... 1 point per card left in hand"."""

    number: int
    dealer: int
    went_out: int | None          # None: the hand was blocked (stock empty, nobody could meld)
    points: tuple[int, ...]
    cards_left: tuple[int, ...]


class ManipulationGame:
    """A whole game of manipulation rummy: hands until a player reaches the target score.

    The seeded ``random.Random`` is the only source of chance; the engine does no I/O."""

    def __init__(self, rules: ManipulationRules, players: int, seed: int) -> None:
        self.rules = rules
        self.pack = rules.pack_for(players)
        self.players = players
        self.seed = seed
        self.rng = random.Random(seed)
        self.phase = ManipulationPhase.PLAY
        self.hand_number = 1
        # 004: "The first dealer is chosen at random"; then "the deal passes to the left".
        self.dealer = self.rng.randrange(players)
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.table: tuple[Meld, ...] = ()
        self.stock: list[Card] = []
        self.turn = 0
        self.drawn: list[Card] = []       # cards the player in turn has drawn this turn
        self.passes = 0                   # passes in a row (the stock is empty)
        self.totals = [0] * players
        self.hand_results: list[HandResult] = []
        self.actions: list[ManipulationAction] = []
        self.hand_start = 0
        self._best: TablePlay | None = None
        self._deal()

    @classmethod
    def new(cls, rules: ManipulationRules, players: int, seed: int) -> ManipulationGame:
        """A new game, dealt."""
        return cls(rules, players, seed)

    # -- state ---------------------------------------------------------------------------------
    def _deal(self) -> None:
        pack = make_pack(self.pack.decks, 0)
        self.rng.shuffle(pack)
        self.hands = [[] for _ in range(self.players)]
        # 004: "dealt in batches or 3, 3, 3, and then 1 card", clockwise from the dealer's left.
        for batch in self.rules.deal_batches:
            for i in range(1, self.players + 1):
                seat = (self.dealer + i) % self.players
                for _ in range(batch):
                    self.hands[seat].append(pack.pop())
        self.stock = pack
        self.table = ()
        self.turn = (self.dealer + 1) % self.players
        self.drawn = []
        self.passes = 0
        self._best = None

    @property
    def is_over(self) -> bool:
        return self.phase == ManipulationPhase.GAME_OVER

    def refresh_derived(self) -> None:
        """Forget what is computed from the position; code that assigns the fields directly
        (tests setting up a position) calls this afterwards."""
        self._best = None

    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now: the player in turn, or nobody once the game is over."""
        return () if self.is_over else (self.turn,)

    def table_cards(self) -> list[Card]:
        return [c for meld in self.table for c in meld]

    def best(self) -> TablePlay:
        """The largest play of the player in turn (``placed`` empty when nothing can be placed)."""
        if self._best is None:
            found = best_play(self.table, self.hands[self.turn])
            if found is None:  # pragma: no cover - the table is always legal
                raise AssertionError("the table cannot be arranged")
            self._best = found
        return self._best

    def can_meld(self) -> bool:
        """Can the player in turn place at least one card?"""
        return bool(self.best().placed)

    def min_placed(self) -> int:
        """The fewest cards a play of the player in turn may place: 2 under ``meld-two`` whenever two
        can be placed (004 "If you have the ability to meld more than 1 card you are required to"),
        else 1."""
        return 2 if self.rules.must_meld == "two-cards" and len(self.best().placed) >= 2 else 1

    def winners(self) -> tuple[int, ...]:
        """Seats with the lowest total (ties share the win)."""
        low = min(self.totals)
        return tuple(s for s, t in enumerate(self.totals) if t == low)

    def losers(self) -> tuple[int, ...]:
        """Seats that reached the target score with the highest total (004: "reaches the target
        score and LOSES"); empty until the game is over."""
        if not self.is_over:
            return ()
        high = max(self.totals)
        return tuple(s for s, t in enumerate(self.totals) if t == high)

    # -- legal actions -------------------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> Iterator[ManipulationAction]:
        """The engine's offers, lazily: the largest play first, then each card that can be placed
        on its own (one arrangement each); ``draw`` or ``pass`` when no card can be placed.

        Plays are too many to list; ``apply`` accepts any other play that ends with a legal table."""
        if self.is_over or (seat is not None and seat != self.turn):
            return
        s = self.turn
        best = self.best()
        if not best.placed:
            yield DrawStock(s) if self.stock else Pass(s)
            return
        first = make_play(s, best)
        yield first
        if self.min_placed() > 1:
            return  # meld-two: no one-card play while two cards can be placed
        table_ranks = {c & 15 for c in self.table_cards()}
        table_suit_ranks = {(c >> 4, c & 15) for c in self.table_cards()}
        for card in sorted(set(self.hands[s]), key=sort_key):
            # A lone card needs its rank on the table or a neighbour of its suit there.
            r, su = card & 15, card >> 4
            if (r not in table_ranks and (su, r - 1) not in table_suit_ranks
                    and (su, r + 1) not in table_suit_ranks):
                continue
            action = _lay_off_alone(s, self.table, card)
            if action is None:
                alone = best_play(self.table, [card])
                if alone is None or not alone.placed:
                    continue
                action = make_play(s, alone)
            if action != first:
                yield action

    def legal_list(self, seat: int | None = None) -> list[ManipulationAction]:
        return list(self.legal_actions(seat))

    # -- applying ------------------------------------------------------------------------------
    def apply(self, action: ManipulationAction) -> None:
        """Check ``action`` against the rules, then make it; an illegal action raises
        ``IllegalActionError`` with the reason and changes nothing."""
        if self.is_over:
            raise IllegalActionError("the game is over")
        if not isinstance(action, PlayToTable | DrawStock | Pass):
            raise IllegalActionError(f"{type(action).__name__} is not an action of manipulation rummy "
                                     f"(play, draw, pass)")
        if action.seat != self.turn:
            raise IllegalActionError(f"it is seat {self.turn}'s turn, not seat {action.seat}'s")
        if isinstance(action, PlayToTable):
            new_table = self._check_play(action)
            if len(action.placed) < self.min_placed():
                raise IllegalActionError(
                    "you can place more than one card, so you must place at least two (004: \"If you have "
                    "the ability to meld more than 1 card you are required to ... at least more than one\")")
            hand = self.hands[self.turn]
            for c in action.placed:
                hand.remove(c)
            self.table = new_table
            # Kept in canonical form: the record's text then replays to the very same action.
            self.actions.append(PlayToTable(action.seat, tuple(sorted(action.placed, key=sort_key)),
                                            new_table))
            self.passes = 0
            if not hand:
                self._end_hand(self.turn)
            else:
                self._next_turn()
            return
        if self.can_meld():
            raise IllegalActionError(
                "a card can be placed, so you must meld (004: \"If you have the ability to meld ... you "
                "are required to\")")
        if isinstance(action, DrawStock):
            if not self.stock:
                raise IllegalActionError("the stock is empty: pass")
            card = self.stock.pop()
            self.hands[self.turn].append(card)
            self.drawn.append(card)
            self._best = None
            self.actions.append(action)
            return
        if self.stock:
            raise IllegalActionError("you cannot meld, so you must draw (004: \"Players that are unable "
                                     "to meld any cards must draw 1 card from the top of the stockpile\")")
        self.actions.append(action)
        self.passes += 1
        if self.passes >= self.players:
            self._end_hand(None)
        else:
            self._next_turn()

    def _check_play(self, action: PlayToTable) -> tuple[Meld, ...]:
        if not action.placed:
            raise IllegalActionError("a play places at least one card from hand")
        hand = Counter(self.hands[self.turn])
        placed = Counter(action.placed)
        for card, n in placed.items():
            if hand[card] < n:
                raise IllegalActionError(f"{cards_text([card])} is not in your hand"
                                         + (f" {n} times" if n > 1 else ""))
        for meld in action.table:
            try:
                check_meld(meld)
            except InvalidMeldError as exc:
                raise IllegalActionError(f"the table would hold an illegal meld: {exc}") from exc
        after = Counter(c for meld in action.table for c in meld)
        expected = Counter(self.table_cards()) + placed
        if after != expected:
            missing = expected - after
            extra = after - expected
            parts = []
            if missing:
                parts.append(f"missing {cards_text(sorted(missing.elements(), key=sort_key))}")
            if extra:
                parts.append(f"cards from nowhere {cards_text(sorted(extra.elements(), key=sort_key))}")
            raise IllegalActionError("the new table must hold exactly the old table's cards and the "
                                     "cards placed: " + "; ".join(parts))
        return canonical_table(action.table)

    def _next_turn(self) -> None:
        self.turn = (self.turn + 1) % self.players
        self.drawn = []
        self._best = None

    def _end_hand(self, went_out: int | None) -> None:
        left = tuple(len(h) for h in self.hands)
        points = tuple(n * self.rules.card_points for n in left)
        self.hand_results.append(HandResult(self.hand_number, self.dealer, went_out, points, left))
        for s, p in enumerate(points):
            self.totals[s] += p
        if max(self.totals) >= self.rules.target_score:
            self.phase = ManipulationPhase.GAME_OVER
            self.drawn = []
            self._best = None
            return
        self.hand_number += 1
        self.dealer = (self.dealer + 1) % self.players
        self.hand_start = len(self.actions)
        self._deal()

    # -- copies and comparisons ----------------------------------------------------------------
    def copy(self) -> ManipulationGame:
        """An independent copy (for search)."""
        other = object.__new__(ManipulationGame)
        other.__dict__.update(self.__dict__)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.hands = [list(h) for h in self.hands]
        other.stock = list(self.stock)
        other.drawn = list(self.drawn)
        other.totals = list(self.totals)
        other.hand_results = list(self.hand_results)
        other.actions = list(self.actions)
        return other

    def snapshot(self) -> tuple[object, ...]:
        """A comparable value of the whole state."""
        return (self.phase, self.hand_number, self.dealer, tuple(tuple(h) for h in self.hands),
                self.table, tuple(self.stock), self.turn, tuple(self.drawn), self.passes,
                tuple(self.totals), tuple(self.hand_results), tuple(self.actions), self.rng.getstate())

    def card_count(self) -> int:
        """Cards in hands, on the table and in the stock (always the whole pack)."""
        return sum(len(h) for h in self.hands) + len(self.table_cards()) + len(self.stock)


@dataclass(frozen=True, slots=True)
class ManipulationView:
    """What one seat may know (``seat`` None: a spectator): its own hand and everything public."""

    seat: int | None
    players: int
    rules_name: str
    rules: ManipulationRules
    hand_number: int
    dealer: int
    phase: ManipulationPhase
    turn: int
    to_act: tuple[int, ...]
    hand: tuple[Card, ...]
    hand_counts: tuple[int, ...]
    table: tuple[Meld, ...]
    stock_size: int
    drawn: tuple[Card, ...]              # cards this seat drew on this turn (its own view only)
    draws_this_turn: int                 # how many the player in turn has drawn (public)
    passes: int
    totals: tuple[int, ...]
    hand_results: tuple[HandResult, ...]
    history: tuple[ManipulationAction, ...]   # this hand's actions: all public
    legal: tuple[ManipulationAction, ...]

    @property
    def is_my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.to_act


def manipulation_view(game: ManipulationGame, seat: int | None) -> ManipulationView:
    """The view of ``seat`` (a spectator's with None): never another hand or the stock.

    >>> from shanghai.rules import MANIPULATION
    >>> v = manipulation_view(ManipulationGame.new(MANIPULATION, 3, seed=1), 2)
    >>> len(v.hand), v.hand_counts, v.stock_size, hasattr(v, "stock")
    (10, (10, 10, 10), 74, False)
    """
    over = game.is_over
    mine = seat is not None and seat == game.turn and not over
    return ManipulationView(
        seat=seat,
        players=game.players,
        rules_name=game.rules.name,
        rules=game.rules,
        hand_number=game.hand_number,
        dealer=game.dealer,
        phase=game.phase,
        turn=game.turn,
        to_act=game.to_act(),
        hand=tuple(sorted(game.hands[seat], key=sort_key)) if seat is not None and not over else (),
        hand_counts=tuple(len(h) for h in game.hands),
        table=game.table,
        stock_size=len(game.stock),
        drawn=tuple(game.drawn) if mine else (),
        draws_this_turn=len(game.drawn),
        passes=game.passes,
        totals=tuple(game.totals),
        hand_results=tuple(game.hand_results),
        history=tuple(game.actions[game.hand_start:]),
        legal=tuple(game.legal_actions(seat)) if mine else (),
    )


def play_exactly(view_or_game: ManipulationView | ManipulationGame, cards: Sequence[Card],
                 seat: int | None = None) -> PlayToTable | None:
    """The play placing exactly ``cards`` from the hand, the table rearranged by the solver (as
    little as it can), or None when those cards cannot all be placed together. For people: choose
    the cards, let the program arrange the table."""
    from shanghai.table_solver import arrange

    table = view_or_game.table
    s = view_or_game.turn if seat is None else seat
    if not cards:
        return None
    arranged = arrange([c for m in table for c in m] + list(cards), keep=table)
    if arranged is None:
        return None
    return PlayToTable(s, tuple(sorted(cards, key=sort_key)), canonical_table(arranged))
