"""What the engine's speed work must never change: the go-down bound is sound, copies are
independent and equal, the legal-action list is the same however it is asked for, and the
random player still plays the same game from the same seeds.

(Speed itself is never asserted here: see benchmarks/bench.py.)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

import pytest

from shanghai import fits
from shanghai.bots import RandomPlayer
from shanghai.cards import Card, make_pack
from shanghai.engine import Game, GoDown, LayOff, Phase
from shanghai.engine.contract_bound import ContractBound, contract_bound
from shanghai.engine.view import view
from shanghai.errors import InvalidMeldError
from shanghai.melds import Meld, check_run, check_set
from shanghai.rules import Rules, preset
from shanghai.solver import solve_contract

PRESETS = [("isra", ()), ("may-i", ()), ("may-i", ("aces-high",)), ("family-10", ()),
           ("contract-10", ())]


def _hands(rng: random.Random, pack: list[Card], count: int) -> list[list[Card]]:
    """Random hands, half of them from a few ranks or one suit so that many come close."""
    hands = []
    for _ in range(count):
        pool = pack
        if rng.random() < 0.5:
            ranks = set(rng.sample(range(1, 14), 5))
            suit = rng.randrange(4)
            pool = [c for c in pack if (c & 15) in ranks or c == 64 or c >> 4 == suit]
        hands.append(rng.sample(pool, min(len(pool), rng.randint(8, 15))))
    return hands


@pytest.mark.parametrize(("name", "options"), PRESETS)
def test_bound_never_rejects_a_hand_that_meets_the_contract(name: str, options: tuple[str, ...]) -> None:
    rules = preset(name, options)
    rng = random.Random(hash(name) % 1000)
    pack = make_pack(3, 6)
    for number in range(1, len(rules.rounds) + 1):
        bound = ContractBound(rules, number)
        contract = rules.contract(number)
        for hand in _hands(rng, pack, 60):
            if not bound.possible(hand):
                assert solve_contract(hand, contract, rules) is None, (number, sorted(hand))


def test_bound_lets_two_runs_of_one_suit_share_a_missing_place() -> None:
    # may-i RUN RUN: 6D 7D _ 9D and 7D _ 9D 10D, each gap filled by a wild (2S, JK); the bound once
    # charged the shared empty place 8D a third time (found by the random test above)
    rules = preset("may-i")
    hand = [Card(c) for c in (1, 2, 27, 27, 33, 38, 39, 39, 41, 41, 42, 49, 59, 59, 64)]
    assert solve_contract(hand, rules.contract(3), rules) is not None
    assert ContractBound(rules, 3).possible(hand)
    assert ContractBound(rules, 3)._possible_reference(hand)


def test_bound_is_shared_per_rules_and_round() -> None:
    isra = preset("isra")
    assert contract_bound(isra, 3) is contract_bound(isra, 3)
    assert contract_bound(isra, 3) is not contract_bound(isra, 4)


def _play(game: Game, steps: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        game.apply(rng.choice(game.legal_list()))


def test_copy_is_equal_and_independent() -> None:
    game = Game.new(preset("isra"), 4, seed=3)
    _play(game, 300, 1)
    other = game.copy()
    assert other.snapshot() == game.snapshot()
    twice = other.copy()  # a copy of a copy whose generator was never used
    assert twice.snapshot() == game.snapshot()
    _play(other, 2000, 2)  # through round ends: the copy's generator is used
    _play(twice, 2000, 2)
    assert other.snapshot() == twice.snapshot()
    assert other.snapshot() != game.snapshot()
    before = game.snapshot()
    _play(game, 2000, 2)
    assert game.snapshot() == other.snapshot()
    assert before != game.snapshot()


def test_legal_list_matches_legal_actions_and_view() -> None:
    for name, options in PRESETS:
        game = Game.new(preset(name, options), 4, seed=5)
        rng = random.Random(5)
        for _ in range(400):
            if game.is_over:
                break
            legal = game.legal_list()
            assert legal == list(game.legal_actions())
            for seat in range(4):
                mine = game.legal_list(seat)
                assert mine == [a for a in legal if a.seat == seat]
                assert tuple(mine) == view(game, seat).legal
            game.apply(rng.choice(legal))


def test_refresh_derived_after_direct_assignment() -> None:
    game = Game.new(preset("isra"), 4, seed=9)
    _play(game, 200, 4)
    rebuilt = Game(game.rules, game.players, 0)
    for name, value in vars(game.copy()).items():
        setattr(rebuilt, name, value)
    rebuilt.refresh_derived()
    assert rebuilt.snapshot() == game.snapshot()
    assert rebuilt.legal_list() == game.legal_list()


def test_random_players_replay_the_same_game() -> None:
    def play() -> tuple[object, ...]:
        game = Game.new(preset("isra"), 4, seed=11)
        players = [RandomPlayer(seed=s) for s in range(4)]
        while not game.is_over and game.phase is not Phase.GAME_OVER:
            seat = game.to_act()[0]
            game.apply(players[seat].choose(view(game, seat)))
            if len(game.actions) > 3000:
                break
        return game.snapshot()

    assert play() == play()


@pytest.mark.parametrize(("name", "options"), [*PRESETS, ("may-i", ("no-split",)), ("isra-junior", ())])
def test_bound_from_its_summary_equals_the_bound_from_the_hand(name: str, options: tuple[str, ...]) -> None:
    """``possible`` reads one sum over the hand; ``_possible_reference`` reads the hand itself."""
    rules = preset(name, options)
    rng = random.Random(7)
    for decks in (2, 3):
        pack = make_pack(decks, 6)
        for number in range(1, len(rules.rounds) + 1):
            bound = ContractBound(rules, number)
            for hand in _hands(rng, pack, 150) + [rng.sample(pack, rng.randint(12, 30)) for _ in range(150)]:
                assert bound.possible(hand) == bound._possible_reference(hand), (number, sorted(hand))


def _melds_met(rules: Rules, seeds: Iterable[int]) -> Iterator[tuple[Game, Meld]]:
    """Every meld met on the table (each once) in games of these seeds whose actions are drawn at
    random, going down and laying off first; the game is as it was when the meld was met."""
    seen: set[Meld] = set()
    for seed in seeds:
        game = Game.new(rules, 4, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            for tm in game.table:
                if tm.meld not in seen:
                    seen.add(tm.meld)
                    yield game, tm.meld
            legal = game.legal_list()
            progress = [a for a in legal if isinstance(a, GoDown | LayOff)]
            game.apply(rng.choice(progress or legal))


@pytest.mark.parametrize(("name", "options"), [*PRESETS, ("may-i", ("no-split",)), ("may-i-10", ())])
def test_lay_off_options_by_shape_equal_those_tried(name: str, options: tuple[str, ...]) -> None:
    """Melds of one shape share their options (fits._shape): each meld met in play accepts
    exactly the cards that trying every card on it finds."""
    rules = preset(name, options)
    seen = 0
    for _, meld in _melds_met(rules, range(6)):
        seen += 1
        assert fits.lay_off_options(meld, rules) == fits._options(meld, rules), meld
    assert seen > 50


def test_lay_off_options_of_every_small_run_and_set() -> None:
    """Every run of 3 to 6 places with any wilds in it (and every set), laid out by hand: the
    options by shape equal the options tried, under each preset's rules."""
    for name, options in [*PRESETS, ("may-i", ("no-split",))]:
        rules = preset(name, options)
        wilds = [Card(c) for c in (64, 2, 50) if rules.is_wild(c)]
        for suit in range(4):
            for low in range(1, 15):
                for size in range(3, 7):
                    if low + size - 1 > 14:
                        break
                    for pattern in range(1 << size):
                        for wild in wilds:
                            cards = tuple(wild if pattern >> i & 1 else
                                          Card(suit * 16 + (1 if low + i == 14 else low + i))
                                          for i in range(size))
                            try:
                                meld = check_run(cards, rules)
                            except InvalidMeldError:
                                continue
                            if meld.low != low:
                                continue
                            assert fits.lay_off_options(meld, rules) == fits._options(meld, rules), meld
        for rank in range(1, 14):
            for naturals in range(0, 5):
                for extra in range(0, 4):
                    for wild in wilds or [Card(64)]:
                        cards = tuple(Card(s * 16 + rank) for s in range(naturals)) + (wild,) * extra
                        try:
                            meld = check_set(cards, rules)
                        except InvalidMeldError:
                            continue
                        assert fits.lay_off_options(meld, rules) == fits._options(meld, rules), meld


def test_lay_offs_made_from_the_options_equal_those_checked() -> None:
    """A lay-off the meld's options list is made directly (``Game._laid_off``): the same meld as
    ``Meld.lay_off`` makes, checking it."""
    checked = 0
    for name, options in [*PRESETS, ("may-i", ("no-split",)), ("may-i-10", ())]:
        rules = preset(name, options)
        for game, meld in _melds_met(rules, range(3)):
            for card, ends in fits.lay_off_options(meld, rules).items():
                for end in ends:
                    assert game._laid_off(meld, card, end) == meld.lay_off(card, end, rules)
                    checked += 1
    assert checked > 1000
