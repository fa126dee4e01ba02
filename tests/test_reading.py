"""Reading the opponents (``shanghai.bots.reading``) and the weighted determinization it feeds."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from shanghai.bots.expert import ExpertPlayer
from shanghai.bots.reading import card_weights, evidence
from shanghai.bots.registry import make_player
from shanghai.bots.search import SearchPlayer
from shanghai.cards import Card, parse_card
from shanghai.engine.actions import Action, Buy, CallShanghai, Discard, DrawStock, GoDown, Pass, TakeDiscard
from shanghai.engine.determinize import public_round, sample
from shanghai.engine.game import Game
from shanghai.engine.view import PlayerView, view
from shanghai.rules import preset

C = parse_card


def _view(round_index: int, history: tuple[Action, ...] = ()) -> PlayerView:
    """Seat 0's view of a fresh deal of one isra round, its history replaced (evidence reads only it)."""
    rules = preset("isra")
    v = view(Game.new(rules.changed(rounds=rules.rounds[round_index:round_index + 1]), 4, seed=1), 0)
    return dataclasses.replace(v, history=history)


def test_discards_pick_ups_and_passes_are_read_until_the_seat_goes_down() -> None:
    down = GoDown(2, ())
    v = _view(0, (Discard(1, C("7H")), Pass(2), TakeDiscard(3), Discard(3, C("9S")), DrawStock(1),
                  down, Discard(2, C("KD")), Buy(3), Discard(0, C("4C"))))
    ev = evidence(v)
    assert ev[1] == [(C("7H"), 1.0), (C("9S"), 0.5)]   # its discard; the 9S let go by (drew from the stock)
    assert ev[2] == [(C("7H"), 0.5)]                   # passed the 7H; once down, its KD says nothing
    assert ev[3] == [(C("7H"), -1.0), (C("9S"), 1.0), (C("KD"), -1.0)]
    assert ev[0] == []                                 # the seat's own hand is known, not read
    # a discard protected by "Shanghai" (001 var. 3) is not on offer, nor one a "Shanghai" call took
    ev = evidence(_view(0, (Discard(1, C("7H"), shanghai=True), DrawStock(2), Discard(2, C("9S")),
                            CallShanghai(1, 0), DrawStock(3))))
    assert ev[2] == [(C("9S"), 1.0)] and ev[3] == []


def test_weights_follow_the_contract() -> None:
    """Round 1 (two sets): a discarded 7H makes the other 7s less likely, not its neighbours in hearts;
    round 3 (two runs): the other way round; a pick-up makes them more likely."""
    sets = card_weights(_view(0, (Discard(1, C("7H")), TakeDiscard(2))), 0.5)
    assert sets[1][C("7S")] == 0.5 and C("8H") not in sets[1] and C("JK") not in sets[1]
    assert sets[2][C("7D")] == 2.0
    runs = card_weights(_view(2, (Discard(1, C("7H")),)), 0.5)
    assert runs[1][C("8H")] == runs[1][C("5H")] == 0.5 and C("7S") not in runs[1] and C("10H") not in runs[1]
    assert card_weights(_view(2, (Discard(1, C("7H")),)), 1.0) == [{}, {}, {}, {}]
    with pytest.raises(ValueError, match="reading factor"):
        card_weights(_view(0), 0.0)


def _midround(seed: int = 11) -> Game:
    rules = preset("isra")
    game = Game.new(rules.changed(rounds=rules.rounds[2:3]), 4, seed=seed)
    bots = [ExpertPlayer(s) for s in range(4)]
    while sum(isinstance(a, Discard) for a in game.actions) < 8 or game.to_act()[0] != 0:
        seat = game.to_act()[0]
        game.apply(bots[seat].choose(view(game, seat)))
    return game


def test_a_weighted_sample_keeps_every_card_and_the_public_state() -> None:
    game = _midround()
    v = view(game, 0)
    pub = public_round(v)
    weights = card_weights(v, 0.3)
    plain = sample(pub, random.Random(4))
    for k in range(20):
        d = sample(pub, random.Random(k), weights)
        assert Counter(d.all_cards()) == Counter(plain.all_cards())
        assert [len(h) for h in d.hands] == [len(h) for h in game.hands] and d.hands[0] == game.hands[0]
        assert len(d.stock) == len(game.stock) and d.table == game.table
        assert all(t is None or t == c for t, c in zip(pub.pile, d.discards, strict=True))
        for s, known in enumerate(pub.known):
            assert not Counter(known) - Counter(d.hands[s])
        assert tuple(d.legal_actions(0)) == v.legal


def test_without_weights_the_generator_is_used_as_always() -> None:
    pub = public_round(view(_midround(), 0))
    a, b = sample(pub, random.Random(9)), sample(pub, random.Random(9), None)
    assert (a.hands, a.stock, a.discards) == (b.hands, b.stock, b.discards)


def test_the_weights_shift_the_cards_dealt() -> None:
    """A card weighted 50 times down in seat 1's hand turns up there far less often than in a uniform
    deal, and the frequencies follow the weights (Metropolis, not a hard rule)."""
    game = _midround()
    v = view(game, 0)
    pub = public_round(v)
    unseen = Counter(pub.unseen)
    card = max(unseen, key=lambda c: (unseen[c], c))
    low: list[dict[Card, float]] = [{}, {card: 0.02}, {}, {}]
    plain = sum(card in sample(pub, random.Random(k)).hands[1] for k in range(300))
    weighted = sum(card in sample(pub, random.Random(k), low).hands[1] for k in range(300))
    assert plain > 40 and weighted < plain / 4, (plain, weighted)


def test_the_search_reads_only_when_asked() -> None:
    assert make_player("search:read=0.5", 1).read == 0.5  # type: ignore[union-attr]
    assert make_player("search", 1).read == 1.0  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="read"):
        make_player("search:read=0", 1)
    with pytest.raises(ValueError, match="read is above 0"):
        SearchPlayer(1, read=1.5)
    game = _midround()
    v = view(game, 0)
    a = SearchPlayer(3, iterations=8, rollout=ExpertPlayer, read=0.5).choose(v)
    assert a in v.legal
    assert a == SearchPlayer(3, iterations=8, rollout=ExpertPlayer, read=0.5).choose(v)  # seeds reproduce
