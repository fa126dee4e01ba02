"""The table solver of manipulation rummy (document 004, first part), checked by examples, by properties,
against an independent integer program (``tests/milp_table.py``) and against brute force.

``SHANGHAI_TABLE_CASES`` sets how many random positions the integer program checks (default 2000).
"""

from __future__ import annotations

import itertools
import os
import random
import time
from collections import Counter
from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from milp_table import milp_best
from shanghai.cards import JOKER, cards_text, make_card, parse_cards
from shanghai.errors import InvalidMeldError
from shanghai.table_solver import (
    TablePlay,
    _rank_step,
    arrange,
    best_play,
    can_place,
    canonical_meld,
    canonical_table,
    check_meld,
    meld_kind,
    parse_table,
    placeable_alone,
    placeable_cards,
    table_text,
)

NATURALS = [s * 16 + r for s in range(4) for r in range(1, 14)]


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def flat(melds: Sequence[Sequence[int]]) -> list[int]:
    return [c for m in melds for c in m]


def value(placed: Sequence[int]) -> int:
    return sum(c & 15 for c in placed)


def assert_valid_play(table: Sequence[int], hand: Sequence[int], play: TablePlay) -> None:
    """The play's table is a partition of exactly table + placed into legal melds, placed from the hand."""
    assert not Counter(int(c) for c in play.placed) - Counter(hand), "placed cards that are not in the hand"
    assert list(play.placed) == sorted(play.placed)
    assert Counter(flat(play.table)) == Counter(table) + Counter(play.placed)
    for meld in play.table:
        assert meld_kind(meld) is not None, cards_text(meld)
    assert play.table == canonical_table(play.table)


# -- the meld rules of document 004 ------------------------------------------------------------------
def test_set_meld() -> None:
    """004: "Set Meld. A set of 3 or 4 cards with the same rank but different suits." """
    assert meld_kind(cards("7H 7S 7D")) == "set"
    assert meld_kind(cards("7H 7S 7D 7C")) == "set"
    assert meld_kind(cards("7H 7S")) is None  # 3 or 4 cards
    assert meld_kind(cards("7H 7S 7D 7C 7H")) is None
    assert meld_kind(cards("7H 7H 7S")) is None  # different suits
    assert meld_kind(cards("7H 8S 7D")) is None  # same rank


def test_run_meld() -> None:
    """004: "Run Meld. A set of at least 3 cards of the same suit AND in sequence." """
    assert meld_kind(cards("4C 5C 6C")) == "run"
    assert meld_kind(cards("6C 4C 5C")) == "run"  # any order given
    assert meld_kind(cards("2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD")) == "run"  # A..K, 13 cards
    assert meld_kind(cards("4C 5C")) is None  # at least 3
    assert meld_kind(cards("4C 5C 7C")) is None  # in sequence
    assert meld_kind(cards("4C 5C 6H")) is None  # same suit
    assert meld_kind(cards("4C 5C 5C 6C")) is None


def test_ace_low_only() -> None:
    """004: "RANK OF CARDS: K (high), Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2, A": the ace is low, the king high."""
    assert meld_kind(cards("AS 2S 3S")) == "run"
    assert meld_kind(cards("QS KS AS")) is None
    assert meld_kind(cards("KS AS 2S")) is None  # no wrap
    assert meld_kind(cards("JS QS KS")) == "run"
    with pytest.raises(InvalidMeldError, match="ace is low only"):
        check_meld(cards("QS KS AS"))


def test_check_meld_reasons() -> None:
    with pytest.raises(InvalidMeldError, match=r"^7H 7H 7S: a set's suits must all differ$"):
        check_meld(cards("7H 7H 7S"))
    with pytest.raises(InvalidMeldError, match="at least 3 cards"):
        check_meld(cards("7H 7S"))
    with pytest.raises(InvalidMeldError, match="at most 4"):
        check_meld(cards("7H 7S 7D 7C 7S"))
    with pytest.raises(InvalidMeldError, match="consecutive"):
        check_meld(cards("4C 5C 7C"))
    with pytest.raises(InvalidMeldError, match="same card twice"):
        check_meld(cards("4C 5C 5C 6C"))
    with pytest.raises(InvalidMeldError, match="neither a set"):
        check_meld(cards("4C 5C 6H"))
    assert check_meld(cards("KH KS KD")) == "set"


def test_no_jokers() -> None:
    with pytest.raises(InvalidMeldError, match="JK"):
        check_meld([*cards("7H 7S"), JOKER])
    assert meld_kind([*cards("7H 7S"), JOKER]) is None
    for call in (lambda: best_play([], [JOKER]), lambda: can_place([JOKER, 7, 8], []),
                 lambda: best_play([], [7], must_place=[JOKER]),
                 lambda: placeable_cards([], [JOKER]), lambda: arrange([JOKER]),
                 lambda: parse_table("7H 7S JK")):
        with pytest.raises(InvalidMeldError, match="JK"):
            call()


def test_canonical_forms() -> None:
    assert canonical_meld(cards("7C 7S 7D")) == tuple(cards("7S 7D 7C"))
    assert canonical_meld(cards("6C 4C 5C")) == tuple(cards("4C 5C 6C"))
    table = canonical_table([cards("7S 7H 7D"), cards("6C 4C 5C"), cards("JS 9S 10S"), cards("2H 2S 2D"),
                             cards("AC 2C 3C")])
    assert table_text(table) == "9S 10S JS | AC 2C 3C | 4C 5C 6C | 2S 2H 2D | 7S 7H 7D"
    assert canonical_table(reversed(table)) == table
    with pytest.raises(InvalidMeldError):
        canonical_table([cards("7S 7H")])


def test_parse_table() -> None:
    assert parse_table("") == ()
    assert parse_table("7H 7S 7D | 4C 5C 6C") == canonical_table([cards("7H 7S 7D"), cards("4C 5C 6C")])
    assert parse_table(table_text(parse_table("10h tc 10s|4c,5c,6c"))) == parse_table("TH 10C 10S | 4C 5C 6C")
    with pytest.raises(InvalidMeldError, match="meld 2 of the table: 4C 5C 7C"):
        parse_table("7H 7S 7D | 4C 5C 7C")
    with pytest.raises(InvalidMeldError, match="meld 2 of the table is empty"):
        parse_table("7H 7S 7D | | 4C 5C 6C")
    with pytest.raises(ValueError, match="unknown card"):
        parse_table("7H 7S 7X")


# -- worked examples ----------------------------------------------------------------------------------
def test_worked_example() -> None:
    table = parse_table("7H 7S 7D | 4C 5C 6C")
    hand = cards("7C 3C 8H")
    play = best_play(table, hand)
    assert play is not None
    assert cards_text(play.placed) == "3C 7C"
    assert_valid_play(flat(table), hand, play)
    assert placeable_cards(table, hand) == frozenset(cards("7C 3C"))
    assert can_place(table, hand)
    assert not can_place(table, cards("8H"))
    assert best_play(table, cards("8H")) == TablePlay((), table)
    # the same with the table as a flat list of cards
    play_flat = best_play(flat(table), hand)
    assert play_flat is not None and play_flat.placed == play.placed


def test_split_a_run_for_a_set() -> None:
    # 6S 6D need the 6H out of the middle of the run: 3H 4H 5H | 6S 6H 6D | 7H 8H 9H
    table = parse_table("3H 4H 5H 6H 7H 8H 9H")
    play = best_play(table, cards("6S 6D"))
    assert play is not None
    assert table_text(play.table) == "3H 4H 5H | 7H 8H 9H | 6S 6H 6D"
    assert not can_place(parse_table("3H 4H 5H 6H 7H 8H"), cards("6S 6D"))  # 7H 8H would be left alone


def test_split_a_run_with_a_duplicate() -> None:
    table = parse_table("3H 4H 5H 6H 7H | 8S 8D 8C")
    play = best_play(table, cards("5H"))
    assert play is not None
    assert table_text(play.table) == "3H 4H 5H | 5H 6H 7H | 8S 8D 8C"


def test_move_a_card_from_a_set_to_a_run() -> None:
    # 3H 4H need the 5H of the four-card set
    table = parse_table("5S 5H 5D 5C | 7H 8H 9H")
    play = best_play(table, cards("3H 4H KC"))
    assert play is not None
    assert cards_text(play.placed) == "3H 4H"
    assert table_text(play.table) == "3H 4H 5H | 7H 8H 9H | 5S 5D 5C"
    # a set of three cannot give a card
    assert not can_place(parse_table("5S 5H 5D | 7H 8H 9H"), cards("3H 4H"))


def test_move_cards_from_runs_to_a_set() -> None:
    # the 9S and the 9H leave the ends of two runs (still legal) for a set with the hand's 9D
    table = parse_table("6S 7S 8S 9S | 9H 10H JH QH")
    play = best_play(table, cards("9D"))
    assert play is not None
    assert table_text(play.table) == "6S 7S 8S | 10H JH QH | 9S 9H 9D"


def test_more_cards_first_then_value() -> None:
    hand = cards("7S 7H 7D 8S 9S")
    play = best_play([], hand)
    assert play is not None and cards_text(play.placed) == "7S 8S 9S"  # 3 cards either way; 24 beats 21
    forced = best_play([], hand, must_place=cards("7H"))
    assert forced is not None and cards_text(forced.placed) == "7S 7H 7D"
    assert best_play([], hand, must_place=cards("7H 8S")) is None
    with pytest.raises(ValueError, match="must_place"):
        best_play([], hand, must_place=cards("KC"))
    assert placeable_cards([], hand) == frozenset(cards("7S 7H 7D 8S 9S"))


def test_unarrangeable_table() -> None:
    # a flat table that no choice of hand cards completes
    assert best_play(cards("3H 4H"), cards("KS")) is None
    assert not can_place(cards("3H 4H"), cards("KS"))
    # ... and one that the hand completes
    play = best_play(cards("3H 4H"), cards("5H 6H KS"))
    assert play is not None and cards_text(play.placed) == "5H 6H"
    assert placeable_cards(cards("3H 4H 9S"), cards("5H")) == frozenset()
    assert arrange(cards("3H 4H 9S 5H")) is None


def test_three_decks() -> None:
    # copies come from the input: three 7S 7H 7D sets take three 7C
    table = parse_table("7S 7H 7D | 7S 7H 7D | 7S 7H 7D")
    play = best_play(table, cards("7C 7C 7C KD"))
    assert play is not None and cards_text(play.placed) == "7C 7C 7C"
    assert play.table == (tuple(cards("7S 7H 7D 7C")),) * 3  # each kept set grows
    # four copies of the 7C: four sets of three, every suit three times
    four = best_play(table, cards("7C 7C 7C 7C"))
    assert four is not None and len(four.placed) == 4 and len(four.table) == 4
    # twelve sevens as four sets of three, all suits three times
    got = arrange(cards("7S 7H 7D 7C") * 3)
    assert got is not None and len(got) in (3, 4)
    # three identical runs
    assert arrange(cards("4C 5C 6C") * 3) == (tuple(cards("4C 5C 6C")),) * 3


def test_empty_inputs() -> None:
    assert best_play([], []) == TablePlay((), ())
    assert not can_place([], [])
    assert placeable_cards([], []) == frozenset()
    assert arrange([]) == ()


def test_long_run_and_sets() -> None:
    # A..K of spades, two 7 sets needing the 7S: the run splits A-6 and 8-K
    table = [*parse_table("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")]
    play = best_play(table, cards("7H 7D"))
    assert play is not None
    assert table_text(play.table) == "AS 2S 3S 4S 5S 6S | 8S 9S 10S JS QS KS | 7S 7H 7D"


# -- arrange and its promise about kept melds -------------------------------------------------------
def test_keep_unchanged_when_the_rest_forms_melds() -> None:
    table = parse_table("3H 4H 5H | 3S 4S 5S | 3D 4D 5D")
    extra = cards("3C 4C 5C")
    # without keep, any arrangement; with keep, the three runs stay and the clubs make a fourth
    got = arrange(flat(table) + extra, keep=table)
    assert got == canonical_table([*table, extra])


def test_keep_grows_melds() -> None:
    table = parse_table("3H 4H 5H | 9S 9D 9C")
    got = arrange(flat(table) + cards("2H 6H 7H 9H"), keep=table)
    assert got is not None and table_text(got) == "2H 3H 4H 5H 6H 7H | 9S 9H 9D 9C"


def test_keep_maximal() -> None:
    # 5H must leave 3H-7H; the set of 8s is kept untouched
    table = parse_table("3H 4H 5H 6H 7H | 8S 8D 8C | JC QC KC")
    got = arrange(flat(table) + cards("5H"), keep=table)
    assert got is not None
    assert tuple(cards("8S 8D 8C")) in got and tuple(cards("JC QC KC")) in got


def test_keep_errors() -> None:
    with pytest.raises(InvalidMeldError):
        arrange(cards("3H 4H 6H"), keep=[cards("3H 4H 6H")])
    with pytest.raises(ValueError, match="kept melds"):
        arrange(cards("3H 4H 5H"), keep=[cards("3H 4H 5H"), cards("3H 4H 5H")])


# -- properties ---------------------------------------------------------------------------------------
def random_meld(rng: random.Random) -> list[int]:
    if rng.random() < 0.45:
        rank = rng.randint(1, 13)
        return [s * 16 + rank for s in rng.sample(range(4), rng.choice((3, 3, 4)))]
    suit = rng.randrange(4)
    length = rng.choice((3, 3, 3, 4, 4, 5, 6, 8))
    low = rng.randint(1, 14 - length)
    return [suit * 16 + r for r in range(low, low + length)]


def random_position(rng: random.Random, melds: int, hand: int, copies: int = 2) -> tuple[list[list[int]], list[int]]:
    """A realistic table (random legal melds from ``copies`` decks) and a hand from the cards left."""
    pool = Counter({c: copies for c in NATURALS})
    table: list[list[int]] = []
    for _ in range(melds * 4):
        if len(table) >= melds:
            break
        meld = random_meld(rng)
        if not Counter(meld) - pool:
            pool -= Counter(meld)
            table.append(meld)
    rest = sorted(pool.elements())
    return table, rng.sample(rest, min(hand, len(rest)))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 16), st.integers(0, 14), st.sampled_from([2, 2, 2, 3]))
def test_property_plays_are_partitions(seed: int, melds: int, hand_size: int, copies: int) -> None:
    rng = random.Random(seed)
    table, hand = random_position(rng, melds, hand_size, copies)
    play = best_play(table, hand)
    assert play is not None  # the table is made of legal melds
    assert_valid_play(flat(table), hand, play)
    assert can_place(table, hand) == bool(play.placed)
    placeable = placeable_cards(table, hand)
    assert set(play.placed) <= placeable
    for card in sorted(placeable)[:3]:
        forced = best_play(table, hand, must_place=[card])
        assert forced is not None and card in forced.placed
        assert_valid_play(flat(table), hand, forced)
    for lost in sorted(set(hand) - placeable)[:3]:
        assert best_play(table, hand, must_place=[lost]) is None
    # a card placeable alone is placed by a play of itself alone; the others need company
    alone = placeable_alone(table, hand)
    assert alone <= placeable
    for card in sorted(placeable)[:4]:
        by_itself = best_play(table, [card])
        assert (by_itself is not None and by_itself.placed == (card,)) == (card in alone)
    flat_play = best_play(flat(table), hand, keep_table=False)
    assert flat_play is not None
    assert_valid_play(flat(table), hand, flat_play)
    assert (len(flat_play.placed), value(flat_play.placed)) == (len(play.placed), value(play.placed))
    # shuffled input, same play
    shuffled = list(hand)
    rng.shuffle(shuffled)
    again = best_play(table, shuffled)
    assert again is not None and again.placed == play.placed


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 12))
def test_property_arrange_keep(seed: int, melds: int) -> None:
    rng = random.Random(seed)
    table, _ = random_position(rng, melds, 0)
    extra = random_meld(rng)
    got = arrange(flat(table) + extra, keep=table)
    assert got is not None
    assert Counter(flat(got)) == Counter(flat(table) + extra)
    assert all(meld_kind(m) for m in got)
    # the extra cards form a meld alone: every kept meld stays unchanged
    assert not Counter(tuple(canonical_meld(m)) for m in table) - Counter(got)


# -- brute force on small positions -------------------------------------------------------------------
@cache
def all_melds() -> list[tuple[int, ...]]:
    melds: list[tuple[int, ...]] = []
    for r in range(1, 14):
        melds += [tuple(s * 16 + r for s in c) for n in (3, 4) for c in itertools.combinations(range(4), n)]
    for s in range(4):
        for low in range(1, 12):
            for high in range(low + 2, 14):
                melds.append(tuple(s * 16 + r for r in range(low, high + 1)))
    return melds


def brute_arrangeable(cards_: Counter[int]) -> bool:
    """Can these cards be split into legal melds? (Take the smallest card; try every meld holding it.)"""
    return _brute(tuple(sorted(cards_.elements())))


@cache
def _brute(cards_: tuple[int, ...]) -> bool:
    if not cards_:
        return True
    have = Counter(cards_)
    for meld in all_melds():
        if cards_[0] in meld and not Counter(meld) - have and _brute(tuple(sorted((have - Counter(meld)).elements()))):
            return True
    return False


def test_brute_force_small() -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(200):
        # cards from a narrow window, so that melds are likely
        ranks = range(rng.randint(1, 9), 14)[:rng.randint(3, 5)]
        suits = rng.sample(range(4), rng.randint(1, 4))
        window = [s * 16 + r for s in suits for r in ranks] * 2
        chosen = rng.sample(window, rng.randint(3, min(10, len(window))))
        got = arrange(chosen)
        assert (got is not None) == brute_arrangeable(Counter(chosen)), cards_text(sorted(chosen))
        if got is not None:
            assert Counter(flat(got)) == Counter(chosen) and all(meld_kind(m) for m in got)
        checked += 1
        # best play on a split of the same cards: the brute force tries every subset of the hand
        table_part, hand_part = chosen[: len(chosen) // 2], chosen[len(chosen) // 2:]
        if len(hand_part) <= 5:
            best: tuple[int, int] | None = None
            for mask in range(1 << len(hand_part)):
                sub = [c for i, c in enumerate(hand_part) if mask >> i & 1]
                if brute_arrangeable(Counter(table_part) + Counter(sub)):
                    key = (len(sub), value(sub))
                    best = key if best is None or key > best else best
            play = best_play(table_part, hand_part)
            assert (None if play is None else (len(play.placed), value(play.placed))) == best
    assert checked == 200


# -- the integer program ------------------------------------------------------------------------------
def test_milp_cross_check() -> None:
    cases = int(os.environ.get("SHANGHAI_TABLE_CASES", "2000"))
    rng = random.Random(20261130)
    start = time.perf_counter()
    for i in range(cases):
        melds = rng.randint(0, 6) if i % 5 < 4 else rng.randint(6, 20)
        copies = 3 if i % 10 == 9 else 2
        table, hand = random_position(rng, melds, rng.choice((1, 2, 3, 5, 8, 10, 12, 15)), copies)
        table_cards = flat(table)
        if i % 7 == 6:
            # a flat table of random cards, often not arrangeable at all
            table_cards = table_cards[: max(0, len(table_cards) - rng.randint(1, 3))]
        must = [rng.choice(hand)] if hand and i % 4 == 3 else []
        expected = milp_best(table_cards, hand, must)
        play = best_play(table_cards, hand, must_place=must)
        got = None if play is None else (len(play.placed), value(play.placed))
        assert got == expected, (i, table_text(table), cards_text(hand), cards_text(must))
        if play is not None:
            assert_valid_play(table_cards, hand, play)
            assert not Counter(must) - Counter(play.placed)
        if not must:
            assert can_place(table_cards, hand) == bool(got and got[0])
    assert time.perf_counter() - start < 600


def test_make_card_suits() -> None:
    # the solver reads suits and ranks straight from the card codes of shanghai.cards
    run = tuple(parse_cards("5D 6D 7D"))
    assert best_play([], [make_card(r, 2) for r in (5, 6, 7)]) == TablePlay(run, (run,))


def test_shared_rank_steps_change_no_answer() -> None:
    """Each rank's step is shared by every programme with the same inputs there (``_rank_step``, an
    LRU): answers worked out with the shared steps cold (cleared before every call) and warm (after
    many other positions, in another order, pinned tables included) are the same."""
    rng = random.Random(31)
    positions = [random_position(rng, rng.randint(0, 14), rng.randint(1, 12), rng.choice((2, 2, 3)))
                 for _ in range(60)]

    def answers(table: list[list[int]], hand: list[int]) -> tuple[object, ...]:
        play = best_play(table, hand)
        return (play, best_play(flat(table), hand, keep_table=False), can_place(table, hand),
                placeable_cards(table, hand))

    cold = []
    for table, hand in positions:
        _rank_step.cache_clear()
        cold.append(answers(table, hand))
    order = list(range(len(positions)))
    rng.shuffle(order)
    warm = {i: answers(*positions[i]) for i in order}
    assert _rank_step.cache_info().hits > 0
    assert [warm[i] for i in range(len(positions))] == cold
