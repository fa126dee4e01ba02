"""Manipulation rummy, the "Shanghai" of document 004 (first part): rules, engine, records, players.

Each rules test quotes 004 (``../shared/rules/004_c1268477dc32306b.txt``) or names the decision of
docs/rules.md ("Manipulation rummy") it checks.
"""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shanghai.bots.manipulation import ManipulationExpert, ManipulationGreedy, ManipulationRandom
from shanghai.bots.match import play_game
from shanghai.bots.registry import make_player
from shanghai.cards import ALL_NATURALS, parse_cards
from shanghai.cli.main import main
from shanghai.engine.actions import DrawStock, Pass
from shanghai.engine.games import new_game, parse_game_action, view_of
from shanghai.engine.manipulation import (
    ManipulationGame,
    PlayToTable,
    manipulation_view,
    parse_manipulation_action,
    play_exactly,
)
from shanghai.engine.record import GameRecord
from shanghai.errors import IllegalActionError, InconsistentRulesError, OtherGameError
from shanghai.rules import MANIPULATION, ManipulationRules, game_rules, preset
from shanghai.table_solver import check_meld, parse_table

QUICK = MANIPULATION.changed(target_score=4)


def C(text: str) -> list[int]:
    return parse_cards(text)


def position(hands: list[str], table: str = "", stock: str = "", turn: int = 0,
             rules: object = MANIPULATION) -> ManipulationGame:
    """A game set to a given position (the stock's top is its last card)."""
    assert isinstance(rules, ManipulationRules)
    game = ManipulationGame.new(rules, len(hands), seed=1)
    game.hands = [C(h) for h in hands]
    game.table = parse_table(table)
    game.stock = C(stock)
    game.turn = turn
    game.refresh_derived()
    return game


# -- the preset -------------------------------------------------------------------------------------
def test_the_preset_is_its_own_game() -> None:
    """004: "hands are continually played until someone reaches the target score and LOSES": the
    agreed target is the option target=N (decision: 25 by default)."""
    rules = game_rules("manipulation")
    assert rules is MANIPULATION and rules.target_score == 25
    assert game_rules("manipulation", ["target=60"]).target_score == 60
    with pytest.raises(InconsistentRulesError, match="whole number"):
        game_rules("manipulation", ["target=0"])
    with pytest.raises(OtherGameError, match="manipulation rummy"):
        preset("manipulation")
    with pytest.raises(InconsistentRulesError, match="not to manipulation"):
        game_rules("manipulation", ["no-split"])


def test_pack_and_players() -> None:
    """004: "NUMBER OF PLAYERS: 3-5 players", "NUMBER OF CARDS: Two 52 card decks"; decision: a
    third deck for 6-8 players."""
    for n in (3, 4, 5):
        assert MANIPULATION.pack_for(n).size == 104 and MANIPULATION.pack_for(n).jokers == 0
    assert MANIPULATION.pack_for(6).decks == 3
    with pytest.raises(InconsistentRulesError):
        MANIPULATION.pack_for(2)
    game = ManipulationGame.new(MANIPULATION, 4, seed=9)
    everything = Counter(c for h in game.hands for c in h) + Counter(game.stock)
    assert everything == Counter({c: 2 for c in ALL_NATURALS})


def test_the_deal() -> None:
    """004: "the dealer deals each player a total of 10 cards, dealt in batches or 3, 3, 3, and then
    1 card. The cards that remain are placed face-down in the center of the table, these cards will
    form the stockpile." and "Shanghai begins with the player to the left of the dealer"."""
    for seed in range(5):
        game = ManipulationGame.new(MANIPULATION, 4, seed=seed)
        assert [len(h) for h in game.hands] == [10] * 4
        assert len(game.stock) == 104 - 40 and game.table == ()
        assert game.turn == (game.dealer + 1) % 4
        # The deal in batches, replayed from the same shuffle.
        rng = random.Random(seed)
        dealer = rng.randrange(4)
        pack = [c for _ in range(2) for c in ALL_NATURALS]
        rng.shuffle(pack)
        hands: list[list[int]] = [[] for _ in range(4)]
        for batch in (3, 3, 3, 1):
            for i in range(1, 5):
                hands[(dealer + i) % 4].extend(pack.pop() for _ in range(batch))
        assert game.hands == hands and game.stock == pack and game.dealer == dealer


def test_the_deal_passes_to_the_left() -> None:
    """004: "In hands that follow, the deal passes to the left"."""
    game = position(["7H 8H 9H", "2C 5D", "KS QD"])
    dealer = game.dealer
    game.apply(PlayToTable(0, tuple(C("7H 8H 9H")), parse_table("7H 8H 9H")))
    assert game.hand_number == 2 and game.dealer == (dealer + 1) % 3


# -- melds -----------------------------------------------------------------------------------------
def test_sets_and_runs() -> None:
    """004: "Set Meld. A set of 3 or 4 cards with the same rank but different suits." and "Run Meld.
    A set of at least 3 cards of the same suit AND in sequence."; "RANK OF CARDS: K (high), Q, J, 10,
    9, 8, 7, 6, 5, 4, 3, 2, A" (aces low only)."""
    assert check_meld(C("7H 7S 7D")) == "set"
    assert check_meld(C("7H 7S 7D 7C")) == "set"
    assert check_meld(C("AH 2H 3H")) == "run"
    assert check_meld(C("9D 10D JD QD KD")) == "run"
    for bad in ("7H 7S", "7H 7H 7S", "7H 7S 7D 7C 7H", "QH KH AH", "5H 6H 8H", "5H 6D 7H"):
        with pytest.raises(ValueError):
            check_meld(C(bad))


# -- a turn ----------------------------------------------------------------------------------------
def test_meld_from_hand_and_add_to_the_table() -> None:
    """004: "Players can use some or all cards in hand to meld or add cards to pre-existing melds
    already on the table."."""
    game = position(["7C 3C 8H 2D", "KS KD", "QS QD"], table="7H 7S 7D | 4C 5C 6C")
    game.apply(PlayToTable(0, tuple(C("7C 3C")), parse_table("7H 7S 7D 7C | 3C 4C 5C 6C")))
    assert sorted(game.hands[0]) == sorted(C("8H 2D"))
    assert game.turn == 1 and len(game.table_cards()) == 8


def test_rearranging_the_table_is_the_shanghai() -> None:
    """004: "A Shanghai occurs if a player can rearrange some or all of the melds on the table to
    allow them to play cards in their hand. This is a valid move, permitting all the melds are
    legal." Here 4C 5C 6C 7C is split to make room for a set of 4s and a run 6C 7C 8C."""
    game = position(["4H 4D 8C KS", "2S 9D", "QS QD"], table="4C 5C 6C 7C | 5S 5H 5D")
    before = game.table_cards()
    play = PlayToTable(0, tuple(C("4H 4D 8C")), parse_table("4C 4H 4D | 6C 7C 8C | 5C 5S 5H 5D"))
    game.apply(play)
    assert Counter(game.table_cards()) == Counter(before) + Counter(C("4H 4D 8C"))
    assert game.hands[0] == C("KS")


def test_the_engine_refuses_a_table_that_is_not_the_old_one_plus_the_cards() -> None:
    """Decision: a play is accepted only if every meld is legal and the new table holds exactly the
    old table's cards plus the cards placed; anything else changes nothing."""
    game = position(["7C 3C 8H", "KS KD", "QS QD"], table="7H 7S 7D | 4C 5C 6C")
    snap = game.snapshot()
    bad = [
        (PlayToTable(0, tuple(C("7C")), parse_table("7H 7S 7D 7C")), "missing 4C 5C 6C"),
        (PlayToTable(0, tuple(C("7C")), parse_table("7H 7S 7D 7C | 4C 5C 6C | 8S 9S 10S")), "from nowhere"),
        (PlayToTable(0, tuple(C("9C")), parse_table("7H 7S 7D | 4C 5C 6C | 9C 9D 9H")), "not in your hand"),
        (PlayToTable(0, (), parse_table("7H 7S 7D | 4C 5C 6C")), "at least one card"),
        (PlayToTable(0, tuple(C("8H")), ((*C("7H 7S 7D"),), (*C("4C 5C 6C 8H"),))), "illegal meld"),
        (PlayToTable(1, tuple(C("KS")), parse_table("7H 7S 7D | 4C 5C 6C")), "turn"),
        (DrawStock(0), "must meld"),
    ]
    for action, reason in bad:
        with pytest.raises(IllegalActionError, match=reason):
            game.apply(action)
        assert game.snapshot() == snap


def test_must_meld_when_able() -> None:
    """004: "If you have the ability to meld more than 1 card you are required to. However, this is
    not to say you must meld EVERY card that can be melded". Decision: who can place a card must
    place at least one, and may place fewer than all."""
    game = position(["7C 3C 8H", "KS KD", "QS QD"], table="7H 7S 7D | 4C 5C 6C", stock="2H 2D")
    with pytest.raises(IllegalActionError, match="must meld"):
        game.apply(DrawStock(0))
    with pytest.raises(IllegalActionError):
        game.apply(Pass(0))
    game.apply(PlayToTable(0, tuple(C("3C")), parse_table("7H 7S 7D | 3C 4C 5C 6C")))
    assert game.turn == 1 and C("7C") [0] in game.hands[0]


MELD_TWO = game_rules("manipulation", ["meld-two"])


def test_meld_two_reads_more_than_one_word_for_word() -> None:
    """004: "If you have the ability to meld more than 1 card you are required to. However, this is not
    to say you must meld EVERY card that can be melded, but at least more than one." — the option
    meld-two (docs/rules.md): whoever can place two cards must place at least two; one card alone only
    where no two can be placed."""
    assert MELD_TWO.must_meld == "two-cards" and MELD_TWO.options == ("meld-two",)
    game = position(["7C 8C 2D 9S QD", "KS KD", "QS JD"], table="4C 5C 6C", rules=MELD_TWO)
    assert game.min_placed() == 2
    assert [len(a.placed) for a in game.legal_list()] == [2]  # the largest play only
    snap = game.snapshot()
    with pytest.raises(IllegalActionError, match="at least two"):
        game.apply(PlayToTable(0, tuple(C("7C")), parse_table("4C 5C 6C 7C")))
    assert game.snapshot() == snap
    game.apply(PlayToTable(0, tuple(C("7C 8C")), parse_table("4C 5C 6C 7C 8C")))
    # one card is enough where only one can be placed
    game = position(["9C 2D 9S", "KS KD", "QS JD"], table="6C 7C 8C", rules=MELD_TWO)
    assert game.min_placed() == 1
    game.apply(PlayToTable(0, tuple(C("9C")), parse_table("6C 7C 8C 9C")))
    # the option travels in a record, and the default keeps the one-card reading
    assert GameRecord.of(game, ["A", "B", "C"]).rules == MELD_TWO
    assert MANIPULATION.must_meld == "one-card"
    # the options follow the rules they name, changed together
    both = game_rules("manipulation", ["meld-two", "target=10"]).changed(target_score=12, must_meld="one-card")
    assert (both.options, both.target_score, both.must_meld) == (("target=12",), 12, "one-card")


@pytest.mark.parametrize("kind", ["random", "greedy", "expert", "medium"])
def test_meld_two_computer_players_play_only_legal_plays(kind: str) -> None:
    game = ManipulationGame.new(MELD_TWO.changed(target_score=8), 3, seed=5)
    players = [make_player(kind, s, MELD_TWO) for s in range(3)]
    while not game.is_over:
        seat = game.turn
        game.apply(players[seat].choose(manipulation_view(game, seat)))  # an illegal play would raise
    assert game.is_over


def test_drawing_until_a_card_can_be_played() -> None:
    """004: "Players that are unable to meld any cards must draw 1 card from the top of the
    stockpile. If they can play that card, they must, if not they are to continue drawing until they
    draw a playable card. Once they meld a card their turn is over.\""""
    # Stock top is the last card: 2D (no use), then 8C (extends 5C 6C 7C).
    game = position(["KH QD", "KS KD", "QS JD"], table="5C 6C 7C", stock="9S 8C 2D")
    assert [str(a) for a in game.legal_actions()] == ["0 draw"]
    with pytest.raises(IllegalActionError, match="must draw"):
        game.apply(Pass(0))
    game.apply(DrawStock(0))
    assert game.turn == 0 and game.drawn == C("2D")
    assert [str(a) for a in game.legal_actions()] == ["0 draw"]
    game.apply(DrawStock(0))
    offers = game.legal_list()
    assert offers and all(isinstance(a, PlayToTable) and C("8C")[0] in a.placed for a in offers)
    with pytest.raises(IllegalActionError, match="must meld"):
        game.apply(DrawStock(0))
    game.apply(offers[0])
    assert game.turn == 1 and game.drawn == []


def test_the_drawn_card_may_take_other_cards_with_it() -> None:
    """Decision: the play after a draw may place other cards of the hand with the drawn card (7H
    drawn to 5H 6H makes a run)."""
    game = position(["5H 6H KD", "KS KD", "QS JD"], table="", stock="7H")
    game.apply(DrawStock(0))
    assert str(game.legal_list()[0]) == "0 play 5H 6H 7H : 5H 6H 7H"
    game.apply(game.legal_list()[0])
    assert game.hands[0] == C("KD")


def test_an_empty_stock_means_pass_and_a_blocked_hand() -> None:
    """Decision (004 is silent): with the stock empty a player who cannot meld passes; when every
    player has passed in a row the hand is blocked, nobody is out and everyone scores 1 point a card."""
    game = position(["KH QD", "KS", "2C 9D 4S"], table="5C 6C 7C", stock="")
    assert [str(a) for a in game.legal_actions()] == ["0 pass"]
    with pytest.raises(IllegalActionError, match="stock is empty"):
        game.apply(DrawStock(0))
    for seat in range(3):
        game.apply(Pass(seat))
    result = game.hand_results[-1]
    assert result.went_out is None and result.points == (2, 1, 3) and game.totals == [2, 1, 3]
    assert game.hand_number == 2 and [len(h) for h in game.hands] == [10, 10, 10]


def test_a_play_resets_the_passes() -> None:
    game = position(["KH QD", "8C 2S", "2C 9D 4S"], table="5C 6C 7C", stock="")
    game.apply(Pass(0))
    game.apply(PlayToTable(1, tuple(C("8C")), parse_table("5C 6C 7C 8C")))
    assert game.passes == 0
    game.apply(Pass(2))
    game.apply(Pass(0))
    assert game.hand_number == 1  # only two passes in a row since the play


def test_going_out_and_scoring() -> None:
    """004: "Once a player melds their last card the game ends." and "The game ends when one player
    has played all the cards in their hand. That player scores 0 points. Players that remain in the
    game score 1 point per card left in hand.\""""
    game = position(["7H 8H 9H", "2C 5D", "KS QD JH"])
    game.apply(PlayToTable(0, tuple(C("7H 8H 9H")), parse_table("7H 8H 9H")))
    r = game.hand_results[0]
    assert r.went_out == 0 and r.points == (0, 2, 3) and game.totals == [0, 2, 3]


def test_the_target_score_loses() -> None:
    """004: "hands are continually played until someone reaches the target score and LOSES".
    Decision: the game ends after that hand; the highest total loses, the lowest wins."""
    game = position(["7H 8H 9H", "2C 5D 6S 8D", "KS QD JH"], rules=QUICK)
    game.apply(PlayToTable(0, tuple(C("7H 8H 9H")), parse_table("7H 8H 9H")))
    assert game.is_over and game.totals == [0, 4, 3]
    assert game.losers() == (1,) and game.winners() == (0,)
    assert game.legal_list() == [] and manipulation_view(game, 0).legal == ()
    with pytest.raises(IllegalActionError, match="over"):
        game.apply(Pass(1))


def test_a_contract_action_is_refused() -> None:
    game = position(["7H 8H 9H", "2C 5D", "KS QD"])
    with pytest.raises(IllegalActionError, match="not an action of manipulation"):
        game.apply(parse_game_action(preset("isra"), "0 discard 7H"))  # type: ignore[arg-type]


# -- offers, views, the person's play ----------------------------------------------------------------
def test_offers_the_largest_play_first_then_single_cards() -> None:
    """Decision: the engine offers the largest play, then each card that can be placed alone."""
    game = position(["7C 3C 8H", "KS KD", "QS QD"], table="7H 7S 7D | 4C 5C 6C")
    offers = [str(a) for a in game.legal_actions()]
    assert offers[0].startswith("0 play 3C 7C : ")
    assert "0 play 3C : 3C 4C 5C 6C | 7S 7H 7D" in offers
    assert any(o.startswith("0 play 7C : ") for o in offers)
    assert not any("8H" in o.split(":")[0] for o in offers)


def test_play_exactly_arranges_the_table_for_a_person() -> None:
    game = position(["4H 4D 8C KS", "2S 9D", "QS QD"], table="4C 5C 6C 7C | 5S 5H 5D")
    action = play_exactly(game, C("4H 4D 8C"))
    assert action is not None and sorted(action.placed) == sorted(C("4H 4D 8C"))
    game.apply(action)
    assert play_exactly(game, C("2S 9D"), seat=1) is None
    kept = position(["8C 2S", "KS", "QS"], table="4C 5C 6C 7C | 5S 5H 5D")
    action = play_exactly(kept, C("8C"))
    assert action is not None and set(action.table) == set(parse_table("4C 5C 6C 7C 8C | 5S 5H 5D"))


def test_a_view_shows_no_other_hand_and_no_stock() -> None:
    game = position(["KH QD", "KS KD", "QS JD"], table="5C 6C 7C", stock="9S 8C 2D")
    game.apply(DrawStock(0))  # 2D, which fits nowhere: seat 0 draws again
    mine = manipulation_view(game, 0)
    assert mine.drawn == tuple(C("2D")) and sorted(mine.hand) == sorted(C("KH QD 2D"))
    assert [str(a) for a in mine.legal] == ["0 draw"] and mine.stock_size == 2
    fields = set(mine.__dataclass_fields__)
    assert not fields & {"stock", "hands"}
    for seat in (1, 2, None):
        other = manipulation_view(game, seat)
        assert other.drawn == () and other.legal == () and other.draws_this_turn == 1
        assert [str(a) for a in other.history] == ["0 draw"]
        assert other.hand_counts == (3, 2, 2)
        assert C("2D")[0] not in other.hand
    assert manipulation_view(game, None).hand == ()


def test_a_play_is_recorded_in_canonical_form() -> None:
    """A play sent with its melds and cards in any order is kept in the canonical order, so the
    record's text replays to the same game."""
    game = position(["7C 3C 8H", "KS KD", "QS QD"], table="7H 7S 7D | 4C 5C 6C")
    game.apply(PlayToTable(0, tuple(C("7C 3C")), ((*C("6C 5C 4C 3C"),), (*C("7C 7D 7H 7S"),))))
    assert str(game.actions[-1]) == "0 play 3C 7C : 3C 4C 5C 6C | 7S 7H 7D 7C"
    replayed = game.copy()
    replayed.actions = []
    copy = position(["7C 3C 8H", "KS KD", "QS QD"], table="7H 7S 7D | 4C 5C 6C")
    copy.apply(parse_manipulation_action(str(game.actions[-1])))
    assert copy.snapshot() == game.snapshot()


def test_bad_rules_are_refused_with_a_clear_error() -> None:
    from shanghai.engine.record import rules_from_spec
    from shanghai.errors import RecordError
    from shanghai.rules.model import PackSpec

    with pytest.raises(InconsistentRulesError, match="1 to 3 decks"):
        MANIPULATION.changed(packs=(PackSpec(3, 8, 12, 0),))
    with pytest.raises(InconsistentRulesError, match="whole number"):
        MANIPULATION.changed(target_score=True)
    for bad in ("target=²", "target=" + "9" * 5000, "target=-1"):
        with pytest.raises(InconsistentRulesError):
            game_rules("manipulation", [bad])
    for spec in ({"preset": "manipulation", "changes": "ab"},
                 {"preset": "manipulation", "changes": {"packs": [1]}},
                 {"preset": "manipulation", "changes": {"deal_batches": 5}},
                 {"preset": "manipulation", "options": 5},
                 {"preset": "manipulation", "changes": {"options": ["target=3"]}},
                 {"preset": "isra", "changes": {"rounds": [1]}}):
        with pytest.raises(RecordError, match="cannot be used"):
            rules_from_spec(spec)
    changed = game_rules("manipulation", ["target=10"]).changed(target_score=7)
    assert changed.options == ("target=7",) and rules_from_spec({"preset": "manipulation",
                                                                 "options": ["target=7"]}) == changed


def test_action_text_round_trips() -> None:
    for text in ("2 play 7C 3C : 3C 4C 5C 6C | 7S 7H 7D 7C", "0 draw", "1 pass"):
        assert str(parse_manipulation_action(text)) == text
    for bad in ("0 play 7C", "x draw", "² draw", "0 discard 7C", "0 play 7C : 7C 7C 7D", "0 play 1X : 7C"):
        with pytest.raises(IllegalActionError):
            parse_manipulation_action(bad)


# -- whole games, records, players -------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5])
def test_whole_games_of_every_player(players: int) -> None:
    """random, greedy and expert play whole games from their views; every action is legal (the
    engine would raise), no card is created or lost, and the record replays the same game."""
    kinds = [ManipulationRandom, ManipulationGreedy, ManipulationExpert]
    seats = [kinds[s % 3](s) for s in range(players)]
    game = play_game(QUICK, players, seed=players, seats=seats)
    assert game.is_over and max(game.totals) >= QUICK.target_score
    assert game.card_count() == 52 * game.pack.decks
    record = GameRecord.from_jsonl(GameRecord.of(game).to_jsonl())
    assert record.rules == QUICK
    replayed = record.replay()
    assert isinstance(replayed, ManipulationGame) and replayed.snapshot() == game.snapshot()


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.integers(3, 5))
def test_every_action_keeps_every_card(seed: int, players: int) -> None:
    """Property: along a random game every offered action is legal, the cards are always the whole
    pack, every table meld is legal, and a copy replays identically."""
    rules = MANIPULATION.changed(target_score=3)
    game = ManipulationGame.new(rules, players, seed)
    rng = random.Random(seed)
    start = game.copy()
    steps = 0
    while not game.is_over and steps < 250:
        offers = game.legal_list()
        assert offers, "the player in turn always has an action"
        probe = game.copy()
        probe.apply(offers[-1])
        game.apply(rng.choice(offers))
        steps += 1
        assert game.card_count() == 52 * game.pack.decks
        for meld in game.table:
            check_meld(meld)
    for action in game.actions:
        start.apply(action)
    assert start.snapshot() == game.snapshot()


def test_registry_and_generic_entry_points() -> None:
    assert type(make_player("hard", 1, MANIPULATION)).__name__ == "ManipulationGreedy"
    assert type(make_player("medium", 1, MANIPULATION)).__name__ == "ManipulationExpert"
    assert type(make_player("easy", 1, MANIPULATION)).__name__ == "ManipulationRandom"
    assert type(make_player("search", 1, MANIPULATION)).__name__ == "ManipulationSearch"
    game = new_game(MANIPULATION, 3, seed=1)
    assert isinstance(game, ManipulationGame)
    assert view_of(game, 0).hand_counts == (10, 10, 10)


# -- the command line ---------------------------------------------------------------------------------
def test_judge_table(capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's example: 7C and 3C can both be placed, 8H cannot."""
    code = main(["judge", "table", "--rules", "manipulation", "--table", "7H 7S 7D | 4C 5C 6C",
                 "--hand", "7C", "3C", "8H"])
    answer = json.loads(capsys.readouterr().out)
    assert code == 0 and answer["placed"] == ["3C", "7C"] and answer["left"] == ["8H"]
    tables = [sorted(m) for m in answer["table"]]
    assert sorted(c for m in tables for c in m) == sorted(["7H", "7S", "7D", "7C", "3C", "4C", "5C", "6C"])
    assert main(["judge", "table", "--rules", "manipulation", "--table", "7H 7S 7D", "--hand", "8H"]) == 1
    assert main(["judge", "table", "--rules", "manipulation", "--table", "7H 7S 7S", "--hand", "8H"]) == 2
    assert main(["judge", "table", "--rules", "isra", "--hand", "8H"]) == 2
    assert main(["judge", "contract", "--rules", "manipulation", "--round", "1", "7H"]) == 2
    err = capsys.readouterr().err
    assert "question of manipulation rummy" in err and "no contracts" in err


def test_simulate_tournament_and_replay_accept_the_preset(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--rules", "manipulation", "--option", "target=5", "--players", "3", "--games",
                 "2", "--seed", "3", "--json", "--record-dir", str(tmp_path)]) == 0
    sim = json.loads(capsys.readouterr().out)
    assert sim["rules"] == "manipulation" and sim["options"] == ["target=5"] and sim["rounds"] >= 2
    assert main(["replay", str(tmp_path / "game-0.jsonl")]) == 0
    assert "Winner" in capsys.readouterr().out
    assert main(["tournament", "--rules", "manipulation", "--option", "target=5", "--seats",
                 "expert,greedy,random", "--games", "3", "--seed", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "manipulation" and report["games"] == 3
    assert {p["seat_spec"] for p in report["players"]} == {"expert", "greedy", "random"}
    assert all("out_rate" in p for p in report["players"])
    assert main(["tournament", "--rules", "manipulation", "--seats", "search:top_k=2,greedy,random"]) == 2
    assert "search has no setting 'top_k'" in capsys.readouterr().err


def test_the_plain_text_game(tmp_path: Path) -> None:
    """``shanghai play --rules manipulation --plain``: the person places cards (the program arranges
    the table), draws, asks for hints; quitting saves, and --resume goes on."""
    import argparse

    from shanghai.cli.play import add_play_arguments, run_play

    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    record = tmp_path / "game.jsonl"
    args = parser.parse_args(["--rules", "manipulation", "--players", "3", "--seed", "5", "--plain",
                              "--record", str(record)])
    out = io.StringIO()
    commands = iter(["hint", "play 1X", "play JK", "play KS KS KS", "best", "draw", "best", "draw", "look", "quit"])

    def answer(prompt: str) -> str:
        return next(commands, "quit")

    assert run_play(args, input_fn=answer, output_fn=lambda s: out.write(s + "\n")) == 0
    text = out.getvalue()
    assert "Manipulation rummy" in text and "Game saved" in text
    assert f"Continue it with: shanghai play --resume --record {record}" in text  # this game, not the default one
    assert "(10 cards left)" not in text
    assert "Unknown card '1X': a card is a rank" in text and "JK for a joker" not in text  # 004: no jokers
    assert "Manipulation rummy is played without jokers." in text
    saved = GameRecord.load(record)
    assert saved.rules.name == "manipulation" and saved.actions
    resumed = parser.parse_args(["--rules", "manipulation", "--players", "3", "--plain", "--resume",
                                 "--record", str(record)])
    out2 = io.StringIO()
    assert run_play(resumed, input_fn=lambda p: "quit",
                    output_fn=lambda s: out2.write(s + "\n")) == 0
    assert "Game resumed" in out2.getvalue()
    assert len(GameRecord.load(record).actions) >= len(saved.actions)


def test_the_plain_text_game_says_when_you_go_out() -> None:
    from shanghai.cli.play_manipulation import ManipulationTextGame

    game = position(["7H 8H 9H", "2C 5D 6S 8D", "KS QD JH"], rules=QUICK)
    lines: list[str] = []
    commands = iter(["play 7H 8H 9H"])
    ManipulationTextGame(game, ["You", "Bob", "Cy"], input_fn=lambda p: next(commands, "quit"),
                         output_fn=lines.append).run()
    text = "\n".join(lines)
    assert "You place 7H 8H 9H (0 cards left)." in text and "Hand 1: You went out." in text
    assert "Game over: Bob reached 4 points and loses. Winner: You." in text
