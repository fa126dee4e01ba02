"""Rules tests of the engine for the "May I?" presets (``may-i``, ``may-i-10``) and their options
(``no-split``, ``aces-high``, ``shanghai-call``).

Source: document 001. Each test quotes the sentence of 001 that it checks.
"""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import assert_conserved, assert_illegal, card, cards, finish_round, new_game, rig, spec
from shanghai.cards import JOKER
from shanghai.engine.actions import (
    Buy,
    CallShanghai,
    Discard,
    DrawStock,
    GoDown,
    LayOff,
    Pass,
    ReplaceWild,
    TakeDiscard,
)
from shanghai.engine.game import Game, Phase

# ---------------------------------------------------------------------------------------------
# Wild cards
# ---------------------------------------------------------------------------------------------


def test_jokers_and_black_twos_are_wild_with_more_naturals_than_wilds() -> None:
    """001 "Jokers and black 2s are wild cards and can be used to replace a missing card in a set or
    run. There needs to be more natural cards than wild cards in the set or run." """
    hand = "7H 7S 2C 5D 6D 7D 2S JK 9H KC QC 4D"
    game = rig(new_game("may-i"), hands={0: hand}, turn=0, round_number=2)
    assert_illegal(game, GoDown(0, (spec("set", "7H 2C JK"), spec("run", "5D 6D 7D 2S"))), "more natural")
    assert_illegal(game, GoDown(0, (spec("set", "7H 7S 2C"), spec("run", "5D 6D JK 2S"))), "more natural")
    game.apply(GoDown(0, (spec("set", "7H 7S 2C"), spec("run", "5D 6D 7D 2S"))))
    assert game.table[1].meld.wild_meanings(game.rules) == ["2S=8D"]


def test_a_red_two_is_not_wild() -> None:
    """001 "Jokers and black 2s are wild cards" — red 2s are not."""
    game = rig(new_game("may-i"), hands={0: "7H 7S 2H 8H 8S 8D KC QC 4D 5S 9H 10C"}, turn=0)
    assert_illegal(game, GoDown(0, (spec("set", "7H 7S 2H"), spec("set", "8H 8S 8D"))), "one rank")


# ---------------------------------------------------------------------------------------------
# "May I?"
# ---------------------------------------------------------------------------------------------


def _after_discard(game: Game, turn: int, top: str = "QH", **kw: object) -> Game:
    kw.setdefault("dealer", 0)  # "May I?" precedence starts at the dealer's left
    return rig(game, turn=turn, phase=Phase.DRAW, discards=f"4S {top}", **kw)  # type: ignore[arg-type]


def test_nobody_may_i_s_a_card_the_player_in_turn_wants() -> None:
    """001 "Players cannot "May I?" the card if the player whose turn it is wants it." """
    game = _after_discard(new_game("may-i"), turn=1)
    game.apply(TakeDiscard(1))
    assert game.hands[1][-1] == card("QH") and game.phase == Phase.PLAY
    assert_illegal(game, Buy(2), "cannot buy now")


def test_may_i_takes_one_extra_card_and_waits_for_the_buyers_turn() -> None:
    """001 "The player who gets the "May I?" has to draw an extra card from the top of the draw pile,
    and cannot play the cards immediately, but must wait for his/her turn." """
    game = _after_discard(new_game("may-i"), turn=1, stock_top="2H 3H 4H")
    game.apply(DrawStock(1))
    game.apply(Buy(2))
    assert game.hands[2][-2:] == cards("QH 2H") and len(game.hands[2]) == 13
    assert game.hands[1][-1] == card("3H") and game.turn == 1 and game.phase == Phase.PLAY
    assert_illegal(game, Discard(2, card("QH")), "seat 2 cannot discard")
    assert_conserved(game)


def test_may_i_precedence_goes_to_the_player_closest_to_the_dealers_left() -> None:
    """001 "If more than one player wants it, the one closest to the dealer's left has precedence." —
    not clockwise from the player in turn as in 000."""
    game = _after_discard(new_game("may-i", players=5), turn=3, dealer=0)  # seat 2 discarded
    game.apply(DrawStock(3))
    assert game.to_act() == (1, 4, 0)
    game.apply(Buy(4))
    assert game.phase == Phase.BUY
    game.apply(Buy(1))
    assert len(game.hands[1]) == 13 and len(game.hands[4]) == 11
    # The same table under 000 gives the card to seat 4, the first clockwise from seat 3.
    isra = _after_discard(new_game("isra", players=5), turn=3, dealer=0)
    isra.apply(DrawStock(3))
    assert isra.to_act() == (4, 0, 1)


def test_three_may_is_a_hand_seventeen_cards_means_none_left() -> None:
    """001 "A player may only use "May I?" 3 times per hand. If a player has 17 cards, they have used
    all of their "May I's"." """
    game = _after_discard(new_game("may-i"), turn=1, buys_used={2: 2},
                          hands={2: "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 3D 4D 5D"})
    game.apply(DrawStock(1))
    game.apply(Buy(2))
    assert len(game.hands[2]) == 17 and game.buys_used[2] == 3
    hand2 = list(game.hands[2])
    game = _after_discard(game, turn=0, buys_used={2: 3}, hands={2: hand2})
    game.apply(DrawStock(0))
    assert game.to_act() == (1,)
    assert_illegal(game, Buy(2), "shopped out")


def test_only_one_may_i_per_discard_and_not_by_the_discarder() -> None:
    """001 "The "May I?"is when an out-of-turn player takes the top card of the discard pile, with
    restrictions." — one taker per discard; the discarder does not take it back (decision 16)."""
    game = _after_discard(new_game("may-i"), turn=1, discarder=0)
    game.apply(DrawStock(1))
    assert_illegal(game, Buy(0), "buys back")
    game.apply(Buy(2))
    assert_illegal(game, Buy(3), "cannot buy now")


# ---------------------------------------------------------------------------------------------
# Contracts, splitting, the options
# ---------------------------------------------------------------------------------------------

SPLIT_HAND = "3S 4S 5S 6S 7S 8S 9S 10S KH QC 4D AD"
SPLIT = (spec("run", "3S 4S 5S 6S"), spec("run", "7S 8S 9S 10S"))
SAME_RANK_HAND = "7H 7S 7D 7C 7H 7S KC QC 4D 5S 9H 10C"
SAME_RANK = (spec("set", "7H 7S 7D"), spec("set", "7C 7H 7S"))


def test_a_long_run_may_be_split_into_the_contracts_runs() -> None:
    """001 "Longer runs can be split into smaller runs to fulfill the contract. (3S-4S-5S-6S-7S-8S-9S-10S
    can be split to 3S-4S-5S-6S and 7S-8S-9S-10S)" """
    game = rig(new_game("may-i"), hands={0: SPLIT_HAND}, turn=0, round_number=3)
    game.apply(GoDown(0, SPLIT))
    assert [tm.meld.text() for tm in game.table] == ["3S 4S 5S 6S", "7S 8S 9S 10S"]


def test_sets_of_one_rank_may_meet_a_two_set_contract() -> None:
    """001 "Sets are 3 or more cards of the same rank. (7D-7H-7C or KS-KH-KC-KD)." — six 7s of two decks
    are two sets (unless ``no-split``)."""
    game = rig(new_game("may-i"), hands={0: SAME_RANK_HAND}, turn=0)
    game.apply(GoDown(0, SAME_RANK))


def test_no_split_forbids_touching_runs_of_one_suit_and_sets_of_one_rank() -> None:
    """001 "Some variations don't allow larger sets and runs to be split. The contracts must be met with
    unique sets and runs" """
    game = rig(new_game("may-i", options=["no-split"]), hands={0: SPLIT_HAND}, turn=0, round_number=3)
    assert_illegal(game, GoDown(0, SPLIT), "separated")
    game = rig(new_game("may-i", options=["no-split"]), hands={0: SAME_RANK_HAND}, turn=0)
    assert_illegal(game, GoDown(0, SAME_RANK), "different ranks")
    gap = "3S 4S 5S 6S 8S 9S 10S JS KH QC 4D AD"
    game = rig(new_game("may-i", options=["no-split"]), hands={0: gap}, turn=0, round_number=3)
    game.apply(GoDown(0, (spec("run", "3S 4S 5S 6S"), spec("run", "8S 9S 10S JS"))))


def test_aces_high_option_no_low_ace() -> None:
    """001 "The contracts must be met with unique sets and runs and Aces are always high, never low." """
    hand = "AH 2H 3H 4H JD QD KD AD 9S 9C 9H KC"
    game = rig(new_game("may-i", options=["aces-high"]), hands={0: hand}, turn=0, round_number=3)
    assert_illegal(game, GoDown(0, (spec("run", "AH 2H 3H 4H"), spec("run", "JD QD KD AD"))), "high only")
    game = rig(new_game("may-i"), hands={0: hand}, turn=0, round_number=3)
    game.apply(GoDown(0, (spec("run", "AH 2H 3H 4H"), spec("run", "JD QD KD AD"))))


def test_exactly_the_contract_and_lay_offs_only_once_down_on_anybodys_melds() -> None:
    """001 "A player once down (melded), can play remaining cards on existing melds (their own or
    others)." — not before, and no further melds after."""
    table = [(1, "5D 6D 7D 8D"), (1, "KS KH KD")]
    game = rig(new_game("may-i"), hands={0: "9D 4C 5C"}, table=table, down=[1], turn=0)
    assert_illegal(game, LayOff(0, card("9D"), 0, "high"), "once you are down")
    game = rig(new_game("may-i"), hands={0: "9D 4C 4H 4S"}, table=table, down=[0, 1], turn=0)
    assert_illegal(game, GoDown(0, (spec("set", "4C 4H 4S"),)), "already down")
    game.apply(LayOff(0, card("9D"), 0, "high"))


# ---------------------------------------------------------------------------------------------
# Replacing a wild
# ---------------------------------------------------------------------------------------------

WILD_TABLE = [(1, "5D 6D 2C 8D"), (1, "9C 9S JK"), (0, "KH KS KD"), (0, "3S 4S 5S 6S")]


def test_a_wild_in_a_run_is_replaced_and_must_be_played_that_turn() -> None:
    """001 "If a wild card has been played on the table in a run and the player has the card it
    represents, they may replace the wild card with the card from their hand." and "The wild card must
    be played on that turn." """
    game = rig(new_game("may-i"), hands={0: "7D QC 4H"}, table=WILD_TABLE, down=[0, 1], turn=0)
    game.apply(ReplaceWild(0, card("7D"), 0))
    assert game.table[0].meld.text() == "5D 6D 7D 8D"
    assert game.pending_wild == card("2C") and card("2C") not in game.hands[0]
    assert_illegal(game, Discard(0, card("QC")), "before discarding")
    game.apply(LayOff(0, card("2C"), 2))
    game.apply(Discard(0, card("QC")))
    assert game.turn == 1


def test_the_black_two_a_wild_stands_for_replaces_it() -> None:
    """001 "If a wild card has been played on the table in a run and the player has the card it
    represents, they may replace the wild card" — the card a wild stands for may be a black 2, natural
    in its own place (docs/rules.md decision 9); elsewhere a black 2 stays wild and replaces nothing."""
    for run in ("AS JK 3S 4S", "AS 2C 3S 4S"):
        game = rig(new_game("may-i"), hands={0: "2S 9H 9C 2C"}, table=[(1, run), (1, "7H 7D 7C")],
                   down=[0, 1], turn=0)
        assert "0 replace 2S m0" in [str(a) for a in game.legal_list(0)]
        freed = game.table[0].meld.cards[1]
        game.apply(ReplaceWild(0, card("2S"), 0))
        assert game.table[0].meld.text() == "AS 2S 3S 4S" and game.pending_wild == freed
    game = rig(new_game("may-i"), hands={0: "2C 9H 9C"}, table=[(1, "5D 6D JK 8D")], down=[0, 1], turn=0)
    assert_illegal(game, ReplaceWild(0, card("2C"), 0), "natural only in its own place")
    game.hands[0].append(JOKER)
    assert_illegal(game, ReplaceWild(0, JOKER, 0), "only a natural card")


def test_a_wild_laid_off_keeps_more_naturals_than_wilds() -> None:
    """001 "There needs to be more natural cards than wild cards in the set or run." — laying off too."""
    game = rig(new_game("may-i"), hands={0: "2C JK 4H"}, table=[(1, "7H 7S JK"), (1, "5D 6D 7D 8D")],
               down=[0, 1], turn=0)
    assert_illegal(game, LayOff(0, card("2C"), 0), "more natural")
    game.apply(LayOff(0, JOKER, 1, "high"))
    game.apply(LayOff(0, card("2C"), 1, "low"))
    assert game.table[1].meld.wild_count(game.rules) == 2


def test_wilds_in_sets_cannot_be_replaced() -> None:
    """001 "Wild cards played in sets cannot be replaced." """
    game = rig(new_game("may-i"), hands={0: "9D QC 4H"}, table=WILD_TABLE, down=[0, 1], turn=0)
    assert_illegal(game, ReplaceWild(0, card("9D"), 1), "in a set cannot be replaced")


# ---------------------------------------------------------------------------------------------
# Going out, scoring, the game
# ---------------------------------------------------------------------------------------------


def test_going_out_by_discarding_the_last_card() -> None:
    """001 "If all of the players cards have been played or discarded the hand is over." """
    game = rig(new_game("may-i"), hands={0: "KC"}, table=[(1, "5D 6D 7D 8D")], down=[0, 1], turn=0)
    game.apply(Discard(0, card("KC")))
    assert game.round_results[-1].went_out == 0 and game.round_number == 2


def test_going_out_by_playing_the_last_card() -> None:
    """001 "If all of the players cards have been played or discarded the hand is over." """
    game = rig(new_game("may-i"), hands={0: "9D"}, table=[(1, "5D 6D 7D 8D")], down=[0, 1], turn=0)
    game.apply(LayOff(0, card("9D"), 0, "high"))
    assert game.round_results[-1].went_out == 0


def test_may_i_card_values() -> None:
    """001 "K-3 & Red 2s: Face Value / Aces & Black 2s: 20 points / Jokers: 50 points" (J, Q and K count
    10: decision 5 of docs/rules.md)."""
    game = new_game("may-i")
    result = finish_round(game, winner=0, left={1: "KS QH JD 10C", 2: "2H 2D 2S 2C", 3: "AS JK 3H 9C"})
    assert result.points == (0, 40, 2 + 2 + 20 + 20, 20 + 50 + 3 + 9)


def test_seven_hands_lowest_total_wins() -> None:
    """001 "The winner of the game is the person who scored the lowest number of points through all 7
    hands of the game." (no dunce cap in 001)."""
    game = new_game("may-i")
    for r in range(7):
        finish_round(game, winner=r % 2, left={1 - r % 2: "3S", 2: "4S", 3: "KS"})
    assert game.is_over and len(game.round_results) == 7
    assert game.totals == [9, 12, 28, 70] and game.winners() == (0,) and game.dunce() == ()


def test_may_i_10_has_the_ten_contracts_and_still_deals_eleven() -> None:
    """001 "Some variations use 10 contracts instead of 7. 11 cards are still dealt to each player for
    the final hands, requiring players to use the "May I?" to get enough cards in their hand." """
    game = new_game("may-i-10")
    texts = [game.rules.contract(r).text() for r in range(1, 11)]
    assert texts == ["2 sets of 3", "1 set of 3 + 1 run of 4", "2 runs of 4", "3 sets of 3",
                     "1 set of 3 + 1 run of 7", "2 sets of 3 + 1 run of 5", "3 runs of 4",
                     "1 set of 3 + 1 run of 10", "3 sets of 3 + 1 run of 5", "3 runs of 5"]
    for _ in range(7):
        finish_round(game, winner=0)
    assert game.round_number == 8 and [len(h) for h in game.hands] == [11] * 4
    assert game.contract.min_cards == 13
    # After a "May I?" (13 cards) and the draw (14), the contract goes down and the last card is
    # discarded to go out.
    hand = "7H 7S 7D 2C 3C 4C 5C 6C 7C 8C 9C 10C JC KH"
    rig(game, hands={0: hand}, turn=0, buys_used={0: 1})
    game.apply(GoDown(0, (spec("set", "7H 7S 7D"), spec("run", "2C 3C 4C 5C 6C 7C 8C 9C 10C JC"))))
    game.apply(Discard(0, card("KH")))
    assert game.round_results[-1].went_out == 0


# ---------------------------------------------------------------------------------------------
# The "Shanghai" call (001 variation 3)
# ---------------------------------------------------------------------------------------------


def _shanghai_table(**kw: object) -> Game:
    game = new_game("may-i", options=["shanghai-call"])
    kw.setdefault("hands", {0: "9D KC 4S"})
    return rig(game, table=[(1, "5D 6D 7D 8D")], down=[1], turn=0, dealer=0,
               discards="4H", **kw)  # type: ignore[arg-type]


def test_an_unprotected_discard_that_fits_a_meld_opens_the_shanghai_call() -> None:
    """001 "If the player discards a card which could be added to existing meld without calling
    "Shanghai", then any other player, even a player who has not yet put down their contract, may call
    "Shanghai", and add the discard to a meld. The calling player then offers their hand face down to
    the player who discarded the card, and they must take a card from it and place it in their hand.
    The player to the left then takes their turn as normal." """
    game = _shanghai_table()
    game.apply(Discard(0, card("9D")))
    assert game.phase == Phase.SHANGHAI and game.to_act() == (1, 2, 3)
    assert_illegal(game, CallShanghai(0, 0, "high"), "seat 0 cannot call")
    assert_illegal(game, CallShanghai(2, 0, "low"), "does not go on")
    before2 = list(game.hands[2])
    game.apply(CallShanghai(2, 0, "high"))      # seat 2 is not down
    assert game.phase == Phase.SHANGHAI         # seat 1 comes first and has not answered
    game.apply(Pass(1))
    assert game.table[0].meld.text() == "5D 6D 7D 8D 9D"
    assert len(game.hands[2]) == 10 and len(game.hands[0]) == 3
    given = Counter(before2) - Counter(game.hands[2])
    assert sum(given.values()) == 1 and next(iter(given)) in game.hands[0]
    assert card("9D") not in game.discards
    assert game.phase == Phase.DRAW and game.turn == 1
    assert_illegal(game, TakeDiscard(1), "no discard to take")
    game.apply(DrawStock(1))
    assert game.phase == Phase.PLAY, "nothing to buy either"
    assert_conserved(game)


def test_shanghai_beats_a_may_i() -> None:
    """001 "Note: A "Shanghai" takes precedence over a "May I?". If a player calls "Shanghai" to protect
    a discard or to take a discard and add it to a meld on the table, this stops any other player from
    taking that card with a "May I?" on that turn." """
    game = _shanghai_table()
    game.apply(Discard(0, card("9D")))
    assert_illegal(game, Buy(3), "cannot buy now")
    game.apply(CallShanghai(1, 0, "high"))
    assert game.phase == Phase.DRAW
    game.apply(DrawStock(1))
    assert_illegal(game, Buy(3), "cannot buy now")


def test_the_discarder_protects_a_discard_by_calling_shanghai() -> None:
    """001 "If the player deliberately discards a card which could be added to an existing meld, they
    call "Shanghai" as they discard the card. This prevents it from being picked up by the next player
    or being "May I?"'d in that player's turn." """
    game = _shanghai_table()
    assert_illegal(game, Discard(0, card("KC"), shanghai=True), "fits no meld")
    game.apply(Discard(0, card("9D"), shanghai=True))
    assert game.phase == Phase.DRAW and game.turn == 1 and game.discards[-1] == card("9D")
    assert_illegal(game, CallShanghai(2, 0, "high"), "cannot call")
    assert_illegal(game, TakeDiscard(1), "no discard to take")
    game.apply(DrawStock(1))
    assert game.phase == Phase.PLAY and game.buy_window is None
    assert_illegal(game, Buy(2), "cannot buy now")


def test_when_nobody_calls_shanghai_the_discard_is_open_as_usual() -> None:
    """001 "The player to the left then takes their turn as normal." — with no call, the next player may
    take the discard, or draw and let others "May I?" it."""
    game = _shanghai_table()
    game.apply(Discard(0, card("9D")))
    for seat in (1, 2, 3):
        game.apply(Pass(seat))
    assert game.phase == Phase.DRAW and game.turn == 1 and game.discard_live
    game.apply(DrawStock(1))
    assert game.phase == Phase.BUY and game.to_act() == (2, 3)


def test_only_players_with_two_cards_or_more_may_call_shanghai() -> None:
    """001 "The calling player then offers their hand face down to the player who discarded the card,
    and they must take a card from it" — a player holding one card could not keep any, so only those
    holding two or more may call (decision 27 of docs/rules.md)."""
    game = _shanghai_table(hands={0: "9D KC 4S", 2: "KH"})
    game.apply(Discard(0, card("9D")))
    assert game.to_act() == (1, 3)
    assert_illegal(game, CallShanghai(2, 0, "high"), "seat 2 cannot call")


@pytest.mark.parametrize("name", ["may-i", "isra", "contract-10"])
def test_without_the_option_there_is_no_shanghai_call(name: str) -> None:
    """001 "The "Shanghai" - this is play occurs when a card that is discarded could be added to one of
    the melds already on the table." — a variation: without ``shanghai-call`` a fitting discard is an
    ordinary discard and cannot be protected."""
    game = rig(new_game(name), hands={0: "9D KC 4S"}, table=[(1, "5D 6D 7D 8D")], down=[1], turn=0)
    assert_illegal(game, Discard(0, card("9D"), shanghai=True), "not in these rules")
    game.apply(Discard(0, card("9D")))
    assert game.phase == Phase.DRAW and game.turn == 1 and game.discard_live
