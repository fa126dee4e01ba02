"""Determinization (engine/determinize.py): a whole game consistent with one seat's view.

States come from real games between random and greedy players (random players buy often and go
down late, so rounds run long enough for buy windows, "Shanghai" windows and stock renewals).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from shanghai.bots.greedy import GreedyPlayer
from shanghai.bots.random_player import RandomPlayer
from shanghai.cards import Card, make_pack
from shanghai.engine.determinize import determinize, public_round, sample
from shanghai.engine.game import Game, Phase
from shanghai.engine.view import PlayerView, view
from shanghai.rules import preset
from shanghai.rules.model import Rules

CASES = [
    ("isra", (), 4), ("isra", (), 6), ("isra-junior", (), 3), ("isra-express", (), 5),
    ("may-i", (), 4), ("may-i", ("shanghai-call",), 4), ("may-i", ("shanghai-call", "no-split"), 3),
    ("may-i-10", (), 5), ("family-10", (), 4), ("family-10", (), 6), ("contract-10", (), 3),
    ("contract-10", (), 5),
]


def _rules(name: str, options: tuple[str, ...]) -> Rules:
    return preset(name, options)


def _states(rules: Rules, players: int, seed: int, every: int, steps: int = 1500) -> Iterator[Game]:
    """Mid-round states of one game (the game itself, to be copied by the caller), every few
    actions, with mostly random players (for long rounds, buys, renewals) and one greedy one."""
    rng = random.Random(seed)
    game = Game.new(rules, players, seed)
    bots = [GreedyPlayer(seed) if s == 0 else RandomPlayer(seed * 10 + s) for s in range(players)]
    step = 0
    while not game.is_over and step < steps:
        if step % every == rng.randrange(every):
            yield game
        seat = game.to_act()[0]
        game.apply(bots[seat].choose(view(game, seat)))
        step += 1


def _check(game: Game, seat: int, rng: random.Random) -> None:
    v = view(game, seat)
    d = determinize(v, rng)
    # the seat's own hand and everything public are exact
    assert d.hands[seat] == game.hands[seat]
    assert [len(h) for h in d.hands] == [len(h) for h in game.hands]
    assert len(d.stock) == len(game.stock)
    assert len(d.discards) == len(game.discards) and d.discard_top == game.discard_top
    assert d.table == game.table and d.down == game.down and d.buys_used == game.buys_used
    for attr in ("phase", "turn", "dealer", "round_index", "discard_live", "discarder", "down_this_turn",
                 "pending_wild", "stock_renewals", "cut", "joker_free", "turns_taken", "totals",
                 "round_results"):
        if attr == "discarder" and game.phase == Phase.CUT:
            continue  # before the deal the last round's discarder lingers; the deal resets it
        assert getattr(d, attr) == getattr(game, attr), attr
    if game.down_this_turn:
        assert d.others_down_when_went_down == game.others_down_when_went_down
    if game.buy_window is None:
        assert d.buy_window is None
    else:
        assert d.buy_window is not None
        w, x = game.buy_window, d.buy_window
        assert (w.seats, w.answers, w.before_draw, w.claimant) == (x.seats, x.answers, x.before_draw, x.claimant)
    if game.shanghai_window is None:
        assert d.shanghai_window is None
    else:
        assert d.shanghai_window is not None
        s1, s2 = game.shanghai_window, d.shanghai_window
        assert (s1.seats, s1.card, s1.discarder, s1.answers) == (s2.seats, s2.card, s2.discarder, s2.answers)
    pack = game.rules.pack_for(game.players)
    assert Counter(d.all_cards()) == Counter(make_pack(pack.decks, pack.jokers))
    # known cards of the discard pile are where they are
    pub = public_round(v)
    for token, true in zip(pub.pile, game.discards, strict=True):
        assert token is None or token == true
    # opponents' known cards are in their hands
    for s, known in enumerate(pub.known):
        assert not Counter(known) - Counter(game.hands[s])
    # after a renewal the true stock is drawn from the renewed pile
    if pub.segment is not None and all(c is not None for c in pub.segment):
        assert not Counter(game.stock) - Counter(c for c in pub.segment if c is not None)
    # the same legal actions for the seat, and for everyone to act
    assert tuple(d.legal_actions(seat)) == v.legal
    assert d.to_act() == game.to_act()


@pytest.mark.parametrize(("name", "options", "players"), CASES)
def test_determinization_matches_the_view(name: str, options: tuple[str, ...], players: int) -> None:
    rules = _rules(name, options)
    rng = random.Random(5)
    checked = 0
    for seed in (1,):
        for game in _states(rules, players, seed, every=67, steps=900):
            for seat in range(players):
                _check(game, seat, rng)
                checked += 1
    assert checked > 15


def test_determinizations_play_on() -> None:
    """A determinized game is a real game: players finish it without an illegal action."""
    rules = _rules("may-i", ("shanghai-call",))
    rng = random.Random(2)
    for game in _states(rules, 4, 3, every=301):
        seat = game.to_act()[0]
        d = determinize(view(game, seat), rng)
        bots = [GreedyPlayer(s) for s in range(4)]
        r = d.round_index
        while not d.is_over and d.round_index == r:
            s = d.to_act()[0]
            d.apply(bots[s].choose(view(d, s)))


def _renewal_state() -> tuple[Game, int]:
    """A state after a stock renewal (random players go down late, rounds run long)."""
    rules = _rules("family-10", ())
    for seed in range(1, 60):
        for game in _states(rules, 4, seed, every=7, steps=4000):
            if game.stock_renewals > 0 and game.phase == Phase.DRAW and game.buy_window is not None:
                return game, seed
    raise AssertionError("no renewal found")


def test_stock_renewal_samples_the_renewed_pile() -> None:
    game, _ = _renewal_state()
    seat = game.to_act()[0]
    for s in range(game.players):
        _check(game, s, random.Random(s))
    v = view(game, seat)
    pub = public_round(v)
    assert pub.segment is not None and pub.renewals == game.stock_renewals
    renewed = Counter(c for c in pub.segment if c is not None)
    rng = random.Random(1)
    for _ in range(20):
        d = sample(pub, rng)
        if None not in pub.segment:
            assert not Counter(d.stock) - renewed
        assert tuple(d.legal_actions(seat)) == v.legal


def _with_hidden_cards_swapped(game: Game, seat: int, rng: random.Random) -> Game:
    """The same game with the hidden cards (other hands' unknown parts, the stock) dealt anew:
    the seat's view is unchanged (the opponents' known cards are kept)."""
    v = view(game, seat)
    pub = public_round(v)
    other = sample(pub, rng)
    other.actions = list(game.actions)
    other.round_start = game.round_start
    return other


def _fingerprint(g: Game) -> tuple[object, ...]:
    return (tuple(tuple(h) for h in g.hands), tuple(g.stock), tuple(g.discards), g.rng.getstate())


def test_no_hidden_information_is_used() -> None:
    """Two games that differ only in hidden cards give the same view and the same determinizations."""
    rules = _rules("isra", ())
    rng = random.Random(9)
    compared = 0
    for game in _states(rules, 4, 4, every=90, steps=900):
        seat = game.to_act()[0]
        twin = _with_hidden_cards_swapped(game, seat, rng)
        v1, v2 = view(game, seat), view(twin, seat)
        assert v1 == v2
        if [sorted(h) for s, h in enumerate(game.hands) if s != seat] == \
                [sorted(h) for s, h in enumerate(twin.hands) if s != seat]:
            continue  # nothing hidden actually differs
        a = determinize(v1, random.Random(77))
        b = determinize(v2, random.Random(77))
        assert _fingerprint(a) == _fingerprint(b)
        compared += 1
    assert compared >= 3


def test_flip_card_remembered() -> None:
    rules = _rules("may-i", ())
    game = Game.new(rules, 4, 11)
    flip: Card | None = game.discard_top
    bots = [GreedyPlayer(s) for s in range(4)]
    for _ in range(12):
        s = game.to_act()[0]
        game.apply(bots[s].choose(view(game, s)))
    v: PlayerView = view(game, 2)
    pub = public_round(v, flip=flip)
    if pub.pile and pub.renewals == 0 and len(pub.pile) > 1:
        assert pub.pile[0] == flip == game.discards[0]
    assert tuple(determinize(v, random.Random(0), flip=flip).legal_actions(2)) == v.legal


def test_spectator_and_finished_views_are_refused() -> None:
    game = Game.new(_rules("isra-junior", ()), 3, 1)
    with pytest.raises(ValueError):
        determinize(view(game, None), random.Random(0))


def test_a_freed_wilds_bridge_is_replayed() -> None:
    """docs/rules.md decision 21 (000: "use the swapped-out JOKER to set up a bridge to play other
    cards in your hand"): while a freed wild waits, cards of the hand may be laid off first. The
    replay must lose those cards from the hand and keep the wild waiting; it used to take the first
    such lay-off for the wild's own, and no game fitted the view."""
    from shanghai.bots.expert import ExpertPlayer
    from shanghai.engine.actions import LayOff

    rules = _rules("isra", ())
    rng = random.Random(3)
    bridged = 0
    for seed in range(9000, 9060):
        game = Game.new(rules, 4, seed)
        bots = [ExpertPlayer(seed * 10 + s) for s in range(4)]
        while not game.is_over and bridged < 4:
            seat = game.to_act()[0]
            if game.pending_wild is not None:
                naturals = [a for a in game.legal_list(seat)
                            if isinstance(a, LayOff) and a.card != game.pending_wild]
                for a in naturals[:2]:
                    after = game.copy()
                    after.apply(a)
                    assert after.pending_wild is not None
                    _check(after, seat, rng)
                    _check(after, (seat + 1) % 4, rng)
                    bridged += 1
            game.apply(bots[seat].choose(view(game, seat)))
        if bridged >= 4:
            break
    assert bridged >= 4, "no freed wild with a lay-off to bridge to in these games"
