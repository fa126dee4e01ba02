"""Property tests over random games of every preset and player count.

Invariants checked (DEVELOPERS.md): no card is ever created or lost, every legal action applies,
every illegal one raises and changes nothing, replaying a record reproduces the same states and
scores, and every game ends.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shanghai.cards import ALL_NATURALS, JOKER, make_pack
from shanghai.engine import (
    Buy,
    CallShanghai,
    Cut,
    Discard,
    DrawStock,
    Game,
    GoDown,
    LayOff,
    Pass,
    Phase,
    ReplaceWild,
    TakeDiscard,
)
from shanghai.engine.record import GameRecord
from shanghai.engine.view import view
from shanghai.errors import IllegalActionError
from shanghai.melds import check_run, check_set
from shanghai.rules import PRESETS, preset

CASES = [(name, n) for name, rules in PRESETS.items()
         for n in range(rules.min_players, rules.max_players + 1)]
OPTION_CASES = [("may-i", ("no-split",)), ("may-i", ("aces-high",)), ("may-i", ("shanghai-call",)),
                ("may-i-10", ("no-split", "aces-high", "shanghai-call"))]


def full_pack(game: Game) -> Counter[int]:
    spec = game.rules.pack_for(game.players)
    return Counter(make_pack(spec.decks, spec.jokers))


def choose(game: Game, rng: random.Random) -> object:
    """A random player that takes progress, choosing from the acting seat's view only."""
    seat = game.to_act()[0]
    legal = view(game, seat).legal
    assert legal, f"seat {seat} has no legal action in phase {game.phase}"
    progress = [a for a in legal if isinstance(a, GoDown | LayOff)]
    return rng.choice(progress or list(legal))


def random_illegal_candidates(game: Game, rng: random.Random, k: int) -> list[object]:
    """Random actions of every kind whose legality legal_actions decides completely."""
    seats = list(range(game.players))
    cards = [*ALL_NATURALS, JOKER]
    melds = list(range(len(game.table) + 1))
    out: list[object] = []
    for _ in range(k):
        s = rng.choice(seats)
        kind = rng.randrange(9)
        if kind == 0:
            out.append(Cut(s, rng.randrange(-2, game.pack_size + 2)))
        elif kind == 1:
            out.append(DrawStock(s))
        elif kind == 2:
            out.append(TakeDiscard(s))
        elif kind == 3:
            out.append(Buy(s))
        elif kind == 4:
            out.append(Pass(s))
        elif kind == 5:
            out.append(LayOff(s, rng.choice(cards), rng.choice(melds), rng.choice([None, "low", "high"])))
        elif kind == 6:
            out.append(ReplaceWild(s, rng.choice(cards), rng.choice(melds)))
        elif kind == 7:
            hand = game.hands[s]
            card = rng.choice(hand) if hand and rng.random() < 0.7 else rng.choice(cards)
            out.append(Discard(s, card, rng.random() < 0.2))
        else:
            out.append(CallShanghai(s, rng.choice(melds), rng.choice([None, "low", "high"])))
    return out


def assert_valid(game: Game) -> None:
    """Every legal action keeps the state valid: legal melds on the table, limits respected."""
    rules = game.rules
    for tm in game.table:
        again = (check_set(tm.meld.cards, rules, rank=tm.meld.rank or None) if tm.meld.kind == "set"
                 else check_run(tm.meld.cards, rules))
        assert again.cards == tm.meld.cards and again.kind == tm.meld.kind
        assert game.down[tm.owner], "a meld belongs to a player who is down"
    if not game.is_over:
        assert all(b <= game.buy_limit for b in game.buys_used)
        assert game.to_act(), "somebody must be able to act"
        # Only a player whose freed wild is still to be laid off may hold no card for a moment.
        assert all(h or (s == game.turn and game.pending_wild is not None)
                   for s, h in enumerate(game.hands)) or game.phase == Phase.CUT


def play_checked(name: str, players: int, seed: int, options: tuple[str, ...] = (), *,
                 probe_every: int = 1, max_actions: int | None = None) -> Game:
    rules = preset(name, options)
    game = Game.new(rules, players, seed)
    pack = full_pack(game)
    rng = random.Random(seed)
    steps = 0
    while not game.is_over and (max_actions is None or steps < max_actions):
        assert Counter(game.all_cards()) == pack, "a card was created or lost"
        assert_valid(game)
        legal = list(game.legal_actions())
        assert legal
        if steps % probe_every == 0:
            # Every listed action applies (a sample of them, on copies).
            for action in rng.sample(legal, min(3, len(legal))):
                trial = game.copy()
                trial.apply(action)
                assert Counter(trial.all_cards()) == pack
            # Actions not listed (of the kinds the list covers completely) raise and change nothing.
            before = game.snapshot()
            listed = set(legal)
            for action in random_illegal_candidates(game, rng, 6):
                if action in listed:
                    continue
                with pytest.raises(IllegalActionError):
                    game.apply(action)  # type: ignore[arg-type]
                assert game.snapshot() == before
        game.apply(choose(game, rng))  # type: ignore[arg-type]
        steps += 1
    assert Counter(game.all_cards()) == pack
    return game


@pytest.mark.parametrize(("name", "players"), CASES)
def test_whole_game_ends_conserves_cards_and_replays(name: str, players: int) -> None:
    game = play_checked(name, players, seed=1000 + players, probe_every=7)
    assert game.is_over and game.phase == Phase.GAME_OVER
    assert len(game.round_results) == len(game.rules.rounds)
    assert game.totals == [sum(r.points[s] for r in game.round_results) for s in range(players)]
    record = GameRecord.from_jsonl(GameRecord.of(game).to_jsonl())
    again = record.replay()
    assert again.snapshot() == game.snapshot()
    assert again.totals == game.totals


@pytest.mark.parametrize(("name", "options"), OPTION_CASES)
def test_options_play_to_the_end(name: str, options: tuple[str, ...]) -> None:
    game = play_checked(name, 4, seed=77, options=options, probe_every=5)
    assert game.is_over
    assert GameRecord.from_jsonl(GameRecord.of(game).to_jsonl()).replay().snapshot() == game.snapshot()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**32 - 1))
def test_random_stretches_of_play(case: tuple[str, int], seed: int) -> None:
    name, players = case
    game = play_checked(name, players, seed, max_actions=250)
    # Replaying the record reproduces the state exactly, at any point of the game.
    record = GameRecord.from_jsonl(GameRecord.of(game).to_jsonl())
    assert record.replay().snapshot() == game.snapshot()


def test_views_never_show_other_hands_or_the_stock() -> None:
    game = Game.new(preset("isra"), 4, seed=5)
    rng = random.Random(5)
    for _ in range(400):
        if game.is_over:
            break
        for seat in range(4):
            v = view(game, seat)
            assert v.hand == tuple(game.hands[seat]) or game.is_over
            fields = {f for f in type(v).__slots__}  # type: ignore[attr-defined]
            assert "stock" not in fields and "hands" not in fields
            assert v.hand_counts == tuple(len(h) for h in game.hands)
        spectator = view(game, None)
        assert spectator.hand == () and spectator.legal == ()
        game.apply(choose(game, rng))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["isra", "may-i", "family-10", "contract-10"])
def test_a_game_ends_whatever_the_players_do(name: str) -> None:
    """Decision 25: seats that always take the first legal action (taking every discard, so never
    drawing from the stock) still finish: the round ends after max_turns_per_round turns."""
    rules = preset(name).changed(max_turns_per_round=200)
    game = Game.new(rules, 4, seed=7)
    steps = 0
    while not game.is_over:
        game.apply(next(iter(game.legal_actions())))
        steps += 1
        assert steps < 20_000
    assert any(r.went_out is None for r in game.round_results)  # the guard did end a round
    assert len(game.round_results) == len(rules.rounds)
