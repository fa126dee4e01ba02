"""Rules tests of the engine for the ISRA presets (``isra``, ``isra-junior``, ``isra-express``).

Source: document 000 (International Shanghai Rummy Association rules). Each test quotes the
sentence of 000 that it checks.
"""

from __future__ import annotations

import pytest

from helpers import assert_conserved, assert_illegal, card, cards, finish_round, new_game, points, rig, spec
from shanghai.cards import JOKER
from shanghai.engine.actions import Buy, Cut, Discard, DrawStock, GoDown, LayOff, Pass, ReplaceWild, TakeDiscard
from shanghai.engine.game import CutResult, Game, Phase
from shanghai.rules import preset

# ---------------------------------------------------------------------------------------------
# THE CUT
# ---------------------------------------------------------------------------------------------


def test_the_cut_is_made_by_the_player_on_the_dealers_right() -> None:
    """000 "Once everyone is seated, the person to the dealer's right has the opportunity to try to
    get THE CUT." Nobody else cuts, nobody draws before the cut, and a cut takes 1 to 161 cards."""
    game = new_game("isra", players=4, seed=3)
    cutter = (game.dealer - 1) % 4
    assert game.phase == Phase.CUT and game.to_act() == (cutter,)
    for seat in range(4):
        if seat != cutter:
            assert_illegal(game, Cut(seat, 45), "cannot cut")
    assert_illegal(game, DrawStock((game.dealer + 1) % 4), "cannot draw now")
    assert_illegal(game, Cut(cutter, 0), "between 1 and 161")
    assert_illegal(game, Cut(cutter, 162), "between 1 and 161")
    game.apply(Cut(cutter, 45))
    assert game.cut is not None and game.cut.cutter == cutter
    assert game.phase == Phase.DRAW and game.turn == (game.dealer + 1) % 4


@pytest.mark.parametrize(("players", "needed"), [(3, 34), (4, 45), (5, 56), (6, 67), (7, 78), (8, 89)])
def test_the_cut_needs_eleven_cards_a_player_plus_the_flip_card(players: int, needed: int) -> None:
    """000 "that person to the dealer's right tries to cut the cards to the EXACT number of cards
    needed to deal 11 to each player PLUS one for the flip card that starts the play. 45 cards for 4
    persons, 56 cards for 5 persons and 67 cards for 6 persons." (A steady hand: ``cut_error=0``.)"""
    steady = preset("isra").changed(cut_error=0.0)
    made = Game.new(steady, players, seed=1)
    made.apply(Cut(made.turn, needed))
    assert made.cut == CutResult(made.cut.cutter if made.cut else -1, needed, needed, needed)
    assert made.cut is not None and made.cut.made
    for target in (needed - 1, needed + 1):
        missed = Game.new(steady, players, seed=1)
        missed.apply(Cut(missed.turn, target))
        assert missed.cut is not None and not missed.cut.made and missed.cut.needed == needed


def test_the_cut_is_a_hands_aim_not_an_exact_count() -> None:
    """000 "SHANGHAI MANICURE – Only a persistent rumor – but legend has it that some advanced and super
    competitive persons get a specific type of manicure prior to tournament play that increases their
    chance of GETTING THE CUT." — aiming at 45 sometimes makes THE CUT and sometimes misses it."""
    outcomes = set()
    for seed in range(60):
        game = new_game("isra", players=4, seed=seed)
        game.apply(Cut(game.turn, 45))
        assert game.cut is not None and 1 <= game.cut.actual <= 161
        outcomes.add(game.cut.made)
    assert outcomes == {True, False}


def test_the_cut_made_puts_fifty_points_on_every_other_player() -> None:
    """000 "if the exact number of cards in the cut given to the dealer equals 11 cards per player plus
    the FLIP CARD, then that person gets THE CUT, and all other persons get a 50-point penalty against
    them on the score pad." and "If a person GOT THE CUT,then 50 extra points are added to all other
    person's scores." — the one who goes out included."""
    game = new_game("isra", players=4, seed=3)
    cutter = game.turn
    left = {0: "KS", 1: "3C 4C", 2: "AS", 3: "JK"}
    hands = {s: h for s, h in left.items() if s != 2}
    # Deal, rig the round, then record a made cut for ``cutter`` before seat 2 goes out.
    game.apply(Cut(cutter, 45))
    rig(game, hands={**hands, 2: "9D"}, table=[(2, "5D 6D 7D 8D")], down=[2], turn=2, discards="2H")
    game.cut = CutResult(cutter, 45, 45, 45)
    game.apply(LayOff(2, card("9D"), 0, "high"))
    result = game.round_results[-1]
    assert result.cut is not None and result.cut.made
    for seat in range(4):
        base = 0 if seat == 2 else points(game, left[seat])
        assert result.points[seat] == base + (0 if seat == cutter else 50)


def test_the_cut_counts_in_a_round_nobody_goes_out() -> None:
    """000 "If a person GOT THE CUT,then 50 extra points are added to all other person's scores." — with
    no condition on the round's end: docs/rules.md decision 24, here a round ended by the turn guard
    (decision 25, one turn a round as a house rule)."""
    game = new_game("isra", players=4, seed=3, rules=preset("isra").changed(max_turns_per_round=1))
    cutter = game.turn
    game.apply(Cut(cutter, 45))
    game.cut = CutResult(cutter, 45, 45, 45)
    seat = game.turn
    game.apply(DrawStock(seat))
    while game.phase != Phase.PLAY:  # nobody buys
        game.apply(Pass(game.to_act()[0]))
    game.apply(Discard(seat, game.hands[seat][0]))
    result = game.round_results[-1]
    assert result.went_out is None and game.round_number == 2
    for s in range(4):
        held = sum(game.rules.points(c) for c in result.hands[s])
        assert result.points[s] == held + (0 if s == cutter else 50)


def test_the_cut_takes_place_every_round_passing_clockwise() -> None:
    """000 "The cut takes place every round. The deal and cut are then passed onto a new person every
    round moving clockwise." """
    game = new_game("isra", players=4, seed=8)
    first = game.dealer
    for r in range(4):
        assert game.phase == Phase.CUT
        assert game.dealer == (first + r) % 4
        assert game.to_act() == ((game.dealer - 1) % 4,)
        finish_round(game, winner=r)


# ---------------------------------------------------------------------------------------------
# Drawing, the flip card and buying
# ---------------------------------------------------------------------------------------------


def _after_discard(game: Game, turn: int, top: str = "QH", **kw: object) -> Game:
    """Seat ``turn`` is to draw; the seat before it has just discarded ``top``."""
    return rig(game, turn=turn, phase=Phase.DRAW, discards=f"4S {top}", **kw)  # type: ignore[arg-type]


def test_the_first_player_may_take_the_flip_card_or_draw_and_others_may_buy_it() -> None:
    """000 "During each round all participants have the option to BUY the face up FLIP CARD or regular
    discard showing." — the player in turn declines the flip card by drawing; then every other
    player, the dealer too, may buy it, clockwise from the player in turn."""
    game = new_game("isra", players=4, seed=4)
    game.apply(Cut(game.turn, 45))
    first = game.turn
    game.apply(DrawStock(first))
    assert game.phase == Phase.BUY
    assert game.to_act() == tuple((first + k) % 4 for k in (1, 2, 3))


def test_the_player_in_turn_takes_the_discard_free_and_nobody_may_buy_it() -> None:
    """000 "The person whose turn it is has first dibs on the discard for free. If they don't want it,
    then another person can BUY the card." """
    game = _after_discard(new_game("isra"), turn=1)
    stock = list(game.stock)
    game.apply(TakeDiscard(1))
    assert game.hands[1][-1] == card("QH") and len(game.hands[1]) == 12
    assert game.stock == stock and game.phase == Phase.PLAY and game.buy_window is None
    for seat in (2, 3):
        assert_illegal(game, Buy(seat), "cannot buy now")


def test_a_buyer_takes_two_penalty_cards_then_the_player_in_turn_draws() -> None:
    """000 "If they have priority to buy the card, they can then take it - but must draw TWO
    ADDITIONAL PENALTY CARDS from the face down STACK." """
    game = _after_discard(new_game("isra"), turn=1, stock_top="2C 3C 4C 5C")
    game.apply(DrawStock(1))
    assert game.phase == Phase.BUY and game.to_act() == (2, 3)
    game.apply(Buy(2))
    assert game.hands[2][-3:] == cards("QH 2C 3C") and len(game.hands[2]) == 14
    assert game.hands[1][-1] == card("4C") and len(game.hands[1]) == 12
    assert game.buys_used == [0, 0, 1, 0] and game.phase == Phase.PLAY and game.turn == 1
    assert_conserved(game)


def test_buy_priority_turns_clockwise_from_the_player_in_turn() -> None:
    """000 "If more than one person wants to buy a particular card – priority is determined by rotating
    clockwise from the player whose turn it is." — a buyer further round waits for those before."""
    game = _after_discard(new_game("isra", players=5), turn=2)  # seat 1 discarded
    game.apply(DrawStock(2))
    assert game.to_act() == (3, 4, 0)
    game.apply(Buy(0))
    game.apply(Buy(4))
    assert game.phase == Phase.BUY and game.to_act() == (3,)
    game.apply(Pass(3))
    assert len(game.hands[4]) == 14 and len(game.hands[0]) == 11 and game.buys_used[4] == 1


def test_only_one_person_may_buy_per_discard() -> None:
    """000 "Only one person may buy per discard. When buying, that person must also take two additional
    penalty cards from the STACK." """
    game = _after_discard(new_game("isra"), turn=1)
    game.apply(DrawStock(1))
    game.apply(Buy(2))
    assert game.phase == Phase.PLAY
    assert_illegal(game, Buy(3), "cannot buy now")
    assert len(game.hands[3]) == 11 and game.buys_used == [0, 0, 1, 0]


def test_the_discarder_cannot_buy_back_the_discard() -> None:
    """000 "The person whose turn it is has first dibs on the discard for free. If they don't want it,
    then another person can BUY the card." — another person: the one who just discarded it may not
    buy it back (decision 16 of docs/rules.md)."""
    game = _after_discard(new_game("isra"), turn=1, discarder=0)
    game.apply(DrawStock(1))
    assert 0 not in game.to_act()
    assert_illegal(game, Buy(0), "buys back")
    assert_illegal(game, Buy(1), "player in turn")


def test_two_buys_a_round_then_shopped_out_at_seventeen_cards() -> None:
    """000 "All persons are limited to TWO BUYS PER ROUND. After that you are SHOPPED OUT." and "If you
    have 11 cards you have two buys left, 14 cards one buy left, and if you have 17 cards you are
    SHOPPED OUT and can no longer BUY." """
    game = _after_discard(new_game("isra"), turn=1)
    game.apply(DrawStock(1))
    game.apply(Buy(2))                       # seat 2's first buy
    assert len(game.hands[2]) == 14
    game.apply(Discard(1, game.hands[1][0]))  # seat 2's turn
    game.apply(DrawStock(2))
    game.apply(Pass(3))
    game.apply(Pass(0))
    game.apply(Discard(2, game.hands[2][0]))  # seat 3's turn; seat 2 discarded
    game.apply(DrawStock(3))
    game.apply(Pass(0))
    game.apply(Pass(1))
    game.apply(Discard(3, game.hands[3][0]))  # seat 0's turn
    game.apply(DrawStock(0))
    assert game.to_act() == (1, 2)
    game.apply(Pass(1))
    game.apply(Buy(2))                       # seat 2's second buy
    assert len(game.hands[2]) == 17 and game.buys_used[2] == 2
    game.apply(Discard(0, game.hands[0][0]))  # seat 1's turn
    game.apply(DrawStock(1))
    assert game.to_act() == (3,), "seat 2 is shopped out"
    assert_illegal(game, Buy(2), "shopped out")
    assert_conserved(game)


def test_a_buyer_plays_only_on_their_own_turn() -> None:
    """000 "You must START YOUR PLAY prior to playing any cards down on the table." — a buyer has not
    started a play: the bought card waits for the buyer's turn."""
    game = _after_discard(new_game("isra"), turn=1, hands={2: "QH QS 4D 4C 4H 8S 9S 10S JS KD AD"})
    game.apply(DrawStock(1))
    game.apply(Buy(2))
    melds = (spec("set", "QH QS QH"), spec("set", "4D 4C 4H"))
    assert_illegal(game, GoDown(2, melds), "seat 2 cannot go down")
    assert_illegal(game, Discard(2, card("KD")), "seat 2 cannot discard")


# ---------------------------------------------------------------------------------------------
# Going down
# ---------------------------------------------------------------------------------------------

ROUND1_HAND = "7H 7S 7D 8H 8S 8D 9H 9S 9D KC QC 4D"


def test_go_down_with_exactly_the_contract_no_more_melds() -> None:
    """000 "You can only play the specific number of SETS and RUNS in that round." and "You cannot play
    any additional SETS or RUNS" — round one is "Two Sets - SET SET"."""
    game = rig(new_game("isra"), hands={0: ROUND1_HAND}, turn=0)
    three = (spec("set", "7H 7S 7D"), spec("set", "8H 8S 8D"), spec("set", "9H 9S 9D"))
    assert_illegal(game, GoDown(0, three), "exactly 2 melds")
    assert_illegal(game, GoDown(0, three[:1]), "exactly 2 melds")
    assert_illegal(game, GoDown(0, (spec("set", "7H 7S 7D"), spec("run", "7D 8D 9D 10D"))), "no set of 3")
    game.apply(GoDown(0, three[:2]))
    assert game.down[0] and len(game.table) == 2 and len(game.hands[0]) == 6
    assert_illegal(game, GoDown(0, (spec("set", "9H 9S 9D"), spec("set", "9H 9S 9D"))), "already down")


def test_longer_sets_and_runs_than_the_minimum_go_down() -> None:
    """000 "A SET is a group of THREE or more cards of the same value" and "A RUN is a group of FOUR or
    more cards in running order in the same suit." — round two is "One Set and One Run - SET RUN"."""
    game = rig(new_game("isra"), hands={0: "5H 5S 5C 5H 3D 4D 5D 6D 7D 8D KC QS"}, turn=0, round_number=2)
    game.apply(GoDown(0, (spec("set", "5H 5S 5C 5H"), spec("run", "3D 4D 5D 6D 7D 8D"))))
    assert [len(tm.meld.cards) for tm in game.table] == [4, 6]


def test_two_runs_of_one_suit_may_touch_a_long_run_laid_as_two() -> None:
    """000 is silent on two runs of one suit in a contract ("Two Runs - RUN RUN"); docs/rules.md decision
    12: they may touch, as 001 allows ("Longer runs can be split into smaller runs"), and only 004
    asks for a card between them."""
    game = rig(new_game("isra"), hands={0: "3H 4H 5H 6H 7H 8H 9H 10H KC QS 2D 2S"}, turn=0, round_number=3)
    game.apply(GoDown(0, (spec("run", "3H 4H 5H 6H"), spec("run", "7H 8H 9H 10H"))))
    assert [tm.meld.text() for tm in game.table] == ["3H 4H 5H 6H", "7H 8H 9H 10H"]


def test_the_freed_joker_bridge_may_end_with_the_last_card_taking_a_jokers_place() -> None:
    """Decision 21 in any order, with decision 19: after 5D takes a joker's place, 8D may go first,
    since the last card (10S) can still go out by taking the other joker's place."""
    game = rig(new_game("isra"), hands={0: "5D 8D 10S"}, table=[(0, "4D JK 6D 7D"), (1, "9S JK JS QS")],
               down=[0, 1], turn=0)
    game.apply(ReplaceWild(0, card("5D"), 0))
    assert "0 layoff 8D m0 high" in [str(a) for a in game.legal_list(0)]
    game.apply(LayOff(0, card("8D"), 0, "high"))
    game.apply(LayOff(0, JOKER, 0, "high"))            # 4D ... 8D JK: the joker as 9D
    game.apply(ReplaceWild(0, card("10S"), 1))
    game.apply(LayOff(0, JOKER, 1, "high"))
    assert game.round_results[-1].went_out == 0


def test_going_out_by_discarding_keeps_a_card_for_the_discard_after_a_replacement() -> None:
    """The house rule going_out=discard-last with isra's freed joker: replacing a wild with the last
    card would leave nothing to discard once the joker is laid, so it is refused (no dead end)."""
    rules = preset("isra").changed(going_out="discard-last")
    game = rig(new_game("isra", rules=rules), hands={0: "5D"}, table=[(0, "4D JK 6D 7D"), (1, "8H 9H 10H JH")],
               down=[0, 1], turn=0)
    assert_illegal(game, ReplaceWild(0, card("5D"), 0), "leave none to discard")
    assert game.legal_list(0)  # a legal move remains (the discard)


def test_a_run_may_be_laid_highest_card_first() -> None:
    """000 "A RUN is a group of FOUR or more cards in running order in the same suit": in order either way
    (a run read backwards, as ``shanghai judge meld`` reads it); on the table it lies lowest first."""
    game = rig(new_game("isra"), hands={0: "7S 7H 7D 8D 7C 6C 5C 4C 2H"}, turn=0, round_number=2)
    game.apply(GoDown(0, (spec("set", "7S 7H 7D"), spec("run", "7C 6C 5C 4C"))))
    assert [tm.meld.text() for tm in game.table] == ["7S 7H 7D", "4C 5C 6C 7C"]
    # natural cards have one place each: in any order (as the judge reads them)
    game = rig(new_game("isra"), hands={0: "7S 7H 7D 8D 7C 6C 5C 4C 2H"}, turn=0, round_number=2)
    game.apply(GoDown(0, (spec("set", "7S 7H 7D"), spec("run", "6C 4C 7C 5C"))))
    assert game.table[1].meld.text() == "4C 5C 6C 7C"


def test_a_run_is_four_cards_of_one_suit_in_order() -> None:
    """000 "A RUN is a group of FOUR or more cards in running order in the same suit.  All cards must be
    of the same suit." """
    game = rig(new_game("isra"), hands={0: "5H 5S 5C 3D 4D 5D 6C 7D KC QS AH 9S"}, turn=0, round_number=2)
    assert_illegal(game, GoDown(0, (spec("set", "5H 5S 5C"), spec("run", "3D 4D 5D"))), "at least 4")
    assert_illegal(game, GoDown(0, (spec("set", "5H 5S 5C"), spec("run", "3D 4D 5D 6C"))), "suit")


def test_aces_high_or_low_but_never_wrapped() -> None:
    """000 "In RUNS aces can be high or low and used next to the 2 or the King. But you cannot wrap
    around the ace – it must be either high or low and sits on the end of a run." """
    hand = "AS 2S 3S 4S JH QH KH AH 2H KS 9C 5C"
    game = rig(new_game("isra"), hands={0: hand}, turn=0, round_number=3)
    assert_illegal(game, GoDown(0, (spec("run", "QH KH AH 2H"), spec("run", "AS 2S 3S 4S"))))
    assert_illegal(game, GoDown(0, (spec("run", "KS AS 2S 3S"), spec("run", "JH QH KH AH"))))
    game.apply(GoDown(0, (spec("run", "AS 2S 3S 4S"), spec("run", "JH QH KH AH"))))
    assert game.table[0].meld.low == 1 and game.table[1].meld.high == 14


def test_jokers_never_side_by_side_in_a_run_but_three_jokers_make_a_set() -> None:
    """000 "Jokers can be used in RUNS – but not next to each other. So a RUNcannot be 3, Joker, Joker 6
    of spades." and "Three JOKERS can be used to form a set" """
    game = rig(new_game("isra"), hands={0: "3S JK JK 6S 7S JK 8H 8C 8D KH QC 4D"}, turn=0, round_number=2)
    assert_illegal(game, GoDown(0, (spec("set", "8H 8C 8D"), spec("run", "3S JK JK 6S"))), "side by side")
    game = rig(new_game("isra"), hands={0: "JK JK JK 8H 8C 8D KH QC 4D 5S 9H 10C"}, turn=0)
    game.apply(GoDown(0, (spec("set", "JK JK JK"), spec("set", "8H 8C 8D"))))
    assert game.down[0]


def test_two_sets_of_one_rank_may_meet_a_contract() -> None:
    """000 "ROUND ONE:  Two Sets - SET SET" — with three decks two sets of one rank are two sets
    (decision 11: allowed in ``isra``)."""
    game = rig(new_game("isra"), hands={0: "7H 7S 7D 7C 7H 7S KC QC 4D 5S 9H 10C"}, turn=0)
    game.apply(GoDown(0, (spec("set", "7H 7S 7D"), spec("set", "7C 7H 7S"))))


def test_going_down_only_after_starting_the_play() -> None:
    """000 "START YOUR PLAY - This means that you have either picked up or bought a card but have not
    discarded. You have "Started Your Play". You must START YOUR PLAY prior to playing any cards down
    on the table." """
    game = rig(new_game("isra"), hands={0: ROUND1_HAND[:-3]}, turn=0, phase=Phase.DRAW, discards="2H")
    assert_illegal(game, GoDown(0, (spec("set", "7H 7S 7D"), spec("set", "8H 8S 8D"))), "is to draw")


# ---------------------------------------------------------------------------------------------
# Laying off
# ---------------------------------------------------------------------------------------------


def test_laying_off_only_once_on_the_bed_on_anybodys_melds() -> None:
    """000 "Persons who are not down cannot play cards onto other persons' cards.  They must wait till
    they are ON THE BED." and "any person that is ON THE BED can get rid of their other cards when it
    is their turn by playing on any run or set on the table." """
    table = [(1, "5D 6D 7D 8D"), (2, "KS KH KD")]
    game = rig(new_game("isra"), hands={0: "9D KC 2S 4H"}, table=table, down=[1, 2], turn=0)
    assert_illegal(game, LayOff(0, card("9D"), 0, "high"), "once you are down")
    game = rig(new_game("isra"), hands={0: "9D KC 2S 4H"}, table=table, down=[0, 1, 2], turn=0)
    assert_illegal(game, LayOff(0, card("2S"), 0, "low"), "does not go on")
    assert_illegal(game, LayOff(0, card("KC"), 1, "high"), "a set has no ends")
    game.apply(LayOff(0, card("9D"), 0, "high"))
    game.apply(LayOff(0, card("KC"), 1))
    assert game.table[0].meld.text() == "5D 6D 7D 8D 9D" and len(game.table[1].meld.cards) == 4
    assert game.table[0].owner == 1


def test_laying_off_on_the_turn_of_going_down() -> None:
    """000 "You cannot play any additional SETS or RUNS but can play off both your and the other persons
    SETS and/or RUNS on the table." """
    game = rig(new_game("isra"), hands={0: "7H 7S 7D 8H 8S 8D 7C QC 4D"}, turn=0)
    game.apply(GoDown(0, (spec("set", "7H 7S 7D"), spec("set", "8H 8S 8D"))))
    game.apply(LayOff(0, card("7C"), 0))
    assert len(game.table[0].meld.cards) == 4


# ---------------------------------------------------------------------------------------------
# Replacing a joker
# ---------------------------------------------------------------------------------------------

JOKER_TABLE = [(1, "5D 6D JK 8D"), (1, "9C 9S JK"), (0, "KH KS KD"), (0, "2S 3S 4S 5S")]


def test_replacing_a_joker_in_a_run_leaves_it_on_the_table_to_be_played() -> None:
    """000 "you can play your 8 of diamonds and then slip the JOKER out – BUT LEAVE IT ON THE TABLE – DO
    NOT PLACE IT IN YOUR HAND.  Then you can use it anywhere on the table (on a SET or RUN) you like -
    but it must be used this play before you discard or go out." """
    game = rig(new_game("isra"), hands={0: "7D QC 4H 10S"}, table=JOKER_TABLE, down=[0, 1], turn=0)
    game.apply(ReplaceWild(0, card("7D"), 0))
    assert game.table[0].meld.text() == "5D 6D 7D 8D"
    assert game.pending_wild == JOKER and JOKER not in game.hands[0]
    assert game.hands[0] == cards("QC 4H 10S")
    assert_conserved(game)
    assert_illegal(game, Discard(0, card("QC")), "before discarding")
    assert_illegal(game, ReplaceWild(0, card("9D"), 1), "freed JK before replacing another wild")
    game.apply(LayOff(0, JOKER, 2))
    assert game.pending_wild is None and game.table[2].meld.text() == "KH KS KD JK"
    game.apply(Discard(0, card("QC")))
    assert game.turn == 1


def test_the_freed_joker_may_bridge_to_other_cards_played_before_it() -> None:
    """000 "it must be used this play before you discard or go out. Best if you can use the swapped-out
    JOKER to set up a bridge to play other cards in your hand." — docs/rules.md decision 21: cards of
    the hand may be laid off before the freed joker, as long as it can still go on a meld, and the turn
    does not end (by a discard, or by going out) until it has."""
    game = rig(new_game("isra"), hands={0: "6D 9D JD 3C 4S"}, table=[(1, "5D JK 7D 8D"), (1, "KH KS KC")],
               down=[0, 1], turn=0)
    game.apply(ReplaceWild(0, card("6D"), 0))
    assert game.pending_wild == JOKER
    game.apply(LayOff(0, card("9D"), 0, "high"))       # first a card of the hand ...
    assert game.pending_wild == JOKER and game.table[0].meld.text() == "5D 6D 7D 8D 9D"
    assert_illegal(game, Discard(0, card("3C")), "before discarding")
    game.apply(LayOff(0, JOKER, 0, "high"))            # ... then the joker as 10D, the bridge ...
    game.apply(LayOff(0, card("JD"), 0, "high"))       # ... to the jack
    assert game.table[0].meld.text() == "5D 6D 7D 8D 9D JK JD" and game.pending_wild is None
    assert_conserved(game)
    # the last card of the hand first: the round ends only once the freed joker is on the table too
    game = rig(new_game("isra"), hands={0: "7D 9D"}, table=[(1, "5D 6D JK 8D")], down=[0, 1], turn=0)
    game.apply(ReplaceWild(0, card("7D"), 0))
    game.apply(LayOff(0, card("9D"), 0, "high"))
    assert game.hands[0] == [] and game.pending_wild == JOKER and game.round_number == 1
    assert [str(a) for a in game.legal_list(0)] == ["0 layoff JK m0 low", "0 layoff JK m0 high"]
    game.apply(LayOff(0, JOKER, 0, "high"))
    assert game.round_results[-1].went_out == 0


def test_a_joker_is_replaced_only_by_the_card_it_stands_for_once_down() -> None:
    """000 "Once you are ON THE BED, a joker on the table can be replaced by a card in your hand that is
    exactly what the Joker represents on the table." """
    game = rig(new_game("isra"), hands={0: "7D 6D QC 4H"}, table=JOKER_TABLE, down=[1], turn=0)
    assert_illegal(game, ReplaceWild(0, card("7D"), 0), "only once you are down")
    game = rig(new_game("isra"), hands={0: "7D 6D QC 4H"}, table=JOKER_TABLE, down=[0, 1], turn=0)
    assert_illegal(game, ReplaceWild(0, card("6D"), 0), "stands for 6D")
    game = rig(new_game("isra"), hands={0: "7D 6D QC 4H"}, table=JOKER_TABLE, down=[0, 1], turn=0,
               phase=Phase.DRAW, discards="2H")
    assert_illegal(game, ReplaceWild(0, card("7D"), 0), "is to draw")


def test_a_joker_laid_off_never_sits_beside_another_in_a_run() -> None:
    """000 "There must be a regular card between each joker in a RUN." """
    game = rig(new_game("isra"), hands={0: "JK QC 4H"}, table=[(1, "5D 6D 7D JK")], down=[0, 1], turn=0)
    assert_illegal(game, LayOff(0, JOKER, 0, "high"), "side by side")
    game.apply(LayOff(0, JOKER, 0, "low"))
    assert game.table[0].meld.wild_meanings() == ["JK=4D", "JK=8D"]


def test_a_set_of_jokers_alone_takes_the_rank_of_the_first_card_laid_on_it() -> None:
    """000 "Three JOKERS can be used to form a set" — and the first natural card laid off on it gives
    it its rank (decision 6 of docs/rules.md)."""
    game = rig(new_game("isra"), hands={0: "7H 8H 7S QC"}, table=[(1, "JK JK JK")], down=[0, 1], turn=0)
    game.apply(LayOff(0, card("7H"), 0))
    assert_illegal(game, LayOff(0, card("8H"), 0), "one rank")
    game.apply(LayOff(0, card("7S"), 0))


def test_jokers_in_a_set_cannot_be_switched_out() -> None:
    """000 "And just to reiterate – once ON THE BED you CANNOT switch out JOKERS in a SET – only in a
    RUN." """
    game = rig(new_game("isra"), hands={0: "9D QC 4H"}, table=JOKER_TABLE, down=[0, 1], turn=0)
    assert_illegal(game, ReplaceWild(0, card("9D"), 1), "in a set cannot be replaced")


# ---------------------------------------------------------------------------------------------
# Going out
# ---------------------------------------------------------------------------------------------


def test_going_out_means_playing_every_card_the_last_card_is_never_discarded() -> None:
    """000 "The hand ends when a person GOES OUT. This does NOT mean the person discards their last card
    into the discard tray. A person must go all the way out by playing all their cards onto the
    table." """
    game = rig(new_game("isra"), hands={0: "9D"}, table=[(1, "5D 6D 7D 8D")], down=[0, 1], turn=0)
    assert_illegal(game, Discard(0, card("9D")), "last card may not be discarded")
    game.apply(LayOff(0, card("9D"), 0, "high"))
    result = game.round_results[-1]
    assert result.went_out == 0 and result.points[0] == 0 and game.round_number == 2


def test_a_non_player_is_discarded_and_the_player_kept() -> None:
    """000 "If you have a non-player in your hand, you cannot go out.  You discard the non-player, keep
    the player in your hand and wait till your next turn." """
    game = rig(new_game("isra"), hands={0: "9D KC"}, table=[(1, "5D 6D 7D 8D")], down=[0, 1], turn=0)
    assert_illegal(game, LayOff(0, card("9D"), 0, "high"), "would leave only KC")
    game.apply(Discard(0, card("KC")))
    assert game.hands[0] == cards("9D") and game.turn == 1 and game.round_number == 1


def test_set_run_run_complete_in_hand_but_cannot_go_down_with_eleven_cards() -> None:
    """000 "And in this round, you may have completed SET RUN RUN in your hand, but not be able to go
    down if you still only have 11 cards – be careful of this." — 12 cards after the draw, the
    contract takes 11, and the 12th plays nowhere: going down is refused."""
    melds = (spec("set", "7H 7S 7D"), spec("run", "2C 3C 4C 5C"), spec("run", "9H 10H JH QH"))
    game = rig(new_game("isra"), hands={0: "7H 7S 7D 2C 3C 4C 5C 9H 10H JH QH KS"}, turn=0, round_number=6)
    assert game.contract.shout() == "SET RUN RUN"
    assert_illegal(game, GoDown(0, melds), "would leave only KS")
    assert game.best_go_down(0) is None
    # The same hand with a 12th card that plays goes down (and out: the slam).
    game = rig(new_game("isra"), hands={0: "7H 7S 7D 2C 3C 4C 5C 9H 10H JH QH KH"}, turn=0, round_number=6)
    game.apply(GoDown(0, melds))
    game.apply(LayOff(0, card("KH"), 2, "high"))
    assert game.round_results[-1].went_out == 0


def test_the_last_card_may_play_by_replacing_a_joker_on_the_table() -> None:
    """000 "Once you are ON THE BED, a joker on the table can be replaced by a card in your hand ... Then
    you can use it anywhere on the table ... it must be used this play before you discard or go out."
    and docs/rules.md decision 19 (a play is refused only when it leaves one card that plays nowhere):
    a card that takes a joker's place plays, and the freed joker then goes on a meld, so going down
    with it as the last card is a (semi-)slam, not a dead end (a reviewer found it refused)."""
    hand = "9H 9S 9C KH KS KC 6D"
    melds = (spec("set", "9H 9S 9C"), spec("set", "KH KS KC"))
    game = rig(new_game("isra"), hands={0: hand}, table=[(1, "5D JK 7D 8D")], down=[1], turn=0,
               phase=Phase.PLAY, round_number=1)
    down = game.best_go_down(0)
    assert down is not None and sorted(c for m in down.melds for c in m.cards) == sorted(cards("9H 9S 9C KH KS KC"))
    assert down in game.legal_list()
    game.apply(GoDown(0, melds))
    assert game.legal_list() == [ReplaceWild(0, card("6D"), 0)]
    game.apply(ReplaceWild(0, card("6D"), 0))
    assert game.pending_wild == JOKER
    game.apply(LayOff(0, JOKER, 1, None))
    result = game.round_results[-1]
    assert result.went_out == 0 and result.points[0] == 0
    # Once down, the next-to-last card may be laid off while the last waits for the joker's place.
    game = rig(new_game("isra"), hands={0: "QD 6D"}, table=[(1, "5D JK 7D 8D"), (0, "QS QH QC")], down=[0, 1],
               turn=0, phase=Phase.PLAY, round_number=1)
    game.apply(LayOff(0, card("QD"), 1, None))
    game.apply(ReplaceWild(0, card("6D"), 0))
    game.apply(LayOff(0, JOKER, 1, None))
    assert game.round_results[-1].went_out == 0


# ---------------------------------------------------------------------------------------------
# Scoring, slams and awards
# ---------------------------------------------------------------------------------------------


def test_going_down_leaving_one_card_that_plays_on_another_players_meld_is_offered() -> None:
    """000 "This is when a person completes the SET or RUN requirements of the round and all the cards
    in their hand are PLAYERS" and "SEMI-SLAM – This is the same as SLAMMING, but only after one or
    more other persons are already on the bed." — the 12th card plays on another player's run, so
    going down is legal and ``legal_actions`` offers it (it did not before: fixed in
    ``Game.best_go_down``)."""
    hand = "7H 7S 7D 2C 3C 4C 5C 9H 10H JH QH 9D"
    game = rig(new_game("isra"), hands={0: hand}, table=[(1, "5D 6D 7D 8D")], down=[1], turn=0, round_number=6)
    offered = [a for a in game.legal_actions(0) if isinstance(a, GoDown)]
    assert offered, "a legal go-down must be offered"
    game.apply(offered[0])
    assert game.hands[0] == cards("9D")
    game.apply(LayOff(0, card("9D"), 0, "high"))
    assert game.round_results[-1].slam == "semi-slam"


def test_card_values_left_in_hand() -> None:
    """000 "JOKERS  50 Points / Aces  20 Points / 10's and Face Cards 10 Points / 2's through 9's  5
    Points" and "The person who goes out each round scores a 0 for that round" """
    game = new_game("isra")
    left = {1: "JK AS KD QH JC 10C", 2: "9H 2S 5D", 3: "AH AD"}
    result = finish_round(game, winner=0, left=left)
    assert result.points == (0, 50 + 20 + 10 + 10 + 10 + 10, 15, 40)
    assert game.totals == list(result.points)


def test_slam_going_down_and_out_in_one_turn_with_nobody_else_down() -> None:
    """000 "This is when a person completes the SET or RUN requirements of the round and all the cards
    in their hand are PLAYERS, AND no other person is down yet. If they then pick up a final player
    in their draw, they can then SLAM their cards down on the table and the round is instantly over"
    """
    game = rig(new_game("isra"), hands={0: "7H 7S 7D 8H 8S 8D 8C 7C"}, turn=0)
    game.apply(GoDown(0, (spec("set", "7H 7S 7D 7C"), spec("set", "8H 8S 8D"))))
    game.apply(LayOff(0, card("8C"), 1))
    result = game.round_results[-1]
    assert result.went_out == 0 and result.slam == "slam" and 0 in result.joker_free


def test_semi_slam_when_others_are_already_down() -> None:
    """000 "SEMI-SLAM – This is the same as SLAMMING, but only after one or more other persons are
    already on the bed." """
    game = rig(new_game("isra"), hands={0: "7H 7S 7D 8H 8S JK"}, table=[(2, "QS QH QD"), (2, "4C 4D 4H")],
               down=[2], turn=0)
    game.apply(GoDown(0, (spec("set", "7H 7S 7D"), spec("set", "8H 8S JK"))))
    result = game.round_results[-1]
    assert result.slam == "semi-slam" and 0 not in result.joker_free


def test_going_out_on_a_later_turn_is_no_slam() -> None:
    """000 "SLAM – a rare occurrence ... This is when a person completes the SET or RUN requirement of
    the round and all the cards in their hand are PLAYERS – and no other person is down yet." — going
    down on one turn and out on a later one is no slam."""
    game = rig(new_game("isra"), hands={0: "9D"}, table=[(0, "5D 6D 7D 8D"), (0, "KS KH KD")], down=[0], turn=0)
    game.apply(LayOff(0, card("9D"), 0, "high"))
    assert game.round_results[-1].slam is None


def test_joker_free_records_who_went_down_without_jokers() -> None:
    """000 "JOKER FREE – A bragging right for any person who goes down without having any jokers." """
    game = rig(new_game("isra"), hands={0: "7H 7S JK 8H 8S 8D QC 4D", 1: "9S 9H 9C 10S 10H 10C KD 2C"},
               turn=0)
    game.apply(GoDown(0, (spec("set", "7H 7S JK"), spec("set", "8H 8S 8D"))))
    game.apply(Discard(0, card("QC")))
    game.apply(DrawStock(1))
    for s in (2, 3):
        game.apply(Pass(s))
    game.apply(GoDown(1, (spec("set", "9S 9H 9C"), spec("set", "10S 10H 10C"))))
    assert game.joker_free == [1]


def _play_rounds(game: Game, plan: list[tuple[int, dict[int, str]]]) -> None:
    for winner, left in plan:
        finish_round(game, winner, left)


def test_game_ends_after_the_seventh_round_lowest_total_wins_ties_share_the_crown() -> None:
    """000 "The goal of Shanghai Rummy is to get the lowest score after the 7 rounds." and "THE CROWN –
    Awarded to the winner of the game." and "THE DUNCE CAP – Optional. Awarded to the person with the
    highest score." (a tie shares the award: decision 26)."""
    game = new_game("isra")
    plan = [(r % 2, {1 - r % 2: "5S", 2: "AS", 3: "JK"}) for r in range(6)]
    plan.append((2, {0: "5S", 1: "5S", 3: "JK"}))
    _play_rounds(game, plan)
    assert game.is_over and game.phase == Phase.GAME_OVER and len(game.round_results) == 7
    assert game.totals == [20, 20, 120, 350]
    assert game.winners() == (0, 1)
    assert game.dunce() == (3,)
    assert_illegal(game, DrawStock(0), "game is over")


def test_isra_junior_plays_the_first_three_rounds_without_the_dunce_cap() -> None:
    """000 "SHANGHAI JUNIOR ... Only the first three hands are played but you still employ all other
    rules – including THE CUT and BUYING. The final award ceremony should also take place – but let's
    leave out the DUNCE CAP for now." """
    game = new_game("isra-junior")
    assert [game.rules.contract(r).shout() for r in (1, 2, 3)] == ["SET SET", "SET RUN", "RUN RUN"]
    assert game.phase == Phase.CUT
    _play_rounds(game, [(0, {1: "KS", 2: "AS", 3: "5S"})] * 3)
    assert game.is_over and game.winners() == (0,) and game.dunce() == ()
    full = new_game("isra")
    _play_rounds(full, [(0, {1: "KS", 2: "AS", 3: "5S"})] * 7)
    assert full.dunce() == (2,)


def test_isra_express_starts_with_the_lightning_round() -> None:
    """000 "SHANGHAI EXPRESS – ... you can just play Shanghai Express which starts with the LIGHTNING
    ROUND (SET SET SET) and moves onto the final three hands of the game. All other rules and aspects
    of play stay the same." """
    game = new_game("isra-express")
    assert [game.rules.contract(r).shout() for r in (1, 2, 3, 4)] == \
        ["SET SET SET", "SET SET RUN", "SET RUN RUN", "RUN RUN RUN"]
    rig(game, hands={0: "7H 7S 7D 8H 8S 8D 9H 9S 9D KC QC 4D"}, turn=0)
    assert_illegal(game, GoDown(0, (spec("set", "7H 7S 7D"), spec("set", "8H 8S 8D"))), "exactly 3 melds")
    game.apply(GoDown(0, (spec("set", "7H 7S 7D"), spec("set", "8H 8S 8D"), spec("set", "9H 9S 9D"))))
    _play_rounds(game, [(1, {0: "KS", 2: "AS", 3: "5S"})] * 4)
    assert game.is_over and len(game.round_results) == 4
    assert game.winners() == (1,) and game.dunce() == (2,)  # the dunce cap is on (decision 26)


def test_the_round_winner_gets_the_star() -> None:
    """000 "The person who goes out each round scores a 0 for that round and gets a star on the score
    pad above the diagonal line for that round." """
    game = new_game("isra")
    result = finish_round(game, winner=3, left={0: "KS", 1: "KH", 2: "KD"})
    assert result.went_out == 3 and result.points[3] == 0
