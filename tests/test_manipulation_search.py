"""The search player of manipulation rummy (004, first part): it plays from its view only, every
action is legal, a seed reproduces its games, and it leaves the expert's choice only on evidence."""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from shanghai.bots.manipulation import ManipulationExpert
from shanghai.bots.manipulation_search import ROLLOUT_TURNS, SOLVES, ManipulationSearch, _pick
from shanghai.bots.match import play_game
from shanghai.bots.registry import make_opponent, make_player
from shanghai.cards import make_pack, parse_cards
from shanghai.engine.manipulation import ManipulationGame, PlayToTable, manipulation_view
from shanghai.engine.record import GameRecord
from shanghai.rules import MANIPULATION
from shanghai.table_solver import best_play, check_meld, most_placed, parse_table

QUICK = MANIPULATION.changed(target_score=4)


def position(mine: str, table: str, others: tuple[int, ...] = (5, 5), shuffle: int = 0) -> ManipulationGame:
    """Seat 0 to play ``mine`` on ``table``; the rest of the pack shuffled (by ``shuffle``) into the
    other hands (of sizes ``others``) and the stock."""
    game = ManipulationGame.new(MANIPULATION, 1 + len(others), seed=1)
    hand, melds = parse_cards(mine), parse_table(table)
    rest = Counter(make_pack(game.pack.decks, 0))
    rest.subtract(hand)
    rest.subtract(c for m in melds for c in m)
    cards = sorted(rest.elements())
    random.Random(shuffle).shuffle(cards)
    game.hands = [hand]
    for n in others:
        game.hands.append(cards[:n])
        cards = cards[n:]
    game.table = melds
    game.stock = cards
    game.turn = 0
    game.refresh_derived()
    return game


@pytest.mark.parametrize("players", [3, 4, 5])
def test_whole_games_against_the_other_players(players: int) -> None:
    """Every action the search chooses is one the engine accepts (it would raise), no card is created
    or lost, and the record replays the same game."""
    seats = [ManipulationSearch(s, iterations=2, rollout_turns=players, confidence=0.0) if s % 2 == 0
             else ManipulationExpert(s) for s in range(players)]
    game = play_game(QUICK, players, seed=10 + players, seats=seats)
    assert game.is_over and game.card_count() == 52 * game.pack.decks
    for meld in game.table:
        check_meld(meld)
    replayed = GameRecord.from_jsonl(GameRecord.of(game).to_jsonl()).replay()
    assert isinstance(replayed, ManipulationGame) and replayed.snapshot() == game.snapshot()
    searched = [p for p in seats if isinstance(p, ManipulationSearch)]
    assert sum(p.searched for p in searched) > 0  # it had real decisions to weigh


def test_a_seed_reproduces_its_game() -> None:
    def game(seed: int) -> list[str]:
        seats = [ManipulationSearch(seed, iterations=3, rollout_turns=6), ManipulationExpert(1),
                 ManipulationExpert(2)]
        return [str(a) for a in play_game(QUICK, 3, seed=5, seats=seats).actions]

    assert game(7) == game(7)


def test_it_decides_from_its_view_only() -> None:
    """Two positions that differ only in cards seat 0 cannot see (the others' hands and the stock)
    give it the same view, so the same seed makes the same choice."""
    table = "3H 4H 5H | 9S 9D 9C"
    mine = "6H 7H 9H 2C 2D KS KD"
    a = position(mine, table, shuffle=1)
    b = position(mine, table, shuffle=2)
    assert a.hands[1:] != b.hands[1:]
    va, vb = manipulation_view(a, 0), manipulation_view(b, 0)
    assert va == vb
    for seed in range(3):
        pa = ManipulationSearch(seed, iterations=3, rollout_turns=6, confidence=0.0).choose(va)
        pb = ManipulationSearch(seed, iterations=3, rollout_turns=6, confidence=0.0).choose(vb)
        assert pa == pb
        a.copy().apply(pa)  # legal where it was chosen


def test_candidates_are_the_anchor_then_distinct_sets_of_cards() -> None:
    """The expert's play first; the engine's offers; the plays as large without one card and those
    one card smaller that hold it back; each set of cards once (the arrangement does not matter to
    what follows)."""
    game = position("6H 7H 9H 9S KS KD KC", "3H 4H 5H | 9D 9C 9H")
    view = manipulation_view(game, 0)
    search = ManipulationSearch(1, iterations=2)
    anchor = search.expert.choose(view)
    assert isinstance(anchor, PlayToTable)
    found = search._candidates(view, anchor)
    assert found[0] == tuple(sorted(anchor.placed))
    assert len(found) == len(set(found))
    sizes = sorted({len(c) for c in found}, reverse=True)
    largest = len(anchor.placed)
    assert sizes[0] == largest and largest - 1 in sizes  # holding one card back is weighed
    table = [c for m in game.table for c in m]
    for placed in found:  # each can be placed as it is
        assert best_play(game.table, list(placed), must_place=placed) is not None
        assert most_placed(table, list(placed)) == tuple(sorted(placed))


def test_it_leaves_the_anchor_only_on_evidence() -> None:
    """_pick: the anchor (0) unless a candidate's paired advantage exceeds the confidence in standard
    errors; the most advantageous of those."""
    anchor = [5.0, 3.0, 4.0, 6.0]
    close = [4.0, 3.5, 3.0, 6.5]      # mean -0.25, noisy
    clear = [3.0, 1.0, 2.0, 4.0]      # exactly 2 better every time
    clearer = [2.5, 0.0, 1.5, 3.0]    # 2.75 better, standard error 0.25
    assert _pick([anchor, close], 2.0) == 0
    assert _pick([anchor, close], 0.0) == 1
    assert _pick([anchor, clear], 2.0) == 1
    assert _pick([anchor, clear, clearer], 2.0) == 2
    assert _pick([[5.0], [4.0]], 2.0) == 0  # one sample gives no standard error: stay
    assert _pick([anchor, [6.0, 4.0, 5.0, 7.0]], 0.0) == 0  # worse is never chosen


def test_going_out_and_forced_moves_are_not_searched() -> None:
    out = position("6H 7H", "3H 4H 5H | 9D 9C 9H")
    search = ManipulationSearch(1, iterations=50)
    action = search.choose(manipulation_view(out, 0))
    assert isinstance(action, PlayToTable) and len(action.placed) == 2 and search.searched == 0
    stuck = position("2C KD", "3H 4H 5H | 9D 9C 9H")
    assert str(search.choose(manipulation_view(stuck, 0))) == "0 draw"


def test_a_time_budget_for_people() -> None:
    game = position("6H 7H 9H 9S KS KD KC 2D", "3H 4H 5H | 9D 9C 9H")
    search = ManipulationSearch(3, iterations=None, budget_s=0.05)
    start = time.perf_counter()
    action = search.choose(manipulation_view(game, 0))
    assert time.perf_counter() - start < 5.0  # the budget plus one sample's rollouts
    game.apply(action)
    with pytest.raises(ValueError, match="iterations must be at least 1"):
        ManipulationSearch(iterations=0)


def test_by_name_with_settings() -> None:
    search = make_player("search", 1, MANIPULATION)
    assert isinstance(search, ManipulationSearch) and search.iterations == 8
    assert (search.rollout_turns, search.solves, search.confidence) == (ROLLOUT_TURNS, SOLVES, 2.0)
    tuned = make_player("search:4:rollout_turns=6:confidence=1:solves=300", 1, MANIPULATION)
    assert isinstance(tuned, ManipulationSearch)
    assert (tuned.iterations, tuned.rollout_turns, tuned.confidence, tuned.solves) == (4, 6, 1.0, 300)
    whole = make_player("search:rollout_turns=0:solves=0", 1, MANIPULATION)  # 0: to the hand's end, no cap
    assert isinstance(whole, ManipulationSearch) and (whole.rollout_turns, whole.solves) == (None, None)
    with pytest.raises(ValueError, match="solves must be at least 0"):
        make_player("search:solves=-1", 1, MANIPULATION)
    with pytest.raises(ValueError, match="solves must be at least 1"):
        ManipulationSearch(solves=0)
    with pytest.raises(ValueError, match="search has no setting 'top_k'"):
        make_player("search:top_k=2", 1, MANIPULATION)
    with pytest.raises(ValueError, match="number of iterations must be"):
        make_player("search:0", 1, MANIPULATION)
    # a person's level "expert" stays the expert until the search is measured stronger (README)
    assert type(make_opponent("expert", 1, MANIPULATION)).__name__ == "ManipulationExpert"


def test_most_placed_is_best_plays_choice() -> None:
    """The rollouts' shortcut places exactly the cards of the solver's best play."""
    rng = random.Random(5)
    checked = 0
    for seed in range(3):
        game = ManipulationGame.new(MANIPULATION, 4, seed)
        player = ManipulationExpert(seed)
        while not game.is_over and checked < 60 * (seed + 1):
            table = game.table_cards()
            hand = game.hands[game.turn]
            sub = rng.sample(hand, k=max(1, len(hand) - rng.randrange(3)))
            for cards in (hand, sub):
                expected = best_play(game.table, cards)
                assert expected is not None and most_placed(table, cards) == expected.placed
            checked += 1
            game.apply(player.choose(manipulation_view(game, game.turn)))


def test_a_card_drawn_to_a_stuck_hand_is_answered_without_the_programme_when_it_cannot_play() -> None:
    """004: a player who cannot place draws until a card can be placed; every play of the hand with
    the drawn card must then use it, so ``most_placed(..., drawn=card)`` gives what it gives without
    the hint, on game positions (stuck hands drawing each card of the stock in turn)."""
    checked = shortcut = 0
    for seed in range(2):
        game = ManipulationGame.new(MANIPULATION, 4, seed)
        player = ManipulationExpert(seed)
        while not game.is_over and checked < 150 * (seed + 1):
            table = game.table_cards()
            hand = list(game.hands[game.turn])
            for card in game.stock[-6:]:
                if most_placed(table, hand):
                    break
                hand.append(card)
                with_hint = most_placed(table, hand, drawn=card)
                assert with_hint == most_placed(table, hand)
                shortcut += not with_hint
                checked += 1
            game.apply(player.choose(manipulation_view(game, game.turn)))
    assert checked > 100 and shortcut > 10
    with pytest.raises(ValueError, match="the drawn card 2C is not in the hand"):
        most_placed(parse_cards("7H 7S 7D"), parse_cards("3C"), drawn=parse_cards("2C")[0])


def test_the_work_cap_stops_the_samples_but_not_before_two() -> None:
    """``solves`` caps the solver runs of a decision: past it the search stops after the sample that
    reached it, yet takes 2 samples at least (a paired test needs two)."""
    game = position("6H 7H 9H 9S KS KD KC 2D 4C", "3H 4H 5H | 9D 9C 9H", others=(9, 9, 9))
    view = manipulation_view(game, 0)
    search = ManipulationSearch(3, iterations=8, solves=1)
    anchor = search.expert.choose(view)
    assert isinstance(anchor, PlayToTable)
    candidates = search._candidates(view, anchor)
    assert len(candidates) > 1
    assert [len(s) for s in search._search(view, candidates)] == [2] * len(candidates)
    free = ManipulationSearch(3, iterations=8, solves=None)
    assert [len(s) for s in free._search(view, candidates)] == [8] * len(candidates)
