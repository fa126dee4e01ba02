"""Rules tests of the engine that hold for every preset: the deal, the pack, the first dealer, the
rotation of the deal, the stock running out, and the promise that an illegal action raises
``IllegalActionError`` with a reason and changes nothing.

Each test names the source document (000 isra, 001 may-i, 002 family-10, 004 contract-10) and
quotes the sentence it checks. Preset-specific rules are in ``tests/test_rules_<preset>.py``.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from helpers import assert_conserved, assert_illegal, card, cards, finish_round, new_game, rig
from shanghai.bots.random_player import RandomPlayer
from shanghai.cards import JOKER, Card, make_pack
from shanghai.engine.actions import (
    Action,
    Buy,
    CallShanghai,
    Cut,
    Discard,
    DrawStock,
    GoDown,
    LayOff,
    MeldSpec,
    Pass,
    ReplaceWild,
    TakeDiscard,
)
from shanghai.engine.game import Game, Phase
from shanghai.engine.view import view
from shanghai.errors import IllegalActionError, InconsistentRulesError
from shanghai.rules import PRESETS, preset

# Which document each preset comes from, and the sentence naming its pack.
SOURCE = {"isra": "000", "isra-junior": "000", "isra-express": "000", "may-i": "001",
          "may-i-10": "001", "family-10": "002", "contract-10": "004"}

# (preset, players) -> (decks, jokers), straight from the documents (VARIANTS.md "Cards, deal").
PACKS = {
    # 000: "The game is played with all 162 cards provided with your box set."
    **{("isra", n): (3, 6) for n in range(3, 9)},
    # 001: "3-4: 2 decks / 5-6: 3 decks / 7-8: 4 decks" and "Every deck should have 2 jokers."
    **{("may-i", n): (2, 4) for n in (3, 4)},
    **{("may-i", n): (3, 6) for n in (5, 6)},
    **{("may-i", n): (4, 8) for n in (7, 8)},
    # 002: "2 people-one deck, 3 to 5 people-2 decks of cards, 6 to 8 people- 3 decks"
    # (jokers per deck: 2, decision 2 of docs/rules.md).
    ("family-10", 2): (1, 2),
    **{("family-10", n): (2, 4) for n in (3, 4, 5)},
    **{("family-10", n): (3, 6) for n in (6, 7, 8)},
    # 004: "For 3 to 4 players: use two decks of cards, 52 cards each plus one joker for a total of
    # 105 cards." / "For 5 or more players: use three decks of 52 cardseach, plus two jokers, for a
    # total of 158 cards."
    **{("contract-10", n): (2, 1) for n in (3, 4)},
    **{("contract-10", n): (3, 2) for n in range(5, 9)},
}


def _deal_now(game: Game) -> None:
    if game.phase == Phase.CUT:
        game.apply(Cut(game.turn, 11 * game.players + 1))


# ---------------------------------------------------------------------------------------------
# The pack
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), sorted(PACKS))
def test_pack_size_per_preset_and_player_count(name: str, players: int) -> None:
    """000 "The game is played with all 162 cards provided with your box set."; 001 "3-4: 2 decks
    5-6: 3 decks 7-8: 4 decks ... Every deck should have 2 jokers."; 002 "2 people-one deck, 3 to 5
    people-2 decks of cards, 6 to 8 people- 3 decks"; 004 "a total of 105 cards" / "a total of 158
    cards". The whole pack is in the game, every card once."""
    decks, jokers = PACKS[(name, players)]
    rules = preset(name)
    if players == 2:  # family-10 is refused at two (the next test); 002's pack for two, on its first hands
        rules = dataclasses.replace(rules, rounds=rules.rounds[:7], min_players=2)
    game = Game.new(rules, players, seed=players)
    assert game.pack_size == 52 * decks + jokers
    _deal_now(game)
    assert Counter(game.all_cards()) == Counter(make_pack(decks, jokers))
    if name == "isra":
        assert game.pack_size == 162
    if name == "contract-10":
        assert game.pack_size == (105 if players <= 4 else 158)


def test_family_10_is_refused_at_two_players_whose_last_hands_cannot_be_made() -> None:
    """002 "2 people-one deck" and "Hand 8 - 1set of 3 + 1 run of 10 (3 buys)" ... "Hand 10 - 3 runs
    of 5 (4 buys)": those contracts need 13, 14 and 15 cards, more than a hand holds after its draw,
    and "Players are allowed to acquire a card off the discard pile when it is not their turn": at two
    the only other player is the discarder, who may not buy back their own discard (docs/rules.md
    decision 16), so nobody could ever make them. The game says so instead of dealing hands nobody
    can win (a reviewer found them ending only by the stock-renewal guard)."""
    rules = preset("family-10")
    assert max(r.contract.min_cards for r in rules.rounds[7:]) > rules.hand_size + 1
    with pytest.raises(InconsistentRulesError, match=r"family-10 is played by 3 to 8 players, not 2: its document "
                                                       r"deals 2 a pack, but not every contract could be made"):
        new_game("family-10", 2)
    assert new_game("family-10", 3).players == 3


@pytest.mark.parametrize(("name", "too_few", "too_many"), [
    ("may-i", 2, 9),        # 001 "Shanghai Rummy is a card game designed for 3 to 8 players."
    ("family-10", 2, 9),    # 002 "2 people-one deck ... 6 to 8 people- 3 decks"; two refused (decision 16)
    ("contract-10", 2, 9),  # 004 "Number of Players 3 to 8 players, each plays for themselves."
    ("isra", 2, 9),         # 000 box set for 4-6; decision 1: 3 to 8
])
def test_player_counts_outside_the_documents_are_refused(name: str, too_few: int, too_many: int) -> None:
    """001 "Shanghai Rummy is a card game designed for 3 to 8 players."; 004 "Number of Players 3 to
    8 players, each plays for themselves."; 002 "2 people-one deck, 3 to 5 people-2 decks of cards,
    6 to 8 people- 3 decks"."""
    for n in (too_few, too_many):
        with pytest.raises(InconsistentRulesError):
            new_game(name, n)


# ---------------------------------------------------------------------------------------------
# The deal
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
@pytest.mark.parametrize("players", [3, 4, 5, 8])
def test_deal_eleven_each_flip_card_dealer_left_plays_first(name: str, players: int) -> None:
    """000 "The person to the dealer's left starts the play. They have the choice to either take the
    exposed FLIP CARD or draw the face down card on the top of the STACK."; 001 "The dealer deals 11
    cards to each player"; 002 "Each player is dealt 11 cards. After each player has their cards,
    turn the top card of the deck over to begin the discard pile." / "The person to the left of the
    dealer goes first."; 004 "11 cards are dealt to each player in every deal"."""
    game = new_game(name, players, seed=100 + players)
    _deal_now(game)
    assert [len(h) for h in game.hands] == [11] * players
    assert len(game.discards) == 1 and game.discard_live and game.discarder is None
    assert len(game.stock) == game.pack_size - 11 * players - 1
    first = (game.dealer + 1) % players
    assert game.turn == first
    # family-10 from hand 5 opens its buy question first; in hand 1 the first player simply draws.
    assert game.phase == Phase.DRAW and game.to_act() == (first,)
    flip = game.discards[-1]
    game.apply(TakeDiscard(first))
    assert game.hands[first][-1] == flip and len(game.hands[first]) == 12 and game.discards == []


@pytest.mark.parametrize("name", ["isra", "may-i"])
def test_cards_are_dealt_one_at_a_time_from_the_dealers_left(name: str) -> None:
    """001 "The dealer deals 11 cards to each player, one at a time, starting with the person to the
    dealer's left. The remaining cards are placed in the center of the table to form the draw pile.
    The top card of the draw pile is turned over to start the discard pile." (may-i is given THE CUT
    as a house rule only to pause the game before its deal.)"""
    rules = preset(name) if name == "isra" else preset(name).changed(the_cut=True)
    game = Game.new(rules, 4, seed=3)
    assert game.phase == Phase.CUT and all(not h for h in game.hands)
    stack = list(game.stock)
    random.Random(9).shuffle(stack)
    game.stock = list(stack)
    game.apply(Cut(game.turn, 45))
    n, d = 4, game.dealer
    for i in range(11):
        for k in range(1, n + 1):
            assert game.hands[(d + k) % n][i] == stack[-1 - (i * n + k - 1)]
    assert game.discards == [stack[-1 - 44]]
    assert game.stock == stack[:-45]


# ---------------------------------------------------------------------------------------------
# The first dealer and the rotation of the deal
# ---------------------------------------------------------------------------------------------


def _cut_value(card_: Card, high: bool) -> int:
    if card_ == JOKER:
        return 15
    r = card_ & 15
    return (14 if r == 1 else r) if high else r


@pytest.mark.parametrize("name", ["isra", "contract-10"])
def test_first_dealer_by_the_cut_for_deal(name: str) -> None:
    """000 "Highest to lowest with JOKERS being the highest followed by A's moving all the way down
    to 2s. The person with the highest cut is the dealer." and "Cut again for ties."; 004 "To
    determine who deals first, the deck is shuffled and cut and each player draws a card. The player
    drawing the lowest card delas first." (the ace counts low there: decision 3 of docs/rules.md)."""
    high = name == "isra"
    saw_tie = saw_joker_win = False
    for seed in range(300):
        game = new_game(name, players=6, seed=seed)
        rounds = game.first_dealer_cuts
        seats = list(range(6))
        for cut in rounds:
            assert [s for s, _ in cut] == seats, "only the tied seats cut again"
            values = [_cut_value(c, high) for _, c in cut]
            best = max(values) if high else min(values)
            seats = [s for (s, _), v in zip(cut, values, strict=True) if v == best]
        assert seats == [game.first_dealer]
        assert game.dealer == game.first_dealer
        saw_tie |= len(rounds) > 1
        saw_joker_win |= any(c == JOKER for s, c in rounds[-1] if s == game.first_dealer)
    assert saw_tie
    if high:
        assert saw_joker_win, "a joker is the highest cut"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_deal_passes_clockwise_every_round(name: str) -> None:
    """000 "The deal and cut are then passed onto a new person every round moving clockwise.";
    004 "Thereafter, the deal passes from player to player to the left." (001 and 002 are silent:
    decision 4, clockwise.) The player on the new dealer's left plays first."""
    game = new_game(name, players=5, seed=21)
    first = game.first_dealer
    for r in range(min(3, len(game.rules.rounds) - 1)):
        assert game.round_number == r + 1
        assert game.dealer == (first + r) % 5
        if game.rules.the_cut:
            assert game.phase == Phase.CUT and game.to_act() == ((game.dealer - 1) % 5,)
        else:
            assert game.turn == (game.dealer + 1) % 5
        finish_round(game, winner=r % 5)
    assert game.dealer == (first + game.round_index) % 5


# ---------------------------------------------------------------------------------------------
# The stock running out
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_empty_stock_is_renewed_from_the_discard_pile_but_its_top(name: str) -> None:
    """004 "If the stock is exhausted before any player has gone out, the discard pile is shuffled by
    the original dealer and turned face-down to form a new stock." (000, 001, 002 are silent; the
    project renews the stock the same way, keeping the top discard face up: decision 25.)"""
    game = new_game(name, seed=5)
    rig(game, turn=1, phase=Phase.DRAW, stock_size=0, discards="QH", discard_live=False)
    pile = list(game.discards)
    assert len(pile) > 40 and game.stock == []
    game.apply(DrawStock(1))
    assert game.phase == Phase.PLAY
    assert game.discards == [card("QH")]
    assert game.stock_renewals == 1
    assert Counter(game.stock) + Counter([game.hands[1][-1]]) == Counter(pile[:-1])
    assert_conserved(game)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_round_ends_with_nobody_out_when_the_stock_cannot_be_renewed(name: str) -> None:
    """004 "If the stock is exhausted before any player has gone out, the discard pile is shuffled
    ..." — when there is no pile to shuffle (only its top card) the project ends the round with
    nobody out and everybody scores the cards in hand (decision 25)."""
    game = new_game(name, seed=6)
    rig(game, turn=2, phase=Phase.DRAW, stock_size=0, discards="QH", discard_live=False,
        hands={1: "AS AH", 2: "3C 4C", 3: "JK"})
    # The rigging put the rest of the pack under the discard pile: move it into seat 0's hand so
    # that the pile is its top card alone and nothing is left to renew the stock with.
    extra = game.discards[:-1]
    game.discards = game.discards[-1:]
    game.hands[0] += extra
    assert_conserved(game)
    hands = [list(h) for h in game.hands]
    game.apply(DrawStock(2))
    result = game.round_results[-1]
    assert result.went_out is None
    assert list(result.points) == [sum(game.rules.points(c) for c in h) for h in hands]
    assert game.round_number == 2


@pytest.mark.parametrize("name", ["isra", "contract-10"])
def test_round_ends_after_the_last_allowed_renewal(name: str) -> None:
    """004 "the discard pile is shuffled by the original dealer and turned face-down to form a new
    stock" — the project bounds the renewals (``max_stock_renewals``) so that a game always ends (decision 25)."""
    game = new_game(name, seed=7)
    rig(game, turn=1, phase=Phase.DRAW, stock_size=0, discards="QH", discard_live=False)
    game.stock_renewals = game.rules.max_stock_renewals
    game.apply(DrawStock(1))
    assert game.round_results[-1].went_out is None


# ---------------------------------------------------------------------------------------------
# Illegal actions: refused with a reason, nothing changed
# ---------------------------------------------------------------------------------------------


def _probes(game: Game, rng: random.Random) -> list[Action]:
    everything = sorted(set(game.all_cards())) + [Card(1), Card(13), JOKER]
    out: list[Action] = []
    for seat in [*range(game.players), game.players, -1]:
        hand = game.hands[seat] if 0 <= seat < game.players else []
        some = rng.sample(hand, min(3, len(hand))) + rng.sample(everything, 3)
        out += [DrawStock(seat), TakeDiscard(seat), Buy(seat), Pass(seat), Cut(seat, rng.choice([0, 45, 999]))]
        for c in some:
            out.append(Discard(seat, c, shanghai=rng.random() < 0.3))
            out.append(LayOff(seat, c, rng.randrange(-1, len(game.table) + 2), rng.choice(["low", "high", None])))
            out.append(ReplaceWild(seat, c, rng.randrange(-1, len(game.table) + 2)))
        out.append(CallShanghai(seat, rng.randrange(-1, len(game.table) + 2), rng.choice(["low", "high", None])))
        if len(hand) >= 6:
            picked = rng.sample(hand, 6)
            out.append(GoDown(seat, (MeldSpec("set", tuple(picked[:3])), MeldSpec("run", tuple(picked[3:])))))
            out.append(GoDown(seat, (MeldSpec("set", tuple(picked[:3])),)))
    return out


@pytest.mark.parametrize("name", sorted({*PRESETS, "may-i+shanghai-call"}))
def test_illegal_actions_raise_with_a_reason_and_change_nothing(name: str) -> None:
    """000, 001, 002, 004: every rule above is enforced by refusing what it forbids. A refused action
    raises ``IllegalActionError`` (a ``ValueError``) saying why and leaves ``snapshot()`` unchanged;
    every action ``legal_actions`` offers is accepted; the pack is conserved throughout."""
    base, _, option = name.partition("+")
    game = new_game(base, players=4, seed=17, options=[option] if option else [])
    if base == "family-10":  # start where buying is allowed
        for r in range(4):
            finish_round(game, winner=r)
    rng = random.Random(name)
    bot = RandomPlayer(seed=2)
    refused = 0
    for _ in range(60):
        if game.is_over:
            break
        for action in _probes(game, rng):
            trial = game.copy()
            before = trial.snapshot()
            try:
                trial.apply(action)
            except IllegalActionError as exc:
                refused += 1
                assert str(exc)
                assert trial.snapshot() == before, f"{action} was refused but changed the game"
        seat = game.to_act()[0]
        v = view(game, seat)
        for action in v.legal[:25]:
            game.copy().apply(action)
        game.apply(bot.choose(v))
        assert_conserved(game)
    assert refused > 100


def test_illegal_action_error_is_a_value_error() -> None:
    """000 "Persons who are not down cannot play cards onto other persons' cards." — the refusal is
    an ``IllegalActionError``, which is a ``ValueError``, and it says why."""
    assert issubclass(IllegalActionError, ValueError)
    game = new_game("isra")
    rig(game, hands={0: "9D KS"}, table=[(1, "5D 6D 7D 8D")], down=[1], turn=0)
    err = assert_illegal(game, LayOff(0, card("9D"), 0, "high"), "once you are down")
    assert "down" in str(err)
    assert cards("9D KS") == game.hands[0]


@pytest.mark.parametrize("action", [
    Discard(0, Card(99)), LayOff(0, Card(0), 0, "high"), ReplaceWild(0, Card(-1), 0),
    GoDown(0, (MeldSpec("set", (Card(7), Card(23), Card(200))), MeldSpec("set", cards("8H 8S 8D")))),
    GoDown(0, (MeldSpec("pair", tuple(cards("7H 7S 7D"))),  # type: ignore[arg-type]
               MeldSpec("set", tuple(cards("8H 8S 8D"))))),
])
def test_an_action_naming_no_card_is_refused(action: Action) -> None:
    """001 "Rank of Cards A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2" and "Every deck should have 2 jokers."
    — anything else named as a card (or a meld that is neither a set nor a run) is an illegal action,
    not a crash."""
    game = rig(new_game("may-i"), hands={0: "7H 7S 7D 8H 8S 8D 5C"}, table=[(1, "5D 6D 7D 8D")], down=[0, 1],
               turn=0)
    assert_illegal(game, action, "not a card|set or a run")


@pytest.mark.parametrize(("name", "needed"), [("isra", 3), ("may-i", 2), ("contract-10", 2)])
def test_a_buy_needs_its_penalty_cards_and_the_draw_in_the_stock(name: str, needed: int) -> None:
    """000 "If they have priority to buy the card, they can then take it - but must draw TWO ADDITIONAL
    PENALTY CARDS from the face down STACK."; 001 "The player who gets the "May I?" has to draw an
    extra card from the top of the draw pile" — with too few cards in the stock for the penalty and
    the in-turn draw, nobody may buy (decision 17: no reshuffle is made for a buy)."""
    game = rig(new_game(name), turn=1, phase=Phase.DRAW, discards="4S QH", stock_size=needed - 1, dealer=0)
    game.apply(DrawStock(1))
    assert game.phase == Phase.PLAY and game.buy_window is None
    game = rig(new_game(name), turn=1, phase=Phase.DRAW, discards="4S QH", stock_size=needed, dealer=0)
    game.apply(DrawStock(1))
    assert game.phase == Phase.BUY
    game.apply(Buy(game.to_act()[0]))
    assert game.stock == [] and game.phase == Phase.PLAY
    assert_conserved(game)
