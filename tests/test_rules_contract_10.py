"""Rules tests of the engine for the ``contract-10`` preset (Shanghai as contract rummy, 10 deals).

Source: document 004, second part (the contract-rummy text). Each test quotes the sentence of 004
that it checks (typos of the source kept).
"""

from __future__ import annotations

import pytest

from helpers import assert_conserved, assert_illegal, card, cards, finish_round, new_game, rig, spec
from shanghai.cards import JOKER
from shanghai.engine.actions import Buy, Discard, DrawStock, GoDown, LayOff, Pass, ReplaceWild, TakeDiscard
from shanghai.engine.game import Game, Phase
from shanghai.errors import InvalidMeldError
from shanghai.melds import check_run, check_set
from shanghai.rules import preset


def _after_discard(game: Game, turn: int, top: str = "QH", **kw: object) -> Game:
    return rig(game, turn=turn, phase=Phase.DRAW, discards=f"4S {top}", **kw)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# Contracts and melds
# ---------------------------------------------------------------------------------------------


def test_ten_deals_with_their_contracts() -> None:
    """004 "There are ten rounds" and "DN 1, C: Two Sets of 3" ... "DN 10, C: Three sequences of 5" """
    rules = preset("contract-10")
    assert [rules.contract(r).text() for r in range(1, 11)] == [
        "2 sets of 3", "1 set of 3 + 1 run of 4", "2 runs of 4", "3 sets of 3",
        "1 set of 3 + 1 run of 7", "2 sets of 3 + 1 run of 5", "3 runs of 4",
        "1 set of 3 + 1 run of 10", "3 sets of 3 + 1 run of 5", "3 runs of 5"]


def test_only_the_precise_melds_of_the_contract() -> None:
    """004 "He may only lay down the precise melds as called for in the contract." """
    hand = "7H 7S 7D 8H 8S 8D 9H 9S 9D KC QC 4D"
    game = rig(new_game("contract-10"), hands={0: hand}, turn=0)
    sets = (spec("set", "7H 7S 7D"), spec("set", "8H 8S 8D"), spec("set", "9H 9S 9D"))
    assert_illegal(game, GoDown(0, sets), "exactly 2 melds")
    assert_illegal(game, GoDown(0, sets[:1]), "exactly 2 melds")
    game.apply(GoDown(0, sets[:2]))
    assert_illegal(game, GoDown(0, sets[2:] * 2), "already down")


def test_precise_melds_may_be_longer_than_the_contract_names() -> None:
    """004 "Each meld consists of either a set, consisting of three or more cards of the same value, or a
    sequence consisting of four or more cards": docs/rules.md decision 12a reads "the precise melds" as
    the contract's number and kinds of melds, each at least its size — deal 6 is "Two sets of 3 and one
    sequence of 5"."""
    hand = "7H 7S 7D 7C 8H 8S 8D 3C 4C 5C 6C 7C 8C KD"
    game = rig(new_game("contract-10"), hands={0: hand}, turn=0, round_number=6)
    game.apply(GoDown(0, (spec("set", "7H 7S 7D 7C"), spec("set", "8H 8S 8D"),
                          spec("run", "3C 4C 5C 6C 7C 8C"))))
    assert [len(tm.meld.cards) for tm in game.table] == [4, 3, 6] and game.hands[0] == [card("KD")]


def test_runs_of_one_suit_must_be_separated_by_a_card() -> None:
    """004 "When two or more sequences are required, they must be in different suits, or in the same
    suit. They cannot be in consecutive order and must be separated by at least one card." """
    hand = "3H 4H 5H 6H 7H 8H 9H 10H JH 5H 6H KC"
    game = rig(new_game("contract-10"), hands={0: hand}, turn=0, round_number=3)
    assert_illegal(game, GoDown(0, (spec("run", "3H 4H 5H 6H"), spec("run", "7H 8H 9H 10H"))), "separated")
    assert_illegal(game, GoDown(0, (spec("run", "3H 4H 5H 6H"), spec("run", "5H 6H 7H 8H"))), "separated")
    game.apply(GoDown(0, (spec("run", "3H 4H 5H 6H"), spec("run", "8H 9H 10H JH"))))
    game = rig(new_game("contract-10"), hands={0: "3H 4H 5H 6H 7S 8S 9S 10S KC QD"}, turn=0, round_number=3)
    game.apply(GoDown(0, (spec("run", "3H 4H 5H 6H"), spec("run", "7S 8S 9S 10S"))))


def test_separated_runs_may_be_joined_by_later_lay_offs() -> None:
    """004 "They cannot be in consecutive order and must be separated by at least one card." — a rule of
    the contract, checked when going down; later lay-offs may bring the runs together (decision 12)."""
    table = [(0, "3H 4H 5H 6H"), (0, "8H 9H 10H JH")]
    game = rig(new_game("contract-10"), hands={0: "7H KC"}, table=table, down=[0], turn=0, round_number=3)
    game.apply(LayOff(0, card("7H"), 0, "high"))
    assert game.table[0].meld.high + 1 == game.table[1].meld.low


def test_aces_high_or_low_not_round_the_corner() -> None:
    """004 "An ace may rank either high (A-K-Q) or low (3-2-A), but sequences may not extend 'round the
    corner' (K-A-2)" """
    hand = "JH QH KH AH 2H 3H AS 2S 3S 4S 9C 9D"
    game = rig(new_game("contract-10"), hands={0: hand}, turn=0, round_number=3)
    assert_illegal(game, GoDown(0, (spec("run", "KH AH 2H 3H"), spec("run", "AS 2S 3S 4S"))), "past the ace")
    game.apply(GoDown(0, (spec("run", "AS 2S 3S 4S"), spec("run", "JH QH KH AH"))))
    assert game.table[0].meld.low == 1 and game.table[1].meld.high == 14


def test_joker_limits_per_meld_size() -> None:
    """004 "There is a limit to the number of jokers used in a set or sequence: 1 joker may be used in a
    set of 3, or a sequence of 4 / 2 jokers may be used in a sequence of 5 / 3 jokers may be used in a
    sequence of 7 / 4 jokers may be used in a sequence of 10" """
    game = rig(new_game("contract-10", players=5), hands={0: "7H JK JK 8H 8S 8D KC QC 4D 5S 9H 10C"}, turn=0)
    assert_illegal(game, GoDown(0, (spec("set", "7H JK JK"), spec("set", "8H 8S 8D"))), "more natural")
    game = rig(new_game("contract-10", players=5), hands={0: "7H 7S JK 8H 8S 8D KC QC 4D 5S 9H 10C"}, turn=0)
    game.apply(GoDown(0, (spec("set", "7H 7S JK"), spec("set", "8H 8S 8D"))))
    game = rig(new_game("contract-10", players=5), hands={0: "7H 7S 7D 8H 8S 8D 5C JK 7C 8C JK KC QC"},
               turn=0, round_number=6)
    game.apply(GoDown(0, (spec("set", "7H 7S 7D"), spec("set", "8H 8S 8D"), spec("run", "5C JK 7C 8C JK"))))
    assert game.table[2].meld.wild_count(game.rules) == 2
    rules = game.rules
    # The pack holds at most 2 jokers; the limits for 7 and 10 cards are checked on the melds.
    assert check_run(cards("5D JK 7D JK 9D"), rules).wild_count(rules) == 2
    with pytest.raises(InvalidMeldError):
        check_run(cards("5D JK JK 8D"), rules)
    assert check_run(cards("5D JK 7D JK 9D JK JD"), rules).wild_count(rules) == 3
    with pytest.raises(InvalidMeldError):
        check_run(cards("5D JK 7D JK 9D JK JK"), rules)
    assert check_run(cards("2D JK 4D JK 6D JK 8D JK 10D JD"), rules).wild_count(rules) == 4
    with pytest.raises(InvalidMeldError):
        check_run(cards("2D JK 4D JK 6D JK 8D JK 10D JK"), rules)
    assert check_set(cards("7H 7S JK"), rules).wild_count(rules) == 1
    with pytest.raises(InvalidMeldError):
        check_set(cards("7H JK JK"), rules)


# ---------------------------------------------------------------------------------------------
# Laying off and jokers on the table
# ---------------------------------------------------------------------------------------------


def test_no_lay_offs_on_the_turn_of_going_down() -> None:
    """004 "He may only lay down the precise melds as called for in the contract. He may not lay off any
    additional cards at this time." """
    hand = "7H 7S 7D 8H 8S 8D 7C 9D KC"
    game = rig(new_game("contract-10"), hands={0: hand}, table=[(1, "5D 6D 7D 8D")], down=[1], turn=0)
    game.apply(GoDown(0, (spec("set", "7H 7S 7D"), spec("set", "8H 8S 8D"))))
    assert_illegal(game, LayOff(0, card("7C"), 1), "no lay-offs on the turn you go down")
    assert_illegal(game, LayOff(0, card("9D"), 0, "high"), "no lay-offs on the turn you go down")
    game.apply(Discard(0, card("KC")))


def test_lay_offs_on_any_meld_from_the_next_turn() -> None:
    """004 "In the subsequent turns after a player's contract has been met, he may lay off additional
    cards to any meld on the table, whether his own or his opponents." """
    table = [(1, "5D 6D 7D 8D"), (0, "7H 7S 7D")]
    game = rig(new_game("contract-10"), hands={0: "7C 9D KC"}, table=table, down=[0, 1], turn=0)
    game.apply(LayOff(0, card("7C"), 1))
    game.apply(LayOff(0, card("9D"), 0, "high"))
    assert game.hands[0] == cards("KC")


def test_no_lay_off_before_meeting_the_contract_no_new_meld_after() -> None:
    """004 "A player may not lay off any cards until he himself has met the contract." and "However, he
    may not create any new melds of his own." """
    table = [(1, "5D 6D 7D 8D"), (1, "KS KH KD")]
    game = rig(new_game("contract-10"), hands={0: "9D 4C 4H 4S 5C"}, table=table, down=[1], turn=0)
    assert_illegal(game, LayOff(0, card("9D"), 0, "high"), "once you are down")
    game = rig(new_game("contract-10"), hands={0: "9D 4C 4H 4S 5C"}, table=table, down=[0, 1], turn=0)
    assert_illegal(game, GoDown(0, (spec("set", "4C 4H 4S"), spec("set", "4C 4H 4S"))), "already down")


def test_a_joker_on_any_meld_may_be_traded_and_kept_in_hand() -> None:
    """004 "Any player in turn (providing he's already fulfilled his contract) may later trade the
    actual card for the joker, and may then either use the joker immediately, or hold it in his hand."
    — in a set too."""
    game = rig(new_game("contract-10"), hands={0: "7D QC 4H"}, table=[(1, "7H 7S JK"), (1, "5D 6D 7D 8D")],
               down=[0, 1], turn=0)
    game.apply(ReplaceWild(0, card("7D"), 0))
    assert game.table[0].meld.text() == "7H 7S 7D"
    assert JOKER in game.hands[0] and game.pending_wild is None
    assert_conserved(game)
    game.apply(Discard(0, card("QC")))           # keeps the joker
    assert JOKER in game.hands[0] and game.turn == 1


def test_a_traded_joker_may_be_used_at_once() -> None:
    """004 "may then either use the joker immediately, or hold it in his hand." """
    game = rig(new_game("contract-10"), hands={0: "7D QC 4H"}, table=[(1, "5D 6D JK 8D"), (1, "KS KH KD")],
               down=[0, 1], turn=0)
    game.apply(ReplaceWild(0, card("7D"), 0))
    game.apply(LayOff(0, JOKER, 1))
    assert game.hands[0] == cards("QC 4H") and len(game.table[1].meld.cards) == 4


def test_trading_a_joker_only_once_the_contract_is_met() -> None:
    """004 "Any player in turn (providing he's already fulfilled his contract) may later trade the actual
    card for the joker" — not before, and not on the turn of going down ("later")."""
    table = [(1, "7H 7S JK")]
    game = rig(new_game("contract-10"), hands={0: "7D QC 4H"}, table=table, down=[1], turn=0)
    assert_illegal(game, ReplaceWild(0, card("7D"), 0), "only once you are down")
    hand = "7D 9H 9S 9C 10H 10S 10C QC"
    game = rig(new_game("contract-10"), hands={0: hand}, table=table, down=[1], turn=0)
    game.apply(GoDown(0, (spec("set", "9H 9S 9C"), spec("set", "10H 10S 10C"))))
    assert_illegal(game, ReplaceWild(0, card("7D"), 0), "turn you go down")


# ---------------------------------------------------------------------------------------------
# Buying
# ---------------------------------------------------------------------------------------------


def test_a_buyer_draws_one_penalty_card_then_the_player_in_turn_takes_the_stock() -> None:
    """004 "If an out-of-turn player takes the top of the discard pile, he must also draw the top card of
    the stock (as a penalty), but he may not yet meld, lay off, or discard, since it is not yet his
    turn. Once the fate of the discard has been decided, the in-turn player must take the top card of
    the stock. Since he has refused the discard, he cannot take the top of the discard pile, even if a
    new card has been revealed." """
    game = _after_discard(new_game("contract-10"), turn=1, stock_top="2C 3C 4C")
    game.apply(DrawStock(1))
    assert game.phase == Phase.BUY and game.to_act() == (2, 3)
    game.apply(Buy(2))
    assert game.hands[2][-2:] == cards("QH 2C") and len(game.hands[2]) == 13
    assert game.hands[1][-1] == card("3C") and game.phase == Phase.PLAY
    assert game.discards[-1] == card("4S")
    assert_illegal(game, TakeDiscard(1), "cannot take the discard now")
    assert_illegal(game, Discard(2, card("QH")), "seat 2 cannot discard")
    assert_conserved(game)


def test_declined_discard_passes_clockwise_from_the_player_in_turn() -> None:
    """004 "If he does not want the discard, he may decline it, and any other player may take it. The
    right to take it passes to the palyer's left (clockwise around the table)." (004 also says "the one
    closest to the dealer's left has precedence"; the project follows the clockwise sentence: decision
    15 of docs/rules.md.)"""
    game = _after_discard(new_game("contract-10", players=5), turn=2, dealer=0)
    game.apply(DrawStock(2))
    assert game.to_act() == (3, 4, 0)
    game.apply(Buy(0))
    game.apply(Pass(3))
    game.apply(Buy(4))
    assert len(game.hands[4]) == 13 and len(game.hands[0]) == 11


def test_when_nobody_takes_it_the_player_in_turn_draws_the_stock() -> None:
    """004 "Once the fate of the discard has been decided, the in-turn player must take the top card of
    the stock." """
    game = _after_discard(new_game("contract-10"), turn=1, stock_top="2C")
    game.apply(DrawStock(1))
    game.apply(Pass(2))
    game.apply(Pass(3))
    assert game.hands[1][-1] == card("2C") and game.discards[-1] == card("QH") and not game.discard_live


@pytest.mark.parametrize(("round_number", "limit"), [(1, 3), (8, 3), (9, 4), (10, 4)])
def test_three_buys_in_deals_one_to_eight_four_in_nine_and_ten(round_number: int, limit: int) -> None:
    """004 "In contracts 1 through 8, each player is only allowed 3 buys per hand. In contracts 9 and 10,
    each player is allowed 4 buys per hand." """
    game = _after_discard(new_game("contract-10"), turn=1, round_number=round_number,
                          buys_used={2: limit - 1})
    game.apply(DrawStock(1))
    game.apply(Buy(2))
    assert game.buys_used[2] == limit
    game = _after_discard(new_game("contract-10"), turn=1, round_number=round_number, buys_used={2: limit})
    game.apply(DrawStock(1))
    assert game.to_act() == (3,)
    assert_illegal(game, Buy(2), "shopped out")


# ---------------------------------------------------------------------------------------------
# Going out, the blind bonus, scoring
# ---------------------------------------------------------------------------------------------


def test_going_out_is_by_discarding_the_last_card() -> None:
    """004 "Each player's turn must end in a discard, placed face up on the discard pile" and "When a
    player has discarded his last card, the hand is over, and scored." """
    table = [(1, "5D 6D 7D 8D")]
    game = rig(new_game("contract-10"), hands={0: "9D"}, table=table, down=[0, 1], turn=0)
    assert_illegal(game, LayOff(0, card("9D"), 0, "high"), "keep one to discard")
    game.apply(Discard(0, card("9D")))
    result = game.round_results[-1]
    assert result.went_out == 0 and result.points[0] == 0 and result.blind_bonus == 0
    game = rig(new_game("contract-10"), hands={0: "7H 7S 7D 8H 8S 8D"}, turn=0)
    assert_illegal(game, GoDown(0, (spec("set", "7H 7S 7D"), spec("set", "8H 8S 8D"))), "keep one to discard")


BLIND_MELDS = (spec("set", "7H 7S 7D 7C 7H"), spec("set", "8H 8S 8D 8C 8H 8S"))


def test_going_out_blind_without_a_joker_takes_fifty_off() -> None:
    """004 "If you 'go out blind' (discard all your cards in one play), you earn a bonus of 25 points (50
    if you haven't used a joker). Note that a bonus subtracts points from your score, not adds them."
    """
    game = rig(new_game("contract-10"), hands={0: "7H 7S 7D 7C 7H 8H 8S 8D 8C 8H 8S KC"}, turn=0)
    game.apply(GoDown(0, BLIND_MELDS))
    game.apply(Discard(0, card("KC")))
    result = game.round_results[-1]
    assert result.went_out == 0 and result.blind_bonus == 50 and result.points[0] == -50
    assert game.totals[0] == -50


def test_going_out_blind_with_a_joker_takes_twenty_five_off() -> None:
    """004 "If you 'go out blind' (discard all your cards in one play), you earn a bonus of 25 points (50
    if you haven't used a joker)." """
    game = rig(new_game("contract-10"), hands={0: "7H 7S 7D 7C JK 8H 8S 8D 8C 8H 8S KC"}, turn=0)
    game.apply(GoDown(0, (spec("set", "7H 7S 7D 7C JK"), BLIND_MELDS[1])))
    game.apply(Discard(0, card("KC")))
    result = game.round_results[-1]
    assert result.blind_bonus == 25 and result.points[0] == -25


def test_going_out_on_a_later_turn_is_not_blind() -> None:
    """004 "If you 'go out blind' (discard all your cards in one play)" — not when the contract went
    down on an earlier turn."""
    game = rig(new_game("contract-10"), hands={0: "KC"}, table=[(0, "7H 7S 7D"), (0, "8H 8S 8D")], down=[0],
               turn=0)
    game.apply(Discard(0, card("KC")))
    assert game.round_results[-1].blind_bonus == 0 and game.round_results[-1].points[0] == 0


def test_contract_card_values_twos_twenty() -> None:
    """004 "For purposes of scoring, the cards remaining in the players hand have the following values:
    3-9=5 points 10-K=10 points Aces and Dueces=20 points" (a joker counts 50: decision 5)."""
    game = new_game("contract-10")
    result = finish_round(game, winner=3, left={0: "2H 2S", 1: "AS 3D 9C", 2: "10H KS JK"})
    assert result.points == (40, 30, 70, 0)


def test_ten_deals_then_the_fewest_points_win() -> None:
    """004 "The player with the fewest points at the end of the seven deals wins the game." — over the
    ten deals of "There are ten rounds"."""
    game = new_game("contract-10", players=3)
    for r in range(10):
        finish_round(game, winner=r % 3, left={(r + 1) % 3: "3S", (r + 2) % 3: "KS"})
    assert game.is_over and len(game.round_results) == 10
    assert game.totals == [5 * 3 + 10 * 3, 5 * 4 + 10 * 3, 5 * 3 + 10 * 4]
    assert game.winners() == (0,) and game.dunce() == ()
