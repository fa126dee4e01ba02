"""Rules tests of the engine for the ``family-10`` preset (Carl's family Shanghai, 10 hands).

Source: document 002. Each test quotes the sentence of 002 that it checks.
"""

from __future__ import annotations

import pytest

from helpers import assert_conserved, assert_illegal, card, cards, finish_round, new_game, rig, spec
from shanghai.engine.actions import Buy, Discard, DrawStock, GoDown, LayOff, Pass, ReplaceWild, TakeDiscard
from shanghai.engine.game import Game, Phase


def _discarded(game: Game, round_number: int, top: str = "QH", players: int | None = None,
               **kw: object) -> Game:
    """Seat 0 discards ``top`` in hand ``round_number``; it is then seat 1's turn."""
    hands = dict(kw.pop("hands", {}))  # type: ignore[call-overload]
    hands.setdefault(0, f"{top} 4S 5S")
    rig(game, hands=hands, turn=0, round_number=round_number, discards="3D", **kw)  # type: ignore[arg-type]
    game.apply(Discard(0, card(top)))
    return game


def test_the_ten_hands() -> None:
    """002 "Hand 1 - 2 sets of 3 / Hand 2 - 2 sets of 3 + 1 run of 4 / Hand 3 - 2 sets of 4 / Hand 4 - 3
    sets of 3" ... "Hand 10 - 3 runs of 5 (4 buys)" """
    rules = new_game("family-10").rules
    assert [rules.contract(r).text() for r in range(1, 11)] == [
        "2 sets of 3", "2 sets of 3 + 1 run of 4", "2 sets of 4", "3 sets of 3",
        "1 set of 3 + 1 run of 7", "2 sets of 3 + 1 run of 5", "3 runs of 4",
        "1 set of 3 + 1 run of 10", "3 sets of 3 + 1 run of 5", "3 runs of 5"]
    assert [rules.round(r).buys for r in range(1, 11)] == [0, 0, 0, 0, 3, 3, 3, 3, 3, 4]


def test_hand_three_needs_two_sets_of_four() -> None:
    """002 "Hand 3 - 2 sets of 4" """
    game = rig(new_game("family-10"), hands={0: "7H 7S 7D 7C 8H 8S 8D 8C KC QC 4D 9S"}, turn=0, round_number=3)
    assert_illegal(game, GoDown(0, (spec("set", "7H 7S 7D"), spec("set", "8H 8S 8D"))), "no set of 4")
    game.apply(GoDown(0, (spec("set", "7H 7S 7D 7C"), spec("set", "8H 8S 8D 8C"))))


def test_hand_two_is_two_sets_and_a_run_jokers_anywhere() -> None:
    """002 "Hand 2 - 2 sets of 3 + 1 run of 4" and "Jokers are wild and can be used anywhere in a set or
    run (there are no other wild cards)" — side by side in a run too (002 sets no limit)."""
    hand = "7H 7S JK 8H 8S 8D 5D JK JK 8D KC 4S"
    game = rig(new_game("family-10"), hands={0: hand}, turn=0, round_number=2)
    assert_illegal(game, GoDown(0, (spec("set", "7H 7S JK"), spec("set", "8H 8S 8D"))), "exactly 3 melds")
    game.apply(GoDown(0, (spec("set", "7H 7S JK"), spec("set", "8H 8S 8D"), spec("run", "5D JK JK 8D"))))
    assert game.hands[0] == cards("KC 4S")


def test_black_twos_are_not_wild() -> None:
    """002 "Jokers are wild and can be used anywhere in a set or run (there are no other wild cards)" """
    game = rig(new_game("family-10"), hands={0: "7H 7S 2C 8H 8S 8D KC QC 4D 5S 9H 10C"}, turn=0)
    assert_illegal(game, GoDown(0, (spec("set", "7H 7S 2C"), spec("set", "8H 8S 8D"))), "one rank")


def test_no_wrap_around_the_ace() -> None:
    """002 "No wrap arounds. An ace can only be at the beginning or end of a run, not in the middle.
    Example: ace, 2, 3, 4, 5, 6 or 10, jack, queen, king, ace" """
    hand = "KH AH 2H 3H 4H 10S JS QS KS AS 4C 5C 6C 7C 9D KD"
    game = rig(new_game("family-10"), hands={0: hand}, turn=0, round_number=7)
    assert_illegal(game, GoDown(0, (spec("run", "KH AH 2H 3H"), spec("run", "10S JS QS KS"),
                                    spec("run", "4C 5C 6C 7C"))), "past the ace")
    game.apply(GoDown(0, (spec("run", "AH 2H 3H 4H"), spec("run", "10S JS QS KS AS"),
                          spec("run", "4C 5C 6C 7C"))))
    assert game.hands[0] == cards("KH 9D KD")


# ---------------------------------------------------------------------------------------------
# Buying
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("round_number", [1, 2, 3, 4])
def test_no_buying_in_hands_one_to_four(round_number: int) -> None:
    """002 "Buying is allowed in hands 5 through 10." """
    game = _discarded(new_game("family-10"), round_number)
    assert game.phase == Phase.DRAW and game.turn == 1 and game.buy_window is None
    assert_illegal(game, Buy(2), "cannot buy now")
    game.apply(DrawStock(1))
    assert game.phase == Phase.PLAY


def test_the_first_to_ask_then_the_player_in_turn_refuses_by_taking_the_discard() -> None:
    """002 "When it is your turn to pick up a card and a player asks to buy the discarded card from you,
    if you refuse, you must pick up the discarded card. You are not allowed to take a new one off the
    top of the deck." """
    game = _discarded(new_game("family-10"), 5)
    assert game.phase == Phase.BUY and game.turn == 1 and game.to_act() == (2, 3)
    assert_illegal(game, DrawStock(1), "open to buying")
    assert_illegal(game, TakeDiscard(1), "open to buying")
    game.apply(Buy(2))
    assert game.phase == Phase.DRAW and game.to_act() == (1,) and game.buy_window is not None
    assert game.buy_window.claimant == 2
    stock = list(game.stock)
    game.apply(TakeDiscard(1))
    assert game.hands[1][-1] == card("QH") and len(game.hands[1]) == 12
    assert len(game.hands[2]) == 11 and game.buys_used == [0, 0, 0, 0] and game.stock == stock


def test_granting_the_buy_gives_the_card_and_two_penalty_cards() -> None:
    """002 "If permission is granted to buy the card, the player takes the card, plus two more "penalty
    cards" off the top of the deck." — the player in turn grants it by drawing from the stock."""
    game = _discarded(new_game("family-10"), 5, stock_top="2C 3C 4C")
    game.apply(Pass(2))
    game.apply(Buy(3))
    game.apply(DrawStock(1))
    assert game.hands[3][-3:] == cards("QH 2C 3C") and game.buys_used == [0, 0, 0, 1]
    assert game.hands[1][-1] == card("4C") and game.phase == Phase.PLAY
    assert_conserved(game)


def test_with_no_buyer_the_player_in_turn_may_draw_or_take() -> None:
    """002 "At each turn the player has the choice of taking the card from the discard pile or one of
    the top of the deck. Only the top card in the discard pile is active." """
    game = _discarded(new_game("family-10"), 6, stock_top="2C")
    game.apply(Pass(2))
    game.apply(Pass(3))
    assert game.phase == Phase.DRAW
    game.apply(DrawStock(1))
    assert game.hands[1][-1] == card("2C") and len(game.hands[2]) == len(game.hands[3]) == 11
    game = _discarded(new_game("family-10"), 6)
    game.apply(Pass(2))
    game.apply(Pass(3))
    game.apply(TakeDiscard(1))
    assert game.hands[1][-1] == card("QH")


def test_buy_priority_clockwise_from_the_player_in_turn() -> None:
    """002 "When a player ends their turn by discarding, the first person who says, "I will buy it," may
    be granted the option to buy the recently discarded card from the player who's turn it now is." —
    the first to ask, in a program: clockwise from the player in turn (decision 15 of docs/rules.md)."""
    game = _discarded(new_game("family-10", players=5), 8)
    assert game.to_act() == (2, 3, 4)
    game.apply(Buy(4))
    game.apply(Buy(3))
    assert game.phase == Phase.BUY
    game.apply(Pass(2))
    assert game.buy_window is not None and game.buy_window.claimant == 3


@pytest.mark.parametrize(("round_number", "limit"), [(5, 3), (9, 3), (10, 4)])
def test_three_buys_in_hands_five_to_nine_and_four_in_hand_ten(round_number: int, limit: int) -> None:
    """002 "Hand 5 - 1set of 3 + 1 run of 7 (3 buys)" ... "Hand 9 - 3 sets of 3 + 1run of 5 (3 buys)" /
    "Hand 10 - 3 runs of 5 (4 buys)" """
    game = _discarded(new_game("family-10"), round_number, buys_used={2: limit - 1})
    game.apply(Buy(2))
    game.apply(DrawStock(1))
    assert game.buys_used[2] == limit
    game = _discarded(new_game("family-10"), round_number, buys_used={2: limit})
    assert game.to_act() == (3,)
    assert_illegal(game, Buy(2), "shopped out")


def test_the_flip_card_of_hand_five_is_open_to_buyers_before_the_first_draw() -> None:
    """002 "Buying is allowed in hands 5 through 10." and "After each player has their cards, turn the
    top card of the deck over to begin the discard pile." """
    game = new_game("family-10")
    for r in range(4):
        finish_round(game, winner=r)
    assert game.round_number == 5
    first = (game.dealer + 1) % 4
    assert game.phase == Phase.BUY and game.turn == first
    assert game.to_act() == tuple((first + k) % 4 for k in (1, 2, 3))


# ---------------------------------------------------------------------------------------------
# Laying down, laying off, wilds
# ---------------------------------------------------------------------------------------------


def test_no_playing_on_others_cards_before_meeting_the_minimum() -> None:
    """002 "No player is allowed to play cards on another's showing cards unless they have met the
    minimum for the hand." """
    table = [(1, "5D 6D 7D 8D"), (1, "KS KH KD")]
    game = rig(new_game("family-10"), hands={0: "9D 4C 5C"}, table=table, down=[1], turn=0)
    assert_illegal(game, LayOff(0, card("9D"), 0, "high"), "once you are down")
    game = rig(new_game("family-10"), hands={0: "9D 4C 5C"}, table=table, down=[0, 1], turn=0)
    game.apply(LayOff(0, card("9D"), 0, "high"))


def test_after_the_minimum_cards_go_on_the_table_melds_but_no_second_contract() -> None:
    """002 "Once a player has laid down the minimum cards, the object is to get rid of the rest of their
    cards by continuing to lay down cards or by playing on other players' hands already on the table."
    — the project reads "continuing to lay down cards" as laying off: no new meld once down
    (decision 18)."""
    game = rig(new_game("family-10"), hands={0: "9D 4C 4H 4S KC"}, table=[(0, "5D 6D 7D 8D")], down=[0],
               turn=0)
    assert_illegal(game, GoDown(0, (spec("set", "4C 4H 4S"), spec("set", "4C 4H 4S"))), "already down")
    game.apply(LayOff(0, card("9D"), 0, "high"))


def test_wilds_on_the_table_are_never_replaced() -> None:
    """002 "Jokers are wild and can be used anywhere in a set or run" — 002 says nothing of taking a
    joker back; the project forbids replacing wilds in ``family-10`` (decision 21)."""
    game = rig(new_game("family-10"), hands={0: "7D QC 4H"}, table=[(1, "5D 6D JK 8D")], down=[0, 1], turn=0)
    assert_illegal(game, ReplaceWild(0, card("7D"), 0), "never replaced")


# ---------------------------------------------------------------------------------------------
# Going out and scoring
# ---------------------------------------------------------------------------------------------


def test_going_out_by_playing_all_cards_never_by_discarding() -> None:
    """002 "At the end of each player's turn they must discard one card from their hand. Exception: when
    "going out" the player must play all their cards. Discarding is not allowed." """
    table = [(1, "5D 6D 7D 8D")]
    game = rig(new_game("family-10"), hands={0: "9D"}, table=table, down=[0, 1], turn=0)
    assert_illegal(game, Discard(0, card("9D")), "last card may not be discarded")
    game = rig(new_game("family-10"), hands={0: "9D KC"}, table=table, down=[0, 1], turn=0)
    assert_illegal(game, LayOff(0, card("9D"), 0, "high"), "would leave only KC")
    game.apply(Discard(0, card("KC")))
    game = rig(new_game("family-10"), hands={0: "9D"}, table=table, down=[0, 1], turn=0)
    game.apply(LayOff(0, card("9D"), 0, "high"))
    assert game.round_results[-1].went_out == 0


def test_going_down_that_leaves_one_unplayable_card_is_refused() -> None:
    """002 "Exception: when "going out" the player must play all their cards. Discarding is not
    allowed." — a go-down leaving one card that plays nowhere would leave a turn that cannot end."""
    game = rig(new_game("family-10"), hands={0: "7H 7S 7D 8H 8S 8D KC"}, turn=0)
    assert_illegal(game, GoDown(0, (spec("set", "7H 7S 7D"), spec("set", "8H 8S 8D"))), "would leave only KC")


def test_family_card_values_aces_fifteen() -> None:
    """002 "Jokers = 50pts / Aces= 15pts (always whether played high or low) / 10-K= 10pts / 2-9 =
    5pts" """
    game = new_game("family-10")
    result = finish_round(game, winner=1, left={0: "AS AH", 2: "JK KD 10C", 3: "2S 9H 2C"})
    assert result.points == (30, 0, 70, 15)


def test_ten_hands_then_the_lowest_total_wins() -> None:
    """002 "At the end of 10 hands the lowest score wins." and "When the first player "goes out" all play
    ends and the scores are tallied." """
    game = new_game("family-10", players=3)
    for r in range(10):
        assert game.round_number == r + 1
        finish_round(game, winner=r % 2, left={1 - r % 2: "AS" if r % 2 else "5S", 2: "KD"})
    assert game.is_over and game.totals == [75, 25, 100] and game.winners() == (1,)
    assert game.dunce() == ()  # 002 has no dunce cap
