"""The game as a state machine: one ``Game`` holds a whole game, rounds after rounds.

The engine does no I/O and has no clock; all chance comes from the game's own seeded generator,
so the same rules, seed and actions always give the same game.

>>> from shanghai.rules import preset
>>> game = Game.new(preset("isra"), players=4, seed=7)
>>> game.phase, game.round_number, game.dealer, game.to_act()  # the dealer's right cuts
(<Phase.CUT: 'cut'>, 1, 3, (2,))
>>> game.apply(Cut(2, 45)); game.phase, len(game.hands[0]), game.turn
(<Phase.DRAW: 'draw'>, 11, 0)
>>> game.apply(Cut(2, 45))
Traceback (most recent call last):
...
shanghai.errors.IllegalActionError: ...
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from shanghai.cards import ALL_NATURALS, JOKER, Card, card_text, make_pack
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
)
from shanghai.engine.contract_bound import contract_bound
from shanghai.errors import IllegalActionError, InvalidMeldError
from shanghai.fits import Options, lay_off_options
from shanghai.melds import End, Meld, check_run, check_set, run_arrangements
from shanghai.rules.model import Contract, RoundSpec, Rules
from shanghai.solver import solve_contract


class Phase(Enum):
    CUT = "cut"            # the player on the dealer's right cuts for the deal (isra)
    DRAW = "draw"          # the player in turn draws from the stock or takes the discard
    BUY = "buy"            # other players may buy the discard
    PLAY = "play"          # the player in turn goes down, lays off, replaces wilds, discards
    SHANGHAI = "shanghai"  # players may call "Shanghai" on a discard that fits a meld (001 var. 3)
    GAME_OVER = "game-over"


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: who laid it and the meld itself."""

    id: int
    owner: int
    meld: Meld


@dataclass(frozen=True, slots=True)
class CutResult:
    cutter: int
    target: int
    actual: int
    needed: int

    @property
    def made(self) -> bool:
        return self.actual == self.needed


@dataclass(frozen=True, slots=True)
class RoundResult:
    """What a round ended with; ``points`` are the round's points per seat, bonuses included."""

    number: int
    contract: str
    dealer: int
    went_out: int | None
    points: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    cut: CutResult | None = None
    slam: str | None = None
    joker_free: tuple[int, ...] = ()
    blind_bonus: int = 0
    buys: tuple[int, ...] = ()
    down: tuple[bool, ...] = ()  # who had gone down (made the contract) when the round ended
    table: tuple[TableMeld, ...] = ()  # the melds on the table when the round ended


@dataclass(slots=True)
class BuyWindow:
    """An open window on the top discard: eligible seats in priority order and their answers."""

    seats: tuple[int, ...]
    answers: dict[int, bool] = field(default_factory=dict)
    before_draw: bool = False   # family-10: buyers ask first, the player in turn then decides
    claimant: int | None = None  # family-10: the buyer waiting for the in-turn player's answer


@dataclass(slots=True)
class ShanghaiWindow:
    seats: tuple[int, ...]
    card: Card
    discarder: int
    answers: dict[int, CallShanghai | None] = field(default_factory=dict)


class Game:
    """A whole game: rules, seats, the seeded generator and the state of the round in play."""

    def __init__(self, rules: Rules, players: int, seed: int) -> None:
        self.rules = rules
        self.players = players
        self.seed = seed
        pack = rules.pack_for(players)
        self.pack_size = pack.size
        self._rng: random.Random | None = random.Random(seed)
        self._rng_state: tuple[Any, ...] | None = None  # a copy's generator, until first used
        self.actions: list[Action] = []
        self.round_index = 0
        self.first_dealer = 0
        self.first_dealer_cuts: list[tuple[tuple[int, Card], ...]] = []
        self.dealer = 0
        self.phase = Phase.DRAW
        self.turn = 0
        self.stock: list[Card] = []
        self.discards: list[Card] = []
        self.discard_live = False
        self.discarder: int | None = None
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.table: list[TableMeld] = []
        self.table_options: list[tuple[TableMeld, Options]] = []  # cache of accepts()
        self.down: list[bool] = [False] * players
        self.down_this_turn = False
        self.buys_used: list[int] = [0] * players
        self.pending_wild: Card | None = None
        self.buy_window: BuyWindow | None = None
        self.shanghai_window: ShanghaiWindow | None = None
        self.stock_renewals = 0
        self.cut: CutResult | None = None
        self.joker_free: list[int] = []
        self.others_down_when_went_down = False
        self.turns_taken = 0
        self.round_start = 0
        self.round_results: list[RoundResult] = []
        self.totals: list[int] = [0] * players

    @property
    def rng(self) -> random.Random:
        """The game's seeded generator, the only source of chance.

        A copy gets the generator's state and builds its own generator only when it first needs
        one (most copies made for search never do), which keeps ``copy`` cheap.
        """
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(0)
            assert self._rng_state is not None
            rng.setstate(self._rng_state)
            self._rng_state = None
        return rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value
        self._rng_state = None

    # -- set-up -----------------------------------------------------------------------------------
    @classmethod
    def new(cls, rules: Rules, players: int, seed: int) -> Game:
        """A new game: seats cut for the first deal, then round 1 begins."""
        game = cls(rules, players, seed)
        game.first_dealer = game._cut_for_deal()
        game._start_round()
        game.round_start = 0
        return game

    def _cut_for_deal(self) -> int:
        """000: "Highest to lowest with JOKERS being the highest followed by A's moving all the way
        down to 2s ... Cut again for ties." 004: "The player drawing the lowest card deals first"."""
        rules = self.rules
        pack = make_pack(rules.pack_for(self.players).decks, rules.pack_for(self.players).jokers)

        def value(card: Card) -> int:
            if card == JOKER:
                return 15
            r = card & 15
            if rules.first_dealer == "high-cut":
                return 14 if r == 1 else r
            return r  # 004: the ace counts low when cutting for the lowest card

        seats = list(range(self.players))
        while True:
            cards = self.rng.sample(pack, len(seats))
            self.first_dealer_cuts.append(tuple(zip(seats, cards, strict=True)))
            values = [value(c) for c in cards]
            best = max(values) if rules.first_dealer == "high-cut" else min(values)
            seats = [s for s, v in zip(seats, values, strict=True) if v == best]
            if len(seats) == 1:
                return seats[0]

    def _start_round(self) -> None:
        n = self.players
        self.dealer = (self.first_dealer + self.round_index) % n
        pack = self.rules.pack_for(n)
        self.stock = make_pack(pack.decks, pack.jokers)
        self.rng.shuffle(self.stock)
        self.discards = []
        self.hands = [[] for _ in range(n)]
        self.table = []
        self.table_options = []
        self.down = [False] * n
        self.buys_used = [0] * n
        self.pending_wild = None
        self.buy_window = None
        self.shanghai_window = None
        self.stock_renewals = 0
        self.cut = None
        self.joker_free = []
        self.turns_taken = 0
        # called while applying the round's last action, which is appended just after
        self.round_start = len(self.actions) + 1
        if self.rules.the_cut:
            self.phase = Phase.CUT
            self.turn = (self.dealer - 1) % n
        else:
            self._deal()

    def _deal(self) -> None:
        n = self.players
        for _ in range(self.rules.hand_size):
            for k in range(1, n + 1):
                self.hands[(self.dealer + k) % n].append(self.stock.pop())
        self.discards.append(self.stock.pop())  # the flip card
        self.discard_live = True
        self.discarder = None
        self._begin_turn((self.dealer + 1) % n)

    # -- queries ----------------------------------------------------------------------------------
    @property
    def round_number(self) -> int:
        return self.round_index + 1

    @property
    def round_spec(self) -> RoundSpec:
        """The round in play (the last round once the game is over)."""
        rounds = self.rules.rounds
        i = self.round_index
        if 0 <= i < len(rounds):
            return rounds[i]
        return self.rules.round(min(self.round_number, len(rounds)))

    @property
    def contract(self) -> Contract:
        return self.round_spec.contract

    @property
    def buy_limit(self) -> int:
        return self.round_spec.buys

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def discard_top(self) -> Card | None:
        return self.discards[-1] if self.discards else None

    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now (several while a buy or "Shanghai" window is open)."""
        phase = self.phase
        if phase is _PLAY or phase is _DRAW:
            return (self.turn,)
        if phase is _GAME_OVER:
            return ()
        if phase is _BUY:
            assert self.buy_window is not None
            answers = self.buy_window.answers
            return tuple(s for s in self.buy_window.seats if s not in answers)
        if phase is _SHANGHAI:
            assert self.shanghai_window is not None
            w = self.shanghai_window
            return tuple(s for s in w.seats if s not in w.answers)
        return (self.turn,)

    def winners(self) -> tuple[int, ...]:
        """Seats with the lowest total (ties share the crown)."""
        best = min(self.totals)
        return tuple(s for s, t in enumerate(self.totals) if t == best)

    def dunce(self) -> tuple[int, ...]:
        """Seats with the highest total, if the dunce cap is in play."""
        if not self.rules.dunce_cap:
            return ()
        worst = max(self.totals)
        return tuple(s for s, t in enumerate(self.totals) if t == worst)

    def all_cards(self) -> list[Card]:
        """Every card in every zone: hands, stock, discard pile, table, a freed wild."""
        cards = [c for h in self.hands for c in h] + self.stock + self.discards
        cards += [c for tm in self.table for c in tm.meld.cards]
        if self.pending_wild is not None:
            cards.append(self.pending_wild)
        return cards

    def copy(self) -> Game:
        """An independent copy (for search): mutable parts are copied, frozen values shared."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._rng = None
        other._rng_state = self._rng_state if self._rng is None else self._rng.getstate()
        other.actions = list(self.actions)
        other.first_dealer_cuts = list(self.first_dealer_cuts)
        other.stock = list(self.stock)
        other.discards = list(self.discards)
        other.hands = [list(h) for h in self.hands]
        other.table = list(self.table)
        other.table_options = list(self.table_options)
        other.down = list(self.down)
        other.buys_used = list(self.buys_used)
        other.joker_free = list(self.joker_free)
        other.round_results = list(self.round_results)
        other.totals = list(self.totals)
        if self.buy_window is not None:
            w = self.buy_window
            other.buy_window = BuyWindow(w.seats, dict(w.answers), w.before_draw, w.claimant)
        if self.shanghai_window is not None:
            sw = self.shanghai_window
            other.shanghai_window = ShanghaiWindow(sw.seats, sw.card, sw.discarder, dict(sw.answers))
        return other

    def refresh_derived(self) -> None:
        """Call after assigning state fields directly (as ``determinize`` and test set-ups do).

        The engine keeps no derived data that such assignments could leave stale except the cache
        of what each table meld accepts (``accepts``), which checks its melds by identity anyway;
        this drops it, so that any later cache added here is rebuilt in one place.
        """
        self.table_options = []

    def snapshot(self) -> tuple[object, ...]:
        """Everything that defines the state, as a comparable value."""
        return (
            self.round_index, self.phase, self.turn, self.dealer, tuple(self.stock),
            tuple(self.discards), self.discard_live, self.discarder,
            tuple(tuple(h) for h in self.hands), tuple(self.table), tuple(self.down),
            self.down_this_turn, tuple(self.buys_used), self.pending_wild,
            None if self.buy_window is None else (self.buy_window.seats,
                                                  tuple(sorted(self.buy_window.answers.items())),
                                                  self.buy_window.before_draw,
                                                  self.buy_window.claimant),
            None if self.shanghai_window is None else (
                self.shanghai_window.seats, self.shanghai_window.card,
                tuple(sorted(self.shanghai_window.answers.items(), key=lambda kv: kv[0]))),
            self.stock_renewals, self.cut, tuple(self.joker_free), tuple(self.round_results),
            tuple(self.totals), len(self.actions), self.rng.getstate(),
        )

    # -- turn flow --------------------------------------------------------------------------------
    def _begin_turn(self, seat: int) -> None:
        self.turn = seat
        self.down_this_turn = False
        self.buy_window = None
        self.phase = Phase.DRAW
        if self.rules.buy_flow == "ask-turn-player" and self.discard_live:
            seats = self._eligible_buyers()
            if seats:
                self.buy_window = BuyWindow(seats, before_draw=True)
                self.phase = Phase.BUY

    def _eligible_buyers(self) -> tuple[int, ...]:
        """Seats that may buy the live discard, in priority order."""
        rules, n = self.rules, self.players
        limit = self.buy_limit
        if not self.discard_live or limit == 0:
            return ()
        if len(self.stock) < rules.buy_penalty + 1:
            return ()  # decision: a buy needs its penalty cards and the in-turn draw in the stock
        turn, discarder, used = self.turn, self.discarder, self.buys_used
        start = turn if rules.buy_priority == "clockwise-from-turn" else self.dealer
        seats = []
        for k in range(1, n + 1):
            s = (start + k) % n
            if s != turn and s != discarder and used[s] < limit:
                seats.append(s)
        return tuple(seats)

    def _draw_card(self) -> Card | None:
        """Top of the stock, renewing it from the discard pile when empty (None: nothing to draw)."""
        if not self.stock:
            if len(self.discards) < 2 or self.stock_renewals >= self.rules.max_stock_renewals:
                return None
            top = self.discards.pop()
            self.stock = self.discards
            self.discards = [top]
            self.rng.shuffle(self.stock)
            self.stock_renewals += 1
        return self.stock.pop()

    def _in_turn_draw(self) -> None:
        card = self._draw_card()
        self.discard_live = False
        if card is None:
            self._end_round(None)
            return
        self.hands[self.turn].append(card)
        self.phase = Phase.PLAY

    def _give_bought_card(self, buyer: int) -> None:
        self.hands[buyer].append(self.discards.pop())
        for _ in range(self.rules.buy_penalty):
            card = self.stock.pop()  # eligibility guaranteed the stock holds them
            self.hands[buyer].append(card)
        self.buys_used[buyer] += 1
        self.discard_live = False

    # -- applying actions -------------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Apply a legal action; an illegal one raises ``IllegalActionError`` and changes nothing."""
        if self.phase is _GAME_OVER:
            raise IllegalActionError("the game is over")
        kind = type(action)
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise IllegalActionError(f"unknown action {action!r}")
        if not 0 <= action.seat < self.players:
            raise IllegalActionError(f"there is no seat {action.seat} at a table of {self.players}")
        if kind in _NAMES_ONE_CARD:
            _check_card(action)
        elif kind is GoDown:
            _check_action_cards(action)
        handler(self, action)
        self.actions.append(action)

    def _require(self, ok: bool, why: str) -> None:
        if not ok:
            raise IllegalActionError(why)

    def _require_turn(self, action: Action, phase: Phase, what: str) -> None:
        if self.phase is not phase:
            raise IllegalActionError(f"cannot {what} now: {self._phase_words()}")
        if action.seat != self.turn:
            raise IllegalActionError(f"seat {action.seat} cannot {what}: it is seat {self.turn}'s turn")

    def _phase_words(self) -> str:
        words = {
            Phase.CUT: f"seat {self.turn} is to cut for the deal",
            Phase.DRAW: f"seat {self.turn} is to draw",
            Phase.BUY: "the discard is open to buying",
            Phase.PLAY: f"seat {self.turn} is playing",
            Phase.SHANGHAI: "the discard is open to a \"Shanghai\" call",
            Phase.GAME_OVER: "the game is over",
        }
        return words[self.phase]

    def _cut(self, a: Cut) -> None:
        self._require_turn(a, Phase.CUT, "cut")
        self._require(1 <= a.target < self.pack_size,
                      f"a cut takes between 1 and {self.pack_size - 1} cards, not {a.target}")
        needed = self.rules.hand_size * self.players + 1
        # The hand's imprecision: a normal error whose spread grows with the size of the cut.
        error = round(self.rng.gauss(0.0, self.rules.cut_error * a.target))
        actual = min(max(a.target + error, 1), self.pack_size - 1)
        self.cut = CutResult(a.seat, a.target, actual, needed)
        self._deal()

    def _draw(self, a: DrawStock) -> None:
        if self.phase is not _DRAW or a.seat != self.turn:
            self._require_turn(a, Phase.DRAW, "draw")
        w = self.buy_window
        if w is not None and w.before_draw:  # family-10: drawing from the stock grants the buy
            if w.claimant is not None:
                self._give_bought_card(w.claimant)
            self.buy_window = None
            self._in_turn_draw()
            return
        if self.discard_live and self.rules.buy_flow == "turn-player-first":
            seats = self._eligible_buyers()
            if seats:
                self.buy_window = BuyWindow(seats)
                self.phase = Phase.BUY
                return
        self._in_turn_draw()

    def _take(self, a: TakeDiscard) -> None:
        if self.phase is not _DRAW or a.seat != self.turn:
            self._require_turn(a, Phase.DRAW, "take the discard")
        if not (self.discard_live and self.discards):
            raise IllegalActionError("there is no discard to take: the top card of the pile is not in play")
        self.buy_window = None
        self.hands[a.seat].append(self.discards.pop())
        self.discard_live = False
        self.phase = Phase.PLAY

    def _answer(self, a: Buy | Pass) -> None:
        if self.phase == Phase.SHANGHAI and isinstance(a, Pass):
            self._shanghai_answer(a.seat, None)
            return
        if self.phase is not _BUY:
            raise IllegalActionError(f"cannot {'buy' if isinstance(a, Buy) else 'pass'} now: "
                                     f"{self._phase_words()}")
        w = self.buy_window
        assert w is not None
        if a.seat not in w.seats:
            why = self._why_not_buyer(a.seat)
            raise IllegalActionError(f"seat {a.seat} cannot buy this discard: {why}")
        if a.seat in w.answers:
            raise IllegalActionError(f"seat {a.seat} has already answered")
        w.answers[a.seat] = isinstance(a, Buy)
        self._resolve_buy()

    def _why_not_buyer(self, seat: int) -> str:
        if seat == self.turn:
            return "the player in turn takes the discard free or draws"
        if seat == self.discarder:
            return "nobody buys back their own discard"
        if self.buys_used[seat] >= self.buy_limit:
            return f"all {self.buy_limit} buys of this round are used (shopped out)"
        return "not eligible"

    def _resolve_buy(self) -> None:
        w = self.buy_window
        assert w is not None
        winner: int | None = None
        for s in w.seats:
            if s not in w.answers:
                return  # a seat with priority has not answered yet
            if w.answers[s]:
                winner = s
                break
        if w.before_draw:
            w.claimant = winner
            self.phase = Phase.DRAW
            return
        self.buy_window = None
        if winner is not None:
            self._give_bought_card(winner)
        self._in_turn_draw()

    def _go_down(self, a: GoDown) -> None:
        self._require_turn(a, Phase.PLAY, "go down")
        self._require(not self.down[a.seat], "you are already down; nobody lays a second contract")
        self._require(self.pending_wild is None, "lay off the freed wild first")
        melds = self.validate_go_down(a.seat, a.melds)
        hand = list(self.hands[a.seat])
        for m in melds:
            for c in m.cards:
                hand.remove(c)
        self._check_hand_after(a.seat, hand, pending=None, extra_table=melds)
        others_down = any(self.down[s] for s in range(self.players) if s != a.seat)
        self.hands[a.seat] = hand
        for m in melds:
            self._put_meld(TableMeld(len(self.table), a.seat, m))
        self.down[a.seat] = True
        self.down_this_turn = True
        self.others_down_when_went_down = others_down
        if all(m.wild_count(self.rules) == 0 for m in melds):
            self.joker_free.append(a.seat)
        if not hand:
            self._end_round(a.seat)

    def validate_go_down(self, seat: int, specs: Sequence[MeldSpec]) -> list[Meld]:
        """The melds of a go-down, checked against the hand and the round's contract."""
        rules = self.rules
        contract = self.rules.contract(self.round_number)
        want = sorted((m.kind, m.min_size) for m in contract.melds)
        if len(specs) != len(want):
            raise IllegalActionError(
                f"the contract is {contract.text()}: lay exactly {len(want)} melds, not {len(specs)}")
        melds: list[Meld] = []
        for spec in specs:
            try:
                meld = check_set(spec.cards, rules) if spec.kind == "set" else _run_either_way(spec.cards, rules)
            except InvalidMeldError as exc:
                raise IllegalActionError(f"{spec}: {exc}") from exc
            melds.append(meld)
        # Match melds to the contract's slots, biggest demands first.
        slots = sorted(want, key=lambda km: -km[1])
        free = list(melds)
        for kind, size in slots:
            fits = [m for m in free if m.kind == kind and len(m.cards) >= size]
            if not fits:
                raise IllegalActionError(f"the contract is {contract.text()}: no {kind} of {size} "
                                         f"or more among the melds laid")
            free.remove(min(fits, key=lambda m: len(m.cards)))
        runs = [m for m in melds if m.kind == "run"]
        if rules.same_suit_runs == "separated":
            for i, r1 in enumerate(runs):
                for r2 in runs[i + 1:]:
                    if r1.suit == r2.suit and not (r1.low > r2.high + 1 or r2.low > r1.high + 1):
                        raise IllegalActionError(
                            f"runs {r1.text()} and {r2.text()} of one suit must be separated by at "
                            f"least one card")
        if not rules.same_rank_sets:
            ranks = [m.rank for m in melds if m.kind == "set"]
            if len(ranks) != len(set(ranks)):
                raise IllegalActionError("the contract's sets must be of different ranks")
        need: dict[Card, int] = {}
        for m in melds:
            for c in m.cards:
                need[c] = need.get(c, 0) + 1
        hand = self.hands[seat]
        for c, k in need.items():
            if hand.count(c) < k:
                raise IllegalActionError(f"you hold {hand.count(c)} {card_text(c)}, the melds use {k}")
        return melds

    def _check_hand_after(self, seat: int, hand: list[Card], pending: Card | None,
                          extra_table: Sequence[Meld] = (), replaced: tuple[int, Meld] | None = None
                          ) -> None:
        """Refuse a play that leaves the player unable to finish the turn legally."""
        going_out = self.rules.going_out
        if going_out == "discard-last" and not hand and pending is None:
            raise IllegalActionError("you go out by discarding your last card: keep one to discard")
        if going_out == "play-all" and len(hand) == 1 and pending is None:
            last = hand[0]
            # Does the last card fit a meld of the table as it will be? (The melds unchanged have
            # their accepted cards cached.)
            changed = -1 if replaced is None else replaced[0]
            fits = any(last in options for i, (_, options) in enumerate(self.accepts()) if i != changed)
            if not fits and replaced is not None:
                fits = self._fits(replaced[1], last)
            if not fits:
                fits = any(self._fits(m, last) for m in extra_table)
            if not fits:
                fits = self._replaces_out(last, replaced, extra_table)
            if not fits or (not self.rules.lay_off_on_going_down_turn and extra_table):
                raise IllegalActionError(
                    f"that would leave only {card_text(last)}, which plays nowhere on the table, and "
                    f"the last card may not be discarded: go out by playing every card")

    def _replaces_out(self, last: Card, replaced: tuple[int, Meld] | None = None,
                      extra_table: Sequence[Meld] = ()) -> bool:
        """Can the last card take a wild's place on the table as it will be, the freed wild then
        played on it (000: "a joker on the table can be replaced by a card in your hand ... it must be
        used this play before you discard or go out"), so that every card is played?"""
        table = [tm.meld for tm in self.table]
        if replaced is not None:
            table[replaced[0]] = replaced[1]
        table.extend(extra_table)
        return self._replaces_out_on(table, last)

    def _replaces_out_on(self, table: list[Meld], last: Card) -> bool:
        """``_replaces_out`` on the melds ``table``."""
        rules = self.rules
        if rules.wild_replacement == "none":
            return False
        for i, m in enumerate(table):
            if (rules.wild_replacement == "runs-play-freed-wild" and m.kind != "run") or not m.wild_count(rules):
                continue
            try:
                new, freed = m.replace_wild(last, rules)
            except InvalidMeldError:
                continue
            if any(self._fits(new if j == i else x, freed) for j, x in enumerate(table)):
                return True
        return False

    def _put_meld(self, tm: TableMeld) -> None:
        """Place a new or grown meld on the table."""
        if tm.id == len(self.table):
            self.table.append(tm)
        else:
            self.table[tm.id] = tm

    def accepts(self) -> list[tuple[TableMeld, Options]]:
        """Each meld on the table with the cards it accepts (and where), kept from call to call."""
        cache = self.table_options
        table = self.table
        cached = len(cache)
        for i, tm in enumerate(table):
            if i >= cached:
                cache.append((tm, lay_off_options(tm.meld, self.rules)))
            elif cache[i][0] is not tm:
                cache[i] = (tm, lay_off_options(tm.meld, self.rules))
        if cached > len(table):
            del cache[len(table):]
        return cache

    def _laid_off(self, meld: Meld, card: Card, end: End | None) -> Meld:
        """``meld.lay_off(card, end)`` for a lay-off the meld's options list (``lay_off_options``
        lists exactly those that ``Meld.lay_off`` accepts): a run is then the same run one place
        longer, and a set of a known rank the same set one card larger, made without checking
        them again."""
        if meld.kind == "run":
            if end == "low":
                return Meld("run", (card, *meld.cards), 0, meld.suit, meld.low - 1)
            return Meld("run", (*meld.cards, card), 0, meld.suit, meld.low)
        if meld.rank:
            return Meld("set", (*meld.cards, card), meld.rank)
        return meld.lay_off(card, end, self.rules)

    def _fits(self, meld: Meld, card: Card) -> bool:
        return card in lay_off_options(meld, self.rules)

    def _lay_off(self, a: LayOff) -> None:
        new, hand = self._check_lay_off(a)
        if self.pending_wild is not None and len(hand) == len(self.hands[a.seat]):
            self.pending_wild = None  # the freed wild was laid off (not a card of the hand)
        self.hands[a.seat] = hand
        self._put_meld(TableMeld(a.meld, self.table[a.meld].owner, new))
        if not hand and self.pending_wild is None:
            self._end_round(a.seat)

    def _check_lay_off(self, a: LayOff) -> tuple[Meld, list[Card]]:
        """Validate a lay-off without changing anything: the new meld and the hand after it."""
        self._require_turn(a, Phase.PLAY, "lay off")
        self._require(self.down[a.seat], "you lay off only once you are down")
        self._require(self.rules.lay_off_on_going_down_turn or not self.down_this_turn,
                      "no lay-offs on the turn you go down (004: \"He may not lay off any additional "
                      "cards at this time\")")
        # 000: the freed joker "must be used this play before you discard or go out. Best if you can
        # use the swapped-out JOKER to set up a bridge to play other cards in your hand": cards of
        # the hand may be laid off before it (decision 21); a lay-off of its card places it.
        pending = self.pending_wild
        from_pending = pending is not None and a.card == pending
        if not from_pending and a.card not in self.hands[a.seat]:
            raise IllegalActionError(f"you hold no {card_text(a.card)}")
        if not 0 <= a.meld < len(self.table):
            raise IllegalActionError(f"there is no meld m{a.meld} on the table")
        meld = self.table[a.meld].meld
        if meld.kind == "set" and a.end is not None:
            raise IllegalActionError("a set has no ends: lay off without 'low' or 'high'")
        ends = lay_off_options(meld, self.rules).get(a.card)
        if ends is not None and a.end in ends:
            new = self._laid_off(meld, a.card, a.end)
        else:
            try:
                new = meld.lay_off(a.card, a.end, self.rules)
            except InvalidMeldError as exc:
                raise IllegalActionError(f"{card_text(a.card)} does not go on m{a.meld}: {exc}") from exc
        hand = list(self.hands[a.seat])
        if not from_pending:
            hand.remove(a.card)
        if pending is not None and not from_pending:
            # the freed wild must still go somewhere, leaving a legal end of turn
            table = [tm.meld for tm in self.table]
            table[a.meld] = new
            if not self._freed_wild_playable(table, pending, hand):
                raise IllegalActionError(f"the freed {card_text(pending)} would then fit nowhere on the table "
                                         f"(leaving a legal end of turn), and it must be played this turn")
        else:
            self._check_hand_after(a.seat, hand, None, replaced=(a.meld, new))
        return new, hand

    def _replace(self, a: ReplaceWild) -> None:
        new, freed, hand = self._check_replace(a)
        if self.rules.wild_replacement == "runs-play-freed-wild":
            self.pending_wild = freed
        else:
            hand.append(freed)
        self.hands[a.seat] = hand
        self._put_meld(TableMeld(a.meld, self.table[a.meld].owner, new))

    def _check_replace(self, a: ReplaceWild) -> tuple[Meld, Card, list[Card]]:
        """Validate a wild replacement without changing anything."""
        rules = self.rules
        self._require_turn(a, Phase.PLAY, "replace a wild")
        self._require(rules.wild_replacement != "none",
                      f"{rules.name}: wilds on the table are never replaced")
        self._require(self.down[a.seat], "you replace a wild only once you are down")
        self._require(rules.lay_off_on_going_down_turn or not self.down_this_turn,
                      "no replacing on the turn you go down")
        if self.pending_wild is not None:
            raise IllegalActionError(f"lay off the freed {card_text(self.pending_wild)} before replacing "
                                     f"another wild")
        if a.card not in self.hands[a.seat]:
            raise IllegalActionError(f"you hold no {card_text(a.card)}")
        if not 0 <= a.meld < len(self.table):
            raise IllegalActionError(f"there is no meld m{a.meld} on the table")
        meld = self.table[a.meld].meld
        if rules.wild_replacement == "runs-play-freed-wild" and meld.kind != "run":
            raise IllegalActionError("wilds in a set cannot be replaced, only wilds in a run")
        try:
            new, freed = meld.replace_wild(a.card, rules)
        except InvalidMeldError as exc:
            raise IllegalActionError(str(exc)) from exc
        hand = list(self.hands[a.seat])
        hand.remove(a.card)
        if rules.wild_replacement == "runs-play-freed-wild":
            if not hand and rules.going_out == "discard-last":
                raise IllegalActionError("you go out by discarding your last card: replacing a wild with it "
                                         "would leave none to discard")
            table = [tm.meld for tm in self.table]
            table[a.meld] = new
            if not self._freed_wild_playable(table, freed, hand):
                raise IllegalActionError(f"the freed {card_text(freed)} would fit nowhere on the "
                                         f"table (leaving a legal end of turn), and it must be "
                                         f"played this turn")
        return new, freed, hand

    def is_legal(self, action: Action) -> bool:
        """Would ``apply`` accept this action? (Nothing is changed.)"""
        try:
            if isinstance(action, LayOff):
                self._check_lay_off(action)
            elif isinstance(action, ReplaceWild):
                self._check_replace(action)
            else:
                self.copy().apply(action)
        except IllegalActionError:
            return False
        return True

    def _freed_wild_playable(self, table: list[Meld], wild: Card, hand: list[Card]) -> bool:
        """Can the freed ``wild`` go on a meld of ``table`` with ``hand`` left, the turn then ending
        legally (the last card played, or a card kept to discard)?"""
        if not hand and self.rules.going_out == "discard-last":
            return False  # no card would be left to discard
        cached = self.accepts()
        # The melds already on the table first (their accepted cards are cached): only whether
        # some placement works matters, not which.
        same = [i < len(cached) and cached[i][0].meld is m for i, m in enumerate(table)]
        for i in sorted(range(len(table)), key=lambda i: not same[i]):
            m = table[i]
            options = cached[i][1] if same[i] else lay_off_options(m, self.rules)
            for end in options.get(wild, ()):
                if self.rules.going_out != "play-all" or len(hand) != 1:
                    return True
                # Does the last card then fit the table (with the wild placed)?
                last = hand[0]
                if self._fits(self._laid_off(m, wild, end), last):
                    return True
                for j, x in enumerate(table):
                    if j != i and last in (cached[j][1] if same[j] else lay_off_options(x, self.rules)):
                        return True
                # or by taking a wild's place, that wild then laid (decision 19)
                after = list(table)
                after[i] = self._laid_off(m, wild, end)
                if self._replaces_out_on(after, last):
                    return True
        if self.rules.going_out == "play-all" and len(hand) == 1:
            # or the last card first, then the wild on the table it leaves (decision 21: any order)
            last = hand[0]
            for j, x in enumerate(table):
                for end in lay_off_options(x, self.rules).get(last, ()):
                    after = list(table)
                    after[j] = self._laid_off(x, last, end)
                    if any(self._fits(y, wild) for y in after):
                        return True
        return False

    def _discard(self, a: Discard) -> None:
        rules = self.rules
        if self.phase is not _PLAY or a.seat != self.turn:
            self._require_turn(a, Phase.PLAY, "discard")
        if self.pending_wild is not None:
            raise IllegalActionError(f"play the freed {card_text(self.pending_wild)} on a meld before "
                                     f"discarding")
        hand = self.hands[a.seat]
        if a.card not in hand:
            raise IllegalActionError(f"you hold no {card_text(a.card)}")
        if rules.going_out == "play-all" and len(hand) <= 1:
            raise IllegalActionError("the last card may not be discarded: go out by playing every "
                                     "card onto the table")
        # Only the "Shanghai" call cares whether the discard fits a meld on the table.
        fits = rules.shanghai_call and any(a.card in options for _, options in self.accepts())
        if a.shanghai:
            self._require(rules.shanghai_call, "the \"Shanghai\" call is not in these rules")
            if not fits:
                raise IllegalActionError(f"{card_text(a.card)} fits no meld on the table: nothing to protect")
        hand.remove(a.card)
        self.discards.append(a.card)
        self.discarder = a.seat
        self.turns_taken += 1
        if not hand:
            self._end_round(a.seat)
            return
        if self.turns_taken >= rules.max_turns_per_round:
            self._end_round(None)  # decision 25: a guard against endless rounds
            return
        nxt = (a.seat + 1) % self.players
        self.discard_live = not a.shanghai
        if rules.shanghai_call and fits and not a.shanghai:
            order = [(nxt + k) % self.players for k in range(self.players)]
            seats = tuple(s for s in order if s != a.seat and len(self.hands[s]) >= 2)
            if seats:
                self.turn = nxt
                self.shanghai_window = ShanghaiWindow(seats, a.card, a.seat)
                self.phase = Phase.SHANGHAI
                return
        self._begin_turn(nxt)

    def spots(self, card: Card) -> list[tuple[int, End | None]]:
        """Every (meld, end) of the table where ``card`` could be laid off."""
        return [(tm.id, end) for tm, options in self.accepts() for end in options.get(card, ())]

    def _call_shanghai(self, a: CallShanghai) -> None:
        if self.phase is not _SHANGHAI:
            raise IllegalActionError(f"cannot call \"Shanghai\" now: {self._phase_words()}")
        w = self.shanghai_window
        assert w is not None
        self._require(a.seat in w.seats, f"seat {a.seat} cannot call \"Shanghai\" on this discard")
        self._require(a.seat not in w.answers, f"seat {a.seat} has already answered")
        if (a.meld, a.end) not in self.spots(w.card):
            raise IllegalActionError(f"{card_text(w.card)} does not go on m{a.meld}"
                                     + (f" {a.end}" if a.end else ""))
        self._shanghai_answer(a.seat, a)

    def _shanghai_answer(self, seat: int, call: CallShanghai | None) -> None:
        w = self.shanghai_window
        assert w is not None
        if seat not in w.seats:
            raise IllegalActionError(f"seat {seat} has no say on this discard")
        if seat in w.answers:
            raise IllegalActionError(f"seat {seat} has already answered")
        w.answers[seat] = call
        winner: CallShanghai | None = None
        for s in w.seats:
            if s not in w.answers:
                return
            if w.answers[s] is not None:
                winner = w.answers[s]
                break
        self.shanghai_window = None
        nxt = (w.discarder + 1) % self.players
        if winner is not None:
            # 001: "add the discard to a meld. The calling player then offers their hand face down
            # to the player who discarded the card, and they must take a card from it."
            card = self.discards.pop()
            tm = self.table[winner.meld]
            self._put_meld(TableMeld(tm.id, tm.owner, tm.meld.lay_off(card, winner.end, self.rules)))
            caller = self.hands[winner.seat]
            given = caller.pop(self.rng.randrange(len(caller)))
            self.hands[w.discarder].append(given)
            self.discard_live = False
        self._begin_turn(nxt)

    # -- round end ------------------------------------------------------------------------------
    def _end_round(self, went_out: int | None) -> None:
        rules = self.rules
        n = self.players
        points = [0 if s == went_out else sum(rules.points(c) for c in self.hands[s]) for s in range(n)]
        if self.cut is not None and self.cut.made:
            # 000: "all other persons get a 50-point penalty against them on the score pad"
            points = [p + (rules.cut_bonus if s != self.cut.cutter else 0) for s, p in enumerate(points)]
        slam: str | None = None
        blind = 0
        if went_out is not None and self.down_this_turn and went_out == self.turn:
            if rules.slam_records:
                slam = "semi-slam" if self.others_down_when_went_down else "slam"
            if rules.blind_out_bonus or rules.blind_out_bonus_no_joker:
                blind = (rules.blind_out_bonus_no_joker if went_out in self.joker_free
                         else rules.blind_out_bonus)
                points[went_out] -= blind
        result = RoundResult(
            number=self.round_number, contract=self.rules.contract(self.round_number).text(),
            dealer=self.dealer, went_out=went_out, points=tuple(points),
            hands=tuple(tuple(h) for h in self.hands), cut=self.cut, slam=slam,
            joker_free=tuple(self.joker_free), blind_bonus=blind, buys=tuple(self.buys_used),
            down=tuple(self.down), table=tuple(self.table))
        self.round_results.append(result)
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        self.round_index += 1
        self.pending_wild = None
        self.buy_window = None
        self.shanghai_window = None
        if self.round_index >= len(rules.rounds):
            self.phase = Phase.GAME_OVER
        else:
            self._start_round()

    # -- legal actions --------------------------------------------------------------------------
    def legal_actions(self, seat: int | None = None) -> Iterator[Action]:
        """Every legal action (of one seat, or of every seat that may act), lazily.

        Going down is offered as the solver's best arrangement; ``apply`` accepts any legal one.
        """
        return iter(legal_list(self, seat))

    def legal_list(self, seat: int | None = None) -> list[Action]:
        """``legal_actions`` as a new list, in the same order (the cheapest way to get them all)."""
        return legal_list(self, seat)

    def no_go_down_reason(self, seat: int) -> str:
        """Why ``seat``, in turn and not down, has no go-down to offer: the hand lacks the contract, or
        holds it only in ways that leave no legal end of the turn."""
        contract = self.rules.contract(self.round_index + 1)
        if solve_contract(self.hands[seat], contract, self.rules) is None:
            return f"your hand does not meet the contract ({contract.text()})"
        return (f"your hand meets the contract ({contract.text()}) only in ways that leave no legal end of "
                f"the turn (the last card may not be discarded, or a card must be kept to discard)")

    def best_go_down(self, seat: int) -> GoDown | None:
        """The go-down leaving the fewest points that the rules let this seat make now."""
        if self.phase is not _PLAY or seat != self.turn or self.down[seat] or self.pending_wild:
            return None
        rules, hand = self.rules, self.hands[seat]
        if not contract_bound(rules, self.round_index + 1).possible(hand):
            return None  # nor can any part of the hand (the fallback below)
        forbidden: set[int] = set()
        if rules.going_out == "play-all":
            forbidden.add(1)
        elif rules.going_out == "discard-last":
            forbidden.add(0)
        contract = rules.contract(self.round_index + 1)
        free = solve_contract(hand, contract, rules)
        if free is None:
            return None  # nor can any part of the hand
        if len(free.leftover) not in forbidden:
            return GoDown(seat, tuple(MeldSpec(m.kind, m.cards) for m in free.melds))
        best = solve_contract(hand, contract, rules, forbidden_leftovers=forbidden)
        melds = None if best is None else best.melds
        left = None if best is None else best.leftover_points
        if rules.going_out == "play-all" and rules.lay_off_on_going_down_turn:
            # One card may be left when it plays on a meld already on the table (000: a slam or
            # semi-slam onto another player's meld), which the solver cannot know: lay every other
            # card down.
            for c in sorted(set(hand)):
                if left is not None and left <= rules.points(c):
                    continue
                lays_off = any(c in options for _, options in self.accepts())
                if not lays_off and not self._replaces_out(c):
                    continue
                rest = list(hand)
                rest.remove(c)
                alt = solve_contract(rest, contract, rules, forbidden_leftovers=range(1, len(hand)))
                if alt is not None and (lays_off or self._replaces_out(c, None, alt.melds)):
                    melds, left = alt.melds, rules.points(c)
        if melds is None:
            return None
        return GoDown(seat, tuple(MeldSpec(m.kind, m.cards) for m in melds))


def _check_card(action: Any) -> None:
    """Refuse a one-card action that names something that is not a card."""
    c = action.card
    try:
        known = c in _CARDS
    except TypeError:  # unhashable
        known = False
    if not known:
        raise IllegalActionError(f"{c!r} is not a card")


def _check_action_cards(action: Action) -> None:
    """Refuse an action that names something that is not a card, or a meld that is no set or run."""
    named: list[Card] = []
    if isinstance(action, GoDown):
        for spec in action.melds:
            if spec.kind not in ("set", "run"):
                raise IllegalActionError(f"a meld is a set or a run, not {spec.kind!r}")
            named.extend(spec.cards)
    elif isinstance(action, LayOff | ReplaceWild | Discard):
        named.append(action.card)
    for c in named:
        try:
            known = c in _CARDS
        except TypeError:  # unhashable
            known = False
        if not known:
            raise IllegalActionError(f"{c!r} is not a card")


_CARDS = frozenset((*ALL_NATURALS, JOKER))
_NAMES_ONE_CARD = frozenset({LayOff, ReplaceWild, Discard})
_CUT, _DRAW, _BUY, _PLAY = Phase.CUT, Phase.DRAW, Phase.BUY, Phase.PLAY
_SHANGHAI, _GAME_OVER = Phase.SHANGHAI, Phase.GAME_OVER


_HANDLERS: dict[type, Callable[[Game, Any], None]] = {
    Cut: Game._cut,
    DrawStock: Game._draw,
    TakeDiscard: Game._take,
    Buy: Game._answer,
    Pass: Game._answer,
    GoDown: Game._go_down,
    LayOff: Game._lay_off,
    ReplaceWild: Game._replace,
    Discard: Game._discard,
    CallShanghai: Game._call_shanghai,
}

from shanghai.engine.legal import legal_list  # noqa: E402  (legal.py needs Phase, above)


def _run_either_way(cards: Sequence[Card], rules: Rules) -> Meld:
    """A run given lowest card first, or highest first (as ``make_meld`` reads it), or, without wild
    cards, in any order (natural cards have one place each, as ``shanghai judge meld`` reads them); the
    reason given is the one for the order as written."""
    try:
        return check_run(cards, rules)
    except InvalidMeldError as exc:
        try:
            return check_run(tuple(reversed(cards)), rules)
        except InvalidMeldError:
            if not any(rules.is_wild(c) for c in cards):
                laid = run_arrangements(cards, rules)
                if laid:
                    return laid[0]
            raise exc from None
