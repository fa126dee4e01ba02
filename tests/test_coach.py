"""The coach: a legal action with a one-line reason in every phase, and an error off turn."""

from __future__ import annotations

import dataclasses

import pytest

from helpers import new_game
from shanghai.bots.coach import Advice, advise
from shanghai.bots.expert import ExpertPlayer
from shanghai.bots.random_player import RandomPlayer
from shanghai.bots.registry import make_opponent, strongest_player
from shanghai.bots.search import SearchPlayer
from shanghai.engine.actions import Discard, DrawStock, GoDown, TakeDiscard
from shanghai.engine.game import Game, Phase
from shanghai.engine.view import view
from shanghai.rules import preset


def _advice_by_phase(game: Game, limit: int, follow: bool = True) -> dict[Phase, list[Advice]]:
    """Play ``game`` asking the coach at every decision; the seats follow the advice (or, with
    ``follow`` false, play at random, which opens more kinds of windows)."""
    seen: dict[Phase, list[Advice]] = {}
    players = [RandomPlayer(s) for s in range(game.players)]
    for _ in range(limit):
        if game.is_over:
            break
        seat = game.to_act()[0]
        v = view(game, seat)
        tip = advise(v, seed=seat)
        assert tip.action in v.legal, (tip, v.legal)
        assert tip.reason and "\n" not in tip.reason, tip
        seen.setdefault(v.phase, []).append(tip)
        game.apply(tip.action if follow else players[seat].choose(v))
    return seen


def test_every_phase_gets_legal_advice_with_a_reason() -> None:
    seen = _advice_by_phase(new_game("isra", 4, seed=2), 400)
    assert {Phase.CUT, Phase.DRAW, Phase.BUY, Phase.PLAY} <= set(seen)
    verbs = {str(t.action).split()[1] for tips in seen.values() for t in tips}
    assert {"cut", "draw", "discard", "down"} <= verbs


def test_shanghai_call_and_family_flow() -> None:
    shanghai = _advice_by_phase(Game.new(preset("may-i", ["shanghai-call"]), 4, 3), 150, False)
    assert Phase.SHANGHAI in shanghai
    family = _advice_by_phase(Game.new(preset("family-10"), 3, 4), 600)
    assert Phase.BUY in family


def test_advice_is_the_strongest_players_choice_and_reproducible() -> None:
    game = new_game("isra-junior", 4, seed=6)
    players = [ExpertPlayer(s) for s in range(4)]
    for _ in range(60):
        seat = game.to_act()[0]
        game.apply(players[seat].choose(view(game, seat)))
    seat = game.to_act()[0]
    v = view(game, seat)
    assert advise(v, seed=3) == advise(v, seed=3)
    assert advise(v, seed=3).action == strongest_player(3).choose(v)
    assert isinstance(strongest_player(3), SearchPlayer)
    assert type(make_opponent("expert", 3)) is SearchPlayer  # level expert is the coach's player


def test_advice_says_what_the_search_found_where_it_leaves_the_experts_choice() -> None:
    game = new_game("isra", 4, seed=5)
    players = [ExpertPlayer(s) for s in range(4)]
    found = []
    while not game.is_over and len(found) < 3:
        seat = game.to_act()[0]
        v = view(game, seat)
        if seat == 0:
            tip = advise(v, seed=7)
            if "deals of the cards you cannot see" in tip.reason:
                found.append(tip)
        game.apply(players[seat].choose(v))
    assert len(found) == 3, "the search should leave the expert's choice now and then"
    for tip in found:
        # "discard 8C: over 3 deals of the cards you cannot see it came out about 4.5 points
        # ahead of discard 10C": the advised action first, the expert's own choice last
        assert isinstance(tip.action, Discard | DrawStock | TakeDiscard | GoDown), tip
        head, rest = tip.reason.split(": over ", 1)
        other = rest.rsplit(" ahead of ", 1)[1]
        assert head != other
        if isinstance(tip.action, Discard):
            assert head == "discard " + str(tip.action).split()[2]


def test_discard_advice_names_the_card() -> None:
    game = new_game("isra-junior", 4, seed=9)
    players = [ExpertPlayer(s) for s in range(4)]
    while True:
        seat = game.to_act()[0]
        v = view(game, seat)
        if v.phase == Phase.PLAY and all(isinstance(a, Discard) for a in v.legal):
            break
        game.apply(players[seat].choose(v))
    tip = advise(v)
    assert isinstance(tip.action, Discard)
    assert tip.reason.startswith("discard ") and str(tip.action).split()[2] in tip.reason


def test_no_advice_off_turn() -> None:
    game = new_game("isra", 4, seed=1)
    seat = game.to_act()[0]
    idle = (seat + 1) % 4
    with pytest.raises(ValueError, match="no legal action"):
        advise(view(game, idle))
    with pytest.raises(ValueError):
        advise(dataclasses.replace(view(game, seat), legal=()))
