"""The expert player: legal in every preset and player count, reproducible, blind to hidden cards,
and sensible in situations built by hand (outside runs, not feeding the table, when to buy)."""

from __future__ import annotations

import dataclasses
import inspect
import random

import pytest

from helpers import card, new_game
from shanghai.bots.expert import ExpertPlayer, ExpertSettings, _Turn
from shanghai.bots.greedy import GreedyPlayer
from shanghai.bots.hand_eval import evaluate, knowledge
from shanghai.bots.match import play_game, seat_seed
from shanghai.bots.player import Player
from shanghai.bots.registry import KNOWN_LEVELS, KNOWN_PLAYERS, make_player
from shanghai.cards import parse_cards, suit_of
from shanghai.engine.actions import Action, Buy, Cut, Discard, DrawStock, Pass, TakeDiscard
from shanghai.engine.game import CutResult, Phase
from shanghai.engine.view import MeldView, PlayerView, view
from shanghai.rules import PRESETS, preset


class Checked:
    """Wraps a player and checks that every choice is one of the view's legal actions."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.actions = 0

    def choose(self, v: PlayerView) -> Action:
        action = self.player.choose(v)
        assert action in v.legal, (action, v.legal)
        self.actions += 1
        return action


# every preset once, the player counts 3-6 spread over them; whole games, kept short by playing
# two of each preset's rounds (the last ones, with the hardest contracts, where it matters)
CASES = [("isra-junior", 3, 0), ("isra-express", 4, 0), ("isra", 5, 3), ("may-i", 6, 3),
         ("may-i-10", 3, 5), ("family-10", 4, 2), ("contract-10", 5, 3), ("family-10", 3, 0)]


@pytest.mark.parametrize(("name", "players", "first"), CASES)
def test_expert_games_finish_legally(name: str, players: int, first: int) -> None:
    full = preset(name)
    rules = dataclasses.replace(full, rounds=full.rounds[first:first + 2])
    seats = [Checked(ExpertPlayer(seat_seed(7, s)) if s % 2 == 0 else GreedyPlayer(seat_seed(7, s)))
             for s in range(players)]
    game = play_game(rules, players, seed=7, seats=seats, max_actions=50_000)
    assert game.is_over and len(game.round_results) == len(rules.rounds)
    assert sum(s.actions for s in seats) == len(game.actions)


def test_every_preset_is_covered() -> None:
    assert {name for name, _, _ in CASES} == set(PRESETS)


@pytest.mark.parametrize("options", [["shanghai-call"], ["no-split", "aces-high"]])
def test_options_all_expert(options: list[str]) -> None:
    rules = preset("may-i", options)
    junior = dataclasses.replace(rules, rounds=rules.rounds[:3])
    seats = [Checked(ExpertPlayer(s)) for s in range(4)]
    assert play_game(junior, 4, seed=3, seats=seats, max_actions=50_000).is_over


def test_house_rules() -> None:
    rules = preset("isra-junior").changed(buy_penalty=1, going_out="either", wild_replacement="none")
    seats = [Checked(ExpertPlayer(s)) for s in range(3)]
    assert play_game(rules, 3, seed=4, seats=seats, max_actions=50_000).is_over


def test_same_seed_same_game() -> None:
    def totals(seed: int) -> tuple[tuple[int, ...], int]:
        seats = [ExpertPlayer(seat_seed(seed, s)) for s in range(3)]
        game = play_game(preset("isra-junior"), 3, seed=seed, seats=seats)
        return tuple(game.totals), len(game.actions)
    assert totals(2) == totals(2)


def test_decides_from_the_view_only() -> None:
    # its only input is a PlayerView, which holds no other hand and no stock
    params = list(inspect.signature(ExpertPlayer.choose).parameters)
    assert params == ["self", "view"]
    assert not hasattr(view(new_game("isra", 4, seed=2), 0), "stock")
    # shuffling what the seat cannot see changes nothing it decides
    game = new_game("isra-junior", 4, seed=5)
    players = [ExpertPlayer(s) for s in range(4)]
    for _ in range(120):
        seat = game.to_act()[0]
        game.apply(players[seat].choose(view(game, seat)))
    seat = game.to_act()[0]
    other = game.copy()
    hidden = [c for s in range(4) if s != seat for c in other.hands[s]] + list(other.stock)
    random.Random(1).shuffle(hidden)
    for s in range(4):
        if s != seat:
            n = len(other.hands[s])
            other.hands[s], hidden = hidden[:n], hidden[n:]
    other.stock = hidden
    assert view(other, seat) == view(game, seat)
    assert ExpertPlayer(9).choose(view(other, seat)) == ExpertPlayer(9).choose(view(game, seat))


# -- situations built by hand --------------------------------------------------------------------
# The rule-based expert (the default; ``lookahead=True`` is tested in tests/test_lookahead.py).
RULE_BASED = ExpertSettings(lookahead=False)


def _view(name: str, round_number: int, phase: Phase, hand: str, legal: list[Action],
          **changes: object) -> PlayerView:
    """A view of seat 0 in ``round_number`` of ``name``, 4 players, with the given hand."""
    base = view(new_game(name, 4, seed=1), 0)
    rules = base.rules
    fields: dict[str, object] = dict(
        round_number=round_number, contract=rules.contract(round_number).text(), phase=phase,
        turn=0, to_act=(0,), hand=tuple(parse_cards(hand)), hand_counts=(11, 11, 11, 11),
        down=(False,) * 4, buys_used=(0,) * 4, buy_limit=rules.round(round_number).buys, table=(),
        discard_top=None, discard_live=False, discard_size=5, stock_size=80, pending_wild=None,
        buy_window=(), buy_claimant=None, history=(), legal=tuple(legal), cut=None)
    fields.update(changes)
    return dataclasses.replace(base, **fields)  # type: ignore[arg-type]


def _discards(hand: str) -> list[Action]:
    return [Discard(0, c) for c in sorted(set(parse_cards(hand)))]


def test_keeps_the_outside_run() -> None:
    # SET RUN: the set is made; 7H 8H 9H is an outside run (6H or 10H), 4C 5C 7C an inside one
    hand = "KS KH KD 7H 8H 9H 4C 5C 7C"
    v = _view("isra", 2, Phase.PLAY, hand, _discards(hand))
    action = ExpertPlayer(1, RULE_BASED).choose(v)
    assert isinstance(action, Discard) and suit_of(action.card) == 3, action


def test_outs_count_live_cards() -> None:
    live = [3.0] * 65
    live[card("9H")] = 0.0  # every 9H is seen: 7H 8H _ 10H is hopeless
    dead = evaluate(parse_cards("7H 8H 10H"), (), (4,), live)
    assert dead.outs == 0 and dead.dead_slots == 1
    assert evaluate(parse_cards("7H 8H 9H"), (), (4,), live).outs == 6.0  # 6H or 10H


def test_counts_the_discards_it_has_seen() -> None:
    history = (Discard(1, card("9H")), DrawStock(2), Discard(2, card("9H")), TakeDiscard(3),
               Discard(3, card("2C")))
    v = _view("isra", 3, Phase.PLAY, "7H 8H 10H", _discards("7H 8H 10H"), history=history,
              discard_size=3)
    k = knowledge(v)
    assert k.live[card("9H")] == 1.0          # three decks, one 9H on the pile
    assert k.picked == {3: [card("9H")]}      # seat 3 took a 9H
    assert k.declined == {2: [card("9H")]}    # seat 2 drew over one


def test_a_card_that_will_play_is_free_of_its_points_and_no_more() -> None:
    # SET SET: KS KH KD is a set and 7H 7D half of one; a fourth king is spare, but it will play on
    # the set once down, so its 10 points are not held against it; a spare 4C's 5 points are.
    # Counting such a card 10 more (player_bonus, before 2026-12-02) measured a few points worse.
    hand = "KS KH KD KC 7H 7D 4C"
    v = _view("isra", 1, Phase.PLAY, hand, _discards(hand))
    without = parse_cards("KS KH KD 7H 7D")
    for bonus in (None, 10.0):
        settings = ExpertSettings() if bonus is None else ExpertSettings(player_bonus=bonus)
        t = _Turn(v, settings)
        base = t.value(without)[0]
        assert t.value([*without, card("KC")])[0] - base == (bonus or 0.0)
        assert t.value([*without, card("4C")])[0] - base == -t.point_weight * 5


def test_does_not_discard_a_card_that_plays_on_the_table() -> None:
    # the next player is down with a set of aces: the ace would go straight onto it
    aces = MeldView(0, 1, "set", tuple(parse_cards("AS AH AD")), ())
    hand = "AC 4D 7S 7H 7D QC QD QH"
    v = _view("isra", 1, Phase.PLAY, hand, _discards(hand), table=(aces,),
              down=(False, True, False, False), hand_counts=(8, 5, 11, 11))
    action = ExpertPlayer(1, RULE_BASED).choose(v)
    assert isinstance(action, Discard) and action.card != card("AC"), action


def test_suicide_buy_late_but_not_an_early_useless_card() -> None:
    # 000, SET SET RUN: "SUICIDE BUY only when the other players on the bed are down to one or two
    # cards". The hand is 1 card short; the discard (4S) helps nothing.
    hand = "7S 7H 7D 9S 9H 9D 5C 6C 8C KD QH"
    legal: list[Action] = [Buy(0), Pass(0)]
    early = _view("isra", 5, Phase.BUY, hand, legal, discard_top=card("4S"), discard_live=True,
                  turn=3, to_act=(0,))
    assert ExpertPlayer(1, RULE_BASED).choose(early) == Pass(0)
    late = dataclasses.replace(early, down=(False, True, True, False), hand_counts=(11, 2, 4, 11))
    action, reason = ExpertPlayer(1, RULE_BASED).decide(late)
    assert action == Buy(0) and reason.startswith("buy 4S: suicide buy"), reason
    # by greedy's rules alone (which SET SET RUN otherwise follows) it would pass
    assert GreedyPlayer(1).choose(late) == Pass(0)
    assert ExpertPlayer(1, dataclasses.replace(RULE_BASED, suicide_cards=0)).choose(late) == Pass(0)
    assert ExpertPlayer(1, dataclasses.replace(RULE_BASED, suicide_greedy=False)).choose(late) == Pass(0)
    # the player down holds 3 cards: not yet
    three = dataclasses.replace(late, hand_counts=(11, 3, 4, 11))
    assert ExpertPlayer(1, RULE_BASED).choose(three) == Pass(0)
    # no suicide buy of a costly card that helps nothing (an ace, 20 points)
    ace = dataclasses.replace(late, discard_top=card("AS"))
    assert ExpertPlayer(1, RULE_BASED).choose(ace) == Pass(0)


def test_suicide_buys_only_where_sets_are_missing() -> None:
    # Measured (single-round games, the expert's docstring): suicide buys gain in SET SET, SET SET
    # SET and SET SET RUN, lose in SET RUN, RUN RUN and SET RUN RUN, are even in RUN RUN RUN; a
    # set is completed by any of a rank's many copies, a run by one card
    late = dict(down=(False, True, False, False), hand_counts=(11, 1, 11, 11), discard_live=True,
                turn=3, to_act=(0,))
    legal: list[Action] = [Buy(0), Pass(0)]
    # SET SET SET, two short (7s and 9s complete, the queens want one more)
    sets = _view("isra", 4, Phase.BUY, "7S 7H 7D 9S 9H 9D QH QD 5C 2S KD", legal,
                 discard_top=card("4S"), **late)
    assert ExpertPlayer(1, RULE_BASED).choose(sets) == Buy(0)
    # RUN RUN, one short: no suicide buy of a card that helps nothing
    runs = _view("isra", 3, Phase.BUY, "3H 4H 5H 6H 8C 9C 10C KD QS 2S 7D", legal,
                 discard_top=card("4S"), **late)
    assert ExpertPlayer(1, RULE_BASED).choose(runs) == Pass(0)
    # SET RUN RUN takes the whole hand (11 cards of 11): one short, the hand may still go down and
    # out at once with the card it needs, which two penalty cards rule out; it passes
    whole = _view("isra", 6, Phase.BUY, "7S 7H 7D 3H 4H 5H 6H 8C 9C 10C KD", legal,
                  discard_top=card("4S"), **late)
    action, reason = ExpertPlayer(1, RULE_BASED).decide(whole)
    assert action == Pass(0), reason
    # ... where SET SET RUN, with a card to spare, buys for the penalty cards
    spare = _view("isra", 5, Phase.BUY, "7S 7H 7D 9S 9H 3H 4H 5H 6H KD QC", legal,
                  discard_top=card("4S"), **late)
    assert ExpertPlayer(1, RULE_BASED).choose(spare) == Buy(0)


def test_takes_the_discard_that_puts_the_whole_hand_down_and_out() -> None:
    # 000, SET RUN RUN: "you may have completed SET RUN RUN in your hand, but not be able to go
    # down if you still only have 11 cards" (isra: "the last card may not be discarded"). Greedy's
    # count stops at the contract, so it draws; the expert takes a 12th card that plays on the
    # hand's own melds and goes down and out in one turn
    hand = "7S 7H 7D 3H 4H 5H 6H 8C 9C 10C JC"
    take: list[Action] = [TakeDiscard(0), DrawStock(0)]
    fits = _view("isra", 6, Phase.DRAW, hand, take, discard_top=card("7C"), discard_live=True)
    assert ExpertPlayer(1, RULE_BASED).decide(fits) == (
        TakeDiscard(0), "take 7C: with it your whole hand goes down and out")
    assert GreedyPlayer(1).choose(fits) == DrawStock(0)
    nowhere = _view("isra", 6, Phase.DRAW, hand, take, discard_top=card("KD"), discard_live=True)
    assert ExpertPlayer(1, RULE_BASED).choose(nowhere) == DrawStock(0)
    # also in the rounds played by greedy's rules: SET SET RUN met with a spare 8C, and 7C
    # joins the run to 3C-8C
    hand5 = "7S 7H 7D 9S 9H 9D 3C 4C 5C 6C 8C"
    five = _view("isra", 5, Phase.DRAW, hand5, take, discard_top=card("7C"), discard_live=True)
    assert GreedyPlayer(1).choose(five) == DrawStock(0)
    assert ExpertPlayer(1, RULE_BASED).choose(five) == TakeDiscard(0)
    # may-i lets a player go out either way; contract-10 only by discarding the last card, so
    # there melding every card is no way out
    may_i = _view("may-i", 6, Phase.DRAW, hand, take, discard_top=card("7C"), discard_live=True)
    assert ExpertPlayer(1, RULE_BASED).choose(may_i) == TakeDiscard(0)
    sevens_nines = "7S 7S 7H 7H 7D 7C 9S 9S 9H 9D 9C"
    c10 = _view("contract-10", 1, Phase.DRAW, sevens_nines, take, discard_top=card("9H"),
                discard_live=True)
    assert "goes down and out" not in ExpertPlayer(1, RULE_BASED).decide(c10)[1]


def test_plays_greedy_rounds_by_greedy() -> None:
    # SET SET RUN mixes sets with one run: there the expert decides as greedy does
    hand = "7S 7H 9S 9H 9D 5C 6C 8C KD QH 3S"
    for top in ("7C", "4S", "KH"):
        v = _view("isra", 5, Phase.BUY, hand, [Buy(0), Pass(0)], discard_top=card(top),
                  discard_live=True, turn=3)
        assert ExpertPlayer(1, RULE_BASED).choose(v) == GreedyPlayer(1).choose(v)


def test_sheds_points_before_keeping_partners_in_greedys_rounds() -> None:
    # RUN RUN RUN: QD and 2D add nothing to the three runs; QD has a partner (QS), 2D none.
    # Greedy keeps the partner and throws 2D; the expert (points_first, measured 8 points a round
    # better in RUN RUN RUN and 5 in SET RUN RUN) sheds the 10 points of QD
    hand = "3H 4H 5H 6H 10S JS QS 8C 9C 10C QD 2D"
    v = _view("isra", 7, Phase.PLAY, hand, _discards(hand))
    assert GreedyPlayer(1).choose(v) == Discard(0, card("2D"))
    assert ExpertPlayer(1, RULE_BASED).decide(v) == (
        Discard(0, card("QD")), "discard QD: it helps your contract least, and of those it holds the most points (10)")
    assert ExpertPlayer(1, dataclasses.replace(RULE_BASED, points_first=False)).choose(v) == Discard(0, card("2D"))
    # SET RUN RUN (its discards by greedy's plain count too): the same choice
    hand6 = "3H 4H 5H 6H 10S JS QS 8C 8D 8S QD 2D"
    v6 = _view("isra", 6, Phase.PLAY, hand6, _discards(hand6))
    assert GreedyPlayer(1).choose(v6) == Discard(0, card("2D"))
    assert ExpertPlayer(1, RULE_BASED).choose(v6) == Discard(0, card("QD"))


def test_which_rounds_are_played_by_greedy() -> None:
    # measured round by round against greedy tables (the expert's docstring): its own rules in
    # SET RUN (-2.0 and -1.0 points a round), greedy's in SET SET RUN and RUN RUN RUN
    hand = "7S 7H 9S 9H 9D 5C 6C 8C KD QH 3S"
    expert = ExpertPlayer(1, RULE_BASED)
    for round_number, by_greedy in ((1, False), (2, False), (3, False), (4, False), (5, True),
                                    (6, False), (7, True)):
        v = _view("isra", round_number, Phase.BUY, hand, [Buy(0), Pass(0)],
                  discard_top=card("7C"), discard_live=True, turn=3)
        assert expert._by_greedy(v) is by_greedy, round_number


def test_buys_what_completes_a_meld() -> None:
    hand = "7S 7H 9S 9H 9D 5C 6C 8C KD QH 3S"
    v = _view("isra", 5, Phase.BUY, hand, [Buy(0), Pass(0)], discard_top=card("7C"),
              discard_live=True, turn=3)
    assert ExpertPlayer(1, RULE_BASED).choose(v) == Buy(0)


def test_buys_sooner_where_the_contract_takes_the_whole_hand() -> None:
    # SET RUN RUN takes all 11 cards, and 000 warns "you may have completed SET RUN RUN in your
    # hand, but not be able to go down if you still only have 11 cards ... May be a good reason to
    # make your first BUY earlier in the round". Measured (the expert's docstring): buying while the
    # hand stays at most 5 short, not greedy's 3, is caught less. The hand holds 5 cards toward the
    # contract (3H 4H, 8C 9C and one more), 10C makes 6: five short after the buy.
    hand = "3H 4H 8C 9C KD QS 2S 7D 5S AD JH"
    v = _view("isra", 6, Phase.BUY, hand, [Buy(0), Pass(0)], discard_top=card("10C"),
              discard_live=True, turn=3)
    action, reason = ExpertPlayer(1, RULE_BASED).decide(v)
    assert action == Buy(0) and reason == "buy 10C: leaves you 5 short of going down", reason
    assert ExpertPlayer(1, dataclasses.replace(RULE_BASED, tight_buy_missing=3)).choose(v) == Pass(0)
    assert GreedyPlayer(1).choose(v) == Pass(0)
    # a card that adds nothing is still not bought
    assert ExpertPlayer(1, RULE_BASED).choose(dataclasses.replace(v, discard_top=card("10D"))) == Pass(0)


def test_short_buy_limit_in_run_run_run() -> None:
    # RUN RUN RUN (12 cards from 11) is played by greedy's rules, buys included: the hand holds 7
    # cards toward the contract, JC makes 8, four short. Greedy's limit (3 short) passes;
    # ``short_buy_missing=4`` (contracts that need more cards than the hand) buys.
    hand = "3H 4H 5H 8C 9C KD QS 2S 7D 4S AD"
    v = _view("isra", 7, Phase.BUY, hand, [Buy(0), Pass(0)], discard_top=card("JC"),
              discard_live=True, turn=3)
    assert ExpertPlayer(1, RULE_BASED).choose(v) == Pass(0)
    assert GreedyPlayer(1).choose(v) == Pass(0)
    eager = dataclasses.replace(RULE_BASED, short_buy_missing=4)
    assert ExpertPlayer(1, eager).choose(v) == Buy(0)
    assert GreedyPlayer(1, short_buy_missing=4).choose(v) == Buy(0)
    # contracts that fit the hand (SET SET RUN 10 of 11, SET RUN RUN 11 of 11) keep greedy's limit
    for round_number in (5, 6):
        fits = _view("isra", round_number, Phase.BUY, hand, [])
        assert GreedyPlayer(1, short_buy_missing=11)._buy_missing(fits) == 3


def test_sheds_high_cards_once_down() -> None:
    hand = "KD 4S 9C"
    v = _view("isra", 1, Phase.PLAY, hand, _discards(hand), down=(True, False, False, False),
              table=(MeldView(0, 0, "set", tuple(parse_cards("5S 5H 5D")), ()),
                     MeldView(1, 0, "set", tuple(parse_cards("6S 6H 6D")), ())))
    assert ExpertPlayer(1, RULE_BASED).choose(v) == Discard(0, card("KD"))


def test_cut_aims_at_the_exact_count() -> None:
    game = new_game("isra", 5, seed=3)
    assert game.phase == Phase.CUT
    assert ExpertPlayer(0).choose(view(game, game.turn)) == Cut(game.turn, 11 * 5 + 1)


def test_quiet_55_does_not_buy() -> None:
    hand = "7S 7H 9S 9H 9D 5C 6C 8C KD QH 3S"
    base = view(new_game("isra", 4, seed=1), 0)
    last = base.rules.rounds
    v = _view("isra", len(last), Phase.BUY, hand, [Buy(0), Pass(0)], discard_top=card("7C"),
              discard_live=True, turn=3, totals=(100, 200, 220, 260))
    assert ExpertPlayer(1).choose(v) == Pass(0)


def test_quiet_55_only_with_a_hand_that_cannot_lose_the_lead() -> None:
    # 000: "if the leading person is more than 55 points ahead, they can ... QUIET 55. They
    # basically just collect eleven 5 point cards". Quiet with 65 points in hand and a lead of 100;
    # with three aces (100 points) and a lead of 90 the hand could lose the lead, so it plays on.
    last = len(view(new_game("isra", 4, seed=1), 0).rules.rounds)
    cheap, costly = "7S 7H 9S 9H 9D 5C 6C 8C KD QH 3S", "7S 7H 9S 9H 9D 5C 6C 8C AD AH AS"

    def reason(hand: str, totals: tuple[int, ...]) -> str:
        v = _view("isra", last, Phase.BUY, hand, [Buy(0), Pass(0)], discard_top=card("7C"),
                  discard_live=True, turn=3, totals=totals)
        return ExpertPlayer(1).decide(v)[1]

    assert "quiet 55" in reason(cheap, (100, 200, 220, 260))
    assert "quiet 55" in reason(costly, (100, 200, 220, 260))  # 100 points, a lead of 100
    assert "quiet 55" not in reason(costly, (100, 190, 220, 260))
    assert "quiet 55" not in reason(cheap, (100, 150, 220, 260))  # a lead of 50 is not enough

    # THE CUT made by another player adds 50 to this hand's points at the round's end (000: "all other
    # persons get a 50-point penalty"): a lead of 100 over the cutter is then a lead of 50 (a reviewer
    # found it left out); over a player who did not cut, both get the 50 and the lead stands.
    def cut_reason(cutter: int) -> str:
        v = _view("isra", last, Phase.BUY, cheap, [Buy(0), Pass(0)], discard_top=card("7C"), discard_live=True,
                  turn=3, totals=(100, 200, 220, 260), cut=CutResult(cutter, 45, 45, 45))
        return ExpertPlayer(1).decide(v)[1]

    assert "quiet 55" not in cut_reason(1)
    assert "quiet 55" in cut_reason(2)


def test_the_kill_feeds_the_next_player_out_when_that_wins_the_game() -> None:
    # 000, THE KILL: "If you are in the lead towards the end of the game and the person you discard
    # to is not in contention, you can exercise THE KILL by discarding players so that the weaker
    # player is able to pick those up and GO OUT before your rivals or runner up persons are able to
    # go out." Last round; the next player (seat 1) is down to one card; 9D plays on its run.
    last = len(view(new_game("isra", 4, seed=1), 0).rules.rounds)
    hand = "4S 5S 6S 7S 10C JC QC 3H 3D 9D KS"  # 75 points, 70 once 9D is gone
    run = MeldView(0, 1, "run", tuple(parse_cards("5D 6D 7D 8D")), ())

    killer = dataclasses.replace(RULE_BASED, kill=True)  # a setting, off by default (no more wins)

    def decide(totals: tuple[int, ...], round_number: int = last, counts: tuple[int, ...] = (11, 1, 11, 11),
               settings: ExpertSettings = killer, down: bool = False, call: bool = False,
               cut: CutResult | None = None) -> tuple[Action, str]:
        v = _view("isra", round_number, Phase.PLAY, hand, _discards(hand), table=(run,),
                  down=(down, True, False, False), hand_counts=counts, totals=totals, turn=0,
                  discard_size=20, stock_size=40, cut=cut)
        if call:  # the "Shanghai" call: another seat down could take the card first
            v = dataclasses.replace(v, rules=dataclasses.replace(v.rules, shanghai_call=True))
        return ExpertPlayer(1, settings).decide(v)

    # 100 + 70 = 170: seat 1 going out ends on 200, the others caught with eleven cards on at
    # least 190 + 55 and 200 + 55: this seat wins, so it hands seat 1 the card it plays
    action, reason = decide((100, 200, 190, 200))
    assert action == Discard(0, card("9D")) and "THE KILL" in reason, reason
    # otherwise the discard is greedy's (points first): the king, which plays nowhere
    plain = Discard(0, card("KS"))
    assert decide((100, 170, 190, 200))[0] == plain  # seat 1 in contention: out, it would tie
    assert decide((100, 200, 115, 200))[0] == plain  # a rival caught with 55 would tie
    assert decide((100, 200, 190, 200), counts=(11, 3, 11, 11))[0] == plain  # not near out
    assert decide((100, 200, 190, 200), round_number=last - 1)[0] == plain  # not the last round
    assert decide((100, 200, 190, 200), settings=ExpertSettings())[0] == plain  # off by default
    assert "THE KILL" not in decide((100, 200, 190, 200), call=True)[1]
    # THE CUT's 50 points to everyone but the cutter count: seat 1 cut, 170 + 50 is no win over 200
    cut = CutResult(cutter=1, target=45, actual=45, needed=45)
    assert "THE KILL" not in decide((100, 200, 190, 260), cut=cut)[1]
    assert "THE KILL" in decide((100, 221, 190, 260), cut=cut)[1]
    action, reason = decide((100, 200, 190, 200), down=True)  # down itself, it races to go out
    assert action != Discard(0, card("9D")) and "THE KILL" not in reason, reason


def test_registry_knows_the_levels() -> None:
    assert "expert" in KNOWN_PLAYERS and KNOWN_LEVELS == ("easy", "medium", "hard", "expert")
    for name in (*KNOWN_PLAYERS, *KNOWN_LEVELS):
        assert callable(make_player(name, 1).choose)
    with pytest.raises(ValueError, match=r"unknown player 'grandmaster' \(known: random, greedy, expert"):
        make_player("grandmaster", 1)


def test_levels_play_legally() -> None:
    seats = [Checked(make_player(name, s)) for s, name in enumerate(KNOWN_LEVELS)]
    game = play_game(preset("isra-junior"), 4, seed=8, seats=seats, max_actions=50_000)
    assert game.is_over
