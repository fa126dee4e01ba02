"""Rigging helpers for the engine's rules tests (``tests/test_rules_*.py``).

A test makes a real game with ``Game.new`` and then *rigs* it: it names the cards of some hands,
the top of the stock, the discard pile and the melds on the table, and ``rig`` deals every other
card of the game's pack to the rest of the stock (and, for hands the test does not name, a filler
hand), so that the game still holds exactly its pack: card conservation is kept by construction.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import pytest

from shanghai.cards import JOKER, Card, make_pack, parse_cards
from shanghai.engine.actions import Action, Cut, Discard, LayOff, MeldSpec
from shanghai.engine.game import Game, Phase, RoundResult, TableMeld
from shanghai.errors import IllegalActionError
from shanghai.melds import make_meld
from shanghai.rules import preset
from shanghai.rules.model import Rules

CardsLike = str | Sequence[Card]


def cards(text: CardsLike) -> list[Card]:
    """Cards from text (``"7H 7S JK"``) or a list of cards."""
    return parse_cards(text) if isinstance(text, str) else list(text)


def card(text: str) -> Card:
    (c,) = parse_cards(text)
    return c


def spec(kind: str, text: str) -> MeldSpec:
    """A go-down meld: ``spec("run", "5D 6D JK 8D")``."""
    assert kind in ("set", "run")
    return MeldSpec(kind, tuple(cards(text)))  # type: ignore[arg-type]


def new_game(name: str, players: int = 4, seed: int = 1, options: Iterable[str] = (),
             rules: Rules | None = None) -> Game:
    return Game.new(rules if rules is not None else preset(name, options), players, seed)


def pack_counter(game: Game) -> Counter[Card]:
    pack = game.rules.pack_for(game.players)
    return Counter(make_pack(pack.decks, pack.jokers))


def assert_conserved(game: Game) -> None:
    """The game holds exactly its pack, every card once."""
    assert Counter(game.all_cards()) == pack_counter(game)


def rig(game: Game, *, hands: Mapping[int, CardsLike] | None = None, table: Sequence[tuple[int, CardsLike]] = (),
        discards: CardsLike = "", stock_top: CardsLike = "", stock_size: int | None = None,
        down: Iterable[int] = (), turn: int | None = None, phase: Phase = Phase.PLAY,
        round_number: int | None = None, dealer: int | None = None, discarder: int | None = None,
        discard_live: bool = True, buys_used: Mapping[int, int] | None = None,
        filler_size: int = 11, seed: int = 0) -> Game:
    """Rig ``game`` into a precise situation, keeping every card of the pack in play exactly once.

    * ``hands``: seat -> cards; seats not named get ``filler_size`` cards from what is left.
    * ``table``: (owner, cards) melds, laid in order (ids 0, 1, ...); a run lowest card first.
    * ``discards``: the discard pile, bottom first (its last card is the top).
    * ``stock_top``: the next cards drawn from the stock, in drawing order (first = next drawn).
    * ``stock_size``: cut the stock to this many cards; the rest goes *under* the discard pile.
    * ``phase`` and ``turn``: the phase and the seat in turn (PLAY: the player has drawn).
    """
    if round_number is not None:
        game.round_index = round_number - 1
    if game.phase == Phase.CUT:  # deal first, then forget the cut
        game.apply(Cut(game.turn, game.rules.hand_size * game.players + 1))
    game.cut = None
    if dealer is not None:
        game.dealer = dealer
    pool = pack_counter(game)

    def take(cs: Sequence[Card]) -> list[Card]:
        for c in cs:
            if pool[c] <= 0:
                raise AssertionError(f"the pack holds no more {c!r} for this rigging")
            pool[c] -= 1
        return list(cs)

    rules = game.rules
    melds = []
    for owner, cs in table:
        meld = make_meld(take(cards(cs)), rules)
        melds.append(TableMeld(len(melds), owner, meld))
    pile = take(cards(discards))
    top = take(cards(stock_top))
    named = {s: take(cards(cs)) for s, cs in (hands or {}).items()}
    rest = sorted(pool.elements())
    random.Random(seed).shuffle(rest)
    # Jokers go to the bottom of the stock, never into a filler hand or near the top of the stock.
    jokers = [c for c in rest if c == JOKER]
    rest = [c for c in rest if c != JOKER]
    new_hands: list[list[Card]] = []
    for s in range(game.players):
        if s in named:
            new_hands.append(named[s])
        else:
            new_hands.append(rest[:filler_size])
            rest = rest[filler_size:]
    stock = jokers + rest + top[::-1]
    if stock_size is not None:
        cut = len(stock) - stock_size
        assert cut >= 0, "not enough cards for that stock"
        pile = stock[:cut] + pile
        stock = stock[cut:]
    game.hands = new_hands
    game.table = melds
    game.discards = pile
    game.stock = stock
    game.down = [s in set(down) for s in range(game.players)]
    game.down_this_turn = False
    game.pending_wild = None
    game.buy_window = None
    game.shanghai_window = None
    game.buys_used = [0] * game.players
    for s, k in (buys_used or {}).items():
        game.buys_used[s] = k
    game.stock_renewals = 0
    game.joker_free = []
    game.discard_live = discard_live and bool(pile)
    game.turn = turn if turn is not None else game.turn
    game.discarder = discarder if discarder is not None else (game.turn - 1) % game.players
    game.phase = phase
    assert_conserved(game)
    return game


def assert_illegal(game: Game, action: Action, match: str | None = None) -> IllegalActionError:
    """The action is refused with a reason (matching ``match``) and the state is unchanged."""
    before = game.snapshot()
    with pytest.raises(IllegalActionError, match=match) as info:
        game.apply(action)
    assert str(info.value), "an illegal action must say why"
    assert isinstance(info.value, ValueError)
    assert game.snapshot() == before
    return info.value


def points(game: Game, text: CardsLike) -> int:
    return sum(game.rules.points(c) for c in cards(text))


def finish_round(game: Game, winner: int, left: Mapping[int, CardsLike] | None = None) -> RoundResult:
    """Rig the round so that ``winner`` goes out at once, the others holding ``left`` (or filler
    hands); returns the round's result."""
    hands: dict[int, CardsLike] = dict(left or {})
    hands[winner] = "9D"
    rig(game, hands=hands, table=[(winner, "5D 6D 7D 8D")], down=[winner], turn=winner,
        phase=Phase.PLAY, discards="2H")
    before = len(game.round_results)
    if game.rules.going_out == "discard-last":
        game.apply(Discard(winner, card("9D")))
    else:
        game.apply(LayOff(winner, card("9D"), 0, "high"))
    assert len(game.round_results) == before + 1
    return game.round_results[-1]
