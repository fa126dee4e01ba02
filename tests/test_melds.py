"""Sets and runs under each preset, each test citing the rule document it checks.

000 = ISRA (preset ``isra``), 001 = "May I?" (``may-i``, ``may-i-10`` and its options),
002 = Carl's family game (``family-10``), 004 second part = contract rummy (``contract-10``).
"""

from __future__ import annotations

import pytest

from shanghai.cards import JOKER, Card, make_card, parse_card, parse_cards
from shanghai.errors import InvalidMeldError
from shanghai.melds import Meld, check_run, check_set, make_meld, run_arrangements
from shanghai.rules import preset
from shanghai.rules.model import Rules

ISRA = preset("isra")
MAY_I = preset("may-i")
MAY_I_10 = preset("may-i-10")
FAMILY = preset("family-10")
CONTRACT = preset("contract-10")
ACES_HIGH = preset("may-i", ["aces-high"])
ALL = [ISRA, preset("isra-junior"), preset("isra-express"), MAY_I, MAY_I_10, FAMILY, CONTRACT,
       ACES_HIGH, preset("may-i", ["no-split"])]
ALL_IDS = [r.name + "".join("+" + o for o in r.options) for r in ALL]


def meld(text: str, rules: Rules) -> Meld:
    return make_meld(parse_cards(text), rules)


def legal(text: str, rules: Rules) -> bool:
    try:
        make_meld(parse_cards(text), rules)
    except InvalidMeldError:
        return False
    return True


def is_run(text: str, rules: Rules) -> bool:
    """Can these cards, in any order, be laid out as a run?"""
    return bool(run_arrangements(parse_cards(text), rules))


def C(text: str) -> Card:
    return parse_card(text)


# --------------------------------------------------------------------------------------------
# Definitions common to every preset
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", ALL, ids=ALL_IDS)
def test_sets_of_one_rank_any_suits(rules: Rules) -> None:
    """000: "A SET is a group of THREE or more cards of the same value – they do not need to be in
    the same suit." 001: "Sets are 3 or more cards of the same rank. (7D-7H-7C or KS-KH-KC-KD)".
    002: "Set- a group of three of more cards of the same value in any combination of suits"."""
    for text in ("7D 7H 7C", "KS KH KC KD", "9H 9S 9D", "7S 7S 7S", "AS AH AD AC AS"):
        m = meld(text, rules)
        assert m.kind == "set" and m.rank == C(text.split()[0]) & 15
    assert not legal("7D 7H", rules)
    assert not legal("7D 7H 8H", rules)
    with pytest.raises(InvalidMeldError, match="at least 3"):
        check_set(parse_cards("7D 7H"), rules)
    with pytest.raises(InvalidMeldError, match="one rank"):
        check_set(parse_cards("7D 7H 8H"), rules)


@pytest.mark.parametrize("rules", ALL, ids=ALL_IDS)
def test_runs_of_one_suit_in_sequence(rules: Rules) -> None:
    """000: "A RUN is a group of FOUR or more cards in running order in the same suit. All cards must
    be of the same suit." 001: "Runs are a sequence of at least 4 consecutive cards in the same suit.
    (5D-6D-7D-8D)"."""
    m = meld("5D 6D 7D 8D", rules)
    assert (m.kind, m.suit, m.low, m.high) == ("run", 2, 5, 8)
    assert meld("3S 4S 5S 6S 7S 8S 9S 10S", rules).describe() == "run of 8 S 3-10"
    assert not legal("5D 6D 7H 8D", rules)  # not one suit
    assert not legal("5D 6D 8D 9D", rules)  # not consecutive
    assert not legal("5D 6D 6D 7D", rules)  # a rank twice
    with pytest.raises(InvalidMeldError, match="one suit"):
        check_run(parse_cards("5D 6D 7H 8D"), rules)
    with pytest.raises(InvalidMeldError, match="does not fit"):
        check_run(parse_cards("5D 6D 8D 9D"), rules)


@pytest.mark.parametrize("rules", [ISRA, MAY_I, CONTRACT, ACES_HIGH], ids=lambda r: r.name)
def test_run_of_three_is_too_short_where_runs_are_four(rules: Rules) -> None:
    """000: "A RUN is a group of FOUR or more cards"; 001: "Runs are a sequence of at least 4
    consecutive cards"; 004: "a sequence consisting of four or more cards"."""
    assert rules.run_min == 4
    assert not legal("5D 6D 7D", rules)
    with pytest.raises(InvalidMeldError, match="at least 4"):
        check_run(parse_cards("5D 6D 7D"), rules)


def test_family_runs_of_three() -> None:
    """002: "Run - a group of three or more cards in ascending value all from the same suit.
    Example: 2 of spades, 3 of spades, 4 of spades"."""
    assert FAMILY.run_min == 3
    m = meld("2S 3S 4S", FAMILY)
    assert (m.kind, m.low, m.high) == ("run", 2, 4)
    assert meld("JK 8S 9S", FAMILY).describe() == "run of 3 S 7-9"
    assert not legal("2S 3S", FAMILY)


@pytest.mark.parametrize("rules", ALL, ids=ALL_IDS)
def test_aces_never_in_the_middle(rules: Rules) -> None:
    """000: "But you cannot wrap around the ace – it must be either high or low and sits on the end
    of a run." 002: "No wrap arounds. An ace can only be at the beginning or end of a run, not in the
    middle." 004: "sequences may not extend 'round the corner' (K-A-2)"."""
    for text in ("QH KH AH 2H", "KH AH 2H 3H", "JK KH AH 2H", "KH AH 2H JK", "KD AD 2D 3D 4D"):
        assert not is_run(text, rules), text
    assert not legal("KH AH 2H 3H", rules)
    # a run holding both aces would have to wrap (A 2 ... K A): 14 places, at most 13 cards
    assert not is_run("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", rules)
    assert make_card(14, 0) == make_card(1, 0)


@pytest.mark.parametrize("rules", [ISRA, MAY_I, MAY_I_10, FAMILY, CONTRACT], ids=lambda r: r.name)
def test_aces_high_or_low(rules: Rules) -> None:
    """000: "In RUNS aces can be high or low and used next to the 2 or the King." 004: "An ace may
    rank either high (A-K-Q) or low (3-2-A)". 002: "ace, 2, 3, 4, 5, 6 or 10, jack, queen, king,
    ace"."""
    low = meld("AS 2S 3S 4S", rules)
    high = meld("JS QS KS AS", rules)
    assert (low.low, low.high) == (1, 4)
    assert (high.low, high.high) == (11, 14)
    assert low.ends() == ("high",)
    assert high.ends() == ("low",)
    assert meld("AH 2H 3H 4H 5H 6H", rules).low == 1
    assert meld("10H JH QH KH AH", rules).high == 14
    # a whole suit, ace low or ace high: 13 cards
    assert meld("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC", rules).low == 1
    assert meld("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", rules).high == 14


def test_aces_high_option() -> None:
    """001 variation 2: "The contracts must be met with unique sets and runs and Aces are always
    high, never low." (VARIANTS.md: `aces-high`: only high.)"""
    assert ACES_HIGH.aces == "high-only"
    assert meld("JS QS KS AS", ACES_HIGH).high == 14
    assert not legal("AS 2S 3S 4S", ACES_HIGH)
    with pytest.raises(InvalidMeldError, match="high only"):
        check_run(parse_cards("AS 2S 3S 4S"), ACES_HIGH)
    assert [m.low for m in run_arrangements(parse_cards("JK 2S 3S 4S"), ACES_HIGH)] == [2]
    assert [m.low for m in run_arrangements(parse_cards("JK 2S 3S 4S"), MAY_I)] == [1, 2]
    # the low end of A-high runs: nothing below a 2
    m = meld("2H 3H 4H 5H", ACES_HIGH)
    with pytest.raises(InvalidMeldError):
        m.lay_off(C("AH"), "low", ACES_HIGH)
    assert meld("AH AS AD", ACES_HIGH).kind == "set"  # sets are not affected


def test_descending_runs_are_read_backwards() -> None:
    """make_meld reads a descending run backwards: runs are kept lowest card first."""
    for rules in ALL:
        m = meld("8D 7D 6D 5D", rules)
        assert m.text() == "5D 6D 7D 8D" and m.low == 5
        assert meld("AS KS QS JS", rules).text() == "JS QS KS AS"
    assert meld("8D JK 6D 5D", ISRA).text() == "5D 6D JK 8D"
    assert meld("8D JK 6D 5D", ISRA).wild_meanings() == ["JK=7D"]
    assert not legal("8D 6D 7D 5D", ISRA)  # a run is given in order, not shuffled


# --------------------------------------------------------------------------------------------
# 000: ISRA
# --------------------------------------------------------------------------------------------

def test_isra_jokers_not_side_by_side_in_runs() -> None:
    """000: "Jokers can be used in RUNS – but not next to each other. So a RUNcannot be 3, Joker,
    Joker 6 of spades. There must be a regular card between each joker in a RUN."."""
    with pytest.raises(InvalidMeldError, match="side by side"):
        meld("3S JK JK 6S", ISRA)
    assert not is_run("3S JK JK 6S", ISRA)
    assert not is_run("JK JK JK 6S", ISRA)  # in no order are the jokers apart
    assert is_run("JK JK 5S 6S", ISRA)  # JK 5S 6S JK
    assert meld("3S JK 5S JK", ISRA).wild_meanings() == ["JK=4S", "JK=6S"]
    assert meld("JK 4S JK 6S JK", ISRA).describe() == "run of 5 S 3-7"


def test_isra_no_limit_of_jokers_in_a_run_apart_from_adjacency() -> None:
    """000 glossary: "In a RUN there is also no limit, but you cannot have two Jokers next to each
    other - they must be separated by a regular card."."""
    m = meld("JK 2H JK 4H JK 6H JK", ISRA)
    assert m.wild_count(ISRA) == 4 and (m.low, m.high) == (1, 7)
    assert not legal("JK 2H JK 4H JK JK 7H", ISRA)


def test_isra_three_jokers_form_a_set() -> None:
    """000: "Three JOKERS can be used to form a set" and "Jokers can be used anywhere in a SET."
    Glossary: "No limit on the number of Jokers played in a SET"."""
    m = meld("JK JK JK", ISRA)
    assert (m.kind, m.rank) == ("set", 0)
    assert m.describe() == "set of 3 wilds"
    assert meld("7H JK JK JK", ISRA).rank == 7
    assert meld("JK 7H JK", ISRA).kind == "set"
    assert meld("JK JK JK JK JK", ISRA).kind == "set"
    assert meld("JK JK JK", FAMILY).kind == "set"  # 002: "Jokers are wild and can be used anywhere"


def test_isra_only_jokers_are_wild() -> None:
    """000: "Jokers are wild and can be played as any card to complete a SETor a RUN." (Black 2s are
    wild only in 001.)"""
    assert ISRA.is_wild(JOKER) and not ISRA.is_wild(C("2S")) and not ISRA.is_wild(C("2C"))
    assert not legal("7S 7H 2C", ISRA)
    assert not legal("5D 6D 2S 8D", ISRA)


# --------------------------------------------------------------------------------------------
# 001: May I?
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", [MAY_I, MAY_I_10, ACES_HIGH], ids=lambda r: r.name)
def test_may_i_jokers_and_black_twos_are_wild(rules: Rules) -> None:
    """001: "Jokers and black 2s are wild cards and can be used to replace a missing card in a set or
    run."."""
    assert rules.is_wild(JOKER) and rules.is_wild(C("2S")) and rules.is_wild(C("2C"))
    assert not rules.is_wild(C("2H")) and not rules.is_wild(C("2D"))
    assert meld("7S 7H 2C", rules).wild_meanings(rules) == ["2C=7"]
    assert meld("7S 7H 2S", rules).rank == 7
    assert meld("5D 6D 2S 8D", rules).wild_meanings(rules) == ["2S=7D"]
    assert not legal("7S 7H 2H", rules)  # a red 2 is an ordinary 2


@pytest.mark.parametrize("rules", [MAY_I, MAY_I_10, CONTRACT], ids=lambda r: r.name)
def test_more_natural_cards_than_wild_cards(rules: Rules) -> None:
    """001: "There needs to be more natural cards than wild cards in the set or run." (VARIANTS.md:
    contract-10's joker caps are implemented as the same rule.)"""
    assert legal("7S 7H JK", rules)
    assert not legal("7S JK JK", rules)
    assert legal("7S 7H JK JK 7D", rules)
    assert not legal("7S 7H JK JK", rules)
    assert legal("5D JK 7D 8D", rules)
    assert not legal("5D JK 7D JK", rules)
    assert legal("5D JK 7D JK 9D", rules)
    assert not legal("JK 6D JK 8D JK 10D", rules)
    with pytest.raises(InvalidMeldError, match="more natural cards than wild"):
        meld("7S JK JK", rules)
    with pytest.raises(InvalidMeldError, match="more natural"):
        meld("JK JK JK", rules)
    # side by side is allowed here: only the count matters
    assert meld("5D 6D 7D JK JK", rules).describe() == "run of 5 D 5-9"


def test_may_i_black_twos_count_against_the_majority() -> None:
    """001: "There needs to be more natural cards than wild cards in the set or run." A black 2 used
    as a wild counts as a wild."""
    assert not legal("7S 2C JK", MAY_I)
    assert not legal("7S 7H 2C 2S", MAY_I)
    assert not legal("5D 6D 2S 2C", MAY_I)
    assert legal("5D 6D 7D 2C 2S", MAY_I)


def test_may_i_black_two_in_its_own_place_is_natural() -> None:
    """001: black 2s are wild "to replace a missing card"; a black 2 standing for itself replaces
    nothing, so it counts as a natural card (project decision)."""
    m = meld("AS 2S 3S JK", MAY_I)  # 3 naturals (2S is itself) and 1 wild
    assert m.wild_count(MAY_I) == 1
    assert m.wild_meanings(MAY_I) == ["JK=4S"]
    assert legal("2S 3S JK JK 6S", MAY_I)  # 2S, 3S, 6S natural against 2 jokers
    assert not legal("2S 3S JK JK 6H", MAY_I)
    # in another suit's run the black 2 is a wild
    assert not legal("2C 3S JK 5S", MAY_I)
    assert meld("2C 3S 4S 5S", MAY_I).wild_meanings(MAY_I) == ["2C=2S"]
    # a set of 2s: every 2 is natural there
    assert meld("2S 2C JK", MAY_I).rank == 2
    assert meld("2S 2C 2S", MAY_I).wild_count(MAY_I) == 0
    assert meld("2H 2S 2C", MAY_I).rank == 2
    assert not legal("2S JK JK", MAY_I)


def test_may_i_contract_sizes() -> None:
    """001: "Hand 1 - 2 sets (6 cards) Hand 2 - 1 set 1 run (7cards) ... Hand 7 - 3 runs (12 cards)";
    variation 1: "Hand 10 - 3 runs of 5 (15 cards)"."""
    assert [MAY_I.contract(i).min_cards for i in range(1, 8)] == [6, 7, 8, 9, 10, 11, 12]
    assert [MAY_I_10.contract(i).min_cards for i in range(1, 11)] == \
        [6, 7, 8, 9, 10, 11, 12, 13, 14, 15]


# --------------------------------------------------------------------------------------------
# 004 (contract-10): joker caps
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("size", "cap"), [(3, 1), (4, 1), (5, 2), (7, 3), (10, 4)])
def test_contract_10_joker_caps(size: int, cap: int) -> None:
    """004: "1 joker may be used in a set of 3, or a sequence of 4 / 2 jokers may be used in a
    sequence of 5 / 3 jokers may be used in a sequence of 7 / 4 jokers may be used in a sequence of
    10" (the project implements these as "more naturals than wilds", which gives the same caps)."""
    assert CONTRACT.wild_limit == "naturals-majority"
    if size == 3:  # the set of 3
        assert legal("9S 9H JK", CONTRACT) and not legal("9S JK JK", CONTRACT)
        assert legal("9S 9H 9D", CONTRACT)
        return
    for jokers in range(size):
        # a run of `size` hearts from the 2 up, the first card natural, then `jokers` jokers
        cards = [JOKER if 1 <= i <= jokers else make_card(2 + i, 1) for i in range(size)]
        ok = True
        try:
            check_run(cards, CONTRACT)
        except InvalidMeldError:
            ok = False
        assert ok == (jokers <= cap), (size, jokers)
        # wherever the jokers are
        assert bool(run_arrangements(cards, CONTRACT)) == (jokers <= cap), (size, jokers)


def test_contract_10_jokers_are_the_only_wilds() -> None:
    """004: "Jokers are wild"; black 2s count 20 points but are not wild in this game."""
    assert not CONTRACT.is_wild(C("2S"))
    assert not legal("7S 7H 2C", CONTRACT)


# --------------------------------------------------------------------------------------------
# 002 (family-10)
# --------------------------------------------------------------------------------------------

def test_family_jokers_anywhere() -> None:
    """002: "Jokers are wild and can be used anywhere in a set or run (there are no other wild
    cards)" (VARIANTS.md: limit **decide**; the project sets no limit)."""
    assert FAMILY.wild_limit == "none"
    assert legal("JK JK 9S", FAMILY)
    assert legal("3S JK JK 6S", FAMILY)
    assert legal("JK JK 9S JK JK", FAMILY)
    assert meld("JK JK JK JK", FAMILY).kind == "set"
    assert not is_run("JK JK JK JK", FAMILY)  # a run needs a natural card to place it
    assert not FAMILY.is_wild(C("2S"))


# --------------------------------------------------------------------------------------------
# run_arrangements
# --------------------------------------------------------------------------------------------

def test_run_arrangements_every_wild_place() -> None:
    """A joker's identity is "fixed by its place in a run" (VARIANTS.md): every place it may take is
    an arrangement."""
    arr = run_arrangements(parse_cards("JK 6H 7H 8H"), ISRA)
    assert [m.text() for m in arr] == ["JK 6H 7H 8H", "6H 7H 8H JK"]
    assert [(m.low, m.high) for m in arr] == [(5, 8), (6, 9)]
    assert [m.text() for m in run_arrangements(parse_cards("8H JK 6H"), ISRA)] == []  # too short
    arr = run_arrangements(parse_cards("JK 6H 7H JK"), ISRA)  # no two jokers side by side
    assert [m.text() for m in arr] == ["JK 6H 7H JK"]
    arr = run_arrangements(parse_cards("JK 6H 7H JK"), FAMILY)
    assert [m.text() for m in arr] == ["JK JK 6H 7H", "JK 6H 7H JK", "6H 7H JK JK"]
    assert run_arrangements(parse_cards("JK JK JK JK"), FAMILY) == []
    assert [m.low for m in run_arrangements(parse_cards("KS QS JK JS"), ISRA)] == [10, 11]
    assert run_arrangements(parse_cards("5D 6D 7H 8D"), ISRA) == []


def test_run_arrangements_black_twos() -> None:
    """001: black 2s are wild; a joker and a black 2 are told apart only by points."""
    texts = {m.text() for m in run_arrangements(parse_cards("5D 6D 7D JK 2C"), MAY_I)}
    assert texts == {"JK 2C 5D 6D 7D", "2C JK 5D 6D 7D", "JK 5D 6D 7D 2C", "2C 5D 6D 7D JK",
                     "5D 6D 7D JK 2C", "5D 6D 7D 2C JK"}
    assert [m.text() for m in run_arrangements(parse_cards("JK 2S 3S 4S"), MAY_I)] == \
        ["JK 2S 3S 4S", "2S 3S 4S JK"]


# --------------------------------------------------------------------------------------------
# Laying off and replacing wilds
# --------------------------------------------------------------------------------------------

def test_lay_off_at_the_ends_of_a_run() -> None:
    """000: "a card that matches a SET or plays at the front or back end of a RUN"."""
    m = meld("5D 6D 7D 8D", ISRA)
    assert m.lay_off(C("9D"), "high", ISRA).text() == "5D 6D 7D 8D 9D"
    low = m.lay_off(C("4D"), "low", ISRA)
    assert (low.text(), low.low) == ("4D 5D 6D 7D 8D", 4)
    assert m.lay_off(JOKER, "high", ISRA).wild_meanings() == ["JK=9D"]
    with pytest.raises(InvalidMeldError):
        m.lay_off(C("10D"), "high", ISRA)  # not the next card
    with pytest.raises(InvalidMeldError):
        m.lay_off(C("9H"), "high", ISRA)  # not the suit
    with pytest.raises(InvalidMeldError):
        m.lay_off(C("9D"), "low", ISRA)  # the wrong end
    with pytest.raises(InvalidMeldError, match="which end"):
        m.lay_off(C("9D"), None, ISRA)
    # aces at the ends only: nothing beyond an ace
    high = meld("JS QS KS AS", ISRA)
    assert high.ends() == ("low",)
    with pytest.raises(InvalidMeldError, match="nothing goes above"):
        high.lay_off(C("2S"), "high", ISRA)
    assert high.lay_off(C("10S"), "low", ISRA).low == 10
    low_ace = meld("AS 2S 3S 4S", ISRA)
    with pytest.raises(InvalidMeldError, match="nothing goes below"):
        low_ace.lay_off(C("KS"), "low", ISRA)
    assert low_ace.lay_off(C("5S"), "high", ISRA).high == 5
    # VARIANTS.md: "A run holding both aces (A-2-...-K-A) is never possible": a whole suit has no end
    whole = meld("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC", ISRA)
    assert whole.ends() == ()
    with pytest.raises(InvalidMeldError):
        whole.lay_off(C("AC"), "high", ISRA)
    assert meld("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", ISRA).ends() == ()
    assert meld("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC", ISRA).ends() == ("low", "high")


def test_lay_off_respects_the_wild_rules() -> None:
    """000: no two jokers side by side in a run; 001: more naturals than wilds."""
    m = meld("5D JK 7D 8D", ISRA)
    assert m.lay_off(JOKER, "high", ISRA).text() == "5D JK 7D 8D JK"
    assert m.lay_off(JOKER, "low", ISRA).text() == "JK 5D JK 7D 8D"
    with pytest.raises(InvalidMeldError, match="side by side"):
        m.lay_off(JOKER, "high", ISRA).lay_off(JOKER, "high", ISRA)
    r = meld("5D 6D 7D 8D JK", MAY_I).lay_off(JOKER, "high", MAY_I)
    assert r.text() == "5D 6D 7D 8D JK JK"
    r = r.lay_off(JOKER, "high", MAY_I)  # 4 naturals, 3 wilds
    with pytest.raises(InvalidMeldError, match="more natural"):
        r.lay_off(C("2C"), "low", MAY_I)
    # a black 2 laid at its own place is natural
    two = meld("3S 4S 5S 6S", MAY_I).lay_off(C("2S"), "low", MAY_I)
    assert (two.low, two.wild_count(MAY_I)) == (2, 0)


def test_lay_off_on_a_set() -> None:
    """000: "a card that matches a SET"; 000 "KILLING A JOKER": a joker may be played on a SET."""
    s = meld("7S 7H 7D", ISRA)
    assert s.lay_off(C("7C"), None, ISRA).text() == "7S 7H 7D 7C"
    assert s.lay_off(JOKER, None, ISRA).text() == "7S 7H 7D JK"
    with pytest.raises(InvalidMeldError):
        s.lay_off(C("8C"), None, ISRA)
    wild_set = meld("JK JK JK", ISRA)
    assert wild_set.lay_off(C("9C"), None, ISRA).rank == 9
    s = meld("7S 7H JK", MAY_I)
    with pytest.raises(InvalidMeldError, match="more natural"):
        s.lay_off(C("2C"), None, MAY_I)
    assert s.lay_off(C("7D"), None, MAY_I).lay_off(C("2C"), None, MAY_I).text() == "7S 7H JK 7D 2C"
    assert s.ends() == ()


def test_replace_wild_in_a_run() -> None:
    """000: "if you have the 8 of diamonds in your hand and you see a JOKER on the table being used
    as the 8 of diamonds in a RUN, you can play your 8 of diamonds and then slip the JOKER out"."""
    m = meld("6D 7D JK 9D", ISRA)
    new, freed = m.replace_wild(C("8D"), ISRA)
    assert (new.text(), freed) == ("6D 7D 8D 9D", JOKER)
    assert new.low == m.low and new.wild_count(ISRA) == 0
    with pytest.raises(InvalidMeldError, match="stands for"):
        m.replace_wild(C("8H"), ISRA)
    with pytest.raises(InvalidMeldError, match="stands for"):
        m.replace_wild(C("5D"), ISRA)
    with pytest.raises(InvalidMeldError, match="only a natural"):
        m.replace_wild(JOKER, ISRA)
    # 001: "If a wild card has been played on the table in a run and the player has the card it
    # represents, they may replace the wild card with the card from their hand."
    m = meld("5D 6D 2C 8D", MAY_I)
    new, freed = m.replace_wild(C("7D"), MAY_I)
    assert (new.text(), freed) == ("5D 6D 7D 8D", C("2C"))
    with pytest.raises(InvalidMeldError, match="natural only in its own place"):
        m.replace_wild(C("2S"), MAY_I)
    # a black 2 in its own place is no wild: nothing to replace
    m = meld("AS 2S 3S 4S", MAY_I)
    with pytest.raises(InvalidMeldError):
        m.replace_wild(C("2S"), MAY_I)
    # two jokers: the one standing for the card goes
    m = meld("JK 4S JK 6S", ISRA)
    new, freed = m.replace_wild(C("5S"), ISRA)
    assert new.text() == "JK 4S 5S 6S" and freed == JOKER


def test_replace_wild_in_a_set() -> None:
    """melds.replace_wild also serves sets (004: "Any player in turn ... may later trade the actual
    card for the joker"); whether a preset allows it is the engine's rule (000: "you CANNOT switch
    out JOKERS in a SET")."""
    m = meld("7S 7H JK", CONTRACT)
    new, freed = m.replace_wild(C("7D"), CONTRACT)
    assert sorted(new.cards) == sorted(parse_cards("7S 7H 7D")) and freed == JOKER
    with pytest.raises(InvalidMeldError):
        m.replace_wild(C("8D"), CONTRACT)
    assert ISRA.wild_replacement == "runs-play-freed-wild"
    assert CONTRACT.wild_replacement == "any-meld-keep-wild"


def test_meld_kind_argument_and_errors() -> None:
    """make_meld with a kind checks only that kind; errors name the evident kind's problem."""
    assert make_meld(parse_cards("JK 7H JK"), FAMILY, "run").kind == "run"
    assert make_meld(parse_cards("JK 7H JK"), FAMILY).kind == "set"
    with pytest.raises(InvalidMeldError):
        make_meld(parse_cards("5D 6D 7D 8D"), ISRA, "set")
    with pytest.raises(InvalidMeldError, match="one rank"):
        make_meld(parse_cards("7S 7H 8H"), ISRA)
    with pytest.raises(InvalidMeldError, match="does not fit"):
        make_meld(parse_cards("5D 6D 8D 9D"), ISRA)
